import type { DcsaEquipmentEvent } from "../../simulator/dcsa-types";
import { eventsFor, knownShipments, shipmentFor } from "../../simulator/world/world";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A one-box MSC shipment of the simulator's world carried on by truck beyond its port of discharge,
 * discharged after `start`: its container number and the discharge's instant.
 */
export function truckedOnBox(start: string): { number: string; discharged: number } {
  let tried = 0;
  for (const shipment of knownShipments("MSCU", new Date(start))) {
    if (++tried > 3_000) break;
    if (shipment.cancelled || shipment.containers.length !== 1) continue;
    if (shipment.plan.destination?.mode !== "TRUCK") continue;
    const number = shipment.containers[0]!.equipmentReference;
    const disc = eventsFor(shipment, new Date(shipment.completesAt.getTime() + DAY), {
      equipmentReference: number,
    }).find(
      (e): e is DcsaEquipmentEvent =>
        e.eventType === "EQUIPMENT" &&
        e.eventClassifierCode === "ACT" &&
        e.equipmentEventTypeCode === "DISC" &&
        e.eventLocation.UNLocationCode === shipment.portOfDischarge.unLocode,
    );
    if (!disc || Date.parse(disc.eventDateTime) < Date.parse(start)) continue;
    const at = Date.parse(disc.eventDateTime);
    if (shipmentFor("MSCU", number, "equipment", new Date(at + HOUR))?.key !== shipment.key) continue;
    return { number, discharged: at };
  }
  throw new Error("no discharged one-box MSC shipment carried on by truck in the simulator world");
}
