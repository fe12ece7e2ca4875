import { OUTCOMES } from "../../../src/http/outcomes";
import type { FacadeDeps } from "../../facade";
import { TrackBatchDocument } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { SHIPMENT_TYPE } from "../render/tracking-document";
import { sendV1Error } from "../respond";
import { renderTrackOutcome, sendTrackFailure, v1BaseOf } from "./tracking.route";

/** POST /track: 1 to 50 items; only auth, rate limit, a malformed body or billing past grace refuse it whole. */
export function mountBulkRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("trackBulk", async (req, res, { body }) => {
    const items = body.shipments;
    const result = await deps.run(req, TrackBatchDocument, {
      items: items.map((i) => ({ type: i.type, number: i.number, sealine: i.sealine })),
    });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const batch = result.data.trackBatch!;
    if (batch.__typename === "PaymentOverdue") {
      const refused = renderTrackOutcome(deps, batch, v1BaseOf(req));
      if (!refused.ok) return sendTrackFailure(res, refused);
      return;
    }
    const common = (index: number) => {
      const item = items[index]!;
      return { index, number: item.number, type: SHIPMENT_TYPE[item.type] };
    };
    const answered = batch.results.map(({ index, result: outcome }) => {
      const rendered = renderTrackOutcome(deps, outcome, v1BaseOf(req));
      return rendered.ok
        ? { ...common(index), ok: true, slot_consumed: rendered.slotConsumed, data: rendered.data }
        : { ...common(index), ok: false, error: rendered.error, message: rendered.message, ...rendered.data };
    });
    // Items a shutdown stopped before they were saved: nothing was written, so sending them again is safe.
    const stopping = OUTCOMES.service_stopping;
    const interrupted = batch.interrupted.map((index) => ({
      ...common(index),
      ok: false,
      error: stopping.v1.error,
      message: stopping.sentence,
      retryAfter: stopping.retryAfterSeconds,
    }));
    const results = [...answered, ...interrupted].sort((a, b) => a.index - b.index);
    const tracked = results.filter((r) => r.ok).length;
    res.json({
      success: true,
      total: results.length,
      tracked,
      failed: results.length - tracked,
      slots: batch.slots,
      results,
    });
  });
}
