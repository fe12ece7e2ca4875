import { z } from "zod";
import { builder } from "../../builder";
import { UPSTREAM_CALL_PER_ITEM } from "../../limits";
import { TRACK_RESULT_MEMBERS } from "../tracking/track-result";
import { TrackBatchRef } from "./track-batch";
import { TrackItemInput } from "./track-item-input";

const TrackBatchResultRef = builder.unionType("TrackBatchResult", {
  types: [TrackBatchRef, TRACK_RESULT_MEMBERS.payment_overdue],
  resolveType: (v) => ("results" in (v as object) ? TrackBatchRef : TRACK_RESULT_MEMBERS.payment_overdue),
});

builder.mutationFields((t) => ({
  trackBatch: t.withAuth({ $all: { developerMode: true, writableKey: true } }).field({
    extensions: UPSTREAM_CALL_PER_ITEM("items"),
    type: TrackBatchResultRef,
    nullable: true,
    description: "Tracks 1 to 50 references in parallel; each item has its own outcome.",
    args: {
      items: t.arg({
        type: [TrackItemInput],
        required: true,
        validate: z.array(z.unknown()).min(1, "at least one item").max(50, "at most 50 items"),
      }),
    },
    resolve: async (_r, { items }, ctx) => {
      const p = ctx.principal;
      const result = await ctx.services.tracking.trackBatch(
        p,
        items.map((i) => ({ reference: i.number, type: i.type, carrier: i.sealine ?? undefined })),
      );
      if (result.kind === "payment_overdue") return result;
      if (result.interrupted.length > 0) {
        ctx.services.logger.warn(
          {
            requestId: ctx.requestId,
            items: items.length,
            saved: result.results.length,
            interrupted: result.interrupted,
          },
          "Bulk tracking wrapped up for a shutdown: interrupted items were not saved",
        );
      }
      return {
        results: result.results,
        interrupted: result.interrupted,
        slots: await ctx.services.slots.usage(p.organization),
      };
    },
  }),
}));
