import "zod-openapi";
import { z } from "zod";
import { FEATURES, PLAN_ORDER } from "../../../src/domain/accounts/plans";
import { COMPAT_STATUS_CODES, SHIPMENT_STATUSES } from "../../../src/domain/tracking/model";
import { SUBSCRIBABLE_EVENTS } from "../../../src/domain/webhooks/events";
import { HTTP_STATUS_TEXT } from "../../../src/http/outcomes";

/**
 * The bodies the v1 API answers, as zod schemas. They are the OpenAPI document's components (never
 * written by hand) and the tests validate real answers against them, so a renderer that adds, drops
 * or retypes a field fails a test until this file says so too. Field meanings: spec v1 section 2
 * and docs/decisions.md.
 */

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
const flag = z.union([z.literal(0), z.literal(1)]).meta({ description: "1 for yes, 0 for no." });
const dateTime = z.string().meta({ description: "ISO 8601 date-time.", example: "2026-11-22T08:30:00Z" });
const localDateTime = z
  .string()
  .meta({ description: "Local time at the place, ISO 8601 without offset.", example: "2026-11-29T14:00:00" });
const shipmentType = z.enum(["Container", "Bill of Lading"]);
const status = z.enum(SHIPMENT_STATUSES).meta({ description: "Shipment status (spec v1 section 3)." });
const sandboxMode = z
  .literal("sandbox")
  .optional()
  .meta({ description: "Present on sandbox answers only (every success body except `?include=full`)." });
const persisted = z
  .literal(false)
  .optional()
  .meta({ description: "Sandbox writes only: the answer has the real shape, but nothing changed." });

// ---------------------------------------------------------------- errors (2.1, 4.1 rule 13, 7, 8)

const planCode = z.enum(PLAN_ORDER).meta({ description: "A plan code." });
const seconds = (description: string) => z.number().int().meta({ description });

/**
 * An error answer: the envelope of spec v1 section 2.1 around the `data` of one error. A body with a
 * status of its own says so in `statusCode`; its `data` lists every key the code sends (no more),
 * so the bodies one status may carry on a route exclude each other (`oneOf`).
 */
function errorBody<D extends z.ZodType>(
  status: number | null,
  data: D,
  meta: { id: string; description: string },
) {
  return z
    .object({
      success: z.literal(false),
      statusCode: status === null ? z.number().int() : z.literal(status),
      statusMessage: status === null ? z.string() : z.literal(HTTP_STATUS_TEXT[status] ?? "Error"),
      message: z.string().meta({ description: "A sentence for a person; branch on `data.error` instead." }),
      data,
    })
    .meta(meta);
}

/** Every error answer with no detail of its own beyond the parameter at fault. */
export const ErrorBody = errorBody(
  null,
  z.strictObject({
    error: z
      .string()
      .meta({ description: "Stable error code (spec v1 section 7).", example: "invalid_parameter" }),
    param: z.string().optional().meta({ description: "The parameter at fault (400).", example: "search" }),
  }),
  {
    id: "Error",
    description:
      "Spec v1 section 2.1: every error answer that carries no detail of its own (missing or invalid key, developer mode off, view-only key, bad parameter or body, `shipment_not_found`, body too large, internal error).",
  },
);

const rateLimitBase = {
  error: z.enum(["rate_limit_exceeded", "organization_rate_limit_exceeded"]).meta({
    description:
      "`rate_limit_exceeded`: the key's window is spent; `organization_rate_limit_exceeded`: the organisation's keys together spent the organisation's window (5 times the per-key window).",
  }),
  limit: z.number().int().meta({ description: "Requests allowed per minute." }),
  retryAfter: seconds("Seconds until the window resets (as `Retry-After`)."),
  plan: planCode,
};

/** 429 `rate_limit_exceeded` of a key's window: the plan and exactly one of `upgrade` or `contactUrl`. */
export const RateLimitErrorBody = errorBody(
  429,
  z.xor([
    z.strictObject({
      ...rateLimitBase,
      upgrade: z.strictObject({
        next_plan: planCode,
        next_limit_per_min: z.number().int(),
        url: z.string().meta({ example: "https://quayside.example/billing/upgrade?plan=professional" }),
      }),
    }),
    z.strictObject({
      ...rateLimitBase,
      contactUrl: z.string().meta({
        description: "No higher plan buys a bigger minute: ask us.",
        example: "https://quayside.example/contact",
      }),
    }),
  ]),
  {
    id: "RateLimitError",
    description:
      "Spec v1 sections 2.1 and 7: the key's per-minute window is spent, or the organisation's (its keys together). Names the plan and exactly one of `upgrade` (a higher plan buys a bigger minute) or `contactUrl` (none does). The sandbox answers it for its reserved reference SBXU4290003.",
  },
);

/** 429 of the sandbox's per-address windows (60 requests, 5 webhook fires a minute): no key, no plan. */
export const SandboxRateLimitErrorBody = errorBody(
  429,
  z.strictObject({
    error: z.literal("rate_limit_exceeded"),
    limit: z.number().int().meta({ description: "Requests (or fires) allowed per minute from the address." }),
    retryAfter: seconds("Seconds until the window resets."),
  }),
  {
    id: "SandboxRateLimitError",
    description:
      "Spec v1 sections 4.3 and 8: the sandbox's per-address window is spent (there is no key, so no plan).",
  },
);

export const AuthThrottledErrorBody = errorBody(
  429,
  z.strictObject({
    error: z.enum(["too_many_failed_authentications", "too_many_requests_without_key"]).meta({
      description:
        "`too_many_failed_authentications`: unknown keys from the address; `too_many_requests_without_key`: requests with no key at all. Neither ever refuses a key that authenticates.",
    }),
    limit: z
      .number()
      .int()
      .meta({ description: "Unknown keys (or keyless requests) allowed per minute from the address." }),
    retryAfter: seconds("Seconds until the window resets."),
  }),
  {
    id: "AuthThrottledError",
    description: "Too many unknown keys, or too many requests without a key, from this address.",
  },
);

const lookupLimitData = <E extends string>(error: E) =>
  z.strictObject({
    error: z.literal(error),
    limit: z.number().int().meta({ description: "Lookups allowed per day." }),
    remaining: z.number().int(),
    reset: z.number().int().meta({ description: "When the allowance resets, unix seconds." }),
    retryAfter: seconds("Seconds until then (as `Retry-After`)."),
  });

export const LookupLimitErrorBody = errorBody(429, lookupLimitData("lookup_limit_exceeded"), {
  id: "LookupLimitError",
  description: "Spec v1 section 8: the key's daily vessel and schedule lookup allowance is spent.",
});

export const CarrierLookupLimitErrorBody = errorBody(429, lookupLimitData("carrier_lookup_limit_exceeded"), {
  id: "CarrierLookupLimitError",
  description: "Spec v1 section 8: the key's daily carrier-lookup allowance is spent.",
});

export const RetryTooSoonErrorBody = errorBody(
  429,
  z.strictObject({
    error: z.literal("retry_failed_too_soon"),
    retryAfter: seconds("Seconds until the organisation may call again."),
  }),
  {
    id: "RetryTooSoonError",
    description: "Spec v1 section 4.1 rule 7: one call per organisation per 15 minutes.",
  },
);

const usageApi = z
  .string()
  .meta({ description: "The path of GET /account/usage.", example: "/api/v1/account/usage" });

export const ShipmentLimitErrorBody = errorBody(
  402,
  z.strictObject({
    error: z.literal("shipment_limit_reached"),
    limit: z.number().int().meta({ description: "Shipment slots of the cycle." }),
    used: z.number().int(),
    cycle_ends_at: dateTime,
    usageApi,
  }),
  {
    id: "ShipmentLimitError",
    description:
      "Spec v1 section 7: every shipment slot of the billing cycle is used (`Retry-After` points at the cycle's end; retrying sooner cannot succeed).",
  },
);

