import { z } from "zod";
import { McpDocsSearchDocument } from "../../generated/operations";
import { answer, defineTool, refusalOf } from "../tool";

const KINDS = ["guide", "graphql", "openapi"] as const;

const output = z.object({
  query: z.string(),
  sectionsSearched: z.number().int().describe("Sections of documentation in the index"),
  results: z
    .array(
      z.object({
        title: z.string().describe("Heading path, or the GraphQL type or operation documented"),
        kind: z
          .enum(KINDS)
          .describe("guide: README and docs/; graphql: the schema; openapi: the REST description"),
        source: z.string().describe("The file, e.g. docs/decisions/README.md or schema.graphql"),
        anchor: z.string().describe("Heading anchor, type name or operation within the source"),
        excerpt: z.string().describe("The most relevant passage"),
        score: z.number().describe("Relevance; comparable within one answer only"),
      }),
    )
    .describe("Best first"),
});

export const searchApiDocs = defineTool({
  name: "search_api_docs",
  title: "Search the API documentation",
  description:
    "Searches Quayside's own API documentation (the README, the decisions and guides under docs/, the GraphQL schema, and the OpenAPI description when there is one) and answers the best passages with where they are. Use it for how an endpoint, field, limit or error works.",
  input: z.object({
    query: z
      .string()
      .trim()
      .min(2, "at least 2 characters")
      .max(200)
      .describe("Words to look for, e.g. rate limit headers, or shipment slots"),
    limit: z.number().int().min(1).max(20).optional().describe("Passages to answer, 1 to 20 (default 5)"),
  }),
  output,
  async call({ query, limit }, context) {
    const result = await context.run(McpDocsSearchDocument, { query, limit: limit ?? 5 });
    if (!result.ok) return refusalOf(result);
    const docs = result.data.apiDocs!;
    return answer({
      query: docs.query,
      sectionsSearched: docs.sectionsSearched,
      results: docs.hits.map((h) => ({
        title: h.title,
        kind: h.kind,
        source: h.source,
        anchor: h.anchor,
        excerpt: h.excerpt,
        score: h.score,
      })),
    });
  },
});
