/**
 * What real carriers send, made readable before validation: each repair is warned about under the
 * event's index, and an event is only dropped when nothing sensible can be read from it. Real senders
 * write `PLAN` for `PLN` (Evergreen's examples), lower-case codes, transport events without a
 * `transportCall` (ZIM), modes of transport outside the four of 2.2, and times without an offset.
 */
import { isLocalDateTime, parseDcsaDateTime, withOffsetIn } from "../dcsa-datetime";
import { MODES_OF_TRANSPORT } from "../dcsa-tnt.schema";
import type { MappingRun } from "./mapping-run";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const CODE_FIELDS = [
  "eventType",
  "eventClassifierCode",
  "transportEventTypeCode",
  "equipmentEventTypeCode",
  "shipmentEventTypeCode",
  "eventTypeCode",
  "documentTypeCode",
  "emptyIndicatorCode",
] as const;

const CLASSIFIER_ALIASES: Record<string, string> = {
  PLAN: "PLN",
  PLANNED: "PLN",
  ESTIMATED: "EST",
  ESTIMATE: "EST",
  ACTUAL: "ACT",
};

const LOCATION_CODE_FIELDS = ["UNLocationCode", "facilityCodeListProvider"] as const;

/** `undefined`: the event is set aside (said so in a warning); anything else goes to validation. */
export function normaliseEvent(raw: unknown, index: number, run: MappingRun): unknown {
  if (!isObject(raw)) return raw;
  const warn = (message: string) => run.warn(`event ${index}: ${message}`);
  let event: Json = { ...raw };
  if (isObject(raw.eventClassification)) {
    const translated = fromVersion3(raw, index, warn);
    if (translated === undefined) return undefined;
    event = translated;
  }

  for (const field of CODE_FIELDS) upperCase(event, field, warn);
  const classifier = event.eventClassifierCode;
  if (typeof classifier === "string" && CLASSIFIER_ALIASES[classifier]) {
    warn(`eventClassifierCode "${classifier}" read as "${CLASSIFIER_ALIASES[classifier]}"`);
    event.eventClassifierCode = CLASSIFIER_ALIASES[classifier];
  }

  if (event.eventType === "SHIPMENT") normaliseShipmentEvent(event, warn);

  if (isObject(event.eventLocation)) event.eventLocation = normaliseLocation(event.eventLocation, warn);
  if (isObject(event.transportCall)) {
    event.transportCall = normaliseTransportCall(event.transportCall, index, warn);
  } else if (event.eventType === "TRANSPORT" && isObject(event.eventLocation)) {
    // 2.2 requires the call; without it the event is still a vessel arriving or leaving a place.
    const place = event.eventLocation;
    warn("TRANSPORT event without transportCall; placed by its eventLocation");
    event.transportCall = {
      transportCallID: `event-${index}`,
      modeOfTransport: null,
      UNLocationCode: place.UNLocationCode ?? null,
      location: place,
    };
  }

  normaliseEventTime(event, warn, run);
  normaliseCreatedTime(event, warn, run);
  return event;
}

/**
 * Shipment events are about documents, which are facts when they are sent: a missing classifier is
 * read as ACT. `eventSubtype` is the pre-2.2 name of `shipmentEventTypeCode` (the 200 example of the
 * 2.2 OpenAPI file still uses it).
 */
function normaliseShipmentEvent(event: Json, warn: (m: string) => void): void {
  if (event.shipmentEventTypeCode == null && typeof event.eventSubtype === "string") {
    const code = event.eventSubtype.trim().toUpperCase();
    warn(`eventSubtype "${event.eventSubtype}" read as shipmentEventTypeCode`);
    event.shipmentEventTypeCode = code;
  }
  if (event.eventClassifierCode == null) {
    warn("SHIPMENT event without eventClassifierCode; read as ACT");
    event.eventClassifierCode = "ACT";
  }
}

function upperCase(target: Json, field: string, warn: (m: string) => void): void {
  const value = target[field];
  if (typeof value !== "string") return;
  const upper = value.trim().toUpperCase();
  if (upper === value) return;
  if (upper !== value.trim()) warn(`${field} "${value}" read as "${upper}"`);
  target[field] = upper;
}

