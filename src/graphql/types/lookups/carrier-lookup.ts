import type { CarrierLookupOutcome } from "../../../domain/lookups/carrier-lookup.service";
import { builder } from "../../builder";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { CarrierLookupCandidateRef } from "./carrier-lookup-candidate";
import { CarrierLookupSourceEnum, carrierLookupSourceOf } from "./carrier-lookup-source";
import { LookupAllowanceRef } from "./lookup-allowance";

export type CarrierLookupAnswer = Extract<CarrierLookupOutcome, { kind: "result" }>;

export const CarrierLookupRef = builder.objectRef<CarrierLookupAnswer>("CarrierLookup").implement({
  description: "Which carrier a reference belongs to (v1 section 2.11). Creates no shipment and no slot.",
  fields: (t) => ({
    reference: t.string({ resolve: (o) => o.result.reference }),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.result.referenceType }),
    carrier: t.field({
      type: CarrierLookupCandidateRef,
      nullable: true,
      description:
        "The strongest candidate, whatever its confidence; null exactly when there is no candidate.",
      resolve: (o) => o.result.carrier,
    }),
    candidates: t.field({ type: [CarrierLookupCandidateRef], resolve: (o) => o.result.candidates }),
    sourcesUnavailable: t.field({
      type: [CarrierLookupSourceEnum],
      description:
        "Sources that failed or took longer than 3 seconds. Non-empty with a null carrier: a degraded answer, retry later.",
      resolve: (o) => o.result.sourcesUnavailable.map(carrierLookupSourceOf),
    }),
    cached: t.boolean({
      description: "A repeat lookup served from the cache (free).",
      resolve: (o) => o.result.cached,
    }),
    allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
  }),
});
