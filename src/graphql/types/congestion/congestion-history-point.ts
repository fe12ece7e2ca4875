import type { CongestionHistoryItem } from "../../../domain/congestion/congestion.service";
import { builder } from "../../builder";

export const CongestionHistoryPointRef = builder
  .objectRef<CongestionHistoryItem>("CongestionHistoryPoint")
  .implement({
    description: "A port's reading of one UTC day.",
    fields: (t) => ({
      date: t.exposeString("date", { description: "YYYY-MM-DD (UTC)." }),
      score: t.exposeInt("score"),
      bucket: t.exposeString("bucket"),
      tier: t.exposeString("tier"),
      vesselsWaiting: t.exposeInt("vessels_waiting"),
      medianAnchorageWaitH: t.exposeFloat("median_anchorage_wait_h", { nullable: true }),
    }),
  });
