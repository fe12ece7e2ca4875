/**
 * DCSA Commercial Schedules 1.0 `GET /<SCAC>/v1/point-to-point-routes` over the world's timetables
 * (world/fleet.ts): the carrier's direct sailings between two ports, or routings with one transshipment
 * when it has none, as `PointToPoint` objects (CS 1.0.3). Local times carry the port's offset. And
 * `GET /<SCAC>/v1/port-schedules`: the proforma calls of the world's planned voyages at a port on a date
 * (world/port-calls.ts).
 */
import { createHash } from "node:crypto";
import type { Carrier } from "../reference-data/carriers";
import {
  type RotationCall,
  routesBetween,
  type SailingLeg,
  type SailingRoute,
  voyageNumber,
} from "./world/fleet";
import { toLocalIso, utcOffsetMinutes } from "./world/local-time";
import type { PlannedPortCall } from "./world/port-calls";
import { findPort, type Port } from "./world/ports";

export const CS_API_VERSION = "1.0.3";
const DAY = 86_400_000;
const DEFAULT_LIMIT = 100;
const DEFAULT_WINDOW_DAYS = 28;
const MAX_WINDOW_DAYS = 180;
const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface CsProblem {
  property: string;
  value: string;
  message: string;
}

export interface PointToPointQuery {
  placeOfReceipt: string;
  placeOfDelivery: string;
  departureStartDate?: string;
  departureEndDate?: string;
  arrivalStartDate?: string;
  arrivalEndDate?: string;
  maxTranshipment: number;
  limit: number;
  offset: number;
  fingerprint: string;
}

const FILTERS = [
  "placeOfReceipt",
  "placeOfDelivery",
  "departureStartDate",
  "departureEndDate",
  "arrivalStartDate",
  "arrivalEndDate",
  "maxTranshipment",
  "receiptTypeAtOrigin",
  "deliveryTypeAtDestination",
  "cargoType",
] as const;

function validDate(text: string): boolean {
  return (
    DATE.test(text) &&
    !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
    new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
  );
}

export function parsePointToPointQuery(params: URLSearchParams): PointToPointQuery | CsProblem[] {
  const problems: CsProblem[] = [];
  const get = (name: string) => params.get(name) ?? undefined;
  for (const name of ["placeOfReceipt", "placeOfDelivery"]) {
    const value = get(name);
    if (!value) problems.push({ property: name, value: "", message: `${name} is required` });
    else if (!LOCODE.test(value))
      problems.push({ property: name, value, message: `${name} must be a UN/LOCODE` });
  }
  for (const name of ["departureStartDate", "departureEndDate", "arrivalStartDate", "arrivalEndDate"]) {
    const value = get(name);
    if (value !== undefined && !validDate(value)) {
      problems.push({ property: name, value, message: `${name} must be a date (YYYY-MM-DD)` });
    }
  }
  const maxText = get("maxTranshipment");
  const maxTranshipment = maxText === undefined ? 1 : Number(maxText);
  if (!Number.isInteger(maxTranshipment) || maxTranshipment < 0) {
    problems.push({
      property: "maxTranshipment",
      value: maxText ?? "",
      message: "maxTranshipment must be 0 or more",
    });
  }
  const limitText = get("limit");
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1) {
    problems.push({ property: "limit", value: limitText ?? "", message: "limit must be 1 or more" });
  }
  const fingerprint = createHash("sha256")
    .update(FILTERS.map((f) => `${f}=${get(f) ?? ""}`).join("&"))
    .digest("hex")
    .slice(0, 16);
  let offset = 0;
  const cursor = get("cursor");
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor);
    if (!decoded || decoded.fingerprint !== fingerprint) {
      problems.push({ property: "cursor", value: cursor, message: "cursor is not valid for these filters" });
    } else offset = decoded.offset;
  }
  if (problems.length > 0) return problems;
  return {
    placeOfReceipt: get("placeOfReceipt")!,
    placeOfDelivery: get("placeOfDelivery")!,
    departureStartDate: get("departureStartDate"),
    departureEndDate: get("departureEndDate"),
    arrivalStartDate: get("arrivalStartDate"),
    arrivalEndDate: get("arrivalEndDate"),
    maxTranshipment,
    limit,
    offset,
    fingerprint,
  };
}

export function encodeCsCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString("base64url");
}

