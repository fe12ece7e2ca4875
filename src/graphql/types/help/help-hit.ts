import type { HelpHit } from "../../../domain/help/help-index";
import { builder } from "../../builder";

export const HelpHitRef = builder.objectRef<HelpHit>("HelpHit").implement({
  description: "A help article that matches a search.",
  fields: (t) => ({
    slug: t.exposeString("slug", { description: "The article's name, e.g. webhooks." }),
    title: t.exposeString("title"),
    summary: t.exposeString("summary", { description: "What the article answers, in one sentence." }),
    tags: t.exposeStringList("tags"),
    path: t.exposeString("path", {
      description: "Where the article is in the repository, e.g. docs/help/webhooks.md.",
    }),
    snippet: t.exposeString("snippet", {
      description: "The paragraph that best matches the query, about 280 characters at most.",
    }),
    score: t.exposeFloat("score", { description: "Relevance; comparable within one answer only." }),
  }),
});
