import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { CarrierUnavailableReasonEnum } from "../carriers/carrier-unavailable-reason";
import { ReferenceTypeEnum } from "./reference-type";

export const CarrierUnavailableRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "carrier_unavailable" }>>("CarrierUnavailable")
  .implement({
    description: "The named carrier is under maintenance, disabled, or does not resolve this reference type.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      scac: t.exposeString("scac"),
      // Not `reason`: CarrierDown.reason is free text, and one name with two types across the
      // members of TrackResult could not be selected together.
      cause: t.field({ type: CarrierUnavailableReasonEnum, resolve: (o) => o.reason }),
    }),
  });
