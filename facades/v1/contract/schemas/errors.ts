/**
 * Errors (spec v1 sections 2.1, 4.1 rule 13, 7, 8).
 */
import { z } from "zod";
import { HTTP_STATUS_TEXT } from "../../../../src/http/outcomes";
import type { Feature, PlanCode } from "../../../generated/operations";
import { dateTime } from "./common";
import { everyValueOf } from "./core-values";

/** The plans from the smallest up. */
const PLAN_ORDER = everyValueOf<PlanCode>()(["free", "starter", "professional", "business", "custom"]);
const FEATURES = everyValueOf<Feature>()([
  "webhooks",
  "share_pages",
  "mcp",
  "customers",
  "carrier_discovery",
  "predictive_eta",
  "port_congestion",
  "disruptions",
]);

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

export const DisruptionNotFoundErrorBody = errorBody(
  404,
  z.strictObject({ error: z.literal("disruption_not_found") }),
  { id: "DisruptionNotFoundError", description: "No published disruption has this id (or it is hidden)." },
);

export const PortNotFoundErrorBody = errorBody(
  404,
  z.strictObject({ error: z.literal("port_not_found"), locode: z.string() }),
  { id: "PortNotFoundError", description: "No port of the catalogue has this code." },
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

export const RefreshTooSoonErrorBody = errorBody(
  429,
  z.strictObject({
    error: z.literal("refresh_too_soon"),
    retryAfter: seconds("Seconds until a refresh is allowed (as `Retry-After`)."),
    next_refresh_eligible_at: dateTime.meta({
      description: "From when a refresh is allowed: the carrier's last answer plus the refresh gap.",
    }),
  }),
  {
    id: "RefreshTooSoonError",
    description:
      "Spec v1 section 8: the carrier answered for this shipment less than one refresh gap ago (12 hours; 4 from 48 hours before the ETA until 7 days after it).",
  },
);

export const RefreshNotAllowedErrorBody = errorBody(
  400,
  z.strictObject({
    error: z.literal("invalid_parameter"),
    reason: z.enum(["not_moving", "never_found"]).meta({
      description:
        "not_moving: delivered or cancelled, the carrier has nothing more to say; never_found: no carrier has found the reference yet (carrier discovery or a corrected number is the way).",
    }),
  }),
  {
    id: "RefreshNotAllowedError",
    description: "A refresh of a shipment that cannot be refreshed; nothing was asked.",
  },
);
