import type { AllowanceState } from "../../../domain/lookups/lookup-allowance";
import { builder } from "../../builder";
import { LookupAllowanceKindEnum } from "./lookup-allowance-kind";

/**
 * A daily lookup allowance: what the REST facade turns into `X-Lookup-*` headers and what MCP tools
 * report; the rules live in the lookup services.
 */
export const LookupAllowanceRef = builder.objectRef<AllowanceState>("LookupAllowance").implement({
  description:
    "A key's daily lookup allowance after this answer (UTC-day windows). Absent from answers served from the cache, which cost nothing.",
  fields: (t) => ({
    kind: t.field({
      type: LookupAllowanceKindEnum,
      resolve: (a) => (a.kind === "carrier" ? "CARRIER" : "VESSEL_SCHEDULE"),
    }),
    limit: t.exposeInt("limit", { description: "Lookups a day." }),
    remaining: t.exposeInt("remaining"),
    resetAt: t.field({ type: "DateTime", description: "The next UTC midnight.", resolve: (a) => a.resetAt }),
    resetAtEpochSeconds: t.int({
      description: "resetAt in unix seconds (the X-Lookup-Reset header).",
      resolve: (a) => Math.floor(a.resetAt.getTime() / 1000),
    }),
    retryAfterSeconds: t.exposeInt("retryAfterSeconds"),
  }),
});
