/**
 * Event -> candidate.
 */
import type { EmptyIndicator, EventCode } from "../../../domain/tracking/model";
import { type ParsedDateTime, parseDcsaDateTime } from "../dcsa-datetime";
import type {
  DcsaEquipmentEvent,
  DcsaLocation,
  DcsaTransportCall,
  DcsaTransportEvent,
} from "../dcsa-tnt.schema";
import {
  type Candidate,
  EARLIEST_PLAUSIBLE_MS,
  type FacilityData,
  LATEST_PLAUSIBLE_EVENT_AHEAD_MS,
  type MappingRun,
  type PlaceData,
} from "./mapping-run";

// Placeholders carriers put in text fields when they have nothing to say.
const PLACEHOLDERS = new Set(["N/A", "NA", "-", "--", "NULL", "NONE", "UNKNOWN"]);

export const clean = (v: string | null | undefined): string | null => {
  const t = v?.trim();
  return t && !PLACEHOLDERS.has(t.toUpperCase()) ? t : null;
};

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

export function countryName(countryCode: string | null): string | null {
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

export function normaliseContainerNumber(v: string): string {
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

export function candidateFrom(
  e: DcsaTransportEvent | DcsaEquipmentEvent,
  /** Where the event stood in the answer, when the carrier created it, and its own id if it gave one. */
  { index, createdMs, eventId }: { index: number; createdMs: number; eventId: string | null },
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
