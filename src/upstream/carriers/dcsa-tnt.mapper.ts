import { describeEquipment } from "../../domain/references/iso-size-type";
import {
  type EmptyIndicator,
  type EtaRevision,
  type EventCode,
  emptyRoute,
  type GeoPoint,
  isEmittedEventCode,
  type ModeOfTransport,
  type ReferenceType,
  type RoutePoint,
  type ShipmentStatus,
  type TrackedContainer,
  type TrackedEvent,
  type TrackedEventKind,
  type TrackedFacility,
  type TrackedLocation,
  type TrackedRoute,
  type TrackedVessel,
  type TrackingDocument,
} from "../../domain/tracking/model";
import { type ParsedDateTime, parseDcsaDateTime, wallClockInZone } from "./dcsa-datetime";
import {
  type DcsaEquipmentEvent,
  type DcsaEvent,
  type DcsaLocation,
  type DcsaShipmentEvent,
  type DcsaTransportCall,
  type DcsaTransportEvent,
  dcsaEventSchema,
} from "./dcsa-tnt.schema";
import { compatStatusFor, describeEvent, type JourneyPlace } from "./dcsa-tnt.status-rules";

/**
 * DCSA T&T 2.2 events -> the canonical TrackingDocument. Pure: no I/O, no clock (the fetch time comes
 * in the context). The rules are ours, over the fields of DCSA Track & Trace 2.2.0
 * (github.com/dcsaorg/DCSA-OpenAPI, tnt/v2/TNT_v2.2.0.yaml); where the specification leaves a choice
 * open, the choice is written next to the code that makes it.
 */

export interface LocationLookupResult {
  name?: string | null;
  state?: string | null;
  country?: string | null;
  countryCode?: string | null;
  lat?: number | null;
  lng?: number | null;
  timeZone?: string | null;
}

export type LocationLookup = (unLocode: string) => LocationLookupResult | undefined;

export interface DcsaMapContext {
  reference: string;
  referenceType: ReferenceType;
  carrierScac: string;
  fetchedAt: Date;
  /** Port data by UN/LOCODE (name, country, coordinates, zone); the events alone rarely carry it. */
  locationLookup?: LocationLookup;
}

export type MapResult =
  | { ok: true; document: TrackingDocument; warnings: string[] }
  | { ok: false; reason: "malformed"; detail: string };

type Classifier = "ACT" | "EST" | "PLN";

const CLASSIFIER_RANK: Record<Classifier, number> = { PLN: 0, EST: 1, ACT: 2 };

// DCSA T&T did not exist before 2019; a record "created" before 2000 is an epoch or placeholder bug.
const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
// Clock skew between carrier and us is tolerated up to a day; beyond that a record from the future
// (or an "actual" event in the future) is wrong data, not an early clock.
const FUTURE_TOLERANCE_MS = DAY_MS;
const LATEST_PLAUSIBLE_EVENT_AHEAD_MS = 2 * 365 * DAY_MS;

// Same-instant order: how a call unfolds (arrive, discharge, gate out ... gate in, load, depart).
const SAME_INSTANT_RANK: Readonly<Record<string, number>> = {
  ARRI: 0,
  DISC: 1,
  GTOT: 2,
  PICK: 3,
  DROP: 4,
  STRP: 5,
  STUF: 6,
  INSP: 7,
  RSEA: 8,
  RMVD: 9,
  GTIN: 10,
  LOAD: 11,
  DEPA: 12,
};
// An undated event sits next to the dated events of its call: arrival-like codes at the start of the
// call, everything else at its end.
const ANCHOR_AT_START = new Set(["ARRI", "GTIN", "PICK"]);

interface FacilityData {
  code: string | null;
  provider: "SMDG" | "BIC" | null;
  name: string | null;
  lat: number | null;
  lng: number | null;
}

interface PlaceData {
  locode: string | null;
  /** Only for places without a UN/LOCODE; a coded place takes its name from the port lookup. */
  name: string | null;
  state: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  facility: FacilityData | null;
}

interface Candidate {
  index: number;
  kind: TrackedEventKind;
  code: EventCode;
  classifier: Classifier;
  createdMs: number;
  date: ParsedDateTime | null;
  dcsaEventId: string | null;
  place: PlaceData | null;
  transportCallId: string | null;
  callSequence: number | null;
  mode: ModeOfTransport | null;
  facilityTypeCode: string | null;
  vessel: { imo: number | null; name: string | null } | null;
  voyage: string | null;
  containerNumber: string | null;
  isoEquipmentCode: string | null;
  emptyIndicator: EmptyIndicator | null;
  eqReferences: string[];
  // Resolved once locations, facilities and vessels are known.
  locationKey: string;
  facilityKey: string | null;
  vesselKey: string | null;
  actual: boolean;
  local: string | null;
  offset: string | null;
  instantMs: number | null;
}

interface ShipmentFact {
  code: string;
  documentTypeCode: string;
  atMs: number;
  createdMs: number;
}

class MappingRun {
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();

  constructor(readonly context: DcsaMapContext) {}

  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warnings.push(message);
  }
}

export function mapDcsaEvents(events: unknown, context: DcsaMapContext): MapResult {
  if (!Array.isArray(events)) {
    return { ok: false, reason: "malformed", detail: "the carrier answer is not a JSON array of events" };
  }
  try {
    return mapArray(events, new MappingRun(context));
  } catch (error) {
    // An anti-corruption layer must not turn a carrier's surprise into a crash of the request.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: "malformed", detail: `events could not be mapped: ${message}` };
  }
}

