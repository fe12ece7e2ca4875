import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { ReferenceTypeEnum } from "./reference-type";

export const CarrierDownRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "carrier_down" }>>("CarrierDown")
  .implement({
    description: "The carrier could not be reached and nothing is stored for the reference.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      scac: t.exposeString("scac"),
      reason: t.exposeString("reason"),
      retryAfterSeconds: t.exposeInt("retryAfterSeconds"),
    }),
  });
