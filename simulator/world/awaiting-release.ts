/**
 * One box per carrier that is booked but has not moved yet: assigned to a confirmed booking and still
 * at the depot. The carrier knows the box's booking, so a query for the box is answered, but with the
 * booking's confirmation alone (a DCSA SHIPMENT event, CONF): no move, no vessel. A tracking client
 * shows it as a container without events (compat NO_EVENTS), the state every box is in between
 * booking and release, which the rest of the world never shows (a box is found only once it left the
 * depot, world.ts).
 *
 * The box is the carrier's first owner prefix with the highest serial whose ISO 6346 check remainder
 * is 10: a serial the world's number plan never issues (iso6346.ts), so the box is on no other
 * shipment, and its check digit 0 is what validators accept for such serials.
 */
import type { Carrier } from "../../reference-data/carriers";
import type { DcsaShipmentEvent } from "../dcsa-types";
import { containerPrefixesOf } from "./carrier-profiles";
import { uuidFrom } from "./hash";
import { containerNumber, isIssuableSerial } from "./iso6346";
import { toUtcIso } from "./local-time";
import { syntheticDocumentNumber } from "./references";

const DAY = 86_400_000;

/** The carrier's box awaiting release, or undefined for a carrier without an owner prefix. */
export function awaitingReleaseBox(carrier: Carrier): string | undefined {
  const prefix = containerPrefixesOf(carrier)[0];
  if (!prefix) return undefined;
  let serial = 999_999;
  while (isIssuableSerial(prefix, serial)) serial--;
  return containerNumber(prefix, serial);
}

/** The booking the carrier's box awaiting release is assigned to: a query for it answers the same. */
export function awaitingReleaseBooking(carrier: Carrier): string | undefined {
  const box = awaitingReleaseBox(carrier);
  return box === undefined
    ? undefined
    : syntheticDocumentNumber(carrier, "booking", `${carrier.scac}|awaiting-release|${box}`);
}

/**
 * The answer to a query for the carrier's box awaiting release: the confirmation of its booking, made
 * the day before `now` (so the box is always "booked yesterday, not released yet"). Undefined for any
 * other box.
 */
export function awaitingReleaseEvents(
  carrier: Carrier,
  equipmentReference: string,
  now: Date,
): DcsaShipmentEvent[] | undefined {
  const box = awaitingReleaseBox(carrier);
  if (box === undefined || equipmentReference !== box) return undefined;
  const confirmedAt = Math.floor(now.getTime() / DAY) * DAY - DAY + 9 * 3_600_000;
  const stamp = toUtcIso(confirmedAt);
  return [
    {
      eventID: uuidFrom(`awaiting-release|${carrier.scac}|${box}|${stamp}`),
      eventCreatedDateTime: stamp,
      eventType: "SHIPMENT",
      eventClassifierCode: "ACT",
      // 2.2: "Value for eventDateTime must be the same value as eventCreatedDateTime".
      eventDateTime: stamp,
      shipmentEventTypeCode: "CONF",
      documentID: awaitingReleaseBooking(carrier) ?? "",
      documentTypeCode: "BKG",
    },
  ];
}
