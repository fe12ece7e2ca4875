import type { LookupCandidate } from "../../../domain/lookups/carrier-lookup";
import { builder } from "../../builder";
import { CarrierStatusEnum } from "../carriers/carrier-status";
import { CarrierLookupSourceEnum, carrierLookupSourceOf } from "./carrier-lookup-source";
import { LookupConfidenceEnum } from "./lookup-confidence";

export const CarrierLookupCandidateRef = builder
  .objectRef<LookupCandidate>("CarrierLookupCandidate")
  .implement({
    fields: (t) => ({
      scac: t.exposeString("scac"),
      name: t.exposeString("name"),
      slug: t.exposeString("slug"),
      status: t.field({
        type: CarrierStatusEnum,
        description: "active or maintenance: a disabled carrier is never a candidate.",
        resolve: (c) => c.status,
      }),
      confidence: t.field({ type: LookupConfidenceEnum, resolve: (c) => c.confidence }),
      source: t.field({ type: CarrierLookupSourceEnum, resolve: (c) => carrierLookupSourceOf(c.source) }),
    }),
  });
