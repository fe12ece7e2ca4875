/**
 * The canonical tracking model. Every surface renders this one document: the compat shape and the v1
 * tables are two renderings of it, and it is stored as JSONB, so it holds only strings, numbers,
 * booleans, null, arrays and plain objects (no Date, no undefined, no Map).
 *
 * Cross-references use string keys that are stable within one document (a UN/LOCODE, a facility code,
 * an IMO number). Arrays are in first-appearance order, so a renderer can hand out integer ids
 * (1, 2, 3 ...) by position and get the same ids for the same document every time.
 */

export type ReferenceType = "container" | "bl" | "booking";

export const SHIPMENT_STATUSES = ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const EVENT_KINDS = ["EQUIPMENT", "TRANSPORT"] as const;
export type TrackedEventKind = (typeof EVENT_KINDS)[number];
export const MODES_OF_TRANSPORT = ["VESSEL", "TRUCK", "RAIL", "BARGE"] as const;
export type ModeOfTransport = (typeof MODES_OF_TRANSPORT)[number];
/** Stored lowercase: the documents already in the store say `sea` and `land`. */
export type LegType = "sea" | "land";
export const EMPTY_INDICATORS = ["EMPTY", "LADEN"] as const;
export type EmptyIndicator = (typeof EMPTY_INDICATORS)[number];

/**
 * Every DCSA Track & Trace 2.2 event code a document can hold: the transport codes (DEPA, ARRI) and
 * the equipment codes. The carrier adapter refuses any other code, so a stored event has one of these.
 */
export const EVENT_CODES = [
  "PICK",
  "GTIN",
  "GTOT",
  "LOAD",
  "DEPA",
  "ARRI",
  "DISC",
  "DROP",
  "STUF",
  "STRP",
  "INSP",
  "RSEA",
  "RMVD",
] as const;
export type EventCode = (typeof EVENT_CODES)[number];

/**
 * DCSA event codes the compat surface shows. Other DCSA codes (DROP, STUF, STRP, INSP, RSEA, RMVD) are
 * kept in the document with `emitted: false` so status rules can use them (an actual DROP at a
 * customer location is a delivery) without leaking codes the compat vocabulary does not have.
 */
export const EMITTED_EVENT_CODES = ["PICK", "GTIN", "GTOT", "LOAD", "DEPA", "ARRI", "DISC"] as const;
export type EmittedEventCode = (typeof EMITTED_EVENT_CODES)[number];

export function isEmittedEventCode(code: string): code is EmittedEventCode {
  return (EMITTED_EVENT_CODES as readonly string[]).includes(code);
}

/**
 * Compat event status codes: the SeaRates v3 tracking vocabulary as its public consumers use it
 * (project44 support article 4812871209499, the Chaine handbook "container events").
 */
export const COMPAT_STATUS_CODES = [
  "CEP",
  "CPS",
  "CGI",
  "CLL",
  "VDL",
  "VAT",
  "CDT",
  "TSD",
  "CLT",
  "VDT",
  "VAD",
  "CDD",
  "CGO",
  "CDC",
  "CER",
  "LTS",
  "BTS",
  "UNK",
] as const;
export type CompatStatusCode = (typeof COMPAT_STATUS_CODES)[number];

export interface TrackedLocation {
  key: string;
  unLocode: string | null;
  name: string;
  state: string | null;
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
  lat: number | null;
  lng: number | null;
  /** IANA zone name. */
  timeZone: string | null;
}

export interface TrackedFacility {
  key: string;
  name: string;
  locode: string | null;
  countryCode: string | null;
  smdgCode: string | null;
  bicCode: string | null;
  lat: number | null;
  lng: number | null;
}

export interface TrackedVessel {
  key: string;
  name: string;
  imo: number | null;
  /** DCSA T&T 2.2 carries no MMSI; filled later from schedules or AIS when known. */
  mmsi: number | null;
}

