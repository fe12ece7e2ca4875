/**
 * References every carrier holds at any clock time, each leading to one outcome a tracking client can
 * meet, so that a client (and the service's own tests) can find an example of each without searching
 * the world: a cancelled bill of lading, a bill of lading without containers, a box the carrier has no
 * record of, and a bill of lading whose answer cannot be read. The box awaiting release (a container
 * without events) is in awaiting-release.ts. simulator/README.md lists them with what each gives on the
 * compat API.
 *
 * Like the box awaiting release, the answers are dated relative to the clock's day, so the same
 * reference tells the same story whenever it is asked. The document numbers are in the carrier's own
 * layout and are never ones the world's number plan issues, so no planned shipment shadows them.
 */
import type { Carrier } from "../../reference-data/carriers";
import type { DcsaShipmentEvent, ShipmentEventTypeCode } from "../dcsa-types";
import { awaitingReleaseBox } from "./awaiting-release";
import { containerPrefixesOf } from "./carrier-profiles";
import { uuidFrom } from "./hash";
import { containerNumber, isIssuableSerial } from "./iso6346";
import { toUtcIso } from "./local-time";
import { isIssuedDocumentNumber, syntheticDocumentNumber } from "./references";

const DAY = 86_400_000;
const HOUR = 3_600_000;

export type ExampleOutcome = "cancelled" | "no-containers" | "unreadable";

export interface ExampleDocument {
  outcome: ExampleOutcome;
  /** The bill of lading (`transportDocumentReference`). */
  billOfLading: string;
  /** Its booking (`carrierBookingReference`). */
  booking: string;
}

export interface CarrierExamples {
  /** Booked, then cancelled by the shipper before any box left the depot (booking CONF, then REJE). */
  cancelled?: ExampleDocument;
  /** Booked and its bill of lading issued, no box released to it yet (booking CONF, B/L ISSU). */
  noContainers?: ExampleDocument;
  /** An answer cut off mid-JSON, as a carrier's gateway sends when its backend dies mid-answer. */
  unreadable?: ExampleDocument;
  /** A box of the carrier's owner prefix the carrier has no record of (`200 []`). */
  unknownBox?: string;
}

function exampleNumber(carrier: Carrier, codec: "document" | "booking", name: string): string {
  for (let attempt = 0; ; attempt++) {
    const number = syntheticDocumentNumber(carrier, codec, `${carrier.scac}|example|${name}|${attempt}`);
    if (!isIssuedDocumentNumber(carrier, number)) return number;
  }
}

function exampleDocument(carrier: Carrier, outcome: ExampleOutcome): ExampleDocument {
  return {
    outcome,
    billOfLading: exampleNumber(carrier, "document", outcome),
    booking: exampleNumber(carrier, "booking", outcome),
  };
}

/**
 * A box the world never puts on a shipment: the highest serial of the first owner prefix whose ISO 6346
 * check remainder is 10 (never issued, iso6346.ts), below the box awaiting release, which is the highest.
 */
function unknownBoxOf(carrier: Carrier): string | undefined {
  const prefix = containerPrefixesOf(carrier)[0];
  const awaiting = awaitingReleaseBox(carrier);
  if (!prefix || !awaiting) return undefined;
  let serial = 999_999;
  for (;;) {
    while (isIssuableSerial(prefix, serial)) serial--;
    const box = containerNumber(prefix, serial);
    if (box !== awaiting) return box;
    serial--;
  }
}

const cache = new Map<string, CarrierExamples>();

/** The carrier's example references; a carrier that answers no bill of lading has no document ones. */
export function carrierExamples(carrier: Carrier): CarrierExamples {
  const cached = cache.get(carrier.scac);
  if (cached) return cached;
  const documents = carrier.supportedTypes.includes("bl") && containerPrefixesOf(carrier).length > 0;
  const examples: CarrierExamples = {
    ...(documents
      ? {
          cancelled: exampleDocument(carrier, "cancelled"),
          noContainers: exampleDocument(carrier, "no-containers"),
          unreadable: exampleDocument(carrier, "unreadable"),
        }
      : {}),
    ...(carrier.supportedTypes.includes("container") ? { unknownBox: unknownBoxOf(carrier) } : {}),
  };
  cache.set(carrier.scac, examples);
  return examples;
}

/** The example document a document or booking query names, if any. */
export function exampleDocumentFor(
  carrier: Carrier,
  query: { transportDocumentReference?: string; carrierBookingReference?: string },
): ExampleDocument | undefined {
  const examples = carrierExamples(carrier);
  for (const example of [examples.cancelled, examples.noContainers, examples.unreadable]) {
    if (!example) continue;
    const byBooking = query.carrierBookingReference;
    const byDocument = query.transportDocumentReference;
    if (byBooking !== undefined && byBooking !== example.booking) continue;
    if (byBooking === undefined && byDocument !== example.billOfLading && byDocument !== example.booking) {
      continue;
    }
    if (byBooking !== undefined && byDocument !== undefined && byDocument !== example.billOfLading) continue;
    return example;
  }
  return undefined;
}

/**
 * The DCSA events of an example document at `now`: the booking confirmed three days before the clock's
 * day (09:00 UTC), then either cancelled the day before or its bill of lading issued the day before.
 * The unreadable example has no events: its answer is a cut-off body (server.ts).
 */
export function exampleDocumentEvents(
  carrier: Carrier,
  example: ExampleDocument,
  now: Date,
): DcsaShipmentEvent[] {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const event = (
    code: ShipmentEventTypeCode,
    documentTypeCode: "BKG" | "TRD",
    at: number,
    reason?: string,
  ): DcsaShipmentEvent => {
    const stamp = toUtcIso(at);
    return {
      eventID: uuidFrom(`example|${carrier.scac}|${example.outcome}|${code}|${stamp}`),
      eventCreatedDateTime: stamp,
      eventType: "SHIPMENT",
      eventClassifierCode: "ACT",
      // 2.2: "Value for eventDateTime must be the same value as eventCreatedDateTime".
      eventDateTime: stamp,
      shipmentEventTypeCode: code,
      documentID: documentTypeCode === "TRD" ? example.billOfLading : example.booking,
      documentTypeCode,
      ...(reason ? { reason } : {}),
    };
  };
  const confirmed = event("CONF", "BKG", today - 3 * DAY + 9 * HOUR);
  if (example.outcome === "cancelled") {
    return [
      confirmed,
      event("REJE", "BKG", today - DAY + 14 * HOUR, "Booking cancelled at the shipper's request"),
    ];
  }
  if (example.outcome === "no-containers") return [confirmed, event("ISSU", "TRD", today - DAY + 11 * HOUR)];
  return [];
}
