import type { Router } from "express";
import { z } from "zod";
import { type FacadeDeps, handler, runOperation } from "../../facade";
import { renderShipmentSummary, type ShipmentRecord } from "../render/shipment-summary";
import { renderTables } from "../render/tracking-document";
import { sendV1Error } from "../respond";

const readQuery = z.object({ include: z.enum(["full"]).optional() });

/** GET /shipments/{id}: stored data only, no carrier call, no slot (spec v1 section 4.1 rule 4). */
export function mountShipmentRoutes(router: Router, deps: FacadeDeps): void {
  router.get(
    "/shipments/:id",
    handler(async (req, res) => {
      const query = readQuery.safeParse(req.query);
      if (!query.success) {
        return sendV1Error(res, "bad_request", {
          message: "include accepts only 'full'.",
          data: { param: "include" },
        });
      }
      const result = await runOperation<{ shipment: ShipmentRecord | null }>(deps, req, "ShipmentRead", {
        id: String(req.params.id),
      });
      if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
      const shipment = result.data.shipment;
      if (!shipment) {
        return sendV1Error(res, "not_found", {
          message: "This organisation does not track that shipment.",
          data: { error: "shipment_not_found" },
        });
      }
      res.json({
        success: true,
        data: {
          ...renderShipmentSummary(shipment),
          // Terminal data (holds, availability) has no source yet: null until it exists.
          terminal: null,
          ...(query.data.include === "full" ? renderFull(shipment) : {}),
        },
      });
    }),
  );
}

function renderFull(shipment: ShipmentRecord) {
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
  const tables = renderTables(view.content);
  return {
    document: {
      events_table: tables.events_table,
      containers_table: tables.containers_table,
      vessels_table: tables.vessels_table,
      locations_table: tables.locations_table,
      voyage_plan_table: tables.voyage_plan_table,
      route_json: JSON.stringify(view.routePoints),
      last_position: view.position ? { latitude: view.position.lat, longitude: view.position.lng } : null,
    },
    cached_at: view.fetchedAt,
    mode: "stored",
  };
}
