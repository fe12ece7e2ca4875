/**
 * Section 2 of the compat API specification as zod schemas: every object is strict (no field the spec
 * does not list), every field has the spec's type and nullability, and optional fields are the ones the
 * spec says may be absent. Real answers are validated with these in the tests.
 *
 * `vessels[].imo` and `mmsi` are integers as the spec says, 0 when no source knows them
 * (docs/decisions/compat-api.md, issue 39 item 11).
 */
import { z } from "zod";

const dateTime = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, "YYYY-MM-DD HH:MM:SS");
const dateTimeUtcOffset = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/, "YYYY-MM-DD HH:MM:SS+00");
const id = z.number().int().min(1);
const ianaZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, "an IANA time zone name");

export const STATUSES = ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const;
export const MESSAGES = [
  "OK",
  "NO_CONTAINERS",
  "NO_EVENTS",
  "SEALINE_CANCELED_SHIPMENT",
  "WRONG_NUMBER",
  "WRONG_TYPE",
  "WRONG_PARAMETERS",
  "WRONG_SEALINE",
  "SEALINE_HASNT_PROVIDE_INFO",
  "SEALINE_NO_RESPONSE",
  "SEALINE_NOT_SUPPORTED",
  "API_KEY_WRONG",
  "API_KEY_ACCESS_DENIED",
  "API_KEY_EXPIRED",
  "API_KEY_LIMIT_REACHED",
  "API_KEY_RATE_LIMIT",
  "UNEXPECTED_ERROR",
  "DONT_TRACKED",
  "SEALINE_TEMPORARY_DISABLED",
  "SEALINE_UNDER_MAINTENANCE",
  "SEALINE_NOT_SUPPORT_SHIPMENT_TYPE",
  "AUTO_CANT_DETECT_SEALINE",
  "AUTO_CANT_DETECT_TYPE",
  "AUTO_CANT_FIND_INFO",
] as const;
export const SUCCESS_MESSAGES = ["OK", "NO_CONTAINERS", "NO_EVENTS", "SEALINE_CANCELED_SHIPMENT"] as const;

// 2.1 envelope
export const successEnvelope = z.strictObject({
  status: z.literal("success"),
  message: z.enum(SUCCESS_MESSAGES),
  data: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
});
export const refusalEnvelope = z.strictObject({
  status: z.literal("error"),
  message: z.enum(MESSAGES).exclude([...SUCCESS_MESSAGES]),
  data: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  detail: z.string().min(10),
});

// 2.2 metadata
const apiCalls = z.strictObject({
  total: z.null(),
  used: z.number().int().min(0).nullable(),
  remaining: z.null(),
});
const uniqueShipments = z.strictObject({
  total: z.number().int().min(0),
  used: z.number().int().min(0),
  remaining: z.number().int().min(0),
});
export const metadataSchema = z
  .strictObject({
    type: z.enum(["CT", "BL", "BK"]),
    number: z.string().min(1),
    sealine: z.string().length(4).nullable(),
    sealine_name: z.string().nullable(),
    status: z.enum(STATUSES),
    is_status_from_sealine: z.boolean().nullable(),
    from_cache: z.boolean(),
    updated_at: dateTime.nullable(),
    cache_expires: dateTime.nullable(),
    api_calls: apiCalls,
    unique_shipments: uniqueShipments,
    stale_reason: z.string().min(1).optional(),
    last_synced_at: z.string().min(1).optional(),
  })
  .refine((m) => "stale_reason" in m === "last_synced_at" in m, "stale_reason and last_synced_at go together")
  .refine((m) => !("stale_reason" in m) || m.from_cache, "a stale answer is served from the store");

export const historyMetadataSchema = z.strictObject({
  type: z.enum(["CT", "BL", "BK"]),
  number: z.string().min(1),
  sealine: z.string().length(4).nullable(),
  sealine_name: z.string().nullable(),
  status: z.enum(STATUSES),
  updated_at: dateTime.nullable(),
  api_calls: apiCalls,
  unique_shipments: uniqueShipments,
});

// 2.3 locations
const locationFields = {
  name: z.string().min(1),
  state: z.string(),
  country: z.string(),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  locode: z
    .string()
    .regex(/^[A-Z]{2}[A-Z0-9]{3}$/)
    .nullable(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
};
export const locationSchema = z.strictObject({ id, ...locationFields, timezone: ianaZone });
export const historyLocationSchema = z.strictObject({ id, ...locationFields });
const routeLocationSchema = z.strictObject({ ...locationFields, timezone: ianaZone });

// 2.4 facilities
export const facilitySchema = z.strictObject({
  id,
  name: z.string().min(1),
  country_code: z.string(),
  locode: z.string().nullable(),
  bic_code: z.string().nullable(),
  smdg_code: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});

// 2.5 route
const routePoint = {
  location: id.nullable(),
  date: dateTime.nullable(),
  actual: z.boolean().nullable(),
};
export const routeSchema = z.strictObject({
  prepol: z.strictObject(routePoint),
  pol: z.strictObject(routePoint),
  pod: z.strictObject({ ...routePoint, predictive_eta: dateTime.nullable() }),
  // Beyond the contract: our predicted arrival at a place of delivery beyond the port, only when there
  // is one (docs/decisions/final-destination-eta.md).
  postpod: z.strictObject({ ...routePoint, predictive_eta: dateTime.optional() }),
});

// 2.6 vessels
const vesselFields = {
  name: z.string().min(1),
  imo: z.union([z.literal(0), z.number().int().min(1_000_000).max(9_999_999)]),
  mmsi: z.union([z.literal(0), z.number().int().min(200_000_000).max(799_999_999)]),
  call_sign: z.null(),
  flag: z.null(),
};
export const vesselSchema = z.strictObject({ id, ...vesselFields });

// 2.7 containers and events
export const eventSchema = z.strictObject({
  order_id: id,
  location: id,
  facility: id.nullable(),
  description: z.string().min(1),
  event_type: z.string().min(1),
  event_code: z.string().min(1),
  status: z.string().min(1),
  date: dateTime.optional(),
  actual: z.boolean(),
  is_date_from_sealine: z.boolean(),
  is_additional_event: z.boolean(),
  type: z.enum(["land", "sea"]),
  transport_type: z.string().nullable(),
  vessel: id.nullable().optional(),
  voyage: z.string().nullable(),
});
export const containerSchema = z.strictObject({
  number: z.string().regex(/^[A-Z]{4}\d{7}$/),
  iso_code: z.string(),
  size_type: z.string(),
  status: z.enum(STATUSES),
  is_status_from_sealine: z.boolean(),
  events_mirrored: z.boolean(),
  events: z.array(eventSchema),
});
export const historyEventSchema = z.strictObject({
  location: id,
  description: z.string().min(1),
  status: z.string().min(1),
  date: dateTimeUtcOffset.optional(),
  actual: z.boolean(),
  type: z.enum(["land", "sea"]),
  vessel: id.nullable().optional(),
  voyage: z.string().nullable(),
});
export const historyContainerSchema = z.strictObject({
  number: z.string(),
  iso_code: z.string(),
  status: z.enum(STATUSES),
  events: z.array(historyEventSchema),
});

// 2.8 route_data
const latLng = z.tuple([z.number().min(-90).max(90), z.number()]);
export const routeDataSchema = z.strictObject({
  route: z
    .array(
      z.strictObject({
        path: z.array(latLng).min(2),
        type: z.enum(["SEA", "LAND"]),
        transport_type: z.string().min(1),
        from: routeLocationSchema,
        to: routeLocationSchema,
        vessel: z.strictObject(vesselFields).optional(),
      }),
    )
    .nullable(),
  pin: latLng,
});

const documentFields = {
  locations: z.array(locationSchema).nullable(),
  facilities: z.array(facilitySchema).nullable(),
  route: routeSchema,
  vessels: z.array(vesselSchema).nullable(),
};

export const trackingDataSchema = z.strictObject({
  metadata: metadataSchema,
  ...documentFields,
  containers: z.array(containerSchema),
  route_data: routeDataSchema.optional(),
});
export const containerDataSchema = z.strictObject({
  metadata: metadataSchema,
  ...documentFields,
  container: containerSchema.nullable(),
  route_data: routeDataSchema.optional(),
});

// 2.9 history
export const historyListSchema = z.strictObject({
  metadata: historyMetadataSchema,
  requests: z
    .array(z.strictObject({ date: dateTime, sealine: z.string().regex(/^[a-z0-9]{4}$/), id }))
    .nullable(),
});
export const historyDocumentSchema = z.strictObject({
  metadata: historyMetadataSchema,
  locations: z.array(historyLocationSchema).nullable(),
  facilities: z.array(facilitySchema).nullable(),
  route: routeSchema,
  vessels: z.array(vesselSchema).nullable(),
  containers: z.array(historyContainerSchema),
});

// 2.10 sealines
export const sealinesSchema = z.array(
  z.strictObject({ name: z.string().min(1), scac_codes: z.array(z.string().length(4)).min(1) }),
);

/** Every id an answer refers to exists in its list (locations, facilities, vessels). */
export function danglingReferences(data: {
  locations?: { id: number }[] | null;
  facilities?: { id: number }[] | null;
  vessels?: { id: number }[] | null;
  route?: Record<string, { location: number | null }>;
  containers?: { events: { location: number; facility?: number | null; vessel?: number | null }[] }[];
}): string[] {
  const has = (list: { id: number }[] | null | undefined, n: number) => (list ?? []).some((x) => x.id === n);
  const problems: string[] = [];
  for (const [name, point] of Object.entries(data.route ?? {})) {
    if (point.location !== null && !has(data.locations, point.location))
      problems.push(`route.${name}.location`);
  }
  for (const container of data.containers ?? []) {
    for (const e of container.events) {
      if (!has(data.locations, e.location)) problems.push(`event location ${e.location}`);
      if (e.facility != null && !has(data.facilities, e.facility))
        problems.push(`event facility ${e.facility}`);
      if (e.vessel != null && !has(data.vessels, e.vessel)) problems.push(`event vessel ${e.vessel}`);
    }
  }
  return problems;
}
