import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import MiniSearch from "minisearch";
import { parse as parseYaml } from "yaml";

/**
 * The help articles (`docs/help/*.md`, each with YAML front matter: title, tags, audience, summary),
 * indexed with MiniSearch for the dashboard's help box (GraphQL `searchHelp`) and MCP `search_help`.
 * A separate index from the API documentation search (`docs-search`), which never sees these articles:
 * help answers "how do I", the API search answers "what exactly does this field do".
 */
export interface HelpArticle {
  /** The file name without `.md`, e.g. `webhooks`. */
  slug: string;
  title: string;
  tags: string[];
  audience: string;
  summary: string;
  /** The Markdown after the front matter. */
  body: string;
  /** Where it is in the repository, e.g. `docs/help/webhooks.md`. */
  path: string;
}

export interface HelpHit {
  slug: string;
  title: string;
  summary: string;
  tags: string[];
  path: string;
  /** The paragraph that best matches the query, at most about 280 characters. */
  snippet: string;
  /** MiniSearch's relevance; comparable within one answer only. */
  score: number;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const SNIPPET_CHARS = 280;

/** Pure: an article from its file's text; a file without a title in its front matter is refused. */
export function parseHelpArticle(slug: string, text: string): HelpArticle {
  const match = FRONT_MATTER.exec(text);
  const meta = (match ? parseYaml(match[1]!) : {}) as Record<string, unknown> | null;
  const title = typeof meta?.title === "string" ? meta.title : null;
  if (!title) throw new Error(`docs/help/${slug}.md has no title in its front matter`);
  const tags = Array.isArray(meta?.tags) ? meta.tags.map(String) : [];
  return {
    slug,
    title,
    tags,
    audience: typeof meta?.audience === "string" ? meta.audience : "everyone",
    summary: typeof meta?.summary === "string" ? meta.summary : "",
    body: match ? text.slice(match[0].length) : text,
    path: `docs/help/${slug}.md`,
  };
}

// "quayside" too: every article is about it, so it tells none apart.
const STOP_WORDS = new Set(
  "quayside a an and are as at be by can do does doing for from get got have how i in into is it its me my of on or our should so the their them there this to use using what when where which who why will with you your".split(
    " ",
  ),
);

/** Lower case, stop words out, a plural's `s` off: "webhooks" finds "webhook", "How do I" finds nothing. */
export function helpTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  if (lower.length > 4 && lower.endsWith("ies")) return `${lower.slice(0, -3)}y`;
  if (lower.length > 3 && lower.endsWith("s") && !/(ss|us|is)$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

const words = (text: string) =>
  (text.match(/[\p{L}\p{N}_]+/gu) ?? []).map(helpTerm).filter((t): t is string => t !== null);

function plain(markdown: string): string {
  return markdown
    .replace(/^#+\s*/gm, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** Paragraphs and headings of Markdown, split at blank lines; fenced code blocks left out whole. */
function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.trim() === "") flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

/**
 * The paragraph sharing most words with the query, its section's heading counted with it (the summary
 * when none does), shortened. Code blocks, tables and headings alone are never the snippet.
 */
export function snippetOf(article: HelpArticle, query: string): string {
  const wanted = [...new Set(words(query))];
  let best = article.summary;
  let bestScore = 0;
  let heading = "";
  for (const block of proseBlocks(article.body)) {
    const title = /^(#+)\s+(.+)$/.exec(block.trim());
    if (title) {
      // The article's own title (level 1) is every paragraph's: it tells none apart.
      heading = title[1]!.length > 1 ? title[2]! : "";
      continue;
    }
    if (/^\s*\|/.test(block)) continue;
    const text = plain(block);
    if (text.length < 20) continue;
    // Query words covered first, then how often they occur: a paragraph naming every word beats one
    // repeating a single word.
    const hits = words(`${heading} ${text}`).filter((w) => wanted.some((q) => w.startsWith(q)));
    const covered = wanted.filter((q) => hits.some((w) => w.startsWith(q))).length;
    const score = covered * 1000 + hits.length;
    if (score > bestScore) {
      best = text;
      bestScore = score;
    }
  }
  return best.length > SNIPPET_CHARS ? `${best.slice(0, SNIPPET_CHARS - 1).trimEnd()}…` : best;
}

export class HelpIndex {
  private readonly search: MiniSearch<HelpArticle & { id: string; tagText: string }>;
  private readonly bySlug: Map<string, HelpArticle>;

  constructor(readonly articles: readonly HelpArticle[]) {
    this.bySlug = new Map(articles.map((a) => [a.slug, a]));
    this.search = new MiniSearch({
      idField: "id",
      fields: ["title", "tagText", "summary", "body"],
      processTerm: helpTerm,
      searchOptions: {
        boost: { title: 3, tagText: 2, summary: 1.5, body: 1 },
        fuzzy: 0.2,
        prefix: true,
        combineWith: "OR",
      },
    });
    this.search.addAll(articles.map((a) => ({ ...a, id: a.slug, tagText: a.tags.join(" ") })));
  }

  get size(): number {
    return this.articles.length;
  }

  article(slug: string): HelpArticle | null {
    return this.bySlug.get(slug) ?? null;
  }

  query(query: string, limit = 5): HelpHit[] {
    return this.search
      .search(query)
      .slice(0, limit)
      .map((result) => {
        const article = this.bySlug.get(String(result.id))!;
        return {
          slug: article.slug,
          title: article.title,
          summary: article.summary,
          tags: article.tags,
          path: article.path,
          snippet: snippetOf(article, query),
          score: Math.round(result.score * 1000) / 1000,
        };
      });
  }
}

/** Every `*.md` of a folder as an article, in file-name order. */
export async function loadHelpArticles(dir: string): Promise<HelpArticle[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".md")).sort();
  return Promise.all(
    names.map(async (name) =>
      parseHelpArticle(name.slice(0, -3), await readFile(path.join(dir, name), "utf8")),
    ),
  );
}

const built = new Map<string, Promise<HelpIndex>>();

/** The index of a project's help articles, built once per process (the files do not change at run time). */
export function projectHelpIndex(root: string): Promise<HelpIndex> {
  let index = built.get(root);
  if (!index) {
    index = loadHelpArticles(path.join(root, "docs", "help")).then((articles) => new HelpIndex(articles));
    index.catch(() => built.delete(root));
    built.set(root, index);
  }
  return index;
}
