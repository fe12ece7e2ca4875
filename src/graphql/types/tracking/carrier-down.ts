import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { CarrierFailureKindEnum } from "./carrier-failure-kind";
import { ReferenceTypeEnum } from "./reference-type";

export const CarrierDownRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "carrier_down" }>>("CarrierDown")
  .implement({
    description: "The carrier could not be reached and nothing is stored for the reference.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      scac: t.exposeString("scac"),
      failure: t.field({ type: CarrierFailureKindEnum, resolve: (o) => o.failure }),
      reason: t.exposeString("reason", { description: "The failure in words (lower case)." }),
      retryAfterSeconds: t.exposeInt("retryAfterSeconds"),
    }),
  });
