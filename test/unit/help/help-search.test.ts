import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadProjectDocs } from "../../../src/domain/docs-search/doc-sources";
import { parseHelpArticle, projectHelpIndex } from "../../../src/domain/help/help-index";
import { HELP_QUESTIONS } from "./help-questions";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

describe("help articles", () => {
  it("each has a title, tags, an audience and a summary in its front matter", async () => {
    const index = await projectHelpIndex(ROOT);
    const files = readdirSync(`${ROOT}/docs/help`).filter((f) => f.endsWith(".md"));
    expect(index.size).toBe(files.length);
    expect(index.size).toBeGreaterThanOrEqual(10);
    for (const article of index.articles) {
      expect(article.title.length, article.slug).toBeGreaterThan(5);
      expect(article.tags.length, article.slug).toBeGreaterThan(2);
      expect(article.summary.length, article.slug).toBeGreaterThan(20);
      expect(article.body, article.slug).not.toMatch(/^---/);
    }
  });

  it("refuses an article without a title", () => {
    expect(() => parseHelpArticle("untitled", "---\ntags: [a]\n---\n# Body")).toThrow(/no title/);
    expect(parseHelpArticle("x", '---\ntitle: "A: b"\ntags: [one, two]\n---\nBody')).toMatchObject({
      title: "A: b",
      tags: ["one", "two"],
      body: "Body",
      path: "docs/help/x.md",
    });
  });
});

describe("help search", () => {
  it("puts the expected article in the top three for at least 17 of 20 fixed questions", async () => {
    const index = await projectHelpIndex(ROOT);
    const misses: string[] = [];
    for (const [question, slug] of HELP_QUESTIONS) {
      const top = index.query(question, 3).map((hit) => hit.slug);
      if (!top.includes(slug)) misses.push(`${question} -> ${top.join(", ")} (expected ${slug})`);
    }
    expect(HELP_QUESTIONS).toHaveLength(20);
    expect(misses.length, misses.join("\n")).toBeLessThanOrEqual(3);
  });

  it("answers the matching paragraph as the snippet, best article first", async () => {
    const index = await projectHelpIndex(ROOT);
    const [best] = index.query("verify webhook signature", 5);
    expect(best).toMatchObject({ slug: "webhooks", path: "docs/help/webhooks.md" });
    expect(best!.snippet).toMatch(/X-Service-Signature|HMAC/);
    expect(best!.snippet.length).toBeLessThanOrEqual(280);
    expect(index.query("zzqx wwvv", 5)).toEqual([]);
  });
});

describe("API documentation search", () => {
  it("keeps to the API documents: no help article is among its sections", async () => {
    const sections = await loadProjectDocs(ROOT);
    expect(sections.some((s) => s.source.startsWith("docs/decisions/"))).toBe(true);
    expect(sections.filter((s) => s.source.startsWith("docs/help/"))).toEqual([]);
  });
});
