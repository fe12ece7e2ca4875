import type { FacadeDeps } from "../../facade";
import {
  RetryFailedDocument,
  ShareShipmentDocument,
  ShipmentReadDocument,
  type ShipmentReadQuery,
  ShipmentsDeltaDocument,
  ShipmentsPageDocument,
  UnshareShipmentDocument,
  UntrackShipmentDocument,
  UpdateShipmentDocument,
} from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { renderedJsonOf } from "../render/rendered-json";
import { renderShipmentSummary, shipmentSummariesJson } from "../render/shipment-summary";
import { renderTerminalRecord } from "../render/terminal-record";
import { renderTables, routeJson } from "../render/tracking-document";
import { sendFeatureGate, sendV1Data, sendV1Error } from "../respond";
import { renderTrackOutcome, sendTrackFailure, v1BaseOf } from "./tracking.route";

/** GET /shipments/{id}: stored data only, no carrier call, no slot (spec v1 section 4.1 rule 4). */
export function mountShipmentRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("listShipments", async (req, res, { query }) => {
    const { page, pageSize, updated_since, cursor } = query;
    if (cursor !== undefined && updated_since === undefined) {
      return sendV1Error(res, "bad_request", {
        message: "cursor continues a delta page: send it with updated_since (the page's next_updated_since).",
        data: { param: "cursor" },
      });
    }
    if (updated_since !== undefined) {
      // Delta mode supersedes pagination.
      const result = await deps.run(req, ShipmentsDeltaDocument, {
        since: new Date(updated_since).toISOString(),
        after: cursor ?? null,
      });
      if (!result.ok) {
        return sendV1Error(res, result.outcome, {
          message: result.message,
          ...(result.outcome === "bad_request" && cursor !== undefined ? { data: { param: "cursor" } } : {}),
        });
      }
      const delta = result.data.shipmentsUpdatedSince!;
      // The rows as JSON text straight from the result (issue 37 item 4): no object per row.
      return sendV1Data(
        res,
        {
          updated_since: delta.updatedSince,
          count: delta.count,
          has_more: delta.hasMore,
          next_updated_since: delta.nextUpdatedSince,
          next_cursor: delta.nextCursor,
        },
        shipmentSummariesJson(delta.items),
      );
    }
    const result = await deps.run(req, ShipmentsPageDocument, { page, pageSize });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const list = result.data.shipments!;
    sendV1Data(
      res,
      { total: list.total, page: list.page, pageSize: list.pageSize },
      shipmentSummariesJson(list.items),
    );
  });

  api.on("retryFailed", async (req, res, { body }) => {
    const result = await deps.run(
      req,
      RetryFailedDocument,
      body.shipment_ids ? { shipmentIds: body.shipment_ids } : {},
    );
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const run = result.data.retryFailedShipments!;
    if (run.retryAfterSeconds !== null) {
      return sendV1Error(res, "retry_failed_too_soon", {
        data: { retryAfter: run.retryAfterSeconds },
        retryAfter: run.retryAfterSeconds,
      });
    }
    res.status(202).json({
      success: true,
      examined: run.examined,
      queued: run.queued,
      skipped: run.skipped,
      ...(run.skippedReason ? { skipped_reason: run.skippedReason } : {}),
    });
  });

  api.on("updateShipment", async (req, res, { params, body }) => {
    if (body.reference_number !== undefined) {
      return sendV1Error(res, "bad_request", {
        message: "reference_number cannot be changed; untrack the shipment and track the right number.",
        data: { param: "reference_number" },
      });
    }
    const { carrier, type, customer } = body;
    if (carrier === undefined && type === undefined && customer === undefined) {
      return sendV1Error(res, "bad_request", {
        message: "Send at least one of carrier, type, customer.",
        data: { param: "body" },
      });
    }
    const result = await deps.run(req, UpdateShipmentDocument, {
      id: params.id,
      ...(carrier !== undefined ? { carrier } : {}),
      ...(type !== undefined ? { type } : {}),
      ...(customer !== undefined ? { customer } : {}),
    });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.updateShipment!;
    switch (outcome.__typename) {
      case "ShipmentUpdated":
        return void res.json({
          success: true,
          data: renderShipmentSummary(outcome.shipment),
          ...(outcome.unchanged ? { unchanged: true } : {}),
          ...(outcome.stillFailed ? { still_failed: true } : {}),
        });
      case "ShipmentNotFound":
        return sendV1Error(res, "shipment_not_found", {
          message: "No shipment of yours with that id.",
        });
      case "PlanRequired":
      case "FeatureDisabled":
        return sendFeatureGate(
          res,
          "UpdateShipmentResult",
          outcome,
          (minPlan) => `Customers start with the ${minPlan} plan.`,
        );
      case "CustomerLimitReached":
        return sendV1Error(res, "customer_limit_reached", { data: { limit: outcome.limit } });
      default: {
        const refused = renderTrackOutcome(deps, outcome, v1BaseOf(req));
        if (!refused.ok) return sendTrackFailure(res, refused);
      }
    }
  });

  api.on("untrackShipment", async (req, res, { params }) => {
    const result = await deps.run(req, UntrackShipmentDocument, { id: params.id });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.untrackShipment!;
    if (outcome.__typename !== "ShipmentUntracked") {
      return sendV1Error(res, "shipment_not_found", {
        message: "No shipment of yours with that id.",
      });
    }
    res.json({ success: true, deleted: true, shipment_id: outcome.shipmentId });
  });

  api.on("shareShipment", async (req, res, { params }) => {
    const result = await deps.run(req, ShareShipmentDocument, { id: params.id });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const shared = result.data.shareShipment!;
    if (shared.__typename === "ShipmentNotShareable")
      return sendV1Error(res, "shipment_not_shareable", { message: shared.message });
    if (shared.__typename !== "ShareLink") {
      return sendV1Error(res, "shipment_not_found", {
        message: "No shipment of this organisation with that id.",
      });
    }
    res.status(shared.created ? 201 : 200).json({
      success: true,
      data: {
        shipment_id: shared.shipmentId,
        token: shared.token,
        url: `${deps.baseUrl}${shared.path}`,
        created_at: shared.createdAt,
        created: shared.created,
      },
    });
  });

  api.on("unshareShipment", async (req, res, { params }) => {
    const result = await deps.run(req, UnshareShipmentDocument, { id: params.id });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const outcome = result.data.unshareShipment!;
    if (outcome.__typename !== "ShareRevoked") {
      return sendV1Error(res, "shipment_not_found", {
        message: "No shipment of this organisation with that id.",
      });
    }
    res.json({ success: true, revoked: (outcome.revoked ?? 0) > 0, shipment_id: outcome.shipmentId });
  });

  api.on("readShipment", async (req, res, { params, query }) => {
    const full = query.include === "full";
    const result = await deps.run(req, ShipmentReadDocument, { id: params.id, full });
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const shipment = result.data.shipment;
    if (!shipment) {
      return sendV1Error(res, "shipment_not_found", {
        message: "This organisation does not track that shipment.",
      });
    }
    // A kept answer's shipment is the same object on every hit: rendered and serialised once.
    const data = renderedJsonOf(shipment, full ? "full" : "summary", () => ({
      ...renderShipmentSummary(shipment),
      terminal: renderTerminalRecord(shipment.terminal),
      discovery: shipment.discoveryStatus ? { status: shipment.discoveryStatus } : null,
      ...(full ? renderFull(shipment) : {}),
    }));
    sendV1Data(res, {}, data);
  });
}

function renderFull(shipment: NonNullable<ShipmentReadQuery["shipment"]>) {
  const view = shipment.document;
  if (!view) {
    return {
      document: null,
      cached_at: null,
      mode: "stored",
      hint: shipment.failed
        ? "No carrier has found this reference yet, so nothing is stored. Track it again with ?sealine=SCAC."
        : "Nothing is stored for this shipment yet; GET /api/v1/container/{number} or /bl/{number} fetches it.",
    };
  }
  const tables = renderTables(view);
  return {
    document: {
      events_table: tables.events_table,
      containers_table: tables.containers_table,
      vessels_table: tables.vessels_table,
      locations_table: tables.locations_table,
      voyage_plan_table: tables.voyage_plan_table,
      route_json: routeJson(view),
      last_position: view.position ? { latitude: view.position.lat, longitude: view.position.lng } : null,
    },
    cached_at: view.fetchedAt,
    mode: "stored",
  };
}
