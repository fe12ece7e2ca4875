import { z } from "zod";
import type { Feature } from "../../generated/operations";
import * as S from "./schemas";

/**
 * Every v1 endpoint, described once. The router mounts a handler for each entry (and refuses to
 * start when one has none), the sandbox serves the same entries under `/sandbox`, and the OpenAPI
 * document is generated from them: a route cannot exist without being described.
 */
export interface RouteContract {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI form (`{id}`); the router converts it to Express's `:id`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /**
   * `schema` is the documented body. `check`, where given, is what the router checks instead: a
   * stricter form (unknown fields refused) or a looser frame whose items the core answers one by one.
   * An absent body is checked as `{}`.
   */
  body?: { schema: z.ZodType; required: boolean; check?: z.ZodType };
  /**
   * How a refusal of the route's input (path, query, body: checked by the router before the handler
   * runs, facades/v1/input.ts) is worded; its status and code are always `bad_request`'s.
   */
  inputRefusal?: InputRefusal;
  /** Success statuses and their bodies. */
  responses: Partial<Record<200 | 201 | 202, { description: string; schema: z.ZodType }>>;
  /**
   * Error statuses the route itself may answer, each with every body it may carry there. The
   * document adds admission's (live: the key's 401, 403 and 429; sandbox: the address window's 429),
   * 500 everywhere, and 400 and 413 on a route that takes a body.
   */
  errors: Partial<Record<400 | 402 | 403 | 404 | 409 | 422 | 429 | 502, readonly z.ZodType[]>>;
  /** Sends `X-Lookup-*` (daily lookup allowance) on answers that consulted it. */
  lookupHeaders?: boolean;
  /** Sends `X-Service-Refresh-Hint` on success. */
  refreshHint?: boolean;
  /** Changes stored data: the sandbox answers it with `persisted: false` and keeps nothing. */
  write?: boolean;
  /**
   * Takes references the sandbox reserves (spec v1 section 4.3), in its `number` path parameter or
   * in its body's `shipments[].number`: there, SBXU4290003 answers the production 429 of a spent key
   * window.
   */
  reservedReferences?: boolean;
  /**
   * The feature the organisation's plan and switches must allow (PATCH: to set a customer), else 403
   * `plan_required` or `feature_disabled` naming it.
   */
  feature?: Feature;
}

/**
 * The wording of an input refusal. By default the message is the schema's own for the first issue
 * (an unknown field is named) and `data.param` is the first field, else `param`.
 */
export interface InputRefusal {
  /** `data.param` when the issue names no field (a body that is not an object, an unknown field). Default `body`. */
  param?: string;
  /** One sentence for every issue, where the schema's own would not help the client. */
  message?: string;
  /** The whole path names the field (`shipments.0.number`), in `data.param` and before the message. */
  nested?: boolean;
  /** `data.error: malformed_body`: the body's frame is wrong, not one value in it. */
  malformedBody?: boolean;
}

/** Query and body schemas the router validates with (their messages are what a client reads). */
export const sealineParam = z
  .string()
  .regex(/^[A-Za-z0-9]{4}$/, "sealine must be exactly 4 letters or digits (a SCAC, e.g. MAEU)")
  .meta({ description: "SCAC, e.g. MAEU. Given: one exact attempt; omitted: detected.", example: "MAEU" });

/** The example names the carrier of the route's example reference, so the pair tracks as shipped. */
const sealineQuery = (example: string) => z.object({ sealine: sealineParam.meta({ example }).optional() });

