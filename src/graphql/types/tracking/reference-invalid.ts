import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { ReferenceTypeEnum } from "./reference-type";

export const ReferenceInvalidRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "invalid_reference" }>>("ReferenceInvalid")
  .implement({
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      reason: t.exposeString("reason"),
      message: t.exposeString("message"),
    }),
  });
