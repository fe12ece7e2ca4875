import { LOOKUP_SURFACES } from "../../../domain/history/tracking-history.service";
import { builder } from "../../builder";

export const LookupSurfaceEnum = builder.enumType("LookupSurface", {
  description:
    "Where a logged call came from: an API surface (compat, v1, graphql, mcp) or a background job.",
  values: LOOKUP_SURFACES,
});
