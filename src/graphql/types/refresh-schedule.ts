import { refreshGapMs } from "../../domain/tracking/shipment-facts";
import { builder } from "../builder";

const HOUR_MS = 3_600_000;

/** When a shipment is re-fetched: the gap that applies now and the refresh job's own schedule. */
builder.prismaObjectFields("Shipment", (t) => ({
  refreshGapHours: t.int({
    description:
      "The refresh gap that applies now: 4 hours from 48 hours before the ETA until 7 days after it, else 12.",
    select: { eta: true },
    resolve: (s, _a, ctx) => Math.round(refreshGapMs(s.eta, ctx.services.clock.now()) / HOUR_MS),
  }),
  scheduledRefreshAt: t.expose("nextRefreshAt", {
    type: "DateTime",
    nullable: true,
    description:
      "When the service's own refresh job will next ask the carrier (the gap plus up to 10% spread); null when not scheduled (delivered, cancelled, failed or untracked).",
  }),
}));
