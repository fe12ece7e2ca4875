import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { DiscoveryIneligibilityEnum } from "../shipments/discovery-ineligibility";
import { ReferenceTypeEnum } from "./reference-type";

export const CarrierUndetectableRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "no_candidates" }>>("CarrierUndetectable")
  .implement({
    description: "No carrier could be placed for the reference; name the carrier.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      discoveryReason: t.field({
        type: DiscoveryIneligibilityEnum,
        // Nullable only so that it reads alike with ReferenceNotFound.discoveryReason in one selection.
        nullable: true,
        description: "Always no_candidates: with no carrier to ask, there is none to discover either.",
        resolve: () => "no_candidates" as const,
      }),
    }),
  });