export interface TrackedEvent {
  kind: TrackedEventKind;
  /** The DCSA code as received (ARRI, LOAD, ... and also DROP, INSP ... which are not emitted). */
  eventCode: EventCode;
  /** False for DCSA codes the compat vocabulary has no code for; renderers skip those events. */
  emitted: boolean;
  statusCode: CompatStatusCode | null;
  description: string;
  /** Wall-clock time at the location, `YYYY-MM-DD HH:MM:SS`; null when the carrier never dated it. */
  localDateTime: string | null;
  /** Offset of `localDateTime` from UTC, `+08:00`. */
  utcOffset: string | null;
  /** ISO 8601 UTC instant. */
  instant: string | null;
  actual: boolean;
  modeOfTransport: ModeOfTransport | null;
  legType: LegType;
  vesselKey: string | null;
  voyage: string | null;
  locationKey: string;
  facilityKey: string | null;
  emptyIndicator: EmptyIndicator | null;
  /** At a place that is not on the route (not prepol, pol, a transshipment, pod or postpod). */
  isAdditional: boolean;
  dcsaEventId: string | null;
  /**
   * Who reported it when it is not the carrier: a partner source of the organisation (issue 41).
   * Absent on the carrier's own events, so documents stored before partners existed hash alike.
   */
  source?: PartnerEventSource;
}

/** A partner source named on an event it reported, with the sender's own id of the event. */
export interface PartnerEventSource {
  kind: "partner";
  sourceId: string;
  name: string;
  eventId: string;
}

export interface TrackedContainer {
  number: string;
  /** Only a valid ISO 6346 size-type code (22G1, 45R1, 22GP); shorthand goes to `sizeType`. */
  isoCode: string | null;
  /** Shorthand such as 40HQ. */
  sizeType: string | null;
  description: string | null;
  status: ShipmentStatus;
  statusFromCarrier: boolean;
  /** True when none of the events shown are the container's own (all copied from shared vessel calls). */
  eventsMirrored: boolean;
  /** Verified actual delivery to the consignee; never port arrival or an empty return. */
  deliveredAt: string | null;
  events: TrackedEvent[];
}

export interface RoutePoint {
  locationKey: string | null;
  localDateTime: string | null;
  instant: string | null;
  /** null while nothing is known about the point. */
  actual: boolean | null;
}

export interface TrackedRoute {
  prepol: RoutePoint;
  pol: RoutePoint;
  pod: RoutePoint;
  postpod: RoutePoint;
}

export interface EtaRevision {
  /** ISO UTC instant of the estimated (or actual) arrival at the port of discharge. */
  eta: string;
  localDateTime: string;
  /** When the carrier issued this revision (its eventCreatedDateTime). */
  recordedAt: string;
  actual: boolean;
}

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface TrackingDocument {
  referenceType: ReferenceType;
  reference: string;
  carrierScac: string;
  status: ShipmentStatus;
  statusFromCarrier: boolean;
  locations: TrackedLocation[];
  facilities: TrackedFacility[];
  vessels: TrackedVessel[];
  containers: TrackedContainer[];
  route: TrackedRoute;
  etaHistory: EtaRevision[];
  transshipmentLocationKeys: string[];
  /** Vessel arrival at the final port of discharge only; never a transshipment call. */
  ata: string | null;
  /** Verified actual delivery to the consignee only; never port arrival or empty return. */
  deliveredAt: string | null;
  currentPosition: GeoPoint | null;
  /** ISO UTC instant of the carrier fetch this document came from. */
  fetchedAt: string;
}

export function emptyRoutePoint(): RoutePoint {
  return { locationKey: null, localDateTime: null, instant: null, actual: null };
}

export function emptyRoute(): TrackedRoute {
  return {
    prepol: emptyRoutePoint(),
    pol: emptyRoutePoint(),
    pod: emptyRoutePoint(),
    postpod: emptyRoutePoint(),
  };
}

/**
 * The one rule for which events a client sees: the emitted codes (EMITTED_EVENT_CODES), in stored
 * order. Every surface goes through here, so a code the compat vocabulary has no word for (a
 * delivery DROP) is hidden everywhere or nowhere; GraphQL shows the rest only when asked by name.
 */
export function visibleEvents(container: TrackedContainer): TrackedEvent[] {
  return container.events.filter((e) => e.emitted);
}