function normaliseLocation(location: Json, warn: (m: string) => void): Json {
  const copy = { ...location };
  for (const field of LOCATION_CODE_FIELDS) upperCase(copy, field, warn);
  return copy;
}

function normaliseTransportCall(call: Json, index: number, warn: (m: string) => void): Json {
  const copy: Json = { ...call };
  for (const field of LOCATION_CODE_FIELDS) upperCase(copy, field, warn);
  if (isObject(copy.location)) copy.location = normaliseLocation(copy.location, warn);
  upperCase(copy, "modeOfTransport", warn);
  const mode = copy.modeOfTransport;
  if (mode !== undefined && mode !== null && !(MODES_OF_TRANSPORT as readonly unknown[]).includes(mode)) {
    warn(`modeOfTransport ${JSON.stringify(mode)} is not a DCSA 2.2 mode; read as another mode (unknown)`);
    copy.modeOfTransport = null;
  }
  if (typeof copy.transportCallID !== "string" || copy.transportCallID.trim() === "") {
    warn("transportCall without transportCallID; the call stands for this event alone");
    copy.transportCallID = `event-${index}`;
  }
  return copy;
}

/** The UN/LOCODE where the event happened, for the time zone of an offset-less time. */
function locodeOf(event: Json): string | null {
  const call = isObject(event.transportCall) ? event.transportCall : null;
  const places = [
    event.eventLocation,
    call?.location,
    call ? { UNLocationCode: call.UNLocationCode } : undefined,
  ];
  for (const place of places) {
    if (isObject(place) && typeof place.UNLocationCode === "string" && place.UNLocationCode.trim() !== "") {
      return place.UNLocationCode.trim().toUpperCase();
    }
  }
  return null;
}

/**
 * An offset-less `eventDateTime` is the wall clock where it happened: read in that port's zone (UTC
 * when the zone is not known, said so). An unreadable one leaves the event undated, as a missing one does.
 */
function normaliseEventTime(event: Json, warn: (m: string) => void, run: MappingRun): void {
  const value = event.eventDateTime;
  if (value === undefined || value === null) return;
  if (typeof value === "string" && parseDcsaDateTime(value) !== null) return;
  if (typeof value === "string" && isLocalDateTime(value)) {
    const locode = locodeOf(event);
    const zone = locode ? (run.context.locationLookup?.(locode)?.timeZone ?? null) : null;
    const read = (zone && withOffsetIn(value, zone)) || withOffsetIn(value, null);
    if (read !== null) {
      warn(
        zone
          ? `eventDateTime ${value} has no offset; read as local time in ${zone} (${locode})`
          : `eventDateTime ${value} has no offset and the place's time zone is not known; read as UTC`,
      );
      event.eventDateTime = read;
      return;
    }
  }
  warn(`eventDateTime ${JSON.stringify(value)} is not a date-time; kept undated`);
  event.eventDateTime = null;
}

/**
 * `eventCreatedDateTime` is metadata (which revision is newer): an offset-less one is read as UTC, and
 * a missing or unreadable one is replaced by the event's own time, so the event is kept.
 */
function normaliseCreatedTime(event: Json, warn: (m: string) => void, run: MappingRun): void {
  const value = event.eventCreatedDateTime;
  if (typeof value === "string" && parseDcsaDateTime(value) !== null) return;
  if (typeof value === "string" && isLocalDateTime(value)) {
    warn(`eventCreatedDateTime ${value} has no offset; read as UTC`);
    event.eventCreatedDateTime = withOffsetIn(value, null);
    return;
  }
  const own = typeof event.eventDateTime === "string" ? event.eventDateTime : null;
  const stand = own ?? run.context.fetchedAt.toISOString();
  warn(
    `eventCreatedDateTime ${value === undefined ? "missing" : JSON.stringify(value)}; kept, taken as ${own ? "its eventDateTime" : "the time of the lookup"}`,
  );
  event.eventCreatedDateTime = stand;
}

