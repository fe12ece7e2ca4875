import type { BoardItem, CongestionHistoryItem } from "../../../domain/congestion/congestion.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { CongestionComponentRef } from "./congestion-component";
import { CongestionHistoryPointRef } from "./congestion-history-point";
import { CongestionStoppageRef } from "./congestion-stoppage";

/** A reading; the per-port read carries its history, a board row does not (its history is loaded). */
export type PortCongestionView = BoardItem & { history?: CongestionHistoryItem[] };

export const PortCongestionRef = builder.objectRef<PortCongestionView>("PortCongestion").implement({
  description:
    "A port's newest congestion reading, computed ahead of requests from Quayside's own signals (AIS anchorage waits, tracked boxes' dwell, ETA slips, arrivals against the carriers' schedules, arrival bunching); check computedAt for its freshness.",
  fields: (t) => ({
    locode: t.exposeString("locode"),
    name: t.exposeString("name"),
    country: t.exposeString("country"),
    score: t.exposeInt("score", { description: "0 (fluid) to 100 (critical)." }),
    bucket: t.exposeString("bucket", {
      description: "fluid 0-29, normal 30-59, moderate 60-74, high 75-89, critical 90-100.",
    }),
    tier: t.exposeString("tier", { description: "Data sufficiency: A, B or C (C shrunk toward 50)." }),
    trend7d: t.exposeFloat("trend7d", { description: "Points since 7 days before; positive is worse." }),
    vesselsWaiting: t.exposeInt("vesselsWaiting", {
      description: "Vessels at anchor for more than 3 hours for this port now.",
    }),
    medianAnchorageWaitH: t.exposeFloat("medianAnchorageWaitH", {
      nullable: true,
      description: "Median hours of waits over 3 h in the last 7 days; null (never 0) when nobody waited.",
    }),
    longestWaitDays: t.exposeFloat("longestWaitDays", {
      nullable: true,
      description: "Longest wait running now, else the longest of the last 7 days; null (never 0) when none.",
    }),
    computedAt: t.field({ type: "DateTime", resolve: (r) => r.computedAt }),
    lat: t.exposeFloat("lat"),
    lng: t.exposeFloat("lng"),
    raisedBy: t.field({
      type: [CongestionStoppageRef],
      extensions: LIST_SIZE(10),
      description:
        "The reported closures or strikes that raised the score above what the port's queue alone reads (the score is then their floor: 90 at severity 4, 75 at 3); empty when the score is the queue's own. The components stay what was measured.",
      resolve: (r) => r.raisedBy,
    }),
    components: t.field({
      type: [CongestionComponentRef],
      extensions: LIST_SIZE(5),
      resolve: (r) => r.components,
    }),
    history: t.field({
      type: [CongestionHistoryPointRef],
      extensions: LIST_SIZE(90),
      description: "Up to 90 daily readings, oldest first.",
      resolve: async (r, _args, ctx) => {
        if (r.history) return r.history;
        const outcome = await ctx.services.congestion.reading(r.locode);
        return outcome.kind === "scored" ? outcome.reading.history : [];
      },
    }),
  }),
});