export const PaymentOverdueErrorBody = errorBody(
  402,
  z.strictObject({
    error: z.literal("payment_overdue"),
    overdueDays: z.number().int(),
    graceDays: z.number().int(),
    plan: planCode,
    manageUrl: z.string().meta({ example: "https://quayside.example/billing" }),
    usageApi,
  }),
  {
    id: "PaymentOverdueError",
    description:
      "Spec v1 section 7: payment is overdue past the grace period; new tracking is paused, existing shipments stay readable.",
  },
);

export const TrackingNotFoundErrorBody = errorBody(
  404,
  z.strictObject({
    error: z.literal("not_found"),
    tried: z
      .array(z.string())
      .meta({ description: "Carrier codes walked; `(auto)` for the un-hinted attempt.", example: ["MSCU"] }),
    discovery: z.enum(["queued", "not_eligible"]).meta({
      description:
        "`queued`: a background job tries the other likely carriers; read the outcome at `read_endpoint`.",
    }),
    discovery_reason: z
      .enum(["plan", "disabled", "invalid_reference", "no_candidates"])
      .optional()
      .meta({ description: "Why no job was created (only when `discovery` is `not_eligible`)." }),
    read_endpoint: z.string().meta({ example: "/api/v1/shipments/SHP-1007" }),
    hint: z.string(),
    upgrade: z
      .strictObject({
        feature: z.literal("carrier_discovery"),
        min_plan: planCode,
        message: z.string(),
        url: z.string().meta({ example: "https://quayside.example/billing/upgrade?plan=starter" }),
      })
      .optional()
      .meta({
        description: "Only for `discovery_reason` `plan` on the free plan; a paid account never gets it.",
      }),
  }),
  {
    id: "TrackingNotFoundError",
    description:
      "Spec v1 section 4.1 rule 13: no carrier asked has a record of the reference (yet). Not proof it is wrong: never write it off while `discovery` is `queued`.",
  },
);

export const VesselNotFoundErrorBody = errorBody(
  404,
  z.strictObject({ error: z.literal("vessel_not_found"), imo: z.string(), mmsi: z.string() }),
  { id: "VesselNotFoundError", description: "No position source knows this vessel." },
);

export const PlanRequiredErrorBody = errorBody(
  403,
  z.strictObject({ error: z.literal("plan_required"), feature: z.enum(FEATURES), min_plan: planCode }),
  { id: "PlanRequiredError", description: "The organisation's plan does not include the feature." },
);

export const FeatureDisabledErrorBody = errorBody(
  403,
  z.strictObject({ error: z.literal("feature_disabled"), feature: z.enum(FEATURES) }),
  { id: "FeatureDisabledError", description: "The feature is switched off for the organisation." },
);

export const CustomerLimitErrorBody = errorBody(
  422,
  z.strictObject({
    error: z.literal("customer_limit_reached"),
    limit: z.number().int().meta({ description: "Customers the plan allows." }),
  }),
  { id: "CustomerLimitError", description: "The organisation has as many customers as its plan allows." },
);

export const UnsupportedReferenceTypeErrorBody = errorBody(
  400,
  z.strictObject({
    error: z.literal("unsupported_reference_type"),
    sealine: z.string().meta({ example: "MAEU" }),
    param: z.literal("sealine"),
  }),
  {
    id: "UnsupportedReferenceTypeError",
    description: "The carrier named does not resolve this type of reference.",
  },
);

export const CarrierUnreachableErrorBody = errorBody(
  502,
  z.strictObject({
    error: z.literal("carrier_unreachable"),
    sealine: z.string().meta({ example: "MAEU" }),
    retryAfter: seconds("Seconds to wait before retrying (as `Retry-After`)."),
  }),
  {
    id: "CarrierUnreachableError",
    description: "The carrier could not be reached and nothing is stored for the reference yet; retryable.",
  },
);

export const CarrierUnavailableErrorBody = errorBody(
  502,
  z.strictObject({
    error: z.enum(["carrier_under_maintenance", "carrier_disabled"]),
    sealine: z.string().meta({ example: "MAEU" }),
  }),
  {
    id: "CarrierUnavailableError",
    description:
      "The carrier is under maintenance or disabled on this service; retry later or track without `sealine`.",
  },
);

export const ProviderUnavailableErrorBody = errorBody(
  502,
  z.strictObject({
    error: z.literal("provider_unavailable"),
    retryAfter: seconds("Seconds to wait before retrying (as `Retry-After`)."),
  }),
  {
    id: "ProviderUnavailableError",
    description: "The lookup's provider could not be reached; nothing was spent.",
  },
);

// ---------------------------------------------------------------- tracking document (2.2)

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
  status: nullable(z.enum(COMPAT_STATUS_CODES)),
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
const documentTables = {
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
    stale_reason: z.string().optional().meta({
      description: "Only when the carrier could not be reached and the stored document was served.",
    }),
    ...documentTables,
  })
  .meta({ id: "TrackingDocument", description: "Spec v1 section 2.2." });

export const TrackingAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: TrackingDocument })
  .meta({ id: "TrackingAnswer" });

// ---------------------------------------------------------------- bulk (2.5)

const bulkItemCommon = {
  index: z.number().int(),
  number: z.string(),
  type: shipmentType,
};

export const BulkItem = z
  .union([
    z.object({ ...bulkItemCommon, ok: z.literal(true), slot_consumed: z.boolean(), data: TrackingDocument }),
    z
      .object({ ...bulkItemCommon, ok: z.literal(false), error: z.string(), message: z.string() })
      .catchall(z.unknown())
      .meta({ description: "The item's error code and the same detail the single-item error carries." }),
  ])
  .meta({ id: "BulkItem" });

export const BulkTrackBody = z
  .object({
    shipments: z
      .array(
        z.object({
          type: z.enum(["container", "bl"]),
          number: z.string().min(1).max(100).meta({ example: "MSCU1234566" }),
          sealine: z
            .string()
            .regex(/^[A-Za-z0-9]{4}$/, "sealine must be exactly 4 letters or digits")
            .optional()
            .meta({ description: "SCAC, e.g. MAEU" }),
        }),
      )
      .min(1, "shipments needs 1 to 50 items")
      .max(50, "shipments needs 1 to 50 items"),
  })
  .meta({
    id: "BulkTrackRequest",
    example: {
      shipments: [
        { type: "container", number: "MSCU1234566" },
        { type: "bl", number: "MAEU123456789", sealine: "MAEU" },
      ],
    },
  });

export const BulkAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int(),
    tracked: z.number().int(),
    failed: z.number().int(),
    slots: z.object({ used: z.number().int(), limit: z.number().int(), remaining: z.number().int() }),
    results: z.array(BulkItem),
  })
  .meta({ id: "BulkResult", description: "Spec v1 section 2.5: one result per item, in request order." });

// ---------------------------------------------------------------- shipments (2.3)

export const ShipmentSummary = z
  .object({
    name: z.string().meta({ example: "SHP-1000" }),
    number_of_containers: z.number().int(),
    shipment_type: shipmentType,
    reference_number: z.string(),
    sealine_name: nullable(z.string()),
    sealine: nullable(z.string()),
    status,
    origin: z.string(),
    destination: z.string(),
    total_days: z.number(),
    remaining_days: z.number(),
    eta: nullable(localDateTime),
    created_at: dateTime,
    last_synced_at: nullable(dateTime),
    is_active: flag,
    is_delayed: flag,
    ata: nullable(localDateTime),
    customers: z.array(z.string()),
    next_refresh_eligible_at: nullable(dateTime),
    refresh_eligible_now: z.boolean(),
  })
  .meta({ id: "ShipmentSummary", description: "Spec v1 section 2.3." });