function decodeCursor(cursor: string): { offset: number; fingerprint: string } | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as {
      o?: unknown;
      f?: unknown;
    };
    if (typeof parsed.o !== "number" || !Number.isInteger(parsed.o) || parsed.o < 0) return null;
    if (typeof parsed.f !== "string") return null;
    return { offset: parsed.o, fingerprint: parsed.f };
  } catch {
    return null;
  }
}

/** Midnight of a local date at a port, as an instant. */
function localMidnight(date: string, port: Port): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  return utcMidnight - utcOffsetMinutes(port.timeZone, utcMidnight) * 60_000;
}

function window(
  start: string | undefined,
  end: string | undefined,
  port: Port,
  now: number,
): { from: number; to: number } {
  const from = start
    ? localMidnight(start, port)
    : end
      ? localMidnight(end, port) - (DEFAULT_WINDOW_DAYS - 1) * DAY
      : now;
  const to = end ? localMidnight(end, port) + DAY : from + DEFAULT_WINDOW_DAYS * DAY;
  return { from, to: Math.min(to, from + MAX_WINDOW_DAYS * DAY) };
}

/** Every route of the query, before paging. Unknown ports answer no routes, as a carrier would. */
export function pointToPointRoutes(carrier: Carrier, query: PointToPointQuery, nowMs: number): object[] {
  const origin = findPort(query.placeOfReceipt);
  const destination = findPort(query.placeOfDelivery);
  if (!origin || !destination || origin.unLocode === destination.unLocode) return [];
  const byArrival =
    !query.departureStartDate &&
    !query.departureEndDate &&
    (query.arrivalStartDate !== undefined || query.arrivalEndDate !== undefined);
  const range = byArrival
    ? window(query.arrivalStartDate, query.arrivalEndDate, destination, nowMs)
    : window(query.departureStartDate, query.departureEndDate, origin, nowMs);
  let routes = routesBetween({
    carrier,
    origin,
    destination,
    from: range.from,
    to: range.to,
    by: byArrival ? "arrival" : "departure",
    maxTransshipments: query.maxTranshipment,
  });
  // Both windows given: a route must satisfy both.
  if (!byArrival && (query.arrivalStartDate || query.arrivalEndDate)) {
    const arrival = window(query.arrivalStartDate, query.arrivalEndDate, destination, nowMs);
    routes = routes.filter((r) => {
      const at = r.legs.at(-1)!.calls.at(-1)!.arrive;
      return at >= arrival.from && at < arrival.to;
    });
  }
  return routes.map((route, i) => renderRoute(carrier, route, i + 1));
}

function location(call: RotationCall) {
  const terminal = call.terminal;
  return {
    locationName: terminal?.name ?? call.port.name,
    UNLocationCode: call.port.unLocode,
    ...(terminal ? { facility: { facilityCode: terminal.smdgCode, facilityCodeListProvider: "SMDG" } } : {}),
  };
}

function renderLeg(carrier: Carrier, leg: SailingLeg, sequenceNumber: number) {
  const first = leg.calls[0]!;
  const last = leg.calls.at(-1)!;
  const service = leg.rotation.service;
  const serviceCode = service.codes[carrier.scac];
  const voyage = voyageNumber(carrier, leg);
  const vessel = leg.vessel;
  return {
    sequenceNumber,
    transport: {
      modeOfTransport: "VESSEL",
      servicePartners: [
        {
          carrierCode: carrier.scac,
          carrierCodeListProvider: "NMFTA",
          carrierServiceName: service.name,
          ...(serviceCode ? { carrierServiceCode: serviceCode } : {}),
          carrierImportVoyageNumber: voyage,
          carrierExportVoyageNumber: voyage,
        },
      ],
      vessel: {
        vesselIMONumber: vessel.imo,
        ...(vessel.mmsi ? { MMSINumber: vessel.mmsi } : {}),
        name: vessel.name,
        flag: vessel.flag,
        ...(vessel.callSign ? { callSign: vessel.callSign } : {}),
        operatorCarrierCode: vessel.operator,
        operatorCarrierCodeListProvider: "NMFTA",
      },
    },
    departure: {
      facilityTypeCode: "POTE",
      location: location(first.call),
      dateTime: toLocalIso(first.depart, first.call.port.timeZone),
    },
    ...(leg.calls.length > 2
      ? {
          intermediateCalls: leg.calls.slice(1, -1).map((c) => ({
            facilityTypeCode: "POTE",
            location: location(c.call),
            arrivalDateTime: toLocalIso(c.arrive, c.call.port.timeZone),
            departureDateTime: toLocalIso(c.depart, c.call.port.timeZone),
          })),
        }
      : {}),
    arrival: {
      facilityTypeCode: "POTE",
      location: location(last.call),
      dateTime: toLocalIso(last.arrive, last.call.port.timeZone),
    },
  };
}

