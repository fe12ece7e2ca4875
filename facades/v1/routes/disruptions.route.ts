import type { FacadeDeps } from "../../facade";
import {
  type DisruptionFieldsFragment,
  DisruptionReadDocument,
  DisruptionsDocument,
  ShipmentDisruptionsDocument,
} from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendFeatureGate, sendV1Error } from "../respond";

/** The disruption object of spec v1 section 2.12 (field names: docs/decisions/disruptions.md). */
export const renderDisruption = (d: DisruptionFieldsFragment) => ({
  id: d.id,
  severity: d.severity,
  category: d.category,
  status: d.status,
  headline: d.headline,
  summary: d.summary,
  entities: {
    ports: d.entities.ports,
    carriers: d.entities.carriers,
    countries: d.entities.countries,
    chokepoints: d.entities.chokepoints,
  },
  sources: d.sources.map((s) => ({
    publisher: s.publisher,
    headline: s.headline,
    link: s.link,
    published_at: s.publishedAt,
  })),
  first_seen: d.firstSeen,
  last_updated: d.lastUpdated,
  resolved_at: d.resolvedAt,
  // Absent, not zero, where the plan does not include it.
  ...(d.affected ? { affected: { count: d.affected.count, references: d.affected.references } } : {}),
});

const planRequired = (minPlan: string) => `Disruptions start with the ${minPlan} plan.`;

/** GET /disruptions, /disruptions/{id}, /shipments/{id}/disruptions (spec v1 section 4.1 rule 10). */
export function mountDisruptionRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("listDisruptions", async (req, res, { query: q }) => {
    const result = await deps.run(req, DisruptionsDocument, {
      severity: q.severity === undefined ? undefined : Number(q.severity),
      category: q.category,
      port: q.port,
      carrier: q.carrier,
      country: q.country,
      status: q.status,
      since: q.since,
      page: q.page === undefined ? undefined : Number(q.page),
      pageSize: q.page_size === undefined ? undefined : Number(q.page_size),
    });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.disruptions;
    switch (answer.__typename) {
      case "DisruptionPage":
        return void res.json({
          success: true,
          total: answer.total,
          page: answer.page,
          page_size: answer.pageSize,
          data: answer.items.map(renderDisruption),
        });
      case "DisruptionFilterInvalid":
        return sendV1Error(res, "bad_request", { message: answer.message, data: { param: answer.param } });
      default:
        return sendFeatureGate(res, "DisruptionsOutcome", answer, planRequired);
    }
  });

  api.on("readDisruption", async (req, res, { params }) => {
    const result = await deps.run(req, DisruptionReadDocument, { id: params.id });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.disruption;
    switch (answer.__typename) {
      case "Disruption":
        return void res.json({ success: true, data: renderDisruption(answer) });
      case "DisruptionNotFound":
        return sendV1Error(res, "disruption_not_found");
      default:
        return sendFeatureGate(res, "DisruptionOutcome", answer, planRequired);
    }
  });

  api.on("shipmentDisruptions", async (req, res, { params }) => {
    const result = await deps.run(req, ShipmentDisruptionsDocument, { id: params.id });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const answer = result.data.shipmentDisruptions;
    switch (answer.__typename) {
      case "ShipmentDisruptions":
        return void res.json({
          success: true,
          shipment_id: answer.shipmentId,
          reference: answer.reference,
          data: answer.items.map((item) => ({
            ...renderDisruption(item.disruption),
            match_types: item.matchTypes,
          })),
        });
      case "ShipmentNotFound":
        return sendV1Error(res, "shipment_not_found", { message: "No shipment of yours with that id." });
      default:
        return sendFeatureGate(res, "ShipmentDisruptionsOutcome", answer, planRequired);
    }
  });
}