function mapArray(events: readonly unknown[], run: MappingRun): MapResult {
  const { context } = run;
  const fetchedMs = context.fetchedAt.getTime();
  const validated: Array<{ index: number; event: DcsaEvent; createdMs: number; eventId: string | null }> = [];

  events.forEach((raw, index) => {
    const parsed = dcsaEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(event)"}: ${i.message}`)
        .join("; ");
      run.warn(`event ${index} dropped: ${issues}`);
      return;
    }
    const created = parseDcsaDateTime(parsed.data.eventCreatedDateTime);
    if (created === null) return;
    if (created.instantMs < EARLIEST_PLAUSIBLE_MS || created.instantMs > fetchedMs + FUTURE_TOLERANCE_MS) {
      run.warn(
        `event ${index} dropped: eventCreatedDateTime ${parsed.data.eventCreatedDateTime} is not plausible`,
      );
      return;
    }
    validated.push({
      index,
      event: parsed.data,
      createdMs: created.instantMs,
      eventId: readEventId(parsed.data.eventID, index, run),
    });
  });

  if (events.length > 0 && validated.length === 0) {
    return {
      ok: false,
      reason: "malformed",
      detail: `none of the ${events.length} events is a valid DCSA T&T 2.2 event`,
    };
  }

  const byEventId = dropRepeatedEventIds(validated, run);

  const shipmentFacts: ShipmentFact[] = [];
  const candidates: Candidate[] = [];
  for (const v of byEventId) {
    const e = v.event;
    if (e.eventType === "SHIPMENT") {
      shipmentFacts.push(shipmentFact(e, v.createdMs));
    } else {
      candidates.push(candidateFrom(e, v.index, v.createdMs, v.eventId, run));
    }
  }

  const world = resolvePlaces(candidates, run);
  const located = candidates.filter((c) => c.locationKey !== "");

  assignContainers(located, run);
  const kept = located.filter((c) => c.kind === "TRANSPORT" || c.containerNumber !== null);
  if (events.length > 0 && kept.length === 0 && shipmentFacts.length === 0) {
    return { ok: false, reason: "malformed", detail: "no event could be placed or tied to a container" };
  }
  applyTime(kept, world.locations, run);

  const deduped = dedupeMilestones(kept);
  const sequence = chronological(deduped);

  const containerNumbers = containerOrder(sequence, context, byEventId.length > 0);
  const { route, transshipments } = buildRoute(sequence);

  const containerEvents = new Map<string, Candidate[]>();
  for (const number of containerNumbers) containerEvents.set(number, []);
  distributeEvents(sequence, containerEvents);

  const cancelled = bookingCancelled(shipmentFacts, sequence, run);

  const containers: TrackedContainer[] = containerNumbers.map((number) => {
    const list = containerEvents.get(number) ?? [];
    const journey = journeyOf(list, route, transshipments);
    const tracked = list.map((c, i) => toTrackedEvent(c, journey.placesAt(i), route));
    const verdict = cancelled
      ? { status: "CANCELLED" as const, deliveredAt: null }
      : containerStatus(list, journey, route);
    const equipment = equipmentOf(number, kept, run);
    const ownShown = list.some((c) => c.kind === "EQUIPMENT" && isEmittedEventCode(c.code));
    return {
      number,
      isoCode: equipment.isoCode,
      sizeType: equipment.sizeType,
      description: equipment.description,
      status: verdict.status,
      statusFromCarrier: false,
      eventsMirrored: tracked.some((t) => t.emitted) && !ownShown,
      deliveredAt: verdict.deliveredAt,
      events: tracked,
    };
  });

  let status: ShipmentStatus;
  if (cancelled) {
    status = "CANCELLED";
  } else if (containers.length === 0) {
    // A bill of lading answered with vessel events only: judge the shipment by those.
    status = containerStatus(sequence, journeyOf(sequence, route, transshipments), route).status;
  } else {
    status = shipmentStatus(containers.map((c) => c.status));
  }

  const podArrival = podArrivalOf(sequence, route);
  const deliveredInstants = containers.map((c) => c.deliveredAt).filter((d): d is string => d !== null);
  const document: TrackingDocument = {
    referenceType: context.referenceType,
    reference: context.reference,
    carrierScac: context.carrierScac,
    status,
    statusFromCarrier: false,
    locations: orderedUsed(sequence, (c) => c.locationKey, world.locations),
    facilities: orderedUsed(sequence, (c) => c.facilityKey, world.facilities),
    vessels: orderedUsed(sequence, (c) => c.vesselKey, world.vessels),
    containers,
    route: routeOut(route),
    etaHistory: etaHistory(kept, route),
    transshipmentLocationKeys: transshipments,
    ata: podArrival?.actual && podArrival.instantMs !== null ? iso(podArrival.instantMs) : null,
    deliveredAt:
      status === "DELIVERED" && deliveredInstants.length > 0 ? deliveredInstants.sort().at(-1)! : null,
    currentPosition: currentPosition(sequence, world.locations, world.facilities),
    fetchedAt: context.fetchedAt.toISOString(),
  };
  return { ok: true, document, warnings: run.warnings };
}

// ---------------------------------------------------------------------------------------------------
// Validation details

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readEventId(id: unknown, index: number, run: MappingRun): string | null {
  if (id === undefined || id === null) return null;
  if (typeof id !== "string" || id.trim() === "") {
    run.warn(`event ${index}: eventID is not a string; kept without an id`);
    return null;
  }
  if (!UUID.test(id)) run.warn(`event ${index}: eventID ${JSON.stringify(id)} is not a UUID`);
  return id.trim();
}

/** The same eventID twice is one event sent twice; the newer record wins. */
function dropRepeatedEventIds<T extends { index: number; createdMs: number; eventId: string | null }>(
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

function shipmentFact(e: DcsaShipmentEvent, createdMs: number): ShipmentFact {
  const at = e.eventDateTime ? parseDcsaDateTime(e.eventDateTime) : null;
  return {
    code: e.shipmentEventTypeCode,
    documentTypeCode: e.documentTypeCode,
    atMs: at?.instantMs ?? createdMs,
    createdMs,
  };
}

// ---------------------------------------------------------------------------------------------------
// Event -> candidate

// Placeholders carriers put in text fields when they have nothing to say.
const PLACEHOLDERS = new Set(["N/A", "NA", "-", "--", "NULL", "NONE", "UNKNOWN"]);

const clean = (v: string | null | undefined): string | null => {
  const t = v?.trim();
  return t && !PLACEHOLDERS.has(t.toUpperCase()) ? t : null;
};

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

function countryName(countryCode: string | null): string | null {
  if (countryCode === null) return null;
  try {
    const name = regionNames.of(countryCode);
    return name && name !== countryCode ? name : null;
  } catch {
    return null;
  }
}

const LOCODE = /^[A-Z]{2}[A-Z0-9]{3}$/;

function normaliseLocode(v: string | null | undefined, run: MappingRun): string | null {
  const raw = clean(v);
  if (raw === null) return null;
  const code = raw.replace(/\s+/g, "").toUpperCase();
  if (LOCODE.test(code)) return code;
  run.warn(`UN/LOCODE ${JSON.stringify(raw)} is not a UN/LOCODE; ignored`);
  return null;
}

function parseCoordinate(v: string | number | null | undefined, limit: number): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === "number" ? v : Number(v.trim());
  return Number.isFinite(n) && Math.abs(n) <= limit && String(v).trim() !== "" ? n : null;
}

