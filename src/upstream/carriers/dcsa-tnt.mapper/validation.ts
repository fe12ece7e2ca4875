/**
 * Validation details.
 */
import { parseDcsaDateTime } from "../dcsa-datetime";
import type { DcsaShipmentEvent } from "../dcsa-tnt.schema";
import type { MappingRun, ShipmentFact } from "./mapping-run";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readEventId(id: unknown, index: number, run: MappingRun): string | null {
  if (id === undefined || id === null) return null;
  if (typeof id !== "string" || id.trim() === "") {
    run.warn(`event ${index}: eventID is not a string; kept without an id`);
    return null;
  }
  if (!UUID.test(id)) run.warn(`event ${index}: eventID ${JSON.stringify(id)} is not a UUID`);
  return id.trim();
}

/** The same eventID twice is one event sent twice; the newer record wins. */
export function dropRepeatedEventIds<T extends { index: number; createdMs: number; eventId: string | null }>(
  list: T[],
  run: MappingRun,
): T[] {
  const newest = new Map<string, T>();
  for (const v of list) {
    if (v.eventId === null) continue;
    const seen = newest.get(v.eventId);
    if (seen === undefined || v.createdMs >= seen.createdMs) newest.set(v.eventId, v);
  }
  return list.filter((v) => {
    if (v.eventId === null || newest.get(v.eventId) === v) return true;
    run.warn(`event ${v.index}: eventID ${v.eventId} repeated; the newer record was kept`);
    return false;
  });
}

export function shipmentFact(e: DcsaShipmentEvent, createdMs: number): ShipmentFact {
  const at = e.eventDateTime ? parseDcsaDateTime(e.eventDateTime) : null;
  return {
    code: e.shipmentEventTypeCode,
    documentTypeCode: e.documentTypeCode,
    atMs: at?.instantMs ?? createdMs,
    createdMs,
  };
}
