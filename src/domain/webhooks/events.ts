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

/**
 * What each event means, in the words a person choosing subscriptions reads: the one catalogue the
 * GraphQL enum, the `webhookEvents` query and every surface take their descriptions from.
 */
export const EVENT_DESCRIPTIONS: Record<WebhookEventName, string> = {
  "shipment.updated": "The status changed (other than to delivered).",
  "shipment.vessel_arrived": "The vessel arrived at the port of discharge (the arrival newly set).",
  "shipment.arrived": "The status became DELIVERED.",
  "eta.changed": "The arrival at the port of discharge moved (never on the first one).",
  "discovery.recovered": "Carrier discovery found the carrier of a reference no carrier had found.",
  "webhook.test": "A test delivery, about no shipment.",
};

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
