import type { FacadeDeps } from "../../facade";
import {
  PortCongestionBoardDocument,
  PortCongestionDocument,
  type PortCongestionFieldsFragment,
} from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendFeatureGate, sendV1Error } from "../respond";

/**
 * A board item of spec v1 section 2.8; `calls_30d` is deprecated and carries `vessels_waiting`.
 * `raised_by` names the reported closures or strikes that raised the score (docs/decisions/congestion.md).
 */
const renderBoardItem = (p: PortCongestionFieldsFragment) => ({
  locode: p.locode,
  name: p.name,
  country: p.country,
  score: p.score,
  bucket: p.bucket,
  tier: p.tier,
  trend_7d: p.trend7d,
  vessels_waiting: p.vesselsWaiting,
  calls_30d: p.vesselsWaiting,
  computed_at: p.computedAt,
  lat: p.lat,
  lng: p.lng,
  raised_by: p.raisedBy,
});

const planRequired = (minPlan: string) => `Port congestion starts with the ${minPlan} plan.`;

/** GET /ports/congestion and /ports/{locode}/congestion (spec v1 section 2.8, rule 9). */
export function mountCongestionRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("portCongestionBoard", async (req, res) => {
    const result = await deps.run(req, PortCongestionBoardDocument, {});
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.portCongestionBoard!;
    switch (outcome.__typename) {
      case "PortCongestionBoard":
        return void res.json({
          success: true,
          total: outcome.total,
          data: outcome.items.map(renderBoardItem),
        });
      case "PlanRequired":
      case "FeatureDisabled":
        return sendFeatureGate(res, "PortCongestionBoardOutcome", outcome, planRequired);
    }
  });

  api.on("portCongestion", async (req, res, { params }) => {
    const result = await deps.run(req, PortCongestionDocument, { locode: params.locode });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.portCongestion!;
    switch (outcome.__typename) {
      case "PortCongestion": {
        const { calls_30d: _deprecated, ...item } = renderBoardItem(outcome);
        return void res.json({
          success: true,
          data: {
            ...item,
            median_anchorage_wait_h: outcome.medianAnchorageWaitH,
            longest_wait_days: outcome.longestWaitDays,
            components: outcome.components,
            history: outcome.history,
          },
        });
      }
      case "PortNotScored":
        // Not scored is a real answer: never a score of 0 (docs/decisions/congestion.md).
        return void res.json({
          success: true,
          data: {
            locode: outcome.locode,
            name: outcome.name,
            country: outcome.country,
            score: null,
            bucket: null,
            tier: null,
            trend_7d: null,
            vessels_waiting: null,
            median_anchorage_wait_h: null,
            longest_wait_days: null,
            computed_at: null,
            lat: outcome.portLat,
            lng: outcome.portLng,
            raised_by: [],
            components: [],
            history: [],
          },
        });
      case "PortNotFound":
        return sendV1Error(res, "port_not_found", { data: { locode: outcome.locode } });
      case "PlanRequired":
      case "FeatureDisabled":
        return sendFeatureGate(res, "PortCongestionOutcome", outcome, planRequired);
    }
  });
}
