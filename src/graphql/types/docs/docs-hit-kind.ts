import { builder } from "../../builder";

export const DocsHitKindEnum = builder.enumType("DocsHitKind", {
  description: "Which documentation a passage comes from.",
  values: {
    guide: { description: "The README and docs/." },
    graphql: { description: "The printed GraphQL schema." },
    openapi: { description: "The REST description (OpenAPI)." },
  } as const,
});