/**
 * A 3.0 location in the 2.2 shape: `geoCoordinate` becomes `latitude`/`longitude`, `facility` the
 * `facilityCode` (and its list provider, and the name when the location has none).
 */
function locationFromVersion3(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const { geoCoordinate, facility, ...out } = value;
  if (isObject(geoCoordinate)) {
    out.latitude ??= geoCoordinate.latitude;
    out.longitude ??= geoCoordinate.longitude;
  }
  if (isObject(facility)) {
    out.facilityCode ??= facility.facilityCode;
    out.facilityCodeListProvider ??= facility.facilityCodeListProvider;
    out.locationName ??= facility.facilityName;
  }
  return out;
}

/**
 * A T&T 3.0 event in the 2.2 shape the rest of the mapper reads: the codes come out of
 * `eventClassification`, the box out of `equipmentDetails`, the document out of `shipmentDetails`, the
 * call (voyages, service, vessel) out of `transportDetails.transportCall`, and `eventUpdatedDateTime`
 * stands for the creation time. IOT and REEFER events are sensor readings, not milestones: set aside.
 */
function fromVersion3(event: Json, index: number, warn: (m: string) => void): Json | undefined {
  const c = event.eventClassification as Json;
  const type = typeof c.eventTypeCode === "string" ? c.eventTypeCode.trim().toUpperCase() : c.eventTypeCode;
  if (type === "IOT" || type === "REEFER") {
    warn(`${type} event (T&T 3.0) is a sensor reading, not a milestone; set aside`);
    return undefined;
  }
  const out: Json = {
    eventID: event.eventID,
    eventType: type,
    eventClassifierCode: c.eventClassifierCode,
    eventDateTime: event.eventDateTime,
    eventCreatedDateTime: event.eventCreatedDateTime ?? event.eventUpdatedDateTime,
    eventLocation: locationFromVersion3(event.eventLocation),
    transportEventTypeCode: c.transportEventTypeCode,
    equipmentEventTypeCode: c.equipmentEventTypeCode,
    shipmentEventTypeCode: c.shipmentEventTypeCode,
  };
  const equipment = isObject(event.equipmentDetails) ? event.equipmentDetails : null;
  if (equipment) {
    out.equipmentReference = equipment.equipmentReference;
    out.ISOEquipmentCode = equipment.ISOEquipmentCode;
    out.emptyIndicatorCode = equipment.emptyIndicatorCode;
  }
  const shipment = isObject(event.shipmentDetails) ? event.shipmentDetails : null;
  const document = shipment && isObject(shipment.documentReference) ? shipment.documentReference : null;
  if (type === "SHIPMENT" && document) {
    out.documentTypeCode = document.typeCode;
    out.documentID = document.reference;
  }
  const details = isObject(event.transportDetails) ? event.transportDetails : null;
  const call = details && isObject(details.transportCall) ? details.transportCall : null;
  if (call) {
    // 3.0 keeps the call's place (and its facility type) on the event, not in the call.
    const place = locationFromVersion3(isObject(call.location) ? call.location : event.eventLocation) ?? null;
    const vessel = isObject(call.vesselTransport) ? call.vesselTransport : null;
    const voyage = (v: unknown) => (isObject(v) ? v.carrierVoyageNumber : undefined);
    out.transportCall = {
      transportCallID: call.transportCallReference ?? call.transportCallID ?? `event-${index}`,
      transportCallSequenceNumber: call.transportCallSequenceNumber,
      modeOfTransport: call.modeOfTransport ?? null,
      carrierServiceCode: isObject(call.serviceCodeOrReference)
        ? call.serviceCodeOrReference.carrierServiceCode
        : undefined,
      exportVoyageNumber: voyage(call.exportVoyageNumberOrReference),
      importVoyageNumber: voyage(call.importVoyageNumberOrReference),
      UNLocationCode: place?.UNLocationCode,
      facilityTypeCode: place?.facilityTypeCode,
      location: place ?? undefined,
      vessel: vessel ? { vesselIMONumber: vessel.vesselIMONumber, vesselName: vessel.vesselName } : undefined,
    };
  }
  for (const [key, value] of Object.entries(out)) if (value === undefined) delete out[key];
  return out;
}
