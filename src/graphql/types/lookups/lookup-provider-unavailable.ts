import type { AllowanceState } from "../../../domain/lookups/lookup-allowance";
import { builder } from "../../builder";
import { LookupAllowanceRef } from "./lookup-allowance";

export const LookupProviderUnavailableRef = builder
  .objectRef<{ reason: string; allowance: AllowanceState }>("LookupProviderUnavailable")
  .implement({
    description: "No source could answer now; the lookup was given back to the allowance. Retry in a minute.",
    fields: (t) => ({
      reason: t.exposeString("reason"),
      retryAfterSeconds: t.int({ resolve: () => 60 }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });
