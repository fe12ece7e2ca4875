/**
 * The query of `GET /v2/events` (T&T 2.2): validation, the filters applied to a shipment's events, and
 * opaque paging cursors. Parameters are ANDed; comma-separated list values are ORed (T&T 2.2).
 */
import type { DcsaEvent } from "./dcsa-types";
import { hash32 } from "./world/hash";
import { normalizeReference } from "./world/references";

const EVENT_TYPES = ["SHIPMENT", "TRANSPORT", "EQUIPMENT"] as const;
const TRANSPORT_CODES = ["ARRI", "DEPA"];
const EQUIPMENT_CODES = [
  "LOAD",
  "DISC",
  "GTIN",
  "GTOT",
  "STUF",
  "STRP",
  "PICK",
  "DROP",
  "INSP",
  "RSEA",
  "RMVD",
];
const SHIPMENT_CODES = [
  "RECE",
  "DRFT",
  "PENA",
  "PENU",
  "REJE",
  "APPR",
  "ISSU",
  "SURR",
  "SUBM",
  "VOID",
  "CONF",
  "REQS",
  "CMPL",
  "HOLD",
  "RELS",
];
const DOCUMENT_CODES = ["CBR", "BKG", "SHI", "SRM", "TRD", "ARN", "VGM", "CAS", "CUS", "DGD", "OOG"];
const OPERATORS = ["gte", "gt", "lte", "lt", "eq"] as const;

type CreatedOperator = (typeof OPERATORS)[number];

export interface EventsQuery {
  carrierBookingReference?: string;
  transportDocumentReference?: string;
  transportDocumentTypeCode?: "BOL" | "SWB";
  equipmentReference?: string;
  eventTypes?: readonly string[];
  transportEventTypeCodes?: readonly string[];
  equipmentEventTypeCodes?: readonly string[];
  shipmentEventTypeCodes?: readonly string[];
  documentTypeCodes?: readonly string[];
  unLocationCode?: string;
  vesselIMONumber?: string;
  exportVoyageNumber?: string;
  carrierServiceCode?: string;
  transportCallID?: string;
  created: readonly { operator: CreatedOperator; at: number }[];
  sort?: { field: "eventDateTime" | "eventCreatedDateTime"; descending: boolean };
  limit?: number;
  offset: number;
  /** The query without paging, identifying which list a cursor belongs to. */
  fingerprint: string;
}

export interface QueryProblem {
  reason: string;
  message: string;
}

function list(params: URLSearchParams, name: string): string[] | undefined {
  const values = params.getAll(name).flatMap((value) => value.split(","));
  const cleaned = values.map((value) => value.trim().toUpperCase()).filter(Boolean);
  return cleaned.length > 0 ? cleaned : undefined;
}

function single(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name)?.trim();
  return value ? value : undefined;
}

/** Opaque cursor: base64url of the offset and the fingerprint of the query it pages through. */
export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString("base64url");
}

function decodeCursor(cursor: string, fingerprint: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { o, f } = parsed as { o?: unknown; f?: unknown };
    if (typeof o !== "number" || !Number.isInteger(o) || o < 0 || f !== fingerprint) return undefined;
    return o;
  } catch {
    return undefined;
  }
}

function fingerprintOf(params: URLSearchParams): string {
  const entries = [...params.entries()]
    .filter(([name]) => name !== "cursor")
    .sort(([a], [b]) => a.localeCompare(b));
  return hash32(JSON.stringify(entries)).toString(36);
}

