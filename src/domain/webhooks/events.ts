import type { Shipment } from "../../generated/prisma/client";
import { shipmentName } from "../shipments/shipment-id";
import type { TrackingDocument } from "../tracking/model";

export const SUBSCRIBABLE_EVENTS = [
  "shipment.updated",
  "shipment.vessel_arrived",
  "shipment.arrived",
  "eta.changed",
  "discovery.recovered",
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
export type WebhookEventName = SubscribableEvent | "webhook.test";

export interface DomainEvent {
  event: WebhookEventName;
  data: Record<string, unknown>;
}

/** What the shipment row knew before the new document: the other side of the comparison. */
export type ShipmentFacts = Pick<Shipment, "status" | "eta" | "ata">;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * Domain events for one organisation's shipment, from what its row knew to what the new document
 * says (spec v1 section 6). Per shipment, so every organisation tracking a reference gets its own
 * events exactly once, whoever's fetch brought the change. Order: arrival of the vessel, ETA, then
 * status (delivered last).
 */
export function shipmentEvents(
  before: ShipmentFacts,
  after: TrackingDocument,
  shipment: { number: bigint; reference: string; carrierScac: string | null },
): DomainEvent[] {
  const eta = after.route.pod.instant;
  const ata = after.ata;
  const base = {
    shipment_id: shipmentName(shipment.number),
    reference_number: shipment.reference,
    carrier: shipment.carrierScac ?? after.carrierScac,
    status: after.status,
    previous_status: before.status,
    eta: iso(eta),
    previous_eta: iso(before.eta),
    ata: iso(ata),
  };
  const events: DomainEvent[] = [];
  if (!before.ata && ata) events.push({ event: "shipment.vessel_arrived", data: base });
  const etaMoved = iso(before.eta) !== iso(eta) && eta !== null && !(before.ata && ata);
  if (etaMoved && before.eta !== null) events.push({ event: "eta.changed", data: base });
  if (before.status !== after.status) {
    events.push({
      event: after.status === "DELIVERED" ? "shipment.arrived" : "shipment.updated",
      data: base,
    });
  }
  return events;
}