function provider(v: string | null | undefined): "SMDG" | "BIC" | null {
  const p = clean(v)?.toUpperCase();
  return p === "SMDG" || p === "BIC" ? p : null;
}

function placeFromLocation(loc: DcsaLocation | null | undefined, run: MappingRun): PlaceData | null {
  if (!loc) return null;
  const locode = normaliseLocode(loc.UNLocationCode, run);
  let lat = parseCoordinate(loc.latitude, 90);
  let lng = parseCoordinate(loc.longitude, 180);
  if (lat === null || lng === null) {
    lat = null;
    lng = null;
  }
  const name = clean(loc.locationName);
  const code = clean(loc.facilityCode);
  const city = clean(loc.address?.city);
  if (!locode && lat === null && !name && !code && !city) return null;
  // The name and coordinates of a location object describe the facility when there is one (a terminal
  // inside the port); a coded port takes its own name and position from the port lookup.
  const facility: FacilityData | null =
    code !== null || (name !== null && locode !== null)
      ? { code, provider: code ? provider(loc.facilityCodeListProvider) : null, name, lat, lng }
      : null;
  return {
    locode,
    // The address of a coded place is the terminal's or the shipper's, not the port city's.
    name: locode ? null : (name ?? city),
    state: locode ? null : clean(loc.address?.stateRegion),
    country: locode ? null : clean(loc.address?.country),
    lat: facility && locode ? null : lat,
    lng: facility && locode ? null : lng,
    facility,
  };
}

function placeFromTransportCall(tc: DcsaTransportCall, run: MappingRun): PlaceData | null {
  const fromLocation = placeFromLocation(tc.location, run);
  const callLocode = normaliseLocode(tc.UNLocationCode, run);
  if (fromLocation?.locode && callLocode && fromLocation.locode !== callLocode) {
    run.warn(
      `transport call ${tc.transportCallID}: location.UNLocationCode ${fromLocation.locode} differs from UNLocationCode ${callLocode}; using ${fromLocation.locode}`,
    );
  }
  const locode = fromLocation?.locode ?? callLocode;
  const code = clean(tc.facilityCode);
  const otherFacility = clean(tc.otherFacility);
  let facility = fromLocation?.facility ?? null;
  if (facility === null && code !== null) {
    facility = { code, provider: provider(tc.facilityCodeListProvider), name: null, lat: null, lng: null };
  } else if (facility !== null && facility.code === null && code !== null) {
    facility = { ...facility, code, provider: provider(tc.facilityCodeListProvider) };
  }
  if (facility === null && otherFacility !== null && locode !== null) {
    facility = { code: null, provider: null, name: otherFacility, lat: null, lng: null };
  }
  if (!locode && !fromLocation) return null;
  return {
    locode,
    name: fromLocation?.name ?? null,
    state: fromLocation?.state ?? null,
    country: fromLocation?.country ?? null,
    lat: fromLocation?.lat ?? null,
    lng: fromLocation?.lng ?? null,
    facility,
  };
}

function normaliseContainerNumber(v: string): string {
  return v.replace(/[\s-]+/g, "").toUpperCase();
}

function isValidImo(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10 === Number(digits[6]);
}

function vesselFrom(tc: DcsaTransportCall | null | undefined, run: MappingRun): Candidate["vessel"] {
  if (!tc?.vessel || (tc.modeOfTransport !== "VESSEL" && tc.modeOfTransport !== "BARGE")) return null;
  const rawImo = tc.vessel.vesselIMONumber;
  const imoText =
    rawImo === null || rawImo === undefined
      ? ""
      : String(rawImo)
          .trim()
          .replace(/^IMO\s*/i, "");
  let imo: number | null = null;
  if (/^\d{7}$/.test(imoText) && isValidImo(imoText)) {
    imo = Number(imoText);
  } else if (imoText !== "") {
    run.warn(`vessel IMO number ${JSON.stringify(String(rawImo))} fails the IMO check; ignored`);
  }
  const name = clean(tc.vessel.vesselName);
  return imo === null && name === null ? null : { imo, name };
}

/**
 * Export voyage for LOAD/DEPA, import voyage for ARRI/DISC (T&T 2.2 transportCall), each falling back to the
 * deprecated carrierVoyageNumber and then to the other direction rather than showing no voyage.
 */
function voyageFor(code: string, tc: DcsaTransportCall | null | undefined): string | null {
  if (!tc || (tc.modeOfTransport !== "VESSEL" && tc.modeOfTransport !== "BARGE")) return null;
  const exportVoyage = clean(tc.exportVoyageNumber);
  const importVoyage = clean(tc.importVoyageNumber);
  const carrierVoyage = clean(tc.carrierVoyageNumber);
  if (code === "LOAD" || code === "DEPA") return exportVoyage ?? carrierVoyage ?? importVoyage;
  if (code === "ARRI" || code === "DISC") return importVoyage ?? carrierVoyage ?? exportVoyage;
  return carrierVoyage ?? exportVoyage ?? importVoyage;
}

function eqReferences(e: DcsaTransportEvent | DcsaEquipmentEvent): string[] {
  return (e.references ?? [])
    .filter((r) => clean(r.referenceType)?.toUpperCase() === "EQ" && clean(r.referenceValue) !== null)
    .map((r) => normaliseContainerNumber(r.referenceValue ?? ""));
}