export const listShipmentsQuery = z.object({
  page: z.coerce.number().int().min(1, "page starts at 1").default(1),
  pageSize: z.coerce.number().int().min(1).max(100, "pageSize is at most 100").default(20),
  updated_since: z.iso
    .datetime({
      offset: true,
      message: "updated_since must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z",
    })
    // On the branch too: the Postman converter builds a union's value from its first branch.
    .meta({ example: "2026-08-01T00:00:00Z" })
    .or(z.iso.date({ message: "updated_since must be an ISO 8601 date-time" }))
    // ISO 8601 has a year 0000 and PostgreSQL does not (1 BC is its year before 1 AD).
    .refine((value) => new Date(value).getUTCFullYear() >= 1, {
      message: "updated_since must be in the year 0001 or later, e.g. 2026-11-01T00:00:00Z",
    })
    .optional()
    .meta({
      description:
        "Delta mode: rows synced at or after this time, 200 a page (`has_more` says another follows); supersedes paging.",
      example: "2026-08-01T00:00:00Z",
    }),
  cursor: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,64}$/,
      "cursor is not one this API gave: pass next_cursor of the previous page unchanged.",
    )
    .optional()
    .meta({
      description:
        "Delta mode only: the previous page's `next_cursor`, with `updated_since` set to its `next_updated_since`.",
      example: "MjAyNi0wOC0wMVQwMDowMDowMC4wMDBafjEyMw",
    }),
});

export const readShipmentQuery = z.object({
  include: z
    .enum(["full"], { error: "include accepts only 'full'." })
    .optional()
    .meta({ description: "`full` adds the stored document.", example: "full" }),
});

export const carriersQuery = z.object({
  search: z
    // A repeated parameter arrives as a list.
    .string({ error: "search must be a single string." })
    .optional()
    .meta({ description: "At least 2 characters: SCAC, name or slug.", example: "maersk" }),
});

export const carrierLookupQuery = z.object({
  number: z
    .string({ error: "number is required." })
    .trim()
    .min(1, "number is required.")
    .meta({ example: "MSCU1234566" }),
  type: z.enum(["container", "bl"], { error: "type must be container or bl." }).optional().meta({
    description: "Inferred when absent: 4 letters and 7 digits is a container.",
    example: "container",
  }),
});

export const locodeParam = z.object({
  locode: z
    .string()
    .regex(/^[A-Za-z]{2}[A-Za-z0-9]{3}$/, "locode must be a 5-character UN/LOCODE, e.g. CNSHA")
    .meta({ description: "UN/LOCODE or carrier alias, e.g. CNSHA.", example: "CNSHA" }),
});

export const portsQuery = z.object({
  search: z
    .string({ error: "search is required (at least 2 characters)." })
    .trim()
    .min(2, "search needs at least 2 characters.")
    .meta({ description: "UN/LOCODE, name or city; at least 2 characters.", example: "rotterdam" }),
});

export const vesselQuery = z.object({
  imo: z
    .string({ error: "imo is required (7 digits)." })
    .regex(/^\d{7}$/, "imo must be 7 digits.")
    .meta({ example: "9811000" }),
  mmsi: z
    .string({ error: "mmsi is required (9 digits)." })
    .regex(/^\d{9}$/, "mmsi must be 9 digits.")
    .meta({ example: "353136000" }),
});

/**
 * A whole-number query parameter: checked as the query string it arrives as (so `3.0`, ` 3` or `0x3`
 * are refused with the parameter's own message, never read as 3), and documented as the integer a
 * typed client sends (`type: integer` with its bounds, not a string with a pattern).
 */
function wholeNumberParam(pattern: RegExp, message: string, bounds: { minimum: number; maximum: number }) {
  return z
    .string({ error: message })
    .regex(pattern, message)
    .meta({
      override: ({ jsonSchema }) => {
        const schema = jsonSchema as Record<string, unknown>;
        delete schema.pattern;
        Object.assign(schema, { type: "integer", ...bounds });
      },
    });
}

export const schedulesQuery = z.object({
  origin: z.string({ error: "origin is required (a UN/LOCODE)." }).meta({ example: "CNSHA" }),
  destination: z.string({ error: "destination is required (a UN/LOCODE)." }).meta({ example: "NLRTM" }),
  date: z.string({ error: "date is required (YYYY-MM-DD)." }).meta({ example: "2026-12-01" }),
  // The core's bounds (MAX_WEEK_RANGE in src/domain/schedules/schedules.service.ts).
  week_range: wholeNumberParam(/^\d{1,3}$/, "week_range must be a whole number.", {
    minimum: 1,
    maximum: 6,
  })
    .optional()
    .meta({ description: "Weeks from `date`, 1 to 6, default 1.", example: 2 }),
  date_type: z
    .enum(["departure", "arrival"], { error: "date_type must be departure or arrival." })
    .optional()
    .meta({ description: "Default departure.", example: "departure" }),
});