const fullDocument = z.object({
  events_table: documentTables.events_table,
  containers_table: documentTables.containers_table,
  vessels_table: documentTables.vessels_table,
  locations_table: documentTables.locations_table,
  voyage_plan_table: documentTables.voyage_plan_table,
  route_json: z.string(),
  last_position: nullable(z.object({ latitude: z.number(), longitude: z.number() })),
});

export const ShipmentDetail = ShipmentSummary.extend({
  terminal: z
    .null()
    .meta({ description: "Terminal data (holds, availability): null until a source exists." }),
  discovery: nullable(z.object({ status: z.string() })),
  document: nullable(fullDocument).optional().meta({ description: "With `?include=full` only." }),
  cached_at: nullable(dateTime).optional(),
  mode: z.literal("stored").optional().meta({ description: "With `?include=full` only." }),
  hint: z.string().optional(),
}).meta({ id: "ShipmentDetail" });

export const ShipmentAnswer = z
  .object({ success: z.literal(true), mode: sandboxMode, data: ShipmentDetail })
  .meta({ id: "ShipmentAnswer" });

export const ShipmentPage = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    total: z.number().int().optional().meta({ description: "Page mode." }),
    page: z.number().int().optional(),
    pageSize: z.number().int().optional(),
    updated_since: dateTime.optional().meta({ description: "Delta mode: the time asked for, normalised." }),
    count: z.number().int().optional().meta({ description: "Delta mode: rows returned (at most 200)." }),
    data: z.array(ShipmentSummary),
  })
  .meta({ id: "ShipmentList", description: "A page, or in delta mode (`updated_since`) the changed rows." });

export const ShipmentPatchBody = z
  .object({
    carrier: z
      .string()
      .regex(/^[A-Za-z0-9]{4}$/)
      .optional()
      .meta({ description: "SCAC, e.g. MAEU" }),
    type: z.enum(["container", "bl"]).optional(),
    customer: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .meta({ description: "Customer name; null or empty string clears it." }),
  })
  .meta({
    id: "ShipmentPatch",
    description: "At least one field; `reference_number` is refused.",
    example: { customer: "ACME Imports" },
  });

export const ShipmentUpdatedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: ShipmentSummary,
    unchanged: z.literal(true).optional(),
    still_failed: z.literal(true).optional(),
  })
  .meta({ id: "ShipmentUpdated" });

export const ShipmentDeletedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    deleted: z.literal(true),
    shipment_id: z.string().meta({ description: "The real id of the row, not necessarily what was sent." }),
  })
  .meta({ id: "ShipmentDeleted" });

export const RetryFailedBody = z
  .object({ shipment_ids: z.array(z.string().max(100)).max(1000).optional() })
  .meta({ id: "RetryFailedRequest", example: { shipment_ids: ["SHP-1007"] } });

export const RetryFailedAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    examined: z.number().int(),
    queued: z.number().int(),
    skipped: z.number().int(),
    skipped_reason: z.enum(["plan", "disabled"]).optional().meta({
      description:
        "Why the skipped ones were not queued: the plan lacks carrier discovery, or the organisation switched it off.",
    }),
  })
  .meta({ id: "RetryFailedResult" });

export const ShareAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    data: z.object({
      shipment_id: z.string(),
      token: z.string(),
      url: z.string().meta({ description: "The public, sanitised tracking page." }),
      created_at: dateTime,
      created: z.boolean().meta({ description: "False when the shipment already had a link (same link)." }),
    }),
  })
  .meta({ id: "ShareLink" });

export const UnshareAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    persisted,
    revoked: z.boolean(),
    shipment_id: z.string(),
  })
  .meta({ id: "ShareRevoked" });

// ---------------------------------------------------------------- account