function candidateFrom(
  e: DcsaTransportEvent | DcsaEquipmentEvent,
  index: number,
  createdMs: number,
  eventId: string | null,
  run: MappingRun,
): Candidate {
  const tc = e.transportCall ?? null;
  let date: ParsedDateTime | null = e.eventDateTime ? parseDcsaDateTime(e.eventDateTime) : null;
  const fetchedMs = run.context.fetchedAt.getTime();
  if (
    date !== null &&
    (date.instantMs < EARLIEST_PLAUSIBLE_MS || date.instantMs > fetchedMs + LATEST_PLAUSIBLE_EVENT_AHEAD_MS)
  ) {
    run.warn(`event ${index}: eventDateTime ${e.eventDateTime} is not plausible; shown undated`);
    date = null;
  }
  let place: PlaceData | null;
  let code: EventCode;
  let containerNumber: string | null = null;
  let isoEquipmentCode: string | null = null;
  let emptyIndicator: EmptyIndicator | null = null;
  if (e.eventType === "TRANSPORT") {
    code = (e.transportEventTypeCode ?? e.eventTypeCode) as EventCode;
    place = placeFromTransportCall(e.transportCall, run);
  } else {
    code = (e.equipmentEventTypeCode ?? e.eventTypeCode) as EventCode;
    const reference = clean(e.equipmentReference);
    containerNumber = reference === null ? null : normaliseContainerNumber(reference);
    isoEquipmentCode = clean(e.ISOEquipmentCode);
    emptyIndicator = e.emptyIndicatorCode ?? null;
    place = equipmentPlace(e, run);
  }
  return {
    index,
    kind: e.eventType,
    code,
    classifier: e.eventClassifierCode,
    createdMs,
    date,
    dcsaEventId: eventId,
    place,
    transportCallId: tc ? tc.transportCallID : null,
    callSequence: tc?.transportCallSequenceNumber ?? null,
    mode: tc?.modeOfTransport ?? null,
    facilityTypeCode: clean(tc?.facilityTypeCode)?.toUpperCase() ?? null,
    vessel: vesselFrom(tc, run),
    voyage: voyageFor(code, tc),
    containerNumber,
    isoEquipmentCode,
    emptyIndicator,
    eqReferences: eqReferences(e),
    locationKey: "",
    facilityKey: null,
    vesselKey: null,
    actual: e.eventClassifierCode === "ACT",
    local: null,
    offset: null,
    instantMs: null,
  };
}

/** Equipment events: `eventLocation` first, then the transport call (T&T 2.2 makes both optional). */
function equipmentPlace(e: DcsaEquipmentEvent, run: MappingRun): PlaceData | null {
  const own = placeFromLocation(e.eventLocation, run);
  const call = e.transportCall ? placeFromTransportCall(e.transportCall, run) : null;
  if (own === null) return call;
  // The terminal of the transport call is the event's terminal only when both name the same port.
  if (own.facility === null && call?.facility && own.locode !== null && own.locode === call.locode) {
    return { ...own, facility: call.facility };
  }
  return own;
}

// ---------------------------------------------------------------------------------------------------
// Locations, facilities, vessels

interface World {
  locations: Map<string, TrackedLocation>;
  facilities: Map<string, TrackedFacility>;
  vessels: Map<string, TrackedVessel>;
}

const slug = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function locationKeyOf(place: PlaceData): string | null {
  if (place.locode) return place.locode;
  if (place.name) return `name:${slug(place.name)}`;
  if (place.lat !== null && place.lng !== null) return `geo:${place.lat.toFixed(3)},${place.lng.toFixed(3)}`;
  return null;
}

// ISO 3166 keeps these for private use; a UN/LOCODE starting with one is a test or made-up code.
function isUserAssignedCountry(cc: string): boolean {
  return cc === "AA" || cc === "ZZ" || (cc[0] === "Q" && cc >= "QM") || cc[0] === "X";
}

function resolvePlaces(candidates: Candidate[], run: MappingRun): World {
  const world: World = { locations: new Map(), facilities: new Map(), vessels: new Map() };
  const lookups = new Map<string, LocationLookupResult | undefined>();
  const lookup = (locode: string) => {
    if (!lookups.has(locode)) lookups.set(locode, run.context.locationLookup?.(locode));
    return lookups.get(locode);
  };

  // A transport call named by one event locates the other events of the same call that omit it.
  // Transport events name the call's own place; an equipment event's place is the fallback.
  const callPlaces = new Map<string, PlaceData>();
  for (const kind of ["TRANSPORT", "EQUIPMENT"] as const) {
    for (const c of candidates) {
      if (c.kind !== kind || !c.transportCallId || !c.place || callPlaces.has(c.transportCallId)) continue;
      if (locationKeyOf(c.place) !== null) callPlaces.set(c.transportCallId, c.place);
    }
  }

  for (const c of candidates) {
    let place = c.place;
    if ((place === null || locationKeyOf(place) === null) && c.transportCallId) {
      place = callPlaces.get(c.transportCallId) ?? null;
    }
    const key = place ? locationKeyOf(place) : null;
    if (place === null || key === null) {
      run.warn(`event ${c.index} dropped: ${c.kind.toLowerCase()} event ${c.code} has no location`);
      continue;
    }
    c.locationKey = key;
    mergeLocation(world, key, place, lookup, run);
    c.facilityKey = place.facility ? mergeFacility(world, key, place, place.facility) : null;
    if (c.vessel) c.vesselKey = mergeVessel(world, c.vessel);
  }
  return world;
}

