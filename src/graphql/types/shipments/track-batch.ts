import type { SlotUsage } from "../../../domain/tracking/slots.service";
import type { TrackBatchOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { SlotUsageRef } from "../usage/slot-usage";
import { TrackBatchItemRef } from "./track-batch-item";

export const TrackBatchRef = builder
  .objectRef<Pick<TrackBatchOutcome, "results" | "interrupted"> & { slots: SlotUsage }>("TrackBatch")
  .implement({
    fields: (t) => ({
      results: t.field({
        type: [TrackBatchItemRef],
        extensions: { listSize: 50 },
        description: "One outcome per item, in request order; an interrupted item has none.",
        resolve: (b) => b.results,
      }),
      interrupted: t.exposeIntList("interrupted", {
        description:
          "Indexes of items the service stopped before saving (a shutdown): nothing was written for them; send them again.",
      }),
      slots: t.field({ type: SlotUsageRef, resolve: (b) => b.slots }),
    }),
  });
