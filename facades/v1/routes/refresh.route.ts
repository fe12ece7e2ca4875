import { answerFor } from "../../../src/http/outcomes";
import type { FacadeDeps } from "../../facade";
import { RefreshShipmentDocument } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";
import { renderTrackOutcome, sendTrackFailure, v1BaseOf } from "./tracking.route";

/**
 * POST /shipments/{id}/refresh: the core's `refreshShipment`, which alone decides whether the refresh
 * limits allow it now (the dashboard's "Refresh now" runs the same mutation). A refusal's status and
 * wait come from the outcome table; the carrier's new answer is rendered like GET /container/{number}.
 */
export function mountRefreshRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("refreshShipment", async (req, res) => {
    const result = await deps.run(req, RefreshShipmentDocument, { id: String(req.params.id) });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.refreshShipment!;
    switch (outcome.__typename) {
      case "ShipmentNotFound":
        return sendV1Error(res, "shipment_not_found", {
          message: "This organisation does not track that shipment.",
        });
      case "RefreshNotAllowed": {
        const refusal = answerFor("RefreshShipmentResult", {
          __typename: outcome.__typename,
          reason: outcome.refusalReason,
          retryAfterSeconds: outcome.waitSeconds,
        });
        if (refusal.kind !== "refusal") throw new Error("RefreshNotAllowed has no refusal row");
        return sendV1Error(res, refusal.outcome, {
          message: outcome.explanation,
          ...(outcome.refusalReason === "too_soon"
            ? {
                retryAfter: refusal.retryAfterSeconds,
                data: {
                  retryAfter: refusal.retryAfterSeconds,
                  next_refresh_eligible_at: outcome.nextRefreshEligibleAt,
                },
              }
            : { data: { reason: outcome.refusalReason } }),
        });
      }
      default: {
        const tracked = renderTrackOutcome(deps, outcome, v1BaseOf(req));
        if (!tracked.ok) return sendTrackFailure(res, tracked);
        res.setHeader("X-Service-Refresh-Hint", tracked.refreshHint);
        res.json({ success: true, data: tracked.data });
      }
    }
  });
}
