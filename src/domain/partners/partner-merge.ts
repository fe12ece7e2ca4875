import { findPort } from "../ports/port-directory";
import {
  type CompatStatusCode,
  isEmittedEventCode,
  type TrackedContainer,
  type TrackedEvent,
  type TrackedLocation,
  type TrackingDocument,
} from "../tracking/model";
import type { PartnerEventFacts } from "./partner-event";

/**
 * How partner events join a carrier's document (docs/decisions/partner-events.md). The carrier's
 * answer is the base and is never edited: a partner adds what the carrier did not say.
 *
 * 1. A carrier's actual event always stands. A partner event reporting the same milestone of the same
 *    box (code, empty or laden, mode, the same side of the discharge at the port of discharge, and the
 *    same place when both name a UN/LOCODE) is kept out of the document and
 *    reported back to the sender as `superseded`; so is a partner's estimate when the carrier has
 *    any event of that milestone.
 * 2. A partner's actual event replaces the carrier's estimate of the same milestone.
 * 3. Facts follow from the merged events by the carrier's own rules: a laden gate-out at the final
 *    place after the discharge, or an arrival or drop-off at the consignee's place (CLOC), is a
 *    delivery; an empty return after the discharge means the cargo was delivered but says not when.
 *    A date the carrier gave (its delivery, its actual place of delivery) is never replaced.
 */

export type MergeOutcome = "applied" | "superseded" | "unplaced";

export interface MergedDocument {
  document: TrackingDocument;
  /** Per partner event, `<sourceId>/<senderEventId>`: whether it is on the document. */
  outcomes: Map<string, MergeOutcome>;
}

export const partnerEventKey = (e: Pick<PartnerEventFacts, "sourceId" | "senderEventId">) =>
  `${e.sourceId}/${e.senderEventId}`;

export function mergePartnerEvents(
  carrier: TrackingDocument,
  events: readonly PartnerEventFacts[],
): MergedDocument {
  const outcomes = new Map<string, MergeOutcome>();
  if (events.length === 0) return { document: carrier, outcomes };
  // A deep copy: the carrier's answer is the base of every later merge and must stay as it came.
  const doc = structuredClone(carrier) as TrackingDocument;
  const ordered = [...events].sort((a, b) => a.instant.localeCompare(b.instant));
  let newestFix: { instant: string; lat: number; lng: number } | null = null;
  // Arrivals and drop-offs at the consignee's place (CLOC): deliveries, whatever their compat code.
  const atConsignee = new Set<TrackedEvent>();

  for (const e of ordered) {
    const key = partnerEventKey(e);
    const boxes = boxesOf(doc, e);
    if (boxes.length === 0) {
      outcomes.set(key, "unplaced");
      continue;
    }
    if (e.kind === "POSITION") {
      if (
        e.location.lat !== null &&
        e.location.lng !== null &&
        (!newestFix || newestFix.instant <= e.instant)
      )
        newestFix = { instant: e.instant, lat: e.location.lat, lng: e.location.lng };
      outcomes.set(key, "applied");
      continue;
    }
    const location = placeOf(doc, e);
    let applied = false;
    for (const box of boxes) {
      const discharge = box.events.find(
        (c) => c.actual && c.eventCode === "DISC" && c.locationKey === doc.route.pod.locationKey,
      );
      const dischargedAt = discharge?.instant ? Date.parse(discharge.instant) : null;
      const same = (c: TrackedEvent) => sameMilestone(c, e, { doc, location, dischargedAt });
      const carrierSays = box.events.filter((c) => c.source === undefined && same(c));
      if (carrierSays.some((c) => c.actual) || (!e.actual && carrierSays.length > 0)) continue;
      if (e.actual) box.events = box.events.filter((c) => !(c.source === undefined && !c.actual && same(c)));
      const tracked = trackedEvent(doc, e, location);
      insertInOrder(box, tracked);
      if (e.facilityTypeCode === "CLOC" && (e.eventCode === "ARRI" || e.eventCode === "DROP"))
        atConsignee.add(tracked);
      applied = true;
    }
    outcomes.set(key, applied ? "applied" : "superseded");
    if (applied && e.actual && location.lat !== null && location.lng !== null) {
      if (!newestFix || newestFix.instant <= e.instant)
        newestFix = { instant: e.instant, lat: location.lat, lng: location.lng };
    }
  }

  applyDeliveries(carrier, doc, atConsignee);
  // The newest thing known about the box is a partner's: that is where it is now.
  const newestCarrierActual = doc.containers
    .flatMap((c) => c.events)
    .filter((c) => c.source === undefined && c.actual && c.instant !== null)
    .reduce((max, c) => Math.max(max, Date.parse(c.instant!)), Number.NEGATIVE_INFINITY);
  if (newestFix && Date.parse(newestFix.instant) >= newestCarrierActual) {
    doc.currentPosition = { lat: newestFix.lat, lng: newestFix.lng };
  }
  return { document: doc, outcomes };
}

