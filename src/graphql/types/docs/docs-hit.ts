import type { DocHit } from "../../../domain/docs-search/docs-index";
import { builder } from "../../builder";
import { DocsHitKindEnum } from "./docs-hit-kind";

export const DocsHitRef = builder.objectRef<DocHit>("DocsHit").implement({
  description: "A passage of the API documentation that matches a search.",
  fields: (t) => ({
    kind: t.field({ type: DocsHitKindEnum, resolve: (h) => h.kind }),
    source: t.exposeString("source", {
      description: "The file, e.g. docs/decisions/README.md or schema.graphql.",
    }),
    title: t.exposeString("title", { description: "Heading path, or the type or operation documented." }),
    anchor: t.exposeString("anchor", {
      description: "Heading anchor, type name or operation within the source.",
    }),
    excerpt: t.exposeString("excerpt", {
      description: "The most relevant passage, about 320 characters at most.",
    }),
    score: t.exposeFloat("score", { description: "Relevance (BM25); comparable within one answer only." }),
  }),
});
