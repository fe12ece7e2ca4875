/**
 * Builders for hand-made DCSA T&T 2.2 events, shaped like the official examples, so a scenario reads as
 * a journey: `equipment("LOAD", "ACT", "2024-01-07T03:00:00+08:00", BOX, "LADEN", { call: SHA_A })`.
 */

export type Mode = "VESSEL" | "TRUCK" | "RAIL" | "BARGE";
export type Classifier = "ACT" | "EST" | "PLN";

export interface Vessel {
  imo: string;
  name: string;
}

export interface Call {
  id: string;
  mode?: Mode;
  locode?: string;
  seq?: number;
  vessel?: Vessel;
  exportVoyage?: string;
  importVoyage?: string;
  facilityCode?: string;
  facilityProvider?: "SMDG" | "BIC";
  facilityTypeCode?: string;
}

export interface Place {
  locode?: string;
  name?: string;
  facilityCode?: string;
  facilityProvider?: "SMDG" | "BIC";
  lat?: string;
  lng?: string;
  city?: string;
}

export const KING_OF_THE_SEAS: Vessel = { imo: "9321483", name: "KING OF THE SEAS" };
export const EVER_GIVEN: Vessel = { imo: "9811000", name: "EVER GIVEN" };

let counter = 0;
export function nextEventId(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`;
}

const DEFAULT_CREATED = "2024-01-01T00:00:00Z";

export function transportCall(call: Call): Record<string, unknown> {
  return {
    transportCallID: call.id,
    modeOfTransport: call.mode ?? "VESSEL",
    ...(call.locode ? { UNLocationCode: call.locode } : {}),
    ...(call.seq !== undefined ? { transportCallSequenceNumber: call.seq } : {}),
    ...(call.exportVoyage ? { exportVoyageNumber: call.exportVoyage } : {}),
    ...(call.importVoyage ? { importVoyageNumber: call.importVoyage } : {}),
    ...(call.facilityCode
      ? { facilityCode: call.facilityCode, facilityCodeListProvider: call.facilityProvider ?? "SMDG" }
      : {}),
    ...(call.facilityTypeCode ? { facilityTypeCode: call.facilityTypeCode } : {}),
    ...(call.vessel ? { vessel: { vesselIMONumber: call.vessel.imo, vesselName: call.vessel.name } } : {}),
  };
}

function location(place: Place): Record<string, unknown> {
  return {
    ...(place.name ? { locationName: place.name } : {}),
    ...(place.lat ? { latitude: place.lat, longitude: place.lng } : {}),
    ...(place.locode ? { UNLocationCode: place.locode } : {}),
    ...(place.facilityCode
      ? { facilityCode: place.facilityCode, facilityCodeListProvider: place.facilityProvider ?? "SMDG" }
      : {}),
    ...(place.city ? { address: { city: place.city } } : {}),
  };
}

interface Common {
  created?: string;
  id?: string;
}

export function transport(
  code: "ARRI" | "DEPA",
  classifier: Classifier,
  at: string | null,
  call: Call,
  opts: Common & { containers?: string[] } = {},
): Record<string, unknown> {
  return {
    eventID: opts.id ?? nextEventId(),
    eventCreatedDateTime: opts.created ?? DEFAULT_CREATED,
    eventType: "TRANSPORT",
    eventClassifierCode: classifier,
    ...(at ? { eventDateTime: at } : {}),
    transportEventTypeCode: code,
    transportCall: transportCall(call),
    ...(opts.containers
      ? { references: opts.containers.map((c) => ({ referenceType: "EQ", referenceValue: c })) }
      : {}),
  };
}

export function equipment(
  code: string,
  classifier: Classifier,
  at: string | null,
  container: string | null,
  empty: "EMPTY" | "LADEN",
  opts: Common & { call?: Call; place?: Place; iso?: string } = {},
): Record<string, unknown> {
  return {
    eventID: opts.id ?? nextEventId(),
    eventCreatedDateTime: opts.created ?? DEFAULT_CREATED,
    eventType: "EQUIPMENT",
    eventClassifierCode: classifier,
    ...(at ? { eventDateTime: at } : {}),
    equipmentEventTypeCode: code,
    ...(container ? { equipmentReference: container } : {}),
    ...(opts.iso ? { ISOEquipmentCode: opts.iso } : {}),
    emptyIndicatorCode: empty,
    ...(opts.place ? { eventLocation: location(opts.place) } : {}),
    ...(opts.call ? { transportCall: transportCall(opts.call) } : {}),
  };
}

export function shipment(
  code: string,
  documentTypeCode: string,
  at: string,
  documentID = "BKG123456",
): Record<string, unknown> {
  return {
    eventID: nextEventId(),
    eventCreatedDateTime: at,
    eventType: "SHIPMENT",
    eventClassifierCode: "ACT",
    eventDateTime: at,
    shipmentEventTypeCode: code,
    documentTypeCode,
    documentID,
  };
}

// A Shanghai -> Singapore (transshipment) -> Rotterdam journey used by several scenarios.
export const BOX = "MAEU1234567";
export const SHA_A: Call = {
  id: "call-sha-a",
  locode: "CNSHA",
  seq: 1,
  vessel: KING_OF_THE_SEAS,
  exportVoyage: "101W",
  importVoyage: "100E",
};
export const SIN_A: Call = {
  id: "call-sin-a",
  locode: "SGSIN",
  seq: 2,
  vessel: KING_OF_THE_SEAS,
  exportVoyage: "102W",
  importVoyage: "101W",
};
export const SIN_B: Call = {
  id: "call-sin-b",
  locode: "SGSIN",
  seq: 7,
  vessel: EVER_GIVEN,
  exportVoyage: "202W",
  importVoyage: "201E",
};
export const RTM_B: Call = {
  id: "call-rtm-b",
  locode: "NLRTM",
  seq: 9,
  vessel: EVER_GIVEN,
  exportVoyage: "203E",
  importVoyage: "202W",
};
export const SHANGHAI_DEPOT: Place = {
  locode: "CNSHA",
  name: "Shanghai Empty Depot",
  facilityCode: "SHDEPU",
  facilityProvider: "BIC",
};
export const SHANGHAI_TERMINAL: Place = {
  locode: "CNSHA",
  name: "Yangshan Terminal",
  facilityCode: "YSH",
  facilityProvider: "SMDG",
};
export const ROTTERDAM_TERMINAL: Place = {
  locode: "NLRTM",
  name: "ECT Delta",
  facilityCode: "ECTDE",
  facilityProvider: "SMDG",
};
export const ROTTERDAM_DEPOT: Place = { locode: "NLRTM", name: "Rotterdam Empty Depot" };

/** Export leg and the transshipment at Singapore, actual up to the discharge there. */
export function journeyToSingapore(): Record<string, unknown>[] {
  return [
    equipment("GTOT", "ACT", "2024-01-02T09:00:00+08:00", BOX, "EMPTY", {
      place: SHANGHAI_DEPOT,
      iso: "45G1",
    }),
    equipment("GTIN", "ACT", "2024-01-05T14:00:00+08:00", BOX, "LADEN", { place: SHANGHAI_TERMINAL }),
    equipment("LOAD", "ACT", "2024-01-07T03:00:00+08:00", BOX, "LADEN", {
      call: SHA_A,
      place: SHANGHAI_TERMINAL,
    }),
    transport("DEPA", "ACT", "2024-01-07T18:00:00+08:00", SHA_A),
    transport("ARRI", "ACT", "2024-01-12T06:00:00+08:00", SIN_A),
    equipment("DISC", "ACT", "2024-01-12T12:00:00+08:00", BOX, "LADEN", { call: SIN_A }),
  ];
}

export function onwardFromSingapore(classifier: Classifier): Record<string, unknown>[] {
  return [
    equipment("LOAD", classifier, "2024-01-18T08:00:00+08:00", BOX, "LADEN", { call: SIN_B }),
    transport("DEPA", classifier, "2024-01-18T22:00:00+08:00", SIN_B),
    transport("ARRI", classifier, "2024-02-10T06:00:00+01:00", RTM_B),
    equipment("DISC", classifier, "2024-02-10T18:00:00+01:00", BOX, "LADEN", {
      call: RTM_B,
      place: ROTTERDAM_TERMINAL,
    }),
  ];
}