/** The boxes an event is about: the one it names, or the shipment's only box. */
function boxesOf(doc: TrackingDocument, e: PartnerEventFacts): TrackedContainer[] {
  if (e.containerNumber !== null) return doc.containers.filter((c) => c.number === e.containerNumber);
  return doc.containers.length === 1 ? [doc.containers[0]!] : [];
}

/** The event's place in the document: a place the carrier named (same UN/LOCODE), else a new one. */
function placeOf(doc: TrackingDocument, e: PartnerEventFacts): TrackedLocation {
  const { unLocode, name, lat, lng } = e.location;
  const known = unLocode ? doc.locations.find((l) => l.unLocode === unLocode) : undefined;
  if (known) return known;
  const key = unLocode ?? `partner:${(name ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  const existing = doc.locations.find((l) => l.key === key);
  if (existing) return existing;
  const port = unLocode ? findPort(unLocode) : undefined;
  const location: TrackedLocation = {
    key,
    unLocode,
    name: name ?? port?.name ?? unLocode ?? key,
    state: port?.state ?? null,
    country: port?.country ?? null,
    countryCode: port?.countryCode ?? unLocode?.slice(0, 2) ?? null,
    lat: lat ?? port?.lat ?? null,
    lng: lng ?? port?.lng ?? null,
    timeZone: port?.timeZone ?? null,
  };
  doc.locations.push(location);
  return location;
}

function sameMilestone(
  c: TrackedEvent,
  e: PartnerEventFacts,
  {
    doc,
    location,
    dischargedAt,
  }: { doc: TrackingDocument; location: TrackedLocation; dischargedAt: number | null },
): boolean {
  if (c.eventCode !== e.eventCode) return false;
  // The export and the import side each have their own gate-out, rail departure ...: a milestone after
  // the discharge at the port of discharge is never the same as one before it.
  const imported = (instant: string | null) =>
    dischargedAt !== null && instant !== null && Date.parse(instant) >= dischargedAt;
  if (imported(c.instant) !== imported(e.instant)) return false;
  if (e.emptyIndicator !== null && c.emptyIndicator !== null && c.emptyIndicator !== e.emptyIndicator)
    return false;
  if (c.kind === "TRANSPORT" && c.modeOfTransport !== e.modeOfTransport) return false;
  // Where both name a UN/LOCODE it must be the same place; a place known only by name matches any.
  const theirs = doc.locations.find((l) => l.key === c.locationKey)?.unLocode ?? null;
  return theirs === null || location.unLocode === null || theirs === location.unLocode;
}

const DESCRIPTIONS: Partial<Record<CompatStatusCode, string>> = {
  CGO: "Gated out from port of discharge",
  CDC: "Delivered to consignee",
  CER: "Empty container returned",
};
const NOUNS = { TRUCK: "Truck", RAIL: "Train", BARGE: "Barge", VESSEL: "Vessel" } as const;

function trackedEvent(doc: TrackingDocument, e: PartnerEventFacts, location: TrackedLocation): TrackedEvent {
  const code = e.eventCode!;
  const atPod = location.key === doc.route.pod.locationKey;
  const atConsignee = e.facilityTypeCode === "CLOC";
  const statusCode: CompatStatusCode | null =
    code === "GTOT" && e.emptyIndicator === "LADEN" && atPod
      ? "CGO"
      : code === "GTIN" && e.emptyIndicator === "EMPTY"
        ? "CER"
        : code === "ARRI" && atConsignee
          ? "CDC"
          : null;
  const noun = e.modeOfTransport ? NOUNS[e.modeOfTransport] : null;
  const state = e.emptyIndicator === "EMPTY" ? " empty" : e.emptyIndicator === "LADEN" ? " full" : "";
  const fallback: Record<NonNullable<PartnerEventFacts["eventCode"]>, string> = {
    GTOT: `Gated out${state}`,
    GTIN: `Gated in${state}`,
    PICK: "Picked up",
    DROP: atConsignee ? "Dropped off at the consignee" : "Dropped off",
    DEPA: noun ? `${noun} departed` : "Departed",
    ARRI: noun ? `${noun} arrived` : "Arrived",
  };
  const onRoute = [
    doc.route.prepol.locationKey,
    doc.route.pol.locationKey,
    doc.route.pod.locationKey,
    doc.route.postpod.locationKey,
    ...doc.transshipmentLocationKeys,
  ];
  return {
    kind: e.kind === "TRANSPORT" ? "TRANSPORT" : "EQUIPMENT",
    eventCode: code,
    emitted: isEmittedEventCode(code),
    statusCode,
    description: (statusCode && DESCRIPTIONS[statusCode]) ?? fallback[code],
    localDateTime: localDateTime(e.instant, e.utcOffset),
    utcOffset: e.utcOffset,
    instant: e.instant,
    actual: e.actual,
    modeOfTransport: e.modeOfTransport,
    legType: "land",
    vesselKey: null,
    voyage: null,
    locationKey: location.key,
    facilityKey: null,
    emptyIndicator: e.emptyIndicator,
    isAdditional: !onRoute.includes(location.key),
    dcsaEventId: null,
    source: { kind: "partner", sourceId: e.sourceId, name: e.sourceName, eventId: e.senderEventId },
  };
}

/** `YYYY-MM-DD HH:MM:SS` at the sender's offset. */
function localDateTime(instant: string, offset: string): string {
  const sign = offset.startsWith("-") ? -1 : 1;
  const [h, m] = offset.slice(1).split(":").map(Number);
  const shifted = new Date(Date.parse(instant) + sign * ((h ?? 0) * 60 + (m ?? 0)) * 60_000);
  return shifted.toISOString().slice(0, 19).replace("T", " ");
}

/** After the last event at or before it: undated events keep their places. */
function insertInOrder(box: TrackedContainer, event: TrackedEvent): void {
  const at = Date.parse(event.instant!);
  const later = box.events.findIndex((c) => c.instant !== null && Date.parse(c.instant) > at);
  if (later < 0) box.events.push(event);
  else box.events.splice(later, 0, event);
}

/** Rule 3: deliveries the merged events prove, without replacing a date the carrier gave. */
function applyDeliveries(
  carrier: TrackingDocument,
  doc: TrackingDocument,
  atConsignee: ReadonlySet<TrackedEvent>,
): void {
  if (doc.status === "CANCELLED") return;
  let moved = false;
  const pod = doc.route.pod.locationKey;
  const finalKey = doc.route.postpod.locationKey ?? pod;
  for (const box of doc.containers) {
    const discharged = box.events.find((c) => c.actual && c.eventCode === "DISC" && c.locationKey === pod);
    const partnerActuals = box.events.filter((c) => c.source !== undefined && c.actual && c.instant !== null);
    const afterDischarge = (c: TrackedEvent) =>
      discharged?.instant != null && Date.parse(c.instant!) >= Date.parse(discharged.instant);
    const proofs = partnerActuals.filter(
      (c) =>
        (c.eventCode === "GTOT" &&
          c.emptyIndicator === "LADEN" &&
          c.locationKey === finalKey &&
          afterDischarge(c)) ||
        (atConsignee.has(c) && c.emptyIndicator !== "EMPTY"),
    );
    if (partnerActuals.length > 0) moved = true;
    const emptyBack = partnerActuals.some(
      (c) => c.eventCode === "GTIN" && c.emptyIndicator === "EMPTY" && afterDischarge(c),
    );
    if (proofs.length === 0 && !emptyBack) continue;
    box.status = "DELIVERED";
    const latest =
      proofs
        .map((c) => c.instant!)
        .sort()
        .at(-1) ?? null;
    box.deliveredAt ??= latest;
    // The consignee's place a partner saw the box arrive at is the journey's actual end.
    const arrival = proofs.findLast((c) => c.eventCode === "ARRI" || c.eventCode === "DROP");
    if (arrival && carrier.route.postpod.actual !== true) {
      doc.route.postpod = {
        locationKey: arrival.locationKey,
        localDateTime: arrival.localDateTime,
        instant: arrival.instant,
        actual: true,
      };
    }
  }
  if (doc.containers.length > 0 && doc.containers.every((c) => c.status === "DELIVERED")) {
    doc.status = "DELIVERED";
    const dates = doc.containers.map((c) => c.deliveredAt).filter((d): d is string => d !== null);
    doc.deliveredAt ??= dates.length > 0 ? dates.sort().at(-1)! : null;
  } else if (moved && (doc.status === "PLANNED" || doc.status === "UNKNOWN")) {
    doc.status = "IN_TRANSIT";
  }
}
