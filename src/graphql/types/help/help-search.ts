import { fileURLToPath } from "node:url";
import { z } from "zod";
import { type HelpHit, projectHelpIndex } from "../../../domain/help/help-index";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { HelpHitRef } from "./help-hit";

const PROJECT_ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const MAX_HITS = 10;

const HelpSearchRef = builder
  .objectRef<{ query: string; hits: HelpHit[]; articles: number }>("HelpSearch")
  .implement({
    fields: (t) => ({
      query: t.exposeString("query"),
      articlesSearched: t.exposeInt("articles", { description: "Help articles in the index." }),
      results: t.field({
        type: [HelpHitRef],
        description: "Best first.",
        extensions: LIST_SIZE(MAX_HITS),
        resolve: (s) => s.hits,
      }),
    }),
  });

builder.queryFields((t) => ({
  searchHelp: t.field({
    type: HelpSearchRef,
    description:
      "Searches Quayside's help articles (docs/help: getting started, the APIs, webhooks, sandbox, MCP set-up, carriers, limits, troubleshooting), best first. For the API reference itself use apiDocs.",
    // Help is for every key, developer mode or not: it explains how to switch it on.
    authScopes: (_p, _a, ctx) => ctx.principal !== null,
    args: {
      query: t.arg.string({
        required: true,
        validate: z
          .string()
          .trim()
          .min(2, "query needs at least 2 characters")
          .max(200, "query is at most 200 characters"),
      }),
      limit: t.arg.int({
        required: false,
        defaultValue: 5,
        validate: z
          .number()
          .int()
          .min(1, "limit is at least 1")
          .max(MAX_HITS, `limit is at most ${MAX_HITS}`),
      }),
    },
    resolve: async (_r, { query, limit }) => {
      const index = await projectHelpIndex(PROJECT_ROOT);
      return { query, hits: index.query(query, limit ?? 5), articles: index.size };
    },
  }),
}));