/** The core's bounds (src/domain/disruptions/disruption-filter.ts) are what the document states. */
const pageNumber = (name: string, bounds: { minimum: number; maximum: number }) =>
  wholeNumberParam(/^\d{1,7}$/, `${name} must be a whole number.`, bounds);

/** GET /disruptions: every filter is checked again by the core (GraphQL callers have no zod). */
export const disruptionsQuery = z.object({
  severity: wholeNumberParam(/^[1-4]$/, "severity must be a whole number from 1 to 4 (the minimum).", {
    minimum: 1,
    maximum: 4,
  })
    .optional()
    .meta({ description: "Minimum severity, 1 to 4 (default 1).", example: 3 }),
  category: z
    .enum(S.DISRUPTION_CATEGORIES, {
      error: `category must be one of ${S.DISRUPTION_CATEGORIES.join(", ")}.`,
    })
    .optional()
    .meta({ example: "weather" }),
  port: z
    .string()
    .regex(/^[A-Za-z]{2}[A-Za-z2-9]{3}$/, "port must be a UN/LOCODE, e.g. CNSHA.")
    .optional()
    .meta({ description: "UN/LOCODE.", example: "CNSHA" }),
  carrier: z
    .string()
    .regex(/^[A-Za-z]{4}$/, "carrier must be a 4-letter SCAC, e.g. MAEU.")
    .optional()
    .meta({ description: "4-letter SCAC.", example: "MAEU" }),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166 alpha-2 code, e.g. CN.")
    .optional()
    .meta({ description: "ISO 3166 alpha-2.", example: "CN" }),
  status: z
    .enum(["active", "resolved"], { error: "status must be active or resolved." })
    .optional()
    .meta({ description: "Default active.", example: "active" }),
  since: z.string().optional().meta({
    description: "ISO 8601 date or date-time: updated at or after.",
    example: "2026-11-01T00:00:00Z",
  }),
  page: pageNumber("page", { minimum: 1, maximum: 1_000_000 })
    .optional()
    .meta({ description: "From 1.", example: 1 }),
  page_size: pageNumber("page_size", { minimum: 1, maximum: 100 })
    .optional()
    .meta({ description: "1 to 100, default 25.", example: 25 }),
});

const disruptionIdParam = z.object({
  // The example is the sandbox world's first disruption, so the Postman collection's request answers.
  id: z.string().meta({ description: "A disruption id.", example: "00000000-0000-4000-8000-000000000001" }),
});

const DISRUPTION_GATES = { 403: [S.PlanRequiredErrorBody, S.FeatureDisabledErrorBody] } as const;

const idParam = z.object({
  id: z
    .string()
    .meta({ description: "Container or B/L number (preferred), or `SHP-<digits>`.", example: "SHP-1000" }),
});
const numberParam = (example: string) => z.object({ number: z.string().meta({ example }) });
const partnerSourceParam = z.object({
  // The sandbox world's seeded source, so the Postman collection's sandbox requests answer.
  id: z.string().meta({ description: "A partner source id.", example: S.SANDBOX_PARTNER_SOURCE_ID }),
});
const PARTNER_WRITE_ERRORS = { 400: [S.ErrorBody], 404: [S.ErrorBody] } as const;

/** What a live fetch from the carrier may refuse with (GET /container, GET /bl, and PATCH re-tracking). */
const TRACK_ERRORS = {
  400: [S.ErrorBody, S.UnsupportedReferenceTypeErrorBody],
  402: [S.ShipmentLimitErrorBody, S.PaymentOverdueErrorBody],
  404: [S.TrackingNotFoundErrorBody],
  502: [S.CarrierUnreachableErrorBody, S.CarrierUnavailableErrorBody],
} as const;