export const UsageAnswer = z
  .object({
    success: z.literal(true),
    mode: sandboxMode,
    data: z.object({
      plan: z.string(),
      plan_name: z.string(),
      quota: z.number().int(),
      used: z.number().int().meta({ description: "Distinct references this cycle." }),
      slots_held: z.number().int(),
      slots_remaining: z.number().int(),
      cycle: z.enum(["monthly", "yearly"]),
      period_days: z.union([z.literal(30), z.literal(365)]),
      cycle_start: dateTime,
      cycle_end: dateTime,
      rate_limit: z.object({
        limit: z.number().int(),
        remaining: z.number().int(),
        reset: z.number().int().meta({ description: "Unix seconds." }),
      }),
      lookups_per_day: z.number().int(),
      billing: z.object({ state: z.string(), overdue_days: z.number().int(), grace_days: z.number().int() }),
    }),
  })
  .meta({ id: "AccountUsage" });

// ---------------------------------------------------------------- lookups

export const Carrier = z
  .object({ scac: z.string(), name: z.string(), slug: z.string() })
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
    timestamp: dateTime,
    atd: nullable(z.string()),
    eta: nullable(z.string()),
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
    departure_date: nullable(z.string()),
    arrival_date: nullable(z.string()),
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

// ---------------------------------------------------------------- sandbox webhook fire

export const WebhookFireBody = z
  .object({
    url: z
      .string()
      .meta({ description: "A public https URL.", example: "https://example.com/hooks/quayside" }),
    event: z.enum([...SUBSCRIBABLE_EVENTS, "webhook.test"]).meta({ example: "shipment.updated" }),
  })
  .meta({
    id: "WebhookFireRequest",
    example: { url: "https://example.com/hooks/quayside", event: "shipment.updated" },
  });

export const WebhookFireAnswer = z
  .object({
    success: z.literal(true),
    mode: z.literal("sandbox"),
    persisted: z.literal(false),
    delivery_id: z.string(),
    event: z.string(),
    signing_secret: z
      .string()
      .meta({ description: "The one-time secret this delivery was signed with (`whsec_...`)." }),
    response_status: nullable(z.number().int()).meta({
      description: "The receiver's status; null when it failed.",
    }),
    error: nullable(z.string()),
    delivered: z.boolean(),
    body: z.string().meta({ description: "The exact bytes sent (verify the signature over these)." }),
  })
  .meta({ id: "WebhookFireResult" });

// ---------------------------------------------------------------- webhooks (spec v1 section 6)

const shipmentEventData = z.object({
  shipment_id: z.string().meta({ example: "SHP-1000" }),
  reference_number: z.string(),
  carrier: nullable(z.string()),
  status,
  previous_status: status,
  eta: nullable(dateTime),
  previous_eta: nullable(dateTime),
  ata: nullable(dateTime),
});

const envelope = <T extends z.ZodType>(event: string, data: T, description: string) =>
  z
    .object({
      event: z.literal(event),
      created: z.number().int().meta({ description: "Unix seconds." }),
      data,
    })
    .meta({ id: `Webhook_${event.replace(".", "_")}`, description });

export const WEBHOOK_PAYLOADS = {
  "shipment.updated": envelope(
    "shipment.updated",
    shipmentEventData,
    "A milestone landed and the status changed (any transition other than arrival).",
  ),
  "shipment.vessel_arrived": envelope(
    "shipment.vessel_arrived",
    shipmentEventData,
    "The vessel arrived at the final port of discharge; `ata` carries the date.",
  ),
  "shipment.arrived": envelope("shipment.arrived", shipmentEventData, "Status became delivered."),
  "eta.changed": envelope("eta.changed", shipmentEventData, "The carrier revised the ETA."),
  "discovery.recovered": envelope(
    "discovery.recovered",
    z.object({
      reference_number: z.string(),
      type: shipmentType,
      carrier: z.string(),
      carrier_name: z.string(),
      shipment_id: z.string(),
    }),
    "A shipment that failed to track was recovered under the correct carrier.",
  ),
  "webhook.test": envelope(
    "webhook.test",
    z.object({ endpoint_id: z.string(), message: z.string() }),
    "Only sent by a manual test send, never by a subscription.",
  ),
} as const;
