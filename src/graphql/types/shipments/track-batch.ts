import type { SlotUsage } from "../../../domain/tracking/slots.service";
import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { SlotUsageRef } from "../usage/slot-usage";
import { TrackBatchItemRef } from "./track-batch-item";

export const TrackBatchRef = builder
  .objectRef<{ outcomes: TrackOutcome[]; slots: SlotUsage }>("TrackBatch")
  .implement({
    fields: (t) => ({
      results: t.field({
        type: [TrackBatchItemRef],
        extensions: { listSize: 50 },
        resolve: (b) => b.outcomes.map((outcome, index) => ({ index, outcome })),
      }),
      slots: t.field({ type: SlotUsageRef, resolve: (b) => b.slots }),
    }),
  });