/** Parses and validates the query string; problems become a 400 with the DCSA error body. */
export function parseEventsQuery(params: URLSearchParams): EventsQuery | QueryProblem[] {
  const problems: QueryProblem[] = [];
  const invalid = (message: string) => problems.push({ reason: "invalidQuery", message });

  const booking = single(params, "carrierBookingReference") ?? single(params, "bookingReference");
  const document = single(params, "transportDocumentReference");
  const equipment = single(params, "equipmentReference");
  if (!booking && !document && !equipment) {
    invalid(
      "The request did not contain one of the three required query parameters: carrierBookingReference, transportDocumentReference or equipmentReference.",
    );
  }
  if (booking && booking.length > 35) invalid("carrierBookingReference must be at most 35 characters.");
  if (document && document.length > 20) invalid("transportDocumentReference must be at most 20 characters.");
  if (equipment && equipment.length > 15) invalid("equipmentReference must be at most 15 characters.");

  const documentType = single(params, "transportDocumentTypeCode")?.toUpperCase();
  if (documentType && documentType !== "BOL" && documentType !== "SWB") {
    invalid("transportDocumentTypeCode must be BOL or SWB.");
  }

  const checkList = (name: string, allowed: readonly string[]): string[] | undefined => {
    const values = list(params, name);
    const unknown = values?.filter((value) => !allowed.includes(value)) ?? [];
    if (unknown.length > 0) invalid(`${name} has unknown values: ${unknown.join(", ")}.`);
    return values;
  };
  const eventTypes = checkList("eventType", EVENT_TYPES);
  const transportEventTypeCodes = checkList("transportEventTypeCode", TRANSPORT_CODES);
  const equipmentEventTypeCodes = checkList("equipmentEventTypeCode", EQUIPMENT_CODES);
  const shipmentEventTypeCodes = checkList("shipmentEventTypeCode", SHIPMENT_CODES);
  const documentTypeCodes = checkList("documentTypeCode", DOCUMENT_CODES);

  let limit: number | undefined;
  const limitText = params.get("limit");
  if (limitText !== null) {
    if (!/^[1-9]\d{0,9}$/.test(limitText) || Number(limitText) > 2_147_483_647) {
      invalid("limit must be a positive integer.");
    } else {
      limit = Number(limitText);
    }
  }

  const created: { operator: CreatedOperator; at: number }[] = [];
  for (const [name, value] of params.entries()) {
    const match = /^eventCreatedDateTime(?::(\w+))?$/.exec(name);
    if (!match) continue;
    const operator = (match[1] ?? "eq") as CreatedOperator;
    const at = Date.parse(value);
    if (!OPERATORS.includes(operator)) invalid(`Unknown operator ${match[1]} on eventCreatedDateTime.`);
    else if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
      invalid("eventCreatedDateTime must be an ISO 8601 date-time.");
    } else created.push({ operator, at });
  }

  let sort: EventsQuery["sort"];
  const sortText = single(params, "sort");
  if (sortText) {
    const match = /^(eventDateTime|eventCreatedDateTime)(?::(ASC|DESC))?$/i.exec(sortText);
    if (!match)
      invalid("sort supports eventDateTime and eventCreatedDateTime, optionally with :ASC or :DESC.");
    else {
      sort = {
        field: match[1]?.toLowerCase() === "eventcreateddatetime" ? "eventCreatedDateTime" : "eventDateTime",
        descending: match[2]?.toUpperCase() === "DESC",
      };
    }
  }

  const fingerprint = fingerprintOf(params);
  let offset = 0;
  const cursor = params.get("cursor");
  if (cursor !== null) {
    const decoded = decodeCursor(cursor, fingerprint);
    if (decoded === undefined)
      problems.push({ reason: "invalidCursor", message: "The cursor is not valid for this query." });
    else offset = decoded;
  }

  if (problems.length > 0) return problems;
  const optional = <K extends string, V>(key: K, value: V | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
  return {
    ...optional("carrierBookingReference", booking ? normalizeReference(booking) : undefined),
    ...optional("transportDocumentReference", document ? normalizeReference(document) : undefined),
    ...optional("transportDocumentTypeCode", documentType as "BOL" | "SWB" | undefined),
    ...optional("equipmentReference", equipment ? normalizeReference(equipment) : undefined),
    ...optional("eventTypes", eventTypes),
    ...optional("transportEventTypeCodes", transportEventTypeCodes),
    ...optional("equipmentEventTypeCodes", equipmentEventTypeCodes),
    ...optional("shipmentEventTypeCodes", shipmentEventTypeCodes),
    ...optional("documentTypeCodes", documentTypeCodes),
    ...optional("unLocationCode", single(params, "UNLocationCode")?.toUpperCase()),
    ...optional("vesselIMONumber", single(params, "vesselIMONumber")),
    ...optional(
      "exportVoyageNumber",
      single(params, "exportVoyageNumber") ?? single(params, "carrierVoyageNumber"),
    ),
    ...optional("carrierServiceCode", single(params, "carrierServiceCode")),
    ...optional("transportCallID", single(params, "transportCallID")),
    created,
    ...optional("sort", sort),
    ...optional("limit", limit),
    offset,
    fingerprint,
  };
}

function transportCallOf(event: DcsaEvent) {
  return event.eventType === "SHIPMENT" ? undefined : event.transportCall;
}

/** Applies the event filters of the query; a filter on one event type excludes the other types. */
export function filterEvents(events: readonly DcsaEvent[], query: EventsQuery): DcsaEvent[] {
  return events.filter((event) => {
    if (query.eventTypes && !query.eventTypes.includes(event.eventType)) return false;
    if (query.transportEventTypeCodes) {
      if (
        event.eventType !== "TRANSPORT" ||
        !query.transportEventTypeCodes.includes(event.transportEventTypeCode)
      ) {
        return false;
      }
    }
    if (query.equipmentEventTypeCodes) {
      if (
        event.eventType !== "EQUIPMENT" ||
        !query.equipmentEventTypeCodes.includes(event.equipmentEventTypeCode)
      ) {
        return false;
      }
    }
    if (query.shipmentEventTypeCodes) {
      if (
        event.eventType !== "SHIPMENT" ||
        !query.shipmentEventTypeCodes.includes(event.shipmentEventTypeCode)
      ) {
        return false;
      }
    }
    if (query.documentTypeCodes) {
      if (event.eventType !== "SHIPMENT" || !query.documentTypeCodes.includes(event.documentTypeCode))
        return false;
    }
    const call = transportCallOf(event);
    if (query.unLocationCode) {
      const location = event.eventType === "EQUIPMENT" ? event.eventLocation.UNLocationCode : undefined;
      if (call?.UNLocationCode !== query.unLocationCode && location !== query.unLocationCode) return false;
    }
    if (query.vesselIMONumber && call?.vessel?.vesselIMONumber !== query.vesselIMONumber) return false;
    if (query.exportVoyageNumber && call?.exportVoyageNumber !== query.exportVoyageNumber) return false;
    if (query.carrierServiceCode && call?.carrierServiceCode !== query.carrierServiceCode) return false;
    if (query.transportCallID && call?.transportCallID !== query.transportCallID) return false;
    if (query.created.length > 0) {
      const created = Date.parse(event.eventCreatedDateTime);
      for (const { operator, at } of query.created) {
        const keep =
          operator === "gte"
            ? created >= at
            : operator === "gt"
              ? created > at
              : operator === "lte"
                ? created <= at
                : operator === "lt"
                  ? created < at
                  : created === at;
        if (!keep) return false;
      }
    }
    return true;
  });
}

export function sortEvents(events: DcsaEvent[], sort: EventsQuery["sort"]): DcsaEvent[] {
  if (!sort) return events;
  const direction = sort.descending ? -1 : 1;
  return events
    .map((event, index) => ({ event, index, at: Date.parse(event[sort.field]) }))
    .sort((a, b) => (a.at - b.at) * direction || a.index - b.index)
    .map((entry) => entry.event);
}
