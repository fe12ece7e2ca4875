import { secondsUntilCycleEnd } from "../../../domain/tracking/billing-cycle";
import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";

export const ShipmentLimitReachedRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "shipment_limit_reached" }>>("ShipmentLimitReached")
  .implement({
    fields: (t) => ({
      limit: t.exposeInt("limit"),
      used: t.exposeInt("used"),
      cycleEnd: t.expose("cycleEnd", { type: "DateTime" }),
      retryAfterSeconds: t.int({
        description: "Seconds until the cycle ends and new slots open: the Retry-After of this refusal.",
        resolve: (o, _a, ctx) => secondsUntilCycleEnd(o.cycleEnd, ctx.services.clock.now()),
      }),
    }),
  });
