/**
 * Lookups.
 */
import { z } from "zod";
import { dateTime, localDateTime, nullable, sandboxMode, utcCompanion } from "./common";

export const Carrier = z
  .object({
    scac: z.string(),
    name: z.string(),
    slug: z.string(),
    tracked: z
      .boolean()
      .describe(
        "Whether this service tracks with the carrier. False when tracking with it is switched off on this deployment (naming it answers 502 carrier_disabled) or the deployment has no connection to it: no endpoint, adapter or credentials (naming it answers 400 invalid_parameter; compat SEALINE_NOT_SUPPORTED). Compat /info/sealines lists only tracked carriers. Additive to spec section 2.10.",
      ),
  })
  .catchall(z.unknown())
  .meta({ id: "Carrier", description: "Spec v1 section 2.10." });

export const CarriersAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, total: z.number().int(), data: z.array(Carrier) })
  .meta({ id: "CarrierList" });

const candidate = z.object({
  scac: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.string(),
  confidence: z.enum(["high", "medium", "low"]),
  source: z.string(),
});

export const CarrierLookupAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    data: z.object({
      reference_number: z.string(),
      type: z.enum(["Container", "Bill of Lading", "Booking"]),
      carrier: nullable(candidate),
      candidates: z.array(candidate),
      sources_unavailable: z.array(z.string()),
      cached: z.boolean(),
    }),
  })
  .meta({ id: "CarrierLookup", description: "Spec v1 section 2.11." });

export const Port = z
  .object({
    locode: z.string(),
    name: z.string(),
    city: nullable(z.string()),
    country: nullable(z.string()),
    country_code: z.string(),
    region: nullable(z.string()),
    slug: z.string(),
    lat: nullable(z.number()),
    lng: nullable(z.number()),
  })
  .meta({ id: "Port", description: "Spec v1 section 2.9." });

export const PortsAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, total: z.number().int(), data: z.array(Port) })
  .meta({ id: "PortList" });

export const VesselPosition = z
  .object({
    lat: z.number(),
    lon: z.number(),
    speed: nullable(z.number()),
    draught: nullable(z.number()),
    course_over_ground: nullable(z.number()),
    true_heading: nullable(z.number()),
    navigation_status: nullable(z.string()),
    timestamp: z.string().meta({
      description: "When the position was reported, UTC, `YYYY-MM-DDTHH:MM:SS` (no offset).",
      example: "2026-11-22T08:30:00",
    }),
    timestamp_utc: dateTime.meta({ description: "The same moment as `timestamp`, ISO 8601 with Z." }),
    atd: nullable(z.string()).meta({
      description: "Departure from the origin port, its wall clock, `YYYY-MM-DDTHH:MM:SS` (no offset).",
    }),
    atd_utc: utcCompanion("atd"),
    eta: nullable(z.string()).meta({
      description: "Arrival at the destination port, its wall clock, `YYYY-MM-DDTHH:MM:SS` (no offset).",
    }),
    eta_utc: utcCompanion("eta"),
    origin_port: nullable(z.string()),
    origin_locode: nullable(z.string()),
    destination_port: nullable(z.string()),
    destination_locode: nullable(z.string()),
    imo: nullable(z.string()),
    mmsi: nullable(z.string()),
    name: nullable(z.string()),
    cached: z.boolean(),
  })
  .meta({ id: "VesselPosition", description: "Spec v1 section 2.6." });

export const VesselAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: VesselPosition })
  .meta({ id: "VesselTrack" });

const scheduleEndpoint = z.object({
  locode: nullable(z.string()),
  name: nullable(z.string()),
  country_code: nullable(z.string()),
  terminal: nullable(z.string()),
  terminal_code: nullable(z.string()),
});

export const ScheduleItem = z
  .object({
    sealine: z.string(),
    sealine_name: z.string(),
    service_name: nullable(z.string()),
    voyage: nullable(z.string()),
    vessel: z.object({ name: nullable(z.string()), imo: nullable(z.string()) }),
    origin: scheduleEndpoint,
    destination: scheduleEndpoint,
    departure_date: nullable(localDateTime),
    departure_date_utc: utcCompanion("departure_date"),
    arrival_date: nullable(localDateTime),
    arrival_date_utc: utcCompanion("arrival_date"),
    duration: z.number(),
    transit_type: z.string(),
  })
  .meta({ id: "ScheduleItem", description: "Spec v1 section 2.7." });

export const SchedulesAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    cached: z.boolean(),
    carriers_unavailable: z.array(z.string()).optional(),
    data: z.array(ScheduleItem),
  })
  .meta({ id: "ScheduleList" });
