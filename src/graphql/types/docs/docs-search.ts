import { fileURLToPath } from "node:url";
import { z } from "zod";
import { projectDocsIndex } from "../../../domain/docs-search/doc-sources";
import type { DocHit } from "../../../domain/docs-search/docs-index";
import { builder } from "../../builder";
import { DocsHitRef } from "./docs-hit";

const PROJECT_ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const MAX_HITS = 20;

const DocsSearchRef = builder
  .objectRef<{ query: string; hits: DocHit[]; sections: number }>("DocsSearch")
  .implement({
    fields: (t) => ({
      query: t.exposeString("query"),
      sectionsSearched: t.exposeInt("sections", { description: "Sections in the index." }),
      hits: t.field({ type: [DocsHitRef], extensions: { listSize: MAX_HITS }, resolve: (s) => s.hits }),
    }),
  });

builder.queryFields((t) => ({
  apiDocs: t.field({
    type: DocsSearchRef,
    nullable: true,
    description:
      "Searches Quayside's own API documentation (README, docs/, the GraphQL schema and the OpenAPI document when present), best passages first.",
    authScopes: { developerMode: true },
    args: {
      query: t.arg.string({
        required: true,
        validate: z.string().trim().min(2, "query needs at least 2 characters").max(200),
      }),
      limit: t.arg.int({
        required: false,
        defaultValue: 5,
        validate: z.number().int().min(1).max(MAX_HITS, `limit is at most ${MAX_HITS}`),
      }),
    },
    resolve: async (_r, { query, limit }, ctx) => {
      const index = await projectDocsIndex(PROJECT_ROOT, ctx.services.openApiDocument);
      return { query, hits: index.search(query, limit ?? 5), sections: index.size };
    },
  }),
}));