export const V1_ROUTES = {
  carriers: {
    method: "get",
    path: "/carriers",
    operationId: "listCarriers",
    tag: "Carriers",
    summary: "The carrier directory",
    query: carriersQuery,
    responses: { 200: { description: "Carriers, filtered by `search`.", schema: S.CarriersAnswer } },
    errors: { 400: [S.ErrorBody] },
  },
  carrierLookup: {
    method: "get",
    path: "/carriers/lookup",
    operationId: "lookupCarrier",
    tag: "Carriers",
    summary: "Which carrier a reference belongs to",
    description: "Creates no shipment and uses no slot; draws on the daily carrier-lookup allowance.",
    query: carrierLookupQuery,
    inputRefusal: { param: "number" },
    responses: {
      200: { description: "The likeliest carrier and every candidate.", schema: S.CarrierLookupAnswer },
    },
    errors: { 400: [S.ErrorBody], 429: [S.CarrierLookupLimitErrorBody] },
    lookupHeaders: true,
  },
  ports: {
    method: "get",
    path: "/ports",
    operationId: "searchPorts",
    tag: "Lookups",
    summary: "Search ports",
    description: "At most 25 results: exact UN/LOCODE matches first, then the busiest.",
    query: portsQuery,
    responses: { 200: { description: "Matching ports.", schema: S.PortsAnswer } },
    errors: { 400: [S.ErrorBody] },
  },
  portCongestionBoard: {
    method: "get",
    path: "/ports/congestion",
    operationId: "portCongestionBoard",
    feature: "port_congestion",
    tag: "Lookups",
    summary: "The congestion board of every scored port",
    description:
      "Needs the port-congestion feature and plan (spec v1 rule 9). No upstream call, no slot. Readings are computed ahead of requests and differ in freshness: check `computed_at`.",
    responses: {
      200: { description: "Every scored port, most congested first.", schema: S.CongestionBoardAnswer },
    },
    errors: { 403: [S.PlanRequiredErrorBody, S.FeatureDisabledErrorBody] },
  },
  portCongestion: {
    method: "get",
    path: "/ports/{locode}/congestion",
    operationId: "portCongestion",
    feature: "port_congestion",
    tag: "Lookups",
    summary: "One port's congestion reading with its 90-day history",
    description:
      "Needs the port-congestion feature and plan (spec v1 rule 9). No upstream call, no slot. A known port without signal answers 200 with null score fields.",
    params: locodeParam,
    responses: { 200: { description: "The reading.", schema: S.CongestionReadingAnswer } },
    errors: {
      400: [S.ErrorBody],
      403: [S.PlanRequiredErrorBody, S.FeatureDisabledErrorBody],
      404: [S.PortNotFoundErrorBody],
    },
  },
  vesselTrack: {
    method: "get",
    path: "/vessel/track",
    operationId: "trackVessel",
    tag: "Lookups",
    summary: "A vessel's last position",
    description: "Uses no slot; draws on the daily lookup allowance; cached 5 minutes.",
    query: vesselQuery,
    responses: { 200: { description: "The position.", schema: S.VesselAnswer } },
    errors: {
      400: [S.ErrorBody],
      404: [S.VesselNotFoundErrorBody],
      429: [S.LookupLimitErrorBody],
      502: [S.ProviderUnavailableErrorBody],
    },
    lookupHeaders: true,
  },
  schedules: {
    method: "get",
    path: "/voyage/schedules",
    operationId: "sailingSchedules",
    tag: "Lookups",
    summary: "Sailing schedules between two ports",
    description: "Uses no slot; draws on the daily lookup allowance; cached 30 minutes.",
    query: schedulesQuery,
    responses: { 200: { description: "Sailings.", schema: S.SchedulesAnswer } },
    errors: {
      400: [S.ErrorBody],
      429: [S.LookupLimitErrorBody],
      502: [S.ProviderUnavailableErrorBody],
    },
    lookupHeaders: true,
  },
  trackContainer: {
    method: "get",
    path: "/container/{number}",
    operationId: "trackContainer",
    tag: "Tracking",
    summary: "Track a container (live fetch from the carrier)",
    description:
      "Always re-fetches and is slow; read repeat checks from GET /shipments/{id}. A new reference costs a slot.",
    params: numberParam("MSCU1234566"),
    query: sealineQuery("MSCU"),
    responses: { 200: { description: "The tracking document.", schema: S.TrackingAnswer } },
    errors: TRACK_ERRORS,
    reservedReferences: true,
    refreshHint: true,
  },
  trackBillOfLading: {
    method: "get",
    path: "/bl/{number}",
    operationId: "trackBillOfLading",
    tag: "Tracking",
    summary: "Track a bill of lading (live fetch from the carrier)",
    description: "3 to 50 characters as printed; URL-encode `/` as `%2F`.",
    params: numberParam("MAEU123456789"),
    query: sealineQuery("MAEU"),
    responses: { 200: { description: "The tracking document.", schema: S.TrackingAnswer } },
    errors: TRACK_ERRORS,
    reservedReferences: true,
    refreshHint: true,
  },
  trackBulk: {
    method: "post",
    path: "/track",
    operationId: "trackBulk",
    tag: "Tracking",
    summary: "Track 1 to 50 references",
    description: "Answers 200 even when items fail: branch on each `results[].ok`.",
    body: { schema: S.BulkTrackBody, required: true },
    inputRefusal: { param: "shipments", nested: true, malformedBody: true },
    responses: { 200: { description: "One result per item.", schema: S.BulkAnswer } },
    errors: { 400: [S.ErrorBody], 402: [S.PaymentOverdueErrorBody] },
    reservedReferences: true,
  },
  accountUsage: {
    method: "get",
    path: "/account/usage",
    operationId: "accountUsage",
    tag: "Account",
    summary: "Plan, quota, slots and billing cycle",
    responses: { 200: { description: "Usage.", schema: S.UsageAnswer } },
    errors: {},
  },
  listShipments: {
    method: "get",
    path: "/shipments",
    operationId: "listShipments",
    tag: "Shipments",
    summary: "Stored shipments: a page, or the changes since a time",
    query: listShipmentsQuery,
    responses: { 200: { description: "Shipment summaries.", schema: S.ShipmentPage } },
    errors: { 400: [S.ErrorBody] },
  },
  retryFailed: {
    method: "post",
    path: "/shipments/retry-failed",
    operationId: "retryFailedShipments",
    tag: "Shipments",
    summary: "Retry shipments that failed in the last 7 days",
    description: "At most 200 references per call; one call per organisation per 15 minutes.",
    body: { schema: S.RetryFailedBody, required: false, check: S.RetryFailedBody.strict() },
    inputRefusal: { param: "shipment_ids", message: "shipment_ids must be an array of strings." },
    responses: { 202: { description: "Jobs started.", schema: S.RetryFailedAnswer } },
    errors: { 400: [S.ErrorBody], 429: [S.RetryTooSoonErrorBody] },
    write: true,
  },
  updateShipment: {
    method: "patch",
    path: "/shipments/{id}",
    operationId: "updateShipment",
    feature: "customers",
    tag: "Shipments",
    summary: "Change a shipment's carrier, type or customer",
    params: idParam,
    // `reference_number` is taken so that it can be refused with a clear message.
    body: {
      schema: S.ShipmentPatchBody,
      required: true,
      check: S.ShipmentPatchBody.extend({ reference_number: z.unknown().optional() }).strict(),
    },
    responses: { 200: { description: "The updated shipment.", schema: S.ShipmentUpdatedAnswer } },
    errors: {
      ...TRACK_ERRORS,
      403: [S.PlanRequiredErrorBody, S.FeatureDisabledErrorBody],
      // A shipment that is not the caller's, or the re-track with a new carrier finding nothing.
      404: [S.ErrorBody, S.TrackingNotFoundErrorBody],
      422: [S.CustomerLimitErrorBody],
    },
    write: true,
  },
  untrackShipment: {
    method: "delete",
    path: "/shipments/{id}",
    operationId: "untrackShipment",
    tag: "Shipments",
    summary: "Stop tracking a shipment",
    params: idParam,
    responses: { 200: { description: "Untracked.", schema: S.ShipmentDeletedAnswer } },
    errors: { 404: [S.ErrorBody] },
    write: true,
  },
  shareShipment: {
    method: "post",
    path: "/shipments/{id}/share",
    operationId: "shareShipment",
    tag: "Shipments",
    summary: "Create (or return) the public tracking page of a shipment",
    params: idParam,
    responses: {
      201: { description: "Link created.", schema: S.ShareAnswer },
      200: { description: "The shipment already had a link: the same one.", schema: S.ShareAnswer },
    },
    // 409 shipment_not_shareable: no carrier has found it yet, so the page would answer 404.
    errors: { 404: [S.ErrorBody], 409: [S.ErrorBody] },
    write: true,
  },
  unshareShipment: {
    method: "delete",
    path: "/shipments/{id}/share",
    operationId: "unshareShipment",
    tag: "Shipments",
    summary: "Revoke the public tracking page",
    params: idParam,
    responses: { 200: { description: "Revoked (or there was none).", schema: S.UnshareAnswer } },
    errors: { 404: [S.ErrorBody] },
    write: true,
  },
  refreshShipment: {
    method: "post",
    path: "/shipments/{id}/refresh",
    operationId: "refreshShipment",
    tag: "Shipments",
    summary: "Ask the carrier again now, within the refresh limits",
    description:
      "One of the organisation's shipments (a teammate's included), with the carrier and type it already has; no slot. Allowed once the refresh gap since the carrier's last answer has elapsed (12 hours; 4 from 48 hours before the ETA until 7 days after it: the shipment's `refresh_eligible_now`) and while it still moves. Too soon: 429 `refresh_too_soon` with `Retry-After` and `next_refresh_eligible_at`. Delivered, cancelled or never found: 400 with `reason`. Answers the tracking document, like GET /container/{number}.",
    params: idParam,
    responses: {
      200: { description: "The carrier's new answer: the tracking document.", schema: S.TrackingAnswer },
    },
    errors: {
      ...TRACK_ERRORS,
      400: [S.RefreshNotAllowedErrorBody, ...TRACK_ERRORS[400]],
      // The shipment is not the organisation's, or the carrier no longer knows the reference.
      404: [S.ErrorBody, S.TrackingNotFoundErrorBody],
      429: [S.RefreshTooSoonErrorBody],
    },
    refreshHint: true,
    write: true,
  },
  readShipment: {
    method: "get",
    path: "/shipments/{id}",
    operationId: "readShipment",
    tag: "Shipments",
    summary: "A stored shipment (no carrier call, no slot)",
    params: idParam,
    query: readShipmentQuery,
    responses: { 200: { description: "The shipment.", schema: S.ShipmentAnswer } },
    errors: { 400: [S.ErrorBody], 404: [S.ErrorBody] },
  },
  listDisruptions: {
    method: "get",
    path: "/disruptions",
    operationId: "listDisruptions",
    feature: "disruptions",
    tag: "Disruptions",
    summary: "Published disruptions, most severe first",
    description:
      "Filters combine with AND. A bad filter value is 400 `invalid_parameter` naming it in `data.param`, checked before the plan; a plan without disruptions is 403 `plan_required`, never a partial list.",
    query: disruptionsQuery,
    responses: { 200: { description: "A page of disruptions.", schema: S.DisruptionPage } },
    errors: { 400: [S.ErrorBody], ...DISRUPTION_GATES },
  },
  readDisruption: {
    method: "get",
    path: "/disruptions/{id}",
    operationId: "readDisruption",
    feature: "disruptions",
    tag: "Disruptions",
    summary: "One disruption",
    description:
      "The id of a disruption later merged into another (two first reports of one event) answers that other one, under its own `id`: store the `id` answered.",
    params: disruptionIdParam,
    responses: { 200: { description: "The disruption, as a list item.", schema: S.DisruptionAnswer } },
    errors: { 404: [S.DisruptionNotFoundErrorBody], ...DISRUPTION_GATES },
  },
  shipmentDisruptions: {
    method: "get",
    path: "/shipments/{id}/disruptions",
    operationId: "shipmentDisruptions",
    feature: "disruptions",
    tag: "Disruptions",
    summary: "Active disruptions touching one shipment",
    description:
      "At most ten, most severe first, each with `match_types`. Another account's shipment is 404, never 403.",
    params: idParam,
    responses: {
      200: { description: "The disruptions and how each touches it.", schema: S.ShipmentDisruptionsAnswer },
    },
    errors: { 404: [S.ErrorBody], ...DISRUPTION_GATES },
  },
  listPartnerSources: {
    method: "get",
    path: "/partner-sources",
    operationId: "listPartnerSources",
    tag: "Partners",
    summary: "The organisation's partner sources",
    description:
      "Parties that are not carriers (a trucker's app, a TMS, a rail feed, a warehouse) and post events about your boxes; each event is named with its source. Developer mode.",
    responses: { 200: { description: "Sources, oldest first.", schema: S.PartnerSourcesAnswer } },
    errors: {},
  },
  createPartnerSource: {
    method: "post",
    path: "/partner-sources",
    operationId: "createPartnerSource",
    tag: "Partners",
    summary: "Add a partner source (its signing secret is shown this once)",
    description: "At most 50 per organisation. A key that may write, developer mode.",
    body: { schema: S.PartnerSourceBody, required: true },
    inputRefusal: { param: "name" },
    responses: {
      201: { description: "The source and its secret.", schema: S.PartnerSourceWithSecretAnswer },
    },
    errors: { 400: [S.ErrorBody] },
    write: true,
  },
  rotatePartnerSourceSecret: {
    method: "post",
    path: "/partner-sources/{id}/rotate",
    operationId: "rotatePartnerSourceSecret",
    tag: "Partners",
    summary: "A new signing secret; the old one stops working at once",
    params: partnerSourceParam,
    responses: {
      200: { description: "The source and its new secret.", schema: S.PartnerSourceWithSecretAnswer },
    },
    errors: { 404: [S.ErrorBody] },
    write: true,
  },
  postPartnerEvents: {
    method: "post",
    path: "/partner-sources/{id}/events",
    operationId: "postPartnerEvents",
    tag: "Partners",
    summary: "Post 1 to 100 of a source's events",
    description:
      "Milestones (EQUIPMENT, TRANSPORT) and position fixes (POSITION) close to DCSA Track & Trace events. Each event is checked alone and answered in `results` (200 even when some are refused); a replayed `event_id` of the source changes nothing; a carrier's actual event is never overridden (docs/decisions/partner-events.md).",
    params: partnerSourceParam,
    body: { schema: S.PartnerEventsBody, required: true, check: S.PartnerEventsFrame },
    inputRefusal: { param: "events", malformedBody: true },
    responses: { 200: { description: "One result per event, in order.", schema: S.PartnerEventsAnswer } },
    errors: PARTNER_WRITE_ERRORS,
    write: true,
  },
  removePartnerSource: {
    method: "delete",
    path: "/partner-sources/{id}",
    operationId: "removePartnerSource",
    tag: "Partners",
    summary: "Remove a partner source",
    description: "It can post no more; the events it sent stay on the timelines.",
    params: partnerSourceParam,
    responses: { 200: { description: "Removed.", schema: S.PartnerSourceRemovedAnswer } },
    errors: { 404: [S.ErrorBody] },
    write: true,
  },
} as const satisfies Record<string, RouteContract>;

export type V1RouteName = keyof typeof V1_ROUTES;

/** Endpoints only the sandbox has. */
export const SANDBOX_ONLY_ROUTES = {
  fireWebhook: {
    method: "post",
    path: "/webhooks/fire",
    operationId: "sandboxFireWebhook",
    tag: "Sandbox",
    summary: "Send one signed sample delivery to a URL",
    description:
      "No key. 5 a minute per address. The target must be a public https URL. Nothing is saved; the answer carries the one-time signing secret.",
    body: { schema: S.WebhookFireBody, required: true, check: S.WebhookFireBody.strict() },
    responses: { 200: { description: "The delivery and its outcome.", schema: S.WebhookFireAnswer } },
    errors: { 400: [S.ErrorBody] },
  },
} as const satisfies Record<string, RouteContract>;

/** Express's form of an OpenAPI path. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}
