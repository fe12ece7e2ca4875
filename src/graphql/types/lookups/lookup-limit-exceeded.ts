import type { AllowanceState } from "../../../domain/lookups/lookup-allowance";
import { builder } from "../../builder";
import { LookupAllowanceRef } from "./lookup-allowance";

export const LookupLimitExceededRef = builder
  .objectRef<{ allowance: AllowanceState }>("LookupLimitExceeded")
  .implement({
    description:
      "The key's daily allowance for this kind of lookup is spent; it resets at the next UTC midnight.",
    fields: (t) => ({
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
      retryAfterSeconds: t.int({
        description: "Seconds until the allowance resets (the next UTC midnight), at least 1.",
        resolve: (o) => o.allowance.retryAfterSeconds,
      }),
      message: t.string({
        resolve: (o) =>
          o.allowance.kind === "carrier"
            ? `The daily carrier lookup allowance of ${o.allowance.limit} is used up.`
            : `The daily vessel and schedule lookup allowance of ${o.allowance.limit} is used up.`,
      }),
    }),
  });