function mergeLocation(
  world: World,
  key: string,
  place: PlaceData,
  lookup: (locode: string) => LocationLookupResult | undefined,
  run: MappingRun,
): void {
  const existing = world.locations.get(key);
  if (existing) {
    existing.state ??= place.state;
    existing.country ??= place.country;
    if (existing.lat === null && place.lat !== null && place.lng !== null) {
      existing.lat = place.lat;
      existing.lng = place.lng;
    }
    return;
  }
  const found = place.locode ? lookup(place.locode) : undefined;
  let countryCode = found?.countryCode ?? null;
  if (countryCode === null && place.locode) {
    const prefix = place.locode.slice(0, 2);
    if (isUserAssignedCountry(prefix)) {
      run.warn(`UN/LOCODE ${place.locode} has no real country (${prefix} is a private-use code)`);
    } else {
      countryCode = prefix;
    }
  }
  const lookupHasPosition = typeof found?.lat === "number" && typeof found?.lng === "number";
  world.locations.set(key, {
    key,
    unLocode: place.locode,
    name: clean(found?.name) ?? place.name ?? place.locode ?? key,
    state: clean(found?.state) ?? place.state,
    country: clean(found?.country) ?? place.country ?? countryName(countryCode),
    countryCode,
    lat: lookupHasPosition ? (found?.lat ?? null) : place.lat,
    lng: lookupHasPosition ? (found?.lng ?? null) : place.lng,
    timeZone: clean(found?.timeZone),
  });
}

function mergeFacility(world: World, locationKey: string, place: PlaceData, f: FacilityData): string | null {
  const identity = f.code
    ? `${f.provider ?? "CODE"}:${f.code.toUpperCase()}`
    : f.name
      ? `name:${slug(f.name)}`
      : null;
  if (identity === null) return null;
  const key = `${locationKey}/${identity}`;
  const existing = world.facilities.get(key);
  if (existing) {
    // A named sighting beats one that only had the code.
    if (f.name && existing.name === (f.code ?? "")) existing.name = f.name;
    if (existing.lat === null && f.lat !== null && f.lng !== null) {
      existing.lat = f.lat;
      existing.lng = f.lng;
    }
    return key;
  }
  world.facilities.set(key, {
    key,
    name: f.name ?? f.code ?? key,
    locode: place.locode,
    countryCode:
      place.locode && !isUserAssignedCountry(place.locode.slice(0, 2)) ? place.locode.slice(0, 2) : null,
    smdgCode: f.provider === "SMDG" ? f.code : null,
    bicCode: f.provider === "BIC" ? f.code : null,
    lat: f.lat,
    lng: f.lng,
  });
  return key;
}

function mergeVessel(world: World, v: { imo: number | null; name: string | null }): string {
  const key = v.imo !== null ? `imo:${v.imo}` : `name:${slug(v.name ?? "")}`;
  const existing = world.vessels.get(key);
  if (existing) {
    if (v.name && existing.name.startsWith("IMO ")) existing.name = v.name;
    return key;
  }
  world.vessels.set(key, { key, name: v.name ?? `IMO ${v.imo}`, imo: v.imo, mmsi: null });
  return key;
}

// ---------------------------------------------------------------------------------------------------
// Containers, time, dedup, order

function assignContainers(candidates: Candidate[], run: MappingRun): void {
  const { referenceType, reference } = run.context;
  for (const c of candidates) {
    if (c.kind !== "EQUIPMENT" || c.containerNumber !== null) continue;
    if (referenceType === "container") {
      c.containerNumber = normaliseContainerNumber(reference);
    } else {
      run.warn(`event ${c.index} dropped: equipment event ${c.code} names no equipmentReference`);
    }
  }
}

function applyTime(candidates: Candidate[], locations: Map<string, TrackedLocation>, run: MappingRun): void {
  const fetchedMs = run.context.fetchedAt.getTime();
  for (const c of candidates) {
    if (c.date === null) continue;
    c.instantMs = c.date.instantMs;
    c.local = c.date.local;
    c.offset = c.date.offset;
    const zone = locations.get(c.locationKey)?.timeZone;
    // `Z` says nothing about the place; the port's zone gives the wall clock the user expects.
    if (c.date.utcDesignator && zone) {
      const wall = wallClockInZone(c.date.instantMs, zone);
      if (wall) {
        c.local = wall.local;
        c.offset = wall.offset;
      }
    }
    if (c.actual && c.instantMs > fetchedMs + FUTURE_TOLERANCE_MS) {
      run.warn(`event ${c.index}: ${c.code} is marked actual but dated in the future; shown as estimated`);
      c.actual = false;
    }
  }
}

/**
 * Carriers issue a new eventID when they revise an estimate, so one milestone (type, code, place,
 * transport call, container, empty/laden) is kept once: ACT over EST over PLN, then the newest
 * eventCreatedDateTime, then the later position in the answer.
 */
function dedupeMilestones(candidates: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  const keyOf = (c: Candidate) =>
    [
      c.kind,
      c.code,
      c.locationKey,
      c.facilityKey ?? "",
      c.transportCallId ?? (c.callSequence === null ? "" : `seq:${c.callSequence}`),
      c.containerNumber ?? "",
      c.emptyIndicator ?? "",
    ].join("|");
  const beats = (a: Candidate, b: Candidate) => {
    const rank = CLASSIFIER_RANK[a.classifier] - CLASSIFIER_RANK[b.classifier];
    if (rank !== 0) return rank > 0;
    if (a.createdMs !== b.createdMs) return a.createdMs > b.createdMs;
    return a.index > b.index;
  };
  for (const c of candidates) {
    const key = keyOf(c);
    const seen = best.get(key);
    if (seen === undefined || beats(c, seen)) best.set(key, c);
  }
  const winners = new Set(best.values());
  return candidates.filter((c) => winners.has(c));
}

/**
 * Time order. An undated event is placed with the dated events of its transport call (or, without a
 * call, of its place) instead of at the end, where it would look like the latest news.
 */
