import { z } from "zod";
import { parseContainerNumber } from "../references/container-number";
import type { EmptyIndicator, ModeOfTransport } from "../tracking/model";

/**
 * A partner's event as it is posted (GraphQL `PartnerEventInput`, v1 and the signed webhook in
 * snake_case): the fields of a DCSA Track & Trace equipment or transport event that a trucker's app,
 * a TMS, a rail feed or a warehouse can know, plus a position fix. Every field arrives loose (strings),
 * so that one bad event is refused alone with a clear reason and the rest of a batch still counts.
 */
export interface PartnerEventInput {
  /** The sender's own id of the event: the second copy of an id is a replay. */
  eventId?: string | null;
  /** EQUIPMENT, TRANSPORT or POSITION. */
  eventType?: string | null;
  /** EQUIPMENT: GTOT, GTIN, PICK, DROP; TRANSPORT: DEPA, ARRI. Not used for POSITION. */
  eventCode?: string | null;
  /** ACT (it happened, the default) or EST (expected). */
  eventClassifierCode?: string | null;
  /** ISO 8601 date-time with its offset. */
  eventDateTime?: string | null;
  /** A shipment id (SHP-12) or the reference the organisation tracks. */
  shipment?: string | null;
  /** The container number (ISO 6346); needed when the shipment has more than one box. */
  equipmentReference?: string | null;
  emptyIndicatorCode?: string | null;
  /** TRUCK, RAIL or BARGE: the inland leg a transport event belongs to. */
  modeOfTransport?: string | null;
  /** DCSA facility type: CLOC (the consignee's warehouse), DEPO, INTE, RAMP, POTE. */
  facilityTypeCode?: string | null;
  locationName?: string | null;
  unLocationCode?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

export const PARTNER_EQUIPMENT_CODES = ["GTOT", "GTIN", "PICK", "DROP"] as const;
export const PARTNER_TRANSPORT_CODES = ["DEPA", "ARRI"] as const;
export const PARTNER_MODES = ["TRUCK", "RAIL", "BARGE"] as const;
export const PARTNER_FACILITY_TYPES = ["CLOC", "DEPO", "INTE", "RAMP", "POTE"] as const;
export type PartnerFacilityType = (typeof PARTNER_FACILITY_TYPES)[number];

/** A validated partner event, stored as `partner_events.facts` (JSON: strings, numbers, null). */
export interface PartnerEventFacts {
  senderEventId: string;
  sourceId: string;
  sourceName: string;
  kind: "EQUIPMENT" | "TRANSPORT" | "POSITION";
  /** Null for a position fix. */
  eventCode: (typeof PARTNER_EQUIPMENT_CODES)[number] | (typeof PARTNER_TRANSPORT_CODES)[number] | null;
  actual: boolean;
  /** ISO 8601 UTC instant. */
  instant: string;
  /** The offset the sender gave (`+02:00`), so the local time is the sender's own. */
  utcOffset: string;
  /** Normalised container number; null when the event is about the shipment's only box. */
  containerNumber: string | null;
  emptyIndicator: EmptyIndicator | null;
  modeOfTransport: ModeOfTransport | null;
  facilityTypeCode: PartnerFacilityType | null;
  location: {
    unLocode: string | null;
    name: string | null;
    lat: number | null;
    lng: number | null;
  };
}

const upper = (s: string | null | undefined) => (s == null ? null : s.trim().toUpperCase() || null);
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;

const eventSchema = z
  .object({
    eventId: z
      .string({ error: "event_id is required: the sender's own id of the event." })
      .trim()
      .min(1, "event_id is required: the sender's own id of the event.")
      .max(100, "event_id is at most 100 characters."),
    eventType: z.enum(["EQUIPMENT", "TRANSPORT", "POSITION"], {
      error: "event_type must be EQUIPMENT, TRANSPORT or POSITION.",
    }),
    eventCode: z.string().nullable(),
    eventClassifierCode: z.enum(["ACT", "EST"], { error: "event_classifier_code must be ACT or EST." }),
    eventDateTime: z.iso.datetime({
      offset: true,
      message:
        "event_date_time must be an ISO 8601 date-time with its offset, e.g. 2026-11-20T14:30:00+01:00.",
    }),
    shipment: z
      .string({ error: "shipment is required: a shipment id (SHP-12) or the tracked reference." })
      .trim()
      .min(1, "shipment is required: a shipment id (SHP-12) or the tracked reference."),
    equipmentReference: z.string().nullable(),
    emptyIndicatorCode: z
      .enum(["EMPTY", "LADEN"], { error: "empty_indicator_code must be EMPTY or LADEN." })
      .nullable(),
    modeOfTransport: z
      .enum(PARTNER_MODES, { error: "mode_of_transport must be TRUCK, RAIL or BARGE." })
      .nullable(),
    facilityTypeCode: z
      .enum(PARTNER_FACILITY_TYPES, { error: "facility_type_code must be CLOC, DEPO, INTE, RAMP or POTE." })
      .nullable(),
    locationName: z.string().trim().max(200, "location_name is at most 200 characters.").nullable(),
    unLocationCode: z
      .string()
      .regex(/^[A-Z]{2}[A-Z2-9]{3}$/, "un_location_code must be a UN/LOCODE, e.g. NLRTM.")
      .nullable(),
    latitude: z
      .number({ error: "latitude must be a number." })
      .min(-90, "latitude is -90 to 90.")
      .max(90, "latitude is -90 to 90.")
      .nullable(),
    longitude: z
      .number({ error: "longitude must be a number." })
      .min(-180, "longitude is -180 to 180.")
      .max(180, "longitude is -180 to 180.")
      .nullable(),
  })
  .superRefine((e, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: "custom", message });
    if (e.eventType === "EQUIPMENT" && !PARTNER_EQUIPMENT_CODES.includes(e.eventCode as never))
      fail("An EQUIPMENT event's event_code must be GTOT, GTIN, PICK or DROP.");
    if (e.eventType === "TRANSPORT" && !PARTNER_TRANSPORT_CODES.includes(e.eventCode as never))
      fail("A TRANSPORT event's event_code must be DEPA or ARRI.");
    if (e.eventType === "TRANSPORT" && e.modeOfTransport === null)
      fail("A TRANSPORT event needs mode_of_transport (TRUCK, RAIL or BARGE): partners report inland legs.");
    if (e.eventType === "POSITION" && (e.latitude === null || e.longitude === null))
      fail("A POSITION event needs latitude and longitude.");
    if (e.eventType === "POSITION" && e.eventClassifierCode === "EST")
      fail("A POSITION fix is where the box was: it cannot be estimated (EST).");
    if (e.eventType !== "POSITION" && e.unLocationCode === null && e.locationName === null)
      fail("A milestone needs its place: un_location_code or location_name.");
    if ((e.latitude === null) !== (e.longitude === null)) fail("latitude and longitude come together.");
  });