function renderRoute(carrier: Carrier, route: SailingRoute, solutionNumber: number) {
  const first = route.legs[0]!.calls[0]!;
  const last = route.legs.at(-1)!.calls.at(-1)!;
  const originZone = first.call.port.timeZone;
  const reference = createHash("sha256")
    .update(route.legs.map((l) => `${l.rotation.service.name}|${l.sailing}`).join(">"))
    .digest("hex")
    .slice(0, 12)
    .toUpperCase();
  return {
    placeOfReceipt: {
      facilityTypeCode: "POTE",
      location: location(first.call),
      dateTime: toLocalIso(first.depart, originZone),
    },
    placeOfDelivery: {
      facilityTypeCode: "POTE",
      location: location(last.call),
      dateTime: toLocalIso(last.arrive, last.call.port.timeZone),
    },
    receiptTypeAtOrigin: "CY",
    deliveryTypeAtDestination: "CY",
    cutOffTimes: [
      { cutOffDateTimeCode: "DCO", cutOffDateTime: toLocalIso(first.depart - 3 * DAY, originZone) },
      { cutOffDateTimeCode: "FCO", cutOffDateTime: toLocalIso(first.depart - 2 * DAY, originZone) },
    ],
    solutionNumber,
    routingReference: `${carrier.scac}-${reference}`,
    transitTime: Math.max(1, Math.round((last.arrive - first.depart) / DAY)),
    legs: route.legs.map((leg, i) => renderLeg(carrier, leg, i + 1)),
  };
}

// --- Port schedules ----------------------------------------------------------------------------------

export interface PortScheduleQuery {
  UNLocationCode: string;
  date: string;
}

/** `GET /<SCAC>/v1/port-schedules?UNLocationCode=&date=`: both required (CS 1.0). */
export function parsePortScheduleQuery(params: URLSearchParams): PortScheduleQuery | CsProblem[] {
  const problems: CsProblem[] = [];
  const locode = params.get("UNLocationCode") ?? "";
  const date = params.get("date") ?? "";
  if (!locode)
    problems.push({ property: "UNLocationCode", value: "", message: "UNLocationCode is required" });
  else if (!LOCODE.test(locode))
    problems.push({
      property: "UNLocationCode",
      value: locode,
      message: "UNLocationCode must be a UN/LOCODE",
    });
  if (!date) problems.push({ property: "date", value: "", message: "date is required" });
  else if (!validDate(date))
    problems.push({ property: "date", value: date, message: "date must be a date (YYYY-MM-DD)" });
  return problems.length > 0 ? problems : { UNLocationCode: locode, date };
}

/**
 * The carrier's `PortSchedule` for one port and local date: every call whose proforma arrival falls on
 * that date, each with its service partner entry and its planned (`PLN`) arrival. Estimates and actuals
 * are the Track & Trace feed's business; a schedule is the plan.
 */
export function renderPortSchedule(
  carrier: Carrier,
  port: Port,
  calls: readonly PlannedPortCall[],
): object[] {
  return [
    {
      location: { locationName: port.name, UNLocationCode: port.unLocode },
      vesselSchedules: calls.map((call) => ({
        servicePartners: [
          {
            carrierCode: carrier.scac,
            carrierCodeListProvider: "NMFTA",
            carrierServiceName: call.serviceName,
            carrierServiceCode: call.serviceCode,
            carrierImportVoyageNumber: call.voyage,
            carrierExportVoyageNumber: call.voyage,
          },
        ],
        vessel: {
          vesselIMONumber: call.vessel.imo,
          ...(call.vessel.mmsi ? { MMSINumber: call.vessel.mmsi } : {}),
          name: call.vessel.name,
          flag: call.vessel.flag,
          ...(call.vessel.callSign ? { callSign: call.vessel.callSign } : {}),
          operatorCarrierCode: call.vessel.operator,
          operatorCarrierCodeListProvider: "NMFTA",
        },
        isDummyVessel: false,
        timestamps: [
          {
            eventTypeCode: "ARRI",
            eventClassifierCode: "PLN",
            eventDateTime: toLocalIso(call.arrival, port.timeZone),
          },
        ],
      })),
    },
  ];
}