function chronological(candidates: Candidate[]): Candidate[] {
  const groups = new Map<string, { min: number; max: number }>();
  const widen = (key: string, ms: number) => {
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { min: ms, max: ms });
    else {
      g.min = Math.min(g.min, ms);
      g.max = Math.max(g.max, ms);
    }
  };
  for (const c of candidates) {
    if (c.instantMs === null) continue;
    if (c.transportCallId) widen(`call:${c.transportCallId}`, c.instantMs);
    widen(`place:${c.locationKey}`, c.instantMs);
  }
  const sortMs = new Map<Candidate, number>();
  for (const c of candidates) {
    if (c.instantMs !== null) {
      sortMs.set(c, c.instantMs);
      continue;
    }
    const g =
      (c.transportCallId ? groups.get(`call:${c.transportCallId}`) : undefined) ??
      groups.get(`place:${c.locationKey}`);
    sortMs.set(c, g === undefined ? Number.POSITIVE_INFINITY : ANCHOR_AT_START.has(c.code) ? g.min : g.max);
  }
  return [...candidates].sort((a, b) => {
    const ta = sortMs.get(a) ?? Number.POSITIVE_INFINITY;
    const tb = sortMs.get(b) ?? Number.POSITIVE_INFINITY;
    if (ta !== tb) return ta < tb ? -1 : 1;
    const ra = SAME_INSTANT_RANK[a.code] ?? 99;
    const rb = SAME_INSTANT_RANK[b.code] ?? 99;
    if (ra !== rb) return ra - rb;
    return a.index - b.index;
  });
}

function containerOrder(sequence: Candidate[], context: DcsaMapContext, anyUsable: boolean): string[] {
  const order: string[] = [];
  const add = (n: string) => {
    if (!order.includes(n)) order.push(n);
  };
  if (context.referenceType === "container" && anyUsable) {
    add(normaliseContainerNumber(context.reference));
  }
  for (const c of sequence) if (c.containerNumber) add(c.containerNumber);
  // A container query is filtered by that box; references to other boxes on the same vessel call
  // would only add strangers to the answer.
  if (context.referenceType !== "container") {
    for (const c of sequence) for (const n of c.eqReferences) if (c.kind === "TRANSPORT") add(n);
  }
  return order;
}

/**
 * Transport events are copied into every container on that transport call: the containers the event
 * names in `references` (type EQ) and those with equipment events on the same transportCallID. An
 * event tied to no container by either goes to all containers, since the carrier returned it for this
 * reference.
 */
function distributeEvents(sequence: Candidate[], byContainer: Map<string, Candidate[]>): void {
  const callsOf = new Map<string, Set<string>>();
  for (const c of sequence) {
    if (c.kind !== "EQUIPMENT" || !c.containerNumber || !c.transportCallId) continue;
    const set = callsOf.get(c.containerNumber) ?? new Set<string>();
    set.add(c.transportCallId);
    callsOf.set(c.containerNumber, set);
  }
  for (const c of sequence) {
    if (c.kind === "EQUIPMENT") {
      if (c.containerNumber) byContainer.get(c.containerNumber)?.push(c);
      continue;
    }
    const targets = [...byContainer.keys()].filter(
      (n) =>
        c.eqReferences.includes(n) || (c.transportCallId !== null && callsOf.get(n)?.has(c.transportCallId)),
    );
    for (const n of targets.length > 0 ? targets : [...byContainer.keys()]) byContainer.get(n)?.push(c);
  }
}

function equipmentOf(
  number: string,
  candidates: Candidate[],
  run: MappingRun,
): { isoCode: string | null; sizeType: string | null; description: string | null } {
  const newest = candidates
    .filter((c) => c.containerNumber === number && c.isoEquipmentCode !== null)
    .sort((a, b) => b.createdMs - a.createdMs || b.index - a.index)[0];
  if (!newest?.isoEquipmentCode) return { isoCode: null, sizeType: null, description: null };
  const described = describeEquipment(newest.isoEquipmentCode);
  if (described.isoCode === null && described.sizeType === null) {
    run.warn(`container ${number}: equipment code ${newest.isoEquipmentCode} is not a known size-type`);
    // Unknown to our table but still what the carrier said; size_type is the free-form column.
    return { isoCode: null, sizeType: newest.isoEquipmentCode.toUpperCase(), description: null };
  }
  return described;
}

// ---------------------------------------------------------------------------------------------------
// Route

/**
 * The legs that make the port of loading, the transshipments and the port of discharge: vessel moves
 * (LOAD/DISC without a transport call count as vessel moves, as they almost always are). A barge that
 * feeds the ocean vessel (Duisburg to Antwerp, Chongqing to Shanghai) is pre- or on-carriage, so its
 * terminals are prepol/postpod; only a journey with no vessel at all is routed by its barges (a barge
 * feeder then stands in for the vessel).
 */
function mainlinePredicate(sequence: Candidate[]): (c: Candidate) => boolean {
  const bargeIsMainline = !sequence.some((c) => c.mode === "VESSEL");
  return (c) =>
    c.mode === "VESSEL" ||
    (bargeIsMainline && c.mode === "BARGE") ||
    (c.mode === null && (c.code === "LOAD" || c.code === "DISC"));
}

interface RouteKeys {
  mainline: (c: Candidate) => boolean;
  prepol: Candidate | null;
  pol: Candidate | null;
  pod: Candidate | null;
  postpod: Candidate | null;
  polKey: string | null;
  podKey: string | null;
  prepolKey: string | null;
  postpodKey: string | null;
}