export type PartnerEventCheck =
  | { ok: true; facts: Omit<PartnerEventFacts, "sourceId" | "sourceName"> & { shipment: string } }
  | { ok: false; message: string };

/**
 * Validates one posted event. The message names the field in the v1 spelling (snake_case), which is
 * also the signed webhook's; GraphQL's camelCase fields are the same words.
 */
export function checkPartnerEvent(input: PartnerEventInput, now: Date): PartnerEventCheck {
  const parsed = eventSchema.safeParse({
    eventId: input.eventId ?? undefined,
    eventType: upper(input.eventType) ?? undefined,
    eventCode: upper(input.eventCode),
    eventClassifierCode: upper(input.eventClassifierCode) ?? "ACT",
    eventDateTime: input.eventDateTime ?? undefined,
    shipment: input.shipment ?? undefined,
    equipmentReference: input.equipmentReference?.trim() || null,
    emptyIndicatorCode: upper(input.emptyIndicatorCode),
    modeOfTransport: upper(input.modeOfTransport),
    facilityTypeCode: upper(input.facilityTypeCode),
    locationName: input.locationName?.trim() || null,
    unLocationCode: upper(input.unLocationCode),
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
  });
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => i.message).join(" ") };
  const e = parsed.data;
  let containerNumber: string | null = null;
  if (e.equipmentReference !== null) {
    const box = parseContainerNumber(e.equipmentReference);
    if (!box.ok) return { ok: false, message: `equipment_reference: ${box.message}` };
    containerNumber = box.value.number;
  }
  const instant = new Date(e.eventDateTime);
  // A minute of clock skew between the sender and us is normal; an actual event in the future is not.
  if (e.eventClassifierCode === "ACT" && instant.getTime() > now.getTime() + 5 * 60_000) {
    return { ok: false, message: "An actual (ACT) event cannot be in the future: send it as EST." };
  }
  const offset = OFFSET.exec(e.eventDateTime)![1]!.toUpperCase();
  return {
    ok: true,
    facts: {
      senderEventId: e.eventId,
      shipment: e.shipment,
      kind: e.eventType,
      eventCode: e.eventType === "POSITION" ? null : (e.eventCode as PartnerEventFacts["eventCode"]),
      actual: e.eventClassifierCode === "ACT",
      instant: instant.toISOString(),
      utcOffset: offset === "Z" ? "+00:00" : offset,
      containerNumber,
      emptyIndicator: e.emptyIndicatorCode,
      modeOfTransport: e.modeOfTransport,
      facilityTypeCode: e.facilityTypeCode,
      location: { unLocode: e.unLocationCode, name: e.locationName, lat: e.latitude, lng: e.longitude },
    },
  };
}
