import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { TrackResultRef } from "../tracking/track-result";

export const TrackBatchItemRef = builder
  .objectRef<{ index: number; outcome: TrackOutcome }>("TrackBatchItem")
  .implement({
    fields: (t) => ({
      index: t.exposeInt("index"),
      result: t.field({ type: TrackResultRef, resolve: (i) => i.outcome }),
    }),
  });
