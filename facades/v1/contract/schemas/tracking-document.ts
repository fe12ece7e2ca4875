/**
 * The tracking document (spec v1 section 2.2).
 */
import { z } from "zod";
import {
  dateTime,
  EVENT_STATUS_CODES,
  flag,
  localDateTime,
  nullable,
  sandboxMode,
  shipmentType,
  status,
  utcCompanion,
} from "./common";
import { finalDestinationEtaField, predictiveEtaField } from "./predictive-eta";

const voyagePlanRow = z.object({
  leg: z.number().int(),
  vessel_name: nullable(z.string()),
  vessel_imo: nullable(z.number().int()),
  voyage: nullable(z.string()),
  origin_locode: nullable(z.string()),
  destination_locode: nullable(z.string()),
  departure_date: nullable(localDateTime),
  arrival_date: nullable(localDateTime),
  status: z.enum(["completed", "sailing", "planned"]),
});

const containerRow = z.object({
  container_number: z.string(),
  iso_code: nullable(z.string()),
  size_type: nullable(z.string()),
  container_description: nullable(z.string()),
  status,
  last_event_date: nullable(localDateTime),
});

const locationRow = z.object({
  id: z.number().int(),
  locode: nullable(z.string()),
  name: z.string(),
  state: nullable(z.string()),
  country: nullable(z.string()),
  country_code: nullable(z.string()),
  lat: nullable(z.number()),
  lng: nullable(z.number()),
  timezone: nullable(z.string()),
  role: z.enum(["pol", "pod", "prepol", "postpod", "transshipment", "other"]),
  sequence: z.number().int(),
});

const facilityRow = z.object({
  id: z.number().int(),
  name: z.string(),
  locode: nullable(z.string()),
  country_code: nullable(z.string()),
  smdg_code: nullable(z.string()),
  bic_code: nullable(z.string()),
  location_id: nullable(z.number().int()),
});

const etaHistoryRow = z.object({
  eta: localDateTime,
  eta_utc: dateTime,
  recorded_at: dateTime,
  is_actual: flag,
  source: z.literal("carrier"),
  change_hours: z.number().int(),
});

const eventRow = z.object({
  container_number: z.string(),
  order_id: z.number().int(),
  event_type: z.enum(["EQUIPMENT", "TRANSPORT"]),
  event_code: z.string().meta({ example: "LOAD" }),
  status: nullable(z.enum(EVENT_STATUS_CODES)),
  description: z.string(),
  date: nullable(localDateTime),
  date_utc_offset: nullable(z.string().meta({ example: "+08:00" })),
  date_utc: nullable(dateTime),
  is_actual: flag,
  transport_mode: nullable(z.enum(["VESSEL", "TRUCK", "RAIL", "BARGE"])),
  leg_type: z.enum(["sea", "land"]),
  location_id: nullable(z.number().int()),
  locode: nullable(z.string()),
  location_name: nullable(z.string()),
  facility_id: nullable(z.number().int()),
  facility_name: nullable(z.string()),
  is_additional: flag,
  empty_indicator: nullable(z.enum(["EMPTY", "LADEN"])),
  voyage: nullable(z.string()),
  vessel_id: nullable(z.number().int())
    .optional()
    .meta({ description: "Only when a vessel carried the box." }),
  vessel_name: z.string().optional(),
  vessel_imo: nullable(z.number().int()).optional(),
  vessel_mmsi: nullable(z.number().int()).optional(),
  source: z
    .object({
      kind: z.literal("partner"),
      name: z.string().meta({ example: "Harbour Haulage" }),
      partner_source_id: nullable(z.string()),
      event_id: nullable(z.string().meta({ example: "hh-1" })),
    })
    .optional()
    .meta({
      description:
        "Only on an event a partner source of the organisation reported (drayage, rail, warehouse); absent on the carrier's own. A partner's event never overrides a carrier's actual one.",
    }),
});

const vesselRow = z.object({
  id: z.number().int(),
  name: z.string(),
  imo: nullable(z.number().int()),
  mmsi: nullable(z.number().int()),
  call_sign: z.null(),
  flag: z.null(),
  voyages: z.array(z.string()),
  from_locode: nullable(z.string()),
  to_locode: nullable(z.string()),
  departure_date: nullable(localDateTime),
  arrival_date: nullable(localDateTime),
});

/** The tables of a document, shared by the live document and `?include=full`. */
export const documentTables = {
  voyage_plan_table: z.array(voyagePlanRow),
  containers_table: z.array(containerRow),
  locations_table: z.array(locationRow),
  facilities_table: z.array(facilityRow),
  eta_history_table: z.array(etaHistoryRow),
  events_table: z.array(eventRow),
  vessels_table: z.array(vesselRow),
};

export const TrackingDocument = z
  .object({
    reference_number: z.string(),
    origin: z.string(),
    destination: z.string(),
    sealine: z.string().meta({ example: "MAEU" }),
    sealine_name: z.string(),
    carrier: z.object({
      sealine: z.string(),
      provided: z.boolean().meta({ description: "True when the request named the carrier." }),
    }),
    number_of_containers: z.number().int(),
    eta: nullable(localDateTime),
    eta_utc: utcCompanion("eta"),
    last_updated_at: dateTime,
    created_at: dateTime,
    last_synced_at: nullable(dateTime),
    is_active: flag,
    is_delayed: flag,
    is_failed_shipment: flag,
    closed_at: nullable(dateTime),
    shipment_type: shipmentType,
    total_days: z.number(),
    remaining_days: z.number(),
    latitude: nullable(z.number()),
    longitude: nullable(z.number()),
    status,
    route_json: z.string().meta({ description: "JSON array of [lng, lat] points of the sea route." }),
    shipment_uid: z.string(),
    container_summary: z.string(),
    predictive_eta: predictiveEtaField,
    final_destination_eta: finalDestinationEtaField,
    stale_reason: z.string().optional().meta({
      description: "Only when the carrier could not be reached and the stored document was served.",
    }),
    ...documentTables,
  })
  .meta({ id: "TrackingDocument", description: "Spec v1 section 2.2." });

export const TrackingAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: TrackingDocument })
  .meta({ id: "TrackingAnswer" });
