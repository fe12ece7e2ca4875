/**
 * A small in-process full-text index over our own API documentation (MCP `search_api_docs`): sections
 * of Markdown guides, of the printed GraphQL schema and of the OpenAPI document, ranked with BM25
 * (title words count three times). No external service: the corpus is a few hundred sections, built
 * once per process in milliseconds.
 */
export type DocKind = "guide" | "graphql" | "openapi";

export interface DocSection {
  kind: DocKind;
  /** Where it comes from: a file path relative to the project, or `schema.graphql`, `openapi.json`. */
  source: string;
  /** Heading path or the operation or type it documents, e.g. "Decisions › Rate limits". */
  title: string;
  /** A link target within the source (a heading anchor, a type name, an operation). */
  anchor: string;
  text: string;
}

export interface DocHit {
  kind: DocKind;
  source: string;
  title: string;
  anchor: string;
  /** The most relevant passage, at most about 320 characters. */
  excerpt: string;
  /** BM25 score; only comparable within one answer. */
  score: number;
}

const K1 = 1.2;
const B = 0.75;
const TITLE_WEIGHT = 3;
const EXCERPT_CHARS = 320;

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it its me my of on or the this to what when where which who why with you your".split(
    " ",
  ),
);

/** Light stemming so that "shipments" finds "shipment" and "limits" finds "limit". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) {
    return word.slice(0, -1);
  }
  return word;
}

/** Words of a text: camelCase and snake_case split (plus the whole identifier), lower-cased, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[A-Za-z0-9][A-Za-z0-9_]*/g) ?? []) {
    const parts = raw
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .split(/[\s_]+/)
      .filter(Boolean);
    const words = parts.length > 1 ? [raw, ...parts] : [raw];
    for (const word of words) {
      const lower = word.toLowerCase();
      if (lower.length < 2 || STOP_WORDS.has(lower)) continue;
      out.push(stem(lower));
    }
  }
  return out;
}

interface Indexed {
  section: DocSection;
  frequencies: Map<string, number>;
  length: number;
}

export class DocsIndex {
  private readonly documents: Indexed[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(sections: readonly DocSection[]) {
    this.documents = sections.map((section) => {
      const frequencies = new Map<string, number>();
      const add = (token: string, weight: number) =>
        frequencies.set(token, (frequencies.get(token) ?? 0) + weight);
      for (const token of tokenize(section.title)) add(token, TITLE_WEIGHT);
      for (const token of tokenize(section.text)) add(token, 1);
      let length = 0;
      for (const n of frequencies.values()) length += n;
      return { section, frequencies, length };
    });
    for (const doc of this.documents) {
      for (const token of doc.frequencies.keys()) {
        this.documentFrequency.set(token, (this.documentFrequency.get(token) ?? 0) + 1);
      }
    }
    this.averageLength =
      this.documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.documents.length);
  }

  get size(): number {
    return this.documents.length;
  }

  /** Sources indexed, with how many sections each gave. */
  sources(): { source: string; kind: DocKind; sections: number }[] {
    const counts = new Map<string, { source: string; kind: DocKind; sections: number }>();
    for (const { section } of this.documents) {
      const entry = counts.get(section.source) ?? { source: section.source, kind: section.kind, sections: 0 };
      entry.sections += 1;
      counts.set(section.source, entry);
    }
    return [...counts.values()];
  }

  search(query: string, limit = 5): DocHit[] {
    const terms = [...new Set(tokenize(query))];
    if (terms.length === 0) return [];
    const n = this.documents.length;
    const phrase = query.trim().toLowerCase();
    const scored: { doc: Indexed; score: number }[] = [];
    for (const doc of this.documents) {
      let score = 0;
      for (const term of terms) {
        const tf = doc.frequencies.get(term);
        if (!tf) continue;
        const df = this.documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.averageLength));
      }
      if (score === 0) continue;
      // The words together, as typed, beat the same words scattered.
      if (
        phrase.includes(" ") &&
        `${doc.section.title}\n${doc.section.text}`.toLowerCase().includes(phrase)
      ) {
        score *= 1.5;
      }
      scored.push({ doc, score });
    }
    scored.sort((a, b) => b.score - a.score || a.doc.section.title.localeCompare(b.doc.section.title));
    return scored.slice(0, limit).map(({ doc, score }) => ({
      kind: doc.section.kind,
      source: doc.section.source,
      title: doc.section.title,
      anchor: doc.section.anchor,
      excerpt: excerpt(doc.section.text, terms),
      score: Math.round(score * 1000) / 1000,
    }));
  }
}

/** The window of the text that holds the most query words, cut at word boundaries. */
export function excerpt(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= EXCERPT_CHARS) return flat;
  const wanted = new Set(terms);
  const hits: number[] = [];
  for (const match of flat.matchAll(/[A-Za-z0-9][A-Za-z0-9_]*/g)) {
    if (tokenize(match[0]).some((t) => wanted.has(t))) hits.push(match.index ?? 0);
  }
  let bestStart = 0;
  let bestCount = 0;
  for (let i = 0; i < hits.length; i++) {
    let count = 0;
    for (let j = i; j < hits.length && hits[j]! - hits[i]! < EXCERPT_CHARS - 40; j++) count++;
    if (count > bestCount) {
      bestCount = count;
      bestStart = hits[i]!;
    }
  }
  let start = Math.max(0, bestStart - 60);
  if (start > 0) {
    const space = flat.indexOf(" ", start);
    start = space === -1 ? start : space + 1;
  }
  let end = Math.min(flat.length, start + EXCERPT_CHARS);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    end = space > start ? space : end;
  }
  return `${start > 0 ? "…" : ""}${flat.slice(start, end)}${end < flat.length ? "…" : ""}`;
}