function buildRoute(sequence: Candidate[]): { route: RouteKeys; transshipments: string[] } {
  const mainline = mainlinePredicate(sequence);
  // POL: the first vessel loading; without loading events, the first departure.
  let polEvent = sequence.find((c) => c.code === "LOAD" && mainline(c)) ?? null;
  polEvent ??= sequence.find((c) => c.code === "DEPA" && mainline(c)) ?? null;
  const polKey = polEvent?.locationKey ?? null;
  let pol: Candidate | null = null;
  if (polEvent) {
    const after = sequence.slice(sequence.indexOf(polEvent));
    const departures = after.filter((c) => c.code === "DEPA" && mainline(c) && c.locationKey === polKey);
    // The date of the POL is the departure there, falling back to the loading.
    pol =
      departures.find((d) => polEvent?.transportCallId && d.transportCallId === polEvent.transportCallId) ??
      departures[0] ??
      polEvent;
    if (pol.instantMs === null && polEvent.instantMs !== null) pol = polEvent;
  }

  // POD: the last vessel discharge or arrival away from the POL. A query by box or document returns
  // the calls of that box, so a later call of the vessel after our box left it is not expected.
  const podEvent =
    sequence.findLast(
      (c) => (c.code === "DISC" || c.code === "ARRI") && mainline(c) && c.locationKey !== polKey,
    ) ?? null;
  const podKey = podEvent?.locationKey ?? null;
  let pod: Candidate | null = null;
  if (podKey) {
    const atPod = sequence.filter((c) => c.locationKey === podKey);
    const arrival = atPod.find((c) => c.code === "ARRI" && mainline(c));
    pod =
      arrival?.instantMs != null ? arrival : (atPod.find((c) => c.instantMs !== null) ?? arrival ?? podEvent);
  }

  // Transshipment (a DISC followed by a LOAD at an intermediate call). A discharge between
  // the POL and the POD is enough: the onward loading is often published later than the discharge.
  const transshipments: string[] = [];
  const podIndex = podEvent ? sequence.indexOf(podEvent) : -1;
  sequence.forEach((c, i) => {
    if (c.kind !== "EQUIPMENT" || c.code !== "DISC" || !mainline(c) || i >= podIndex) return;
    if (c.locationKey === polKey || c.locationKey === podKey || transshipments.includes(c.locationKey))
      return;
    transshipments.push(c.locationKey);
  });

  // Prepol: the first place before loading that is not the POL (empty depot, shipper, inland ramp).
  let prepol: Candidate | null = null;
  if (polEvent) {
    const firstAtPol = sequence.findIndex((c) => c.locationKey === polKey);
    const before = sequence.slice(0, firstAtPol < 0 ? sequence.indexOf(polEvent) : firstAtPol);
    const first = before.find((c) => c.locationKey !== polKey);
    if (first)
      prepol = sequence.find((c) => c.locationKey === first.locationKey && c.instantMs !== null) ?? first;
  }

  // Postpod: the last place after the POD reached by land. Empty boxes going back to a depot and the
  // vessel's later calls are not the destination.
  let postpod: Candidate | null = null;
  if (podKey) {
    const firstAtPod = sequence.findIndex((c) => c.locationKey === podKey);
    const after = sequence.slice(firstAtPod + 1);
    const last = after.findLast(
      (c) => c.locationKey !== podKey && c.emptyIndicator !== "EMPTY" && !mainline(c),
    );
    if (last) {
      const there = after.filter((c) => c.locationKey === last.locationKey);
      postpod = there.find((c) => c.instantMs !== null) ?? last;
    }
  }

  const route = {
    mainline,
    prepol,
    pol,
    pod,
    postpod,
    polKey,
    podKey,
    prepolKey: prepol?.locationKey ?? null,
    postpodKey: postpod?.locationKey ?? null,
  };
  return { route, transshipments };
}

function routePoint(c: Candidate | null): RoutePoint {
  if (c === null) return { locationKey: null, localDateTime: null, instant: null, actual: null };
  return {
    locationKey: c.locationKey,
    localDateTime: c.local,
    instant: c.instantMs === null ? null : iso(c.instantMs),
    actual: c.instantMs === null ? null : c.actual,
  };
}

function routeOut(route: RouteKeys): TrackedRoute {
  const out = emptyRoute();
  out.prepol = routePoint(route.prepol);
  out.pol = routePoint(route.pol);
  out.pod = routePoint(route.pod);
  out.postpod = routePoint(route.postpod);
  return out;
}

function podArrivalOf(sequence: Candidate[], route: RouteKeys): Candidate | null {
  if (route.podKey === null) return null;
  return (
    sequence.find((c) => c.code === "ARRI" && route.mainline(c) && c.locationKey === route.podKey) ?? null
  );
}

/**
 * Every revision of the arrival at the POD the carrier sent, in the order it issued them. A PLN issued
 * after an EST does not replace it, and nothing replaces an ACT (the same precedence as the route).
 */
function etaHistory(all: Candidate[], route: RouteKeys): EtaRevision[] {
  if (route.podKey === null) return [];
  const revisions = all
    .filter(
      (c) => c.code === "ARRI" && route.mainline(c) && c.locationKey === route.podKey && c.instantMs !== null,
    )
    .sort((a, b) => a.createdMs - b.createdMs || a.index - b.index);
  const history: EtaRevision[] = [];
  let strongest = -1;
  for (const r of revisions) {
    const rank = r.actual
      ? CLASSIFIER_RANK.ACT
      : CLASSIFIER_RANK[r.classifier === "ACT" ? "EST" : r.classifier];
    if (rank < strongest) continue;
    strongest = rank;
    const eta = iso(r.instantMs as number);
    const last = history.at(-1);
    if (last && last.eta === eta && last.actual === r.actual) continue;
    history.push({ eta, localDateTime: r.local as string, recordedAt: iso(r.createdMs), actual: r.actual });
  }
  return history;
}

// ---------------------------------------------------------------------------------------------------
// Per-container journey, status codes and status

interface Journey {
  placesAt(i: number): Set<JourneyPlace>;
  exportEnd: number;
  importStart: number;
}

function journeyOf(list: Candidate[], route: RouteKeys, transshipments: string[]): Journey {
  let exportEnd = list.findIndex(
    (c) => route.mainline(c) && (c.code === "LOAD" || c.code === "DEPA") && c.locationKey === route.polKey,
  );
  if (exportEnd < 0 && route.polKey === null)
    exportEnd = list.findIndex((c) => route.mainline(c) && c.code !== "ARRI");
  if (exportEnd < 0) exportEnd = list.length;
  const importStart =
    route.podKey === null ? list.length : list.findIndex((c) => c.locationKey === route.podKey);
  const onRoute = new Set(
    [route.prepolKey, route.polKey, route.podKey, route.postpodKey, ...transshipments].filter(
      (k): k is string => k !== null,
    ),
  );
  return {
    exportEnd,
    importStart: importStart < 0 ? list.length : importStart,
    placesAt(i: number) {
      const c = list[i];
      const places = new Set<JourneyPlace>();
      if (c === undefined) return places;
      if (i < exportEnd) places.add("export");
      if (importStart >= 0 && i > importStart) places.add("import");
      if (c.locationKey === route.polKey) places.add("pol");
      if (transshipments.includes(c.locationKey)) places.add("ts");
      if (c.locationKey === route.podKey) places.add("pod");
      if (c.locationKey === route.postpodKey) places.add("postpod");
      if (!onRoute.has(c.locationKey)) places.add("offRoute");
      return places;
    },
  };
}

