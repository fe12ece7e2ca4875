import type { CarrierLookupOutcome } from "../../../domain/lookups/carrier-lookup.service";
import { builder } from "../../builder";
import { UPSTREAM_CALL } from "../../limits";
import { type CarrierLookupAnswer, CarrierLookupRef } from "./carrier-lookup";
import { LookupInputInvalidRef } from "./lookup-input-invalid";
import { LookupLimitExceededRef } from "./lookup-limit-exceeded";
import { LookupReferenceTypeEnum } from "./lookup-reference-type";

const MEMBERS = {
  result: CarrierLookupRef,
  invalid_reference: LookupInputInvalidRef,
  limit_exceeded: LookupLimitExceededRef,
} as const;

type CarrierLookupValue =
  | CarrierLookupAnswer
  | { kind: "invalid_reference"; param: string; message: string }
  | Extract<CarrierLookupOutcome, { kind: "limit_exceeded" }>;

const CarrierLookupOutcomeRef = builder.unionType("CarrierLookupOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as CarrierLookupValue).kind],
});

builder.queryFields((t) => ({
  carrierLookup: t.withAuth({ developerMode: true }).field({
    extensions: UPSTREAM_CALL,
    type: CarrierLookupOutcomeRef,
    nullable: true,
    description:
      "Resolves the carrier of a container or bill-of-lading number with the evidence for each candidate. A repeat within the hour is served from the cache and costs nothing; otherwise one carrier lookup of the key's daily allowance.",
    args: {
      number: t.arg.string({ required: true }),
      type: t.arg({
        type: LookupReferenceTypeEnum,
        required: false,
        description: "Inferred when absent: 4 letters and 7 digits is a container.",
      }),
    },
    resolve: async (_root, args, ctx): Promise<CarrierLookupValue> => {
      const outcome = await ctx.services.lookups.carrierLookups.lookup(ctx.principal, {
        number: args.number,
        type: args.type ?? undefined,
      });
      if (outcome.kind === "invalid_reference") {
        return { kind: "invalid_reference", param: "number", message: outcome.message };
      }
      return outcome;
    },
  }),
}));
