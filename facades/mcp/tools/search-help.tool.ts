import { z } from "zod";
import { McpHelpSearchDocument } from "../../generated/operations";
import { answer, defineTool, refusalOf } from "../tool";

const output = z.object({
  query: z.string(),
  articlesSearched: z.number().int().describe("Help articles in the index"),
  results: z
    .array(
      z.object({
        slug: z.string().describe("The article's name, e.g. webhooks"),
        title: z.string(),
        summary: z.string().describe("What the article answers, in one sentence"),
        snippet: z.string().describe("The paragraph that best matches the query"),
        path: z.string().describe("Where the article is in the repository, e.g. docs/help/webhooks.md"),
        score: z.number().describe("Relevance; comparable within one answer only"),
      }),
    )
    .describe("Best first"),
});

export const searchHelp = defineTool({
  name: "search_help",
  title: "Search the help articles",
  description:
    "Searches Quayside's help articles (getting started, the v1, SeaRates-compatible and GraphQL APIs, webhooks and their signatures, the sandbox, connecting AI assistants over MCP, carriers and data freshness, limits and plans, reports, troubleshooting) and answers the best articles with the passage that matches. Use it for how-to questions; use search_api_docs for the exact reference of an endpoint or field.",
  input: z.object({
    query: z
      .string()
      .trim()
      .min(2, "at least 2 characters")
      .max(200)
      .describe("A question or words, e.g. how do I verify a webhook signature"),
    limit: z.number().int().min(1).max(10).optional().describe("Articles to answer, 1 to 10 (default 5)"),
  }),
  output,
  async call({ query, limit }, context) {
    const result = await context.run(McpHelpSearchDocument, { query, limit: limit ?? 5 });
    if (!result.ok) return refusalOf(result);
    const help = result.data.searchHelp;
    return answer({
      query: help.query,
      articlesSearched: help.articlesSearched,
      results: help.results.map((r) => ({
        slug: r.slug,
        title: r.title,
        summary: r.summary,
        snippet: r.snippet,
        path: r.path,
        score: r.score,
      })),
    });
  },
});