function toTrackedEvent(c: Candidate, places: Set<JourneyPlace>, route: RouteKeys): TrackedEvent {
  const emitted = isEmittedEventCode(c.code);
  // On a journey with no vessel, the barge is the main carriage and earns the vessel codes.
  const statusMode = c.mode === "BARGE" && route.mainline(c) ? "VESSEL" : c.mode;
  const statusCode = emitted ? compatStatusFor(c.code, c.emptyIndicator, statusMode, places) : null;
  return {
    kind: c.kind,
    eventCode: c.code,
    emitted,
    statusCode,
    description: describeEvent(c.code, c.emptyIndicator, c.mode, statusCode),
    localDateTime: c.local,
    utcOffset: c.offset,
    instant: c.instantMs === null ? null : iso(c.instantMs),
    actual: c.actual,
    modeOfTransport: c.mode,
    legType: c.mode === "VESSEL" ? "sea" : "land",
    vesselKey: c.vesselKey,
    voyage: c.voyage,
    locationKey: c.locationKey,
    facilityKey: c.facilityKey,
    emptyIndicator: c.emptyIndicator,
    isAdditional: places.has("offRoute"),
    dcsaEventId: c.dcsaEventId,
  };
}

/**
 * Status rules, per container (ours: T&T 2.2 defines events, not a status). One reading of ours: a
 * vessel's arrival at the port of loading (it comes to fetch the box) does not put the box in transit;
 * every other actual ARRI/DEPA/LOAD/DISC does.
 */
function containerStatus(
  list: Candidate[],
  journey: Journey,
  route: RouteKeys,
): { status: ShipmentStatus; deliveredAt: string | null } {
  if (list.length === 0) return { status: "UNKNOWN", deliveredAt: null };
  const finalKey = route.postpodKey ?? route.podKey;
  const proofs: number[] = [];
  let delivered = false;
  list.forEach((c, i) => {
    if (!c.actual) return;
    const deliveryToConsignee =
      (c.code === "GTOT" &&
        c.emptyIndicator === "LADEN" &&
        finalKey !== null &&
        c.locationKey === finalKey &&
        i >= journey.importStart) ||
      (c.code === "DROP" && c.facilityTypeCode === "CLOC" && i >= journey.exportEnd);
    if (deliveryToConsignee) {
      delivered = true;
      if (c.instantMs !== null) proofs.push(c.instantMs);
    }
    // An empty box back at a depot after the import discharge means the cargo was delivered, but it
    // is no proof of when: deliveredAt stays with the gate-out or drop-off.
    const emptyReturn =
      c.code === "GTIN" &&
      c.emptyIndicator === "EMPTY" &&
      list.slice(0, i).some((d) => d.code === "DISC" && d.locationKey === route.podKey);
    if (emptyReturn) delivered = true;
  });
  if (delivered) {
    return { status: "DELIVERED", deliveredAt: proofs.length > 0 ? iso(Math.max(...proofs)) : null };
  }
  const moving = list.some((c, i) => {
    if (!c.actual) return false;
    if (c.code === "GTIN")
      return c.emptyIndicator === "LADEN" && (i < journey.exportEnd || c.locationKey === route.polKey);
    if (c.code === "ARRI" && route.mainline(c) && c.locationKey === route.polKey) return false;
    return c.code === "LOAD" || c.code === "DEPA" || c.code === "ARRI" || c.code === "DISC";
  });
  return { status: moving ? "IN_TRANSIT" : "PLANNED", deliveredAt: null };
}

function shipmentStatus(statuses: ShipmentStatus[]): ShipmentStatus {
  if (statuses.length > 0 && statuses.every((s) => s === "DELIVERED")) return "DELIVERED";
  if (statuses.some((s) => s === "IN_TRANSIT" || s === "DELIVERED")) return "IN_TRANSIT";
  if (statuses.some((s) => s === "PLANNED")) return "PLANNED";
  return "UNKNOWN";
}

/**
 * CANC on the booking (2.3, sent by some 2.2 endpoints) cancels it, and so does REJE: 2.2 has no other
 * way to say it (an optional reading of 2.2, ours). A later confirmation reinstates the booking,
 * and so does an actual move of a box after the refusal (the booking plainly went ahead). VOID on a
 * transport document is a reissue, not a cancellation.
 */
function bookingCancelled(facts: ShipmentFact[], moves: Candidate[], run: MappingRun): boolean {
  const decisive = facts
    .filter((f) => f.documentTypeCode === "BKG" && ["CONF", "APPR", "CANC", "REJE"].includes(f.code))
    .sort((a, b) => a.atMs - b.atMs || a.createdMs - b.createdMs);
  const last = decisive.at(-1);
  if (last === undefined || (last.code !== "CANC" && last.code !== "REJE")) return false;
  if (moves.some((c) => c.actual && c.instantMs !== null && c.instantMs > last.atMs)) {
    run.warn(`booking ${last.code} is followed by actual moves; not treated as cancelled`);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Output helpers

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function orderedUsed<T>(
  sequence: Candidate[],
  keyOf: (c: Candidate) => string | null,
  pool: Map<string, T>,
): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const c of sequence) {
    const key = keyOf(c);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    const item = pool.get(key);
    if (item !== undefined) out.push(item);
  }
  return out;
}

function currentPosition(
  sequence: Candidate[],
  locations: Map<string, TrackedLocation>,
  facilities: Map<string, TrackedFacility>,
): GeoPoint | null {
  for (const c of [...sequence].reverse()) {
    if (!c.actual || c.instantMs === null) continue;
    const loc = locations.get(c.locationKey);
    if (loc?.lat != null && loc.lng != null) return { lat: loc.lat, lng: loc.lng };
    const fac = c.facilityKey ? facilities.get(c.facilityKey) : undefined;
    if (fac?.lat != null && fac.lng != null) return { lat: fac.lat, lng: fac.lng };
  }
  return null;
}
