import { isDatabaseUnavailable } from "../db/unavailable";

/**
 * The one table that maps an outcome to each surface's wire form: v1 HTTP status and `data.error`,
 * the compat `message`, the GraphQL error code, and whether MCP reports `isError`. No status code or
 * message is chosen anywhere else.
 */
export type OutcomeCode =
  | "missing_key"
  | "invalid_key"
  | "revoked_key"
  | "expired_key"
  | "developer_mode_off"
  | "rate_limited"
  | "auth_throttled"
  | "keyless_throttled"
  | "organization_rate_limited"
  | "api_key_limit_reached"
  | "bad_request"
  | "malformed_json"
  | "body_too_large"
  | "unsupported_media_type"
  | "not_found"
  | "invalid_reference"
  | "unsupported_reference_type"
  | "view_only_key"
  | "shipment_limit_reached"
  | "payment_overdue"
  | "carrier_down"
  | "carrier_maintenance"
  | "carrier_disabled"
  | "carrier_undetectable"
  | "reference_type_undetectable"
  | "reference_not_found_auto"
  | "reference_not_tracked"
  | "wrong_reference_type"
  | "wrong_carrier_code"
  | "carrier_not_supported"
  | "plan_required"
  | "feature_disabled"
  | "customer_limit_reached"
  | "retry_failed_too_soon"
  | "refresh_too_soon"
  | "lookup_limit_exceeded"
  | "carrier_lookup_limit_exceeded"
  | "shipment_not_found"
  | "shipment_not_shareable"
  | "disruption_not_found"
  | "vessel_not_found"
  | "port_not_found"
  | "lookup_provider_unavailable"
  | "route_not_found"
  | "method_not_allowed"
  | "invalid_batch"
  | "origin_not_allowed"
  | "csrf_token_invalid"
  | "owner_required"
  | "operator_required"
  | "request_timeout"
  | "headers_too_large"
  | "malformed_http"
  | "metrics_token_required"
  | "invalid_signature"
  | "partner_inbound_rate_limited"
  | "metrics_address_not_allowed"
  | "database_unavailable"
  | "service_stopping"
  | "sandbox_starting"
  | "unexpected";

export interface OutcomeWire {
  /** `retryAfterSeconds`: the v1 answer's own fixed wait, where compat's differs. */
  v1: { status: number; error: string; retryAfterSeconds?: number };
  /**
   * `retryAfterSeconds`: compat's fixed wait ("fix billing or the key, do not retry soon").
   * `status`: the HTTP status, 200 when absent. The contract answers everything with 200, a refusal
   * of the request's own bytes (a NUL, a path that does not decode) included; only a non-GET verb
   * is answered 405.
   */
  compat: { message: string; retryAfterSeconds?: number; status?: 405 };
  graphql: { status: number; code: string };
  mcp: { isError: boolean; jsonRpcCode: number };
  /** The sentence a client sees (compat `detail`, v1 `message`). */
  sentence: string;
  /** `Retry-After` in seconds, sent with this outcome on every surface. */
  retryAfterSeconds?: number;
  /**
   * The wait is the answer's own: the spent window's reset, or the `retryAfterSeconds` the core
   * computed on the union member (a carrier's back-off, the end of a billing cycle). Every surface
   * sends it as `Retry-After`.
   */
  retryAfterFrom?: "answer";
}

/**
 * How soon a client may retry while the database is unavailable. A restart takes a second or two;
 * five seconds lets a crowd of clients come back spread out rather than all at once.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** How soon to ask the sandbox again while its world is built at start (it takes tens of seconds). */
export const SANDBOX_RETRY_AFTER_SECONDS = 5;

/** "Fix billing or the key, do not retry soon": an hour, where a surface sends a wait for it. */
export const BILLING_RETRY_AFTER_SECONDS = 3600;

export const OUTCOMES: Readonly<Record<OutcomeCode, OutcomeWire>> = {
  missing_key: {
    v1: { status: 401, error: "missing_api_key" },
    compat: { message: "API_KEY_WRONG" },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence: "No API key was sent. Send it as 'Authorization: Bearer <key>' or 'X-API-KEY: <key>'.",
  },
  invalid_key: {
    v1: { status: 401, error: "invalid_api_key" },
    compat: { message: "API_KEY_WRONG" },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence: "The API key is not valid.",
  },
  revoked_key: {
    v1: { status: 401, error: "api_key_revoked" },
    compat: { message: "API_KEY_WRONG" },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence: "The API key was revoked. Create a new key in the dashboard.",
  },
  expired_key: {
    v1: { status: 401, error: "api_key_expired" },
    compat: { message: "API_KEY_EXPIRED", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence: "The API key has expired. Create a new key in the dashboard.",
  },
  developer_mode_off: {
    v1: { status: 403, error: "developer_mode_disabled" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "DEVELOPER_MODE_DISABLED" },
    mcp: { isError: true, jsonRpcCode: -32003 },
    sentence: "Developer mode is off for this organisation. Switch it on in the dashboard to use the API.",
  },
  rate_limited: {
    v1: { status: 429, error: "rate_limit_exceeded" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 429, code: "RATE_LIMITED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence: "Too many requests for this key in the current minute. Wait for the window to reset.",
    retryAfterFrom: "answer",
  },
  auth_throttled: {
    v1: { status: 429, error: "too_many_failed_authentications" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 429, code: "RATE_LIMITED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence: "Too many failed authentications from this address. Wait a minute and check the key.",
    retryAfterFrom: "answer",
  },
  keyless_throttled: {
    v1: { status: 429, error: "too_many_requests_without_key" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 429, code: "RATE_LIMITED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "Too many requests without an API key from this address. Send the key as 'Authorization: Bearer <key>'; requests with a key are not limited by this.",
    retryAfterFrom: "answer",
  },
  organization_rate_limited: {
    v1: { status: 429, error: "organization_rate_limit_exceeded" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 429, code: "RATE_LIMITED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "The organisation's keys together used the organisation's requests of the current minute. Wait for the window to reset.",
    retryAfterFrom: "answer",
  },
  api_key_limit_reached: {
    v1: { status: 422, error: "api_key_limit_reached" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "API_KEY_LIMIT_REACHED" },
    mcp: { isError: true, jsonRpcCode: -32002 },
    sentence:
      "There are as many live API keys as allowed. Revoke one you no longer use, then create the new one.",
  },
  bad_request: {
    v1: { status: 400, error: "invalid_parameter" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 400, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "The request is not valid.",
  },
  malformed_json: {
    v1: { status: 400, error: "malformed_body" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 400, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32700 },
    sentence: "The request body is not valid JSON.",
  },
  body_too_large: {
    v1: { status: 413, error: "body_too_large" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 413, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence: "The request body is too large.",
  },
  unsupported_media_type: {
    v1: { status: 415, error: "unsupported_media_type" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 415, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence:
      'Send the request as JSON: Content-Type: application/json and a body like {"query": "{ viewer { id } }"}.',
  },
  not_found: {
    v1: { status: 404, error: "not_found" },
    compat: { message: "SEALINE_HASNT_PROVIDE_INFO" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "Not found.",
  },
  invalid_reference: {
    v1: { status: 400, error: "invalid_reference" },
    compat: { message: "WRONG_NUMBER" },
    graphql: { status: 200, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "The number is not a valid container, bill-of-lading or booking number.",
  },
  unsupported_reference_type: {
    v1: { status: 400, error: "unsupported_reference_type" },
    compat: { message: "SEALINE_NOT_SUPPORT_SHIPMENT_TYPE" },
    graphql: { status: 200, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "This carrier does not resolve this type of reference.",
  },
  view_only_key: {
    v1: { status: 403, error: "view_only_key" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 200, code: "VIEW_ONLY_KEY" },
    mcp: { isError: true, jsonRpcCode: -32003 },
    sentence: "This key is view-only: it can read stored shipments but not track new references.",
  },
  shipment_limit_reached: {
    v1: { status: 402, error: "shipment_limit_reached" },
    compat: { message: "API_KEY_LIMIT_REACHED", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    graphql: { status: 200, code: "SHIPMENT_LIMIT_REACHED" },
    mcp: { isError: true, jsonRpcCode: -32002 },
    sentence: "Every shipment slot of this billing cycle is used. Upgrade or wait for the next cycle.",
    retryAfterFrom: "answer",
  },
  payment_overdue: {
    v1: { status: 402, error: "payment_overdue", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    compat: { message: "API_KEY_EXPIRED", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    graphql: { status: 200, code: "PAYMENT_OVERDUE" },
    mcp: { isError: true, jsonRpcCode: -32002 },
    sentence: "Payment is overdue past the grace period: new tracking is paused until billing is fixed.",
  },
  carrier_down: {
    v1: { status: 502, error: "carrier_unreachable" },
    compat: { message: "SEALINE_NO_RESPONSE" },
    graphql: { status: 200, code: "CARRIER_DOWN" },
    mcp: { isError: true, jsonRpcCode: -32010 },
    sentence:
      "The carrier could not be reached and nothing is stored for this reference yet. Retry in a moment.",
    retryAfterFrom: "answer",
  },
  carrier_maintenance: {
    v1: { status: 502, error: "carrier_under_maintenance" },
    compat: { message: "SEALINE_UNDER_MAINTENANCE" },
    graphql: { status: 200, code: "CARRIER_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32010 },
    sentence: "The carrier is under maintenance. Retry later or track without naming it.",
  },
  carrier_disabled: {
    v1: { status: 502, error: "carrier_disabled" },
    compat: { message: "SEALINE_TEMPORARY_DISABLED" },
    graphql: { status: 200, code: "CARRIER_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32010 },
    sentence: "Tracking with this carrier is temporarily disabled on this service.",
  },
  carrier_undetectable: {
    v1: { status: 404, error: "not_found" },
    compat: { message: "AUTO_CANT_DETECT_SEALINE" },
    graphql: { status: 200, code: "CARRIER_UNDETECTABLE" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "No carrier could be placed for this number. Name the carrier (SCAC).",
  },
  reference_type_undetectable: {
    v1: { status: 400, error: "invalid_reference" },
    compat: { message: "AUTO_CANT_DETECT_TYPE" },
    graphql: { status: 200, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence:
      "The type of this number could not be detected: it is neither a container number nor a bill-of-lading or booking number. Check it, or send its type.",
  },
  reference_not_found_auto: {
    v1: { status: 404, error: "not_found" },
    compat: { message: "AUTO_CANT_FIND_INFO" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence:
      "None of the carriers detected for this number has a record of it. Check it, or name the carrier.",
  },
  reference_not_tracked: {
    v1: { status: 404, error: "not_found" },
    compat: { message: "DONT_TRACKED" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "This number has no logged tracking call for this account.",
  },
  wrong_reference_type: {
    v1: { status: 400, error: "invalid_parameter" },
    compat: { message: "WRONG_TYPE" },
    graphql: { status: 400, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "The type is not valid here.",
  },
  wrong_carrier_code: {
    v1: { status: 400, error: "invalid_parameter" },
    compat: { message: "WRONG_SEALINE" },
    graphql: { status: 400, code: "BAD_USER_INPUT" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "The sealine is not a carrier code: send 4 letters or digits (a SCAC), or auto.",
  },
  carrier_not_supported: {
    v1: { status: 400, error: "invalid_parameter" },
    compat: { message: "SEALINE_NOT_SUPPORTED" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32602 },
    sentence: "This carrier code is not one this service tracks; /info/sealines lists the ones it does.",
  },
  plan_required: {
    v1: { status: 403, error: "plan_required" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 200, code: "PLAN_REQUIRED" },
    mcp: { isError: true, jsonRpcCode: -32003 },
    sentence: "The organisation's plan does not include this feature.",
  },
  feature_disabled: {
    v1: { status: 403, error: "feature_disabled" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 200, code: "FEATURE_DISABLED" },
    mcp: { isError: true, jsonRpcCode: -32003 },
    sentence: "This feature is switched off for the organisation.",
  },
  customer_limit_reached: {
    v1: { status: 422, error: "customer_limit_reached" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "CUSTOMER_LIMIT_REACHED" },
    mcp: { isError: true, jsonRpcCode: -32002 },
    sentence: "The organisation has as many customers as its plan allows.",
  },
  retry_failed_too_soon: {
    v1: { status: 429, error: "retry_failed_too_soon" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 200, code: "TOO_SOON" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence: "retry-failed runs once per organisation per 15 minutes.",
    retryAfterFrom: "answer",
  },
  refresh_too_soon: {
    v1: { status: 429, error: "refresh_too_soon" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 200, code: "TOO_SOON" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "The carrier answered for this shipment less than one refresh gap ago (12 hours; 4 while arriving); ask again once it has passed.",
    retryAfterFrom: "answer",
  },
  route_not_found: {
    v1: { status: 404, error: "route_not_found" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 404, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32601 },
    sentence: "There is no such endpoint.",
  },
  method_not_allowed: {
    v1: { status: 405, error: "method_not_allowed" },
    compat: { message: "WRONG_PARAMETERS", status: 405 },
    graphql: { status: 405, code: "METHOD_NOT_ALLOWED" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence: "This method is not allowed here.",
  },
  lookup_limit_exceeded: {
    v1: { status: 429, error: "lookup_limit_exceeded" },
    compat: { message: "API_KEY_LIMIT_REACHED", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    graphql: { status: 200, code: "LOOKUP_LIMIT_EXCEEDED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "The daily vessel and schedule lookup allowance of this key, or of its organisation's keys together, is used up. It resets at the next UTC midnight; repeats of recent lookups are still served from the cache.",
    retryAfterFrom: "answer",
  },
  carrier_lookup_limit_exceeded: {
    v1: { status: 429, error: "carrier_lookup_limit_exceeded" },
    compat: { message: "API_KEY_LIMIT_REACHED", retryAfterSeconds: BILLING_RETRY_AFTER_SECONDS },
    graphql: { status: 200, code: "CARRIER_LOOKUP_LIMIT_EXCEEDED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "The daily carrier lookup allowance of this key, or of its organisation's keys together, is used up. It resets at the next UTC midnight; repeated lookups are still served from the cache.",
    retryAfterFrom: "answer",
  },
  shipment_not_found: {
    v1: { status: 404, error: "shipment_not_found" },
    compat: { message: "DONT_TRACKED" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "No shipment of this organisation with that id.",
  },
  // A state of the shipment, not a missing one: 409, so a client does not read it as "no such shipment".
  shipment_not_shareable: {
    v1: { status: 409, error: "shipment_not_shareable" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "NOT_SHAREABLE" },
    mcp: { isError: true, jsonRpcCode: -32002 },
    sentence:
      "No carrier has found this shipment yet, so a share link would have no journey to show. Share it once a carrier has answered.",
  },
  disruption_not_found: {
    v1: { status: 404, error: "disruption_not_found" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "No published disruption has this id.",
  },
  vessel_not_found: {
    v1: { status: 404, error: "vessel_not_found" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "No position source knows this vessel. Check the IMO and MMSI numbers.",
  },
  port_not_found: {
    v1: { status: 404, error: "port_not_found" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 200, code: "NOT_FOUND" },
    mcp: { isError: true, jsonRpcCode: -32004 },
    sentence: "No port has this code. Search ports with GET /ports?search=.",
  },
  lookup_provider_unavailable: {
    v1: { status: 502, error: "provider_unavailable" },
    compat: { message: "UNEXPECTED_ERROR" },
    graphql: { status: 200, code: "PROVIDER_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32010 },
    sentence: "The lookup's provider could not be reached; nothing was spent. Retry in a minute.",
    retryAfterFrom: "answer",
  },
  invalid_batch: {
    v1: { status: 400, error: "invalid_batch" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 400, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence: "A JSON-RPC batch holds 1 to 20 messages; nothing of this one was run.",
  },
  origin_not_allowed: {
    v1: { status: 403, error: "origin_not_allowed" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "FORBIDDEN" },
    mcp: { isError: true, jsonRpcCode: -32000 },
    sentence: "The request's Origin or Host is not one this server accepts (DNS rebinding protection).",
  },
  // A browser request on a dashboard session without the session's CSRF token (docs/decisions/dashboard.md).
  csrf_token_invalid: {
    v1: { status: 403, error: "csrf_token_invalid" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "FORBIDDEN" },
    mcp: { isError: true, jsonRpcCode: -32000 },
    sentence:
      "This request changes something but does not carry the session's CSRF token (reload the page and try again; on /graphql send it as X-CSRF-Token).",
  },
  // Scopes of the core (OWNER_REQUIRED, OPERATOR_REQUIRED) as a facade renders them.
  owner_required: {
    v1: { status: 403, error: "owner_required" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "OWNER_REQUIRED" },
    mcp: { isError: true, jsonRpcCode: -32000 },
    sentence: "Only an owner of the organisation may do this.",
  },
  operator_required: {
    v1: { status: 403, error: "operator_required" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "OPERATOR_REQUIRED" },
    mcp: { isError: true, jsonRpcCode: -32000 },
    sentence: "Only the organisation that operates this deployment may read this.",
  },
  // Answered by the HTTP server itself, before any surface is known: the v1 body is the only form.
  request_timeout: {
    v1: { status: 408, error: "request_timeout" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 408, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence:
      "The request did not arrive in time: headers are due within the header deadline and the whole request within the request deadline.",
  },
  headers_too_large: {
    v1: { status: 431, error: "headers_too_large" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 431, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence: "The request's headers are too large.",
  },
  malformed_http: {
    v1: { status: 400, error: "malformed_request" },
    compat: { message: "WRONG_PARAMETERS" },
    graphql: { status: 400, code: "BAD_REQUEST" },
    mcp: { isError: true, jsonRpcCode: -32600 },
    sentence: "The request is not valid HTTP.",
  },
  // The operator's endpoints (/metrics), when QUAYSIDE_METRICS_TOKEN or QUAYSIDE_METRICS_ALLOW is set.
  // A partner's signed inbound webhook (issue 41) whose signature is missing, stale or wrong.
  invalid_signature: {
    v1: { status: 401, error: "invalid_signature" },
    compat: { message: "API_KEY_WRONG" },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence:
      "The request's signature is missing, more than 5 minutes old or does not match its body: nothing changed.",
  },
  // A partner source's inbound webhook past its own window (issue 41; docs/decisions/partner-events.md).
  partner_inbound_rate_limited: {
    v1: { status: 429, error: "rate_limit_exceeded" },
    compat: { message: "API_KEY_RATE_LIMIT" },
    graphql: { status: 429, code: "RATE_LIMITED" },
    mcp: { isError: true, jsonRpcCode: -32029 },
    sentence:
      "Too many requests to this partner source's inbound webhook in the current minute: nothing of this request was applied. Wait for the window to reset and send it again.",
    retryAfterFrom: "answer",
  },
  metrics_token_required: {
    v1: { status: 401, error: "metrics_token_required" },
    compat: { message: "API_KEY_WRONG" },
    graphql: { status: 401, code: "UNAUTHENTICATED" },
    mcp: { isError: true, jsonRpcCode: -32001 },
    sentence:
      "Metrics need the operator's metrics token: send 'Authorization: Bearer <QUAYSIDE_METRICS_TOKEN>'.",
  },
  metrics_address_not_allowed: {
    v1: { status: 403, error: "metrics_address_not_allowed" },
    compat: { message: "API_KEY_ACCESS_DENIED" },
    graphql: { status: 403, code: "FORBIDDEN" },
    mcp: { isError: true, jsonRpcCode: -32000 },
    sentence: "Metrics are served only to the operator's addresses (QUAYSIDE_METRICS_ALLOW).",
  },
  // The database is down, restarting or refusing connections: nothing about the request was wrong and
  // nothing was done, so the client retries. Compat keeps its HTTP 200 (the contract's one status for
  // an operation's answer) and has no message for a server in trouble other than UNEXPECTED_ERROR;
  // `detail` and `Retry-After` tell this case apart.
  database_unavailable: {
    v1: { status: 503, error: "database_unavailable" },
    compat: { message: "UNEXPECTED_ERROR" },
    graphql: { status: 503, code: "SERVICE_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32053 },
    sentence: `The service's database is unavailable for a moment; nothing was changed. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  },
  // An item of a bulk request the service stopped before saving (a shutdown's wrap-up): nothing was
  // written for it, and another instance takes it when it is sent again. Today only a bulk item
  // carries it (in the body, never as the request's status); the row gives every surface its words.
  service_stopping: {
    v1: { status: 503, error: "service_stopping" },
    compat: { message: "UNEXPECTED_ERROR" },
    graphql: { status: 503, code: "SERVICE_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32053 },
    sentence: "The service was stopping before this item was saved; nothing was saved for it. Send it again.",
    retryAfterSeconds: 1,
  },
  // The sandbox world is still being built at start (docs/day-one.md): answered at once rather than
  // held for the build's tens of seconds, so a client with a 30 s timeout retries instead of failing.
  sandbox_starting: {
    v1: { status: 503, error: "sandbox_starting" },
    compat: { message: "UNEXPECTED_ERROR" },
    graphql: { status: 503, code: "SERVICE_UNAVAILABLE" },
    mcp: { isError: true, jsonRpcCode: -32053 },
    sentence: `The sandbox world is being built as the server starts; nothing was done. Retry in ${SANDBOX_RETRY_AFTER_SECONDS} seconds.`,
    retryAfterSeconds: SANDBOX_RETRY_AFTER_SECONDS,
  },
  unexpected: {
    v1: { status: 500, error: "internal_error" },
    compat: { message: "UNEXPECTED_ERROR" },
    graphql: { status: 500, code: "INTERNAL_SERVER_ERROR" },
    mcp: { isError: true, jsonRpcCode: -32603 },
    sentence: "Something went wrong on our side. It has been logged; please retry.",
  },
};

/**
 * A member of a result union: an answer (the surface renders it as its success body, with this v1
 * status), an outcome of the table above, or one of several outcomes chosen by a field of the member.
 */
export type MemberRow =
  | { answer: number }
  | { answer: { by: string; statuses: Readonly<Record<string, number>> } }
  | { outcome: OutcomeCode }
  | { outcome: { by: string; outcomes: Readonly<Record<string, OutcomeCode>> } };

const TRACK_RESULT_ROWS = {
  TrackSuccess: { answer: 200 },
  ReferenceNotFound: {
    outcome: { by: "carrierProvided", outcomes: { true: "not_found", false: "reference_not_found_auto" } },
  },
  ReferenceInvalid: { outcome: "invalid_reference" },
  CarrierDown: { outcome: "carrier_down" },
  CarrierUnavailable: {
    outcome: {
      by: "cause",
      outcomes: {
        maintenance: "carrier_maintenance",
        disabled: "carrier_disabled",
        not_connected: "carrier_not_supported",
        unsupported_type: "unsupported_reference_type",
      },
    },
  },
  CarrierUndetectable: { outcome: "carrier_undetectable" },
  // The carrier answered for the document but not for that box: "no record" of what was asked.
  ContainerNotOnDocument: {
    outcome: { by: "carrierProvided", outcomes: { true: "not_found", false: "reference_not_found_auto" } },
  },
  ShipmentLimitReached: { outcome: "shipment_limit_reached" },
  PaymentOverdue: { outcome: "payment_overdue" },
} as const satisfies Record<string, MemberRow>;

const LOOKUP_REFUSAL_ROWS = {
  LookupInputInvalid: { outcome: "bad_request" },
  LookupLimitExceeded: { outcome: "lookup_limit_exceeded" },
  LookupProviderUnavailable: { outcome: "lookup_provider_unavailable" },
} as const satisfies Record<string, MemberRow>;

/**
 * Every member of every result union of the GraphQL schema, union by union (the same member may
 * answer differently in two unions: a malformed number is an invalid reference to the carrier
 * lookup, a bad parameter elsewhere). test/graphql/outcome-table.test.ts walks the printed schema
 * and fails on a member without a row, a row without a member, or a `by` value the member cannot
 * have.
 */
export const UNION_MEMBER_ROWS = {
  TrackResult: TRACK_RESULT_ROWS,
  TrackBatchResult: { TrackBatch: { answer: 200 }, PaymentOverdue: { outcome: "payment_overdue" } },
  UpdateShipmentResult: {
    ...TRACK_RESULT_ROWS,
    ShipmentUpdated: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
    CustomerLimitReached: { outcome: "customer_limit_reached" },
  },
  ShareShipmentResult: {
    ShareLink: { answer: { by: "created", statuses: { true: 201, false: 200 } } },
    ShipmentNotShareable: { outcome: "shipment_not_shareable" },
    ShipmentNotFound: { outcome: "shipment_not_found" },
  },
  UnshareShipmentResult: {
    ShareRevoked: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
  },
  UntrackShipmentResult: {
    ShipmentUntracked: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
  },
  ArchiveShipmentResult: {
    ShipmentArchiveChanged: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
  },
  RefreshShipmentResult: {
    ...TRACK_RESULT_ROWS,
    ShipmentNotFound: { outcome: "shipment_not_found" },
    RefreshNotAllowed: {
      outcome: {
        by: "reason",
        outcomes: { too_soon: "refresh_too_soon", not_moving: "bad_request", never_found: "bad_request" },
      },
    },
  },
  CarrierLookupOutcome: {
    CarrierLookup: { answer: 200 },
    LookupInputInvalid: { outcome: "invalid_reference" },
    LookupLimitExceeded: { outcome: "carrier_lookup_limit_exceeded" },
  },
  SailingSchedulesOutcome: { SailingSchedules: { answer: 200 }, ...LOOKUP_REFUSAL_ROWS },
  DisruptionsOutcome: {
    DisruptionPage: { answer: 200 },
    DisruptionFilterInvalid: { outcome: "bad_request" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  DisruptionOutcome: {
    Disruption: { answer: 200 },
    DisruptionNotFound: { outcome: "disruption_not_found" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  ShipmentDisruptionsOutcome: {
    ShipmentDisruptions: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  ShipmentDndOutcome: {
    ShipmentDnd: { answer: 200 },
    ShipmentNotFound: { outcome: "shipment_not_found" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  PortCongestionBoardOutcome: {
    PortCongestionBoard: { answer: 200 },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  PortCongestionOutcome: {
    PortCongestion: { answer: 200 },
    // A known port without signal: a real answer, with null score fields (docs/decisions/congestion.md).
    PortNotScored: { answer: 200 },
    PortNotFound: { outcome: "port_not_found" },
    PlanRequired: { outcome: "plan_required" },
    FeatureDisabled: { outcome: "feature_disabled" },
  },
  // A partner's signed inbound webhook (issue 41): a forged, stale or unsigned request is one refusal.
  PartnerWebhookResult: {
    PartnerEventBatch: { answer: 200 },
    PartnerWebhookRefused: {
      outcome: {
        by: "reason",
        outcomes: {
          unknown_source: "not_found",
          malformed: "invalid_signature",
          stale: "invalid_signature",
          forged: "invalid_signature",
          bad_body: "bad_request",
        },
      },
    },
  },
  VesselTrackOutcome: {
    VesselTrack: { answer: 200 },
    VesselNotFound: { outcome: "vessel_not_found" },
    // Several vessels carry the name asked: the caller must say which (by IMO number).
    VesselAmbiguous: { outcome: "bad_request" },
    ...LOOKUP_REFUSAL_ROWS,
  },
} as const satisfies Record<string, Record<string, MemberRow>>;

export type ResultUnion = keyof typeof UNION_MEMBER_ROWS;

/** How a surface answers one member of a result union. */
export type MemberAnswer =
  | { kind: "answer"; v1Status: number }
  | { kind: "refusal"; outcome: OutcomeCode; retryAfterSeconds?: number };

/** A union member as an operation returns it: its type name and the fields a row may read. */
export interface UnionMember {
  __typename: string;
  [field: string]: unknown;
}

/**
 * The table's answer for one member. A refusal carries the member's own `retryAfterSeconds` where
 * its outcome's wait is the answer's; `retryAfterFor` turns that into each surface's `Retry-After`.
 */
export function answerFor(union: ResultUnion, member: UnionMember): MemberAnswer {
  const rows: Readonly<Record<string, MemberRow>> = UNION_MEMBER_ROWS[union];
  const row = rows[member.__typename];
  if (!row) return { kind: "refusal", outcome: "unexpected" };
  if ("answer" in row) {
    const v1Status =
      typeof row.answer === "number"
        ? row.answer
        : (row.answer.statuses[String(member[row.answer.by])] ?? 200);
    return { kind: "answer", v1Status };
  }
  const outcome =
    typeof row.outcome === "string"
      ? row.outcome
      : (row.outcome.outcomes[String(member[row.outcome.by])] ?? "unexpected");
  const carried = OUTCOMES[outcome].retryAfterFrom === "answer" ? member.retryAfterSeconds : undefined;
  return typeof carried === "number"
    ? { kind: "refusal", outcome, retryAfterSeconds: carried }
    : { kind: "refusal", outcome };
}

export type Surface = "v1" | "compat" | "mcp";

/**
 * The `Retry-After` a surface sends with an outcome: the surface's own fixed wait where the table
 * gives one (compat's hour on billing refusals), else the wait the answer carries (`carried`: a
 * spent window's reset, a member's `retryAfterSeconds`), else the table's wait for every surface.
 */
export function retryAfterFor(surface: Surface, outcome: OutcomeCode, carried?: number): number | undefined {
  const wire = OUTCOMES[outcome];
  const own =
    surface === "v1"
      ? wire.v1.retryAfterSeconds
      : surface === "compat"
        ? wire.compat.retryAfterSeconds
        : undefined;
  return own ?? (wire.retryAfterFrom === "answer" ? carried : undefined) ?? wire.retryAfterSeconds;
}

export const HTTP_STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** Coded GraphQL errors from the core, as outcomes of the table above. */
const GRAPHQL_CODE_OUTCOMES: Readonly<Record<string, OutcomeCode>> = {
  BAD_USER_INPUT: "bad_request",
  NOT_FOUND: "not_found",
  UNAUTHENTICATED: "invalid_key",
  DEVELOPER_MODE_DISABLED: "developer_mode_off",
  VIEW_ONLY_KEY: "view_only_key",
  OWNER_REQUIRED: "owner_required",
  OPERATOR_REQUIRED: "operator_required",
  API_KEY_LIMIT_REACHED: "api_key_limit_reached",
  SERVICE_UNAVAILABLE: "database_unavailable",
};

export function outcomeForGraphQLCode(code: unknown): OutcomeCode {
  return (typeof code === "string" && GRAPHQL_CODE_OUTCOMES[code]) || "unexpected";
}

/** The machine-readable part of a refusal (v1 `data`, MCP `error.data`): the code, and the wait if any. */
export function refusalData(outcome: OutcomeCode): { error: string; retryAfter?: number } {
  const wire = OUTCOMES[outcome];
  return wire.retryAfterSeconds === undefined
    ? { error: wire.v1.error }
    : { error: wire.v1.error, retryAfter: wire.retryAfterSeconds };
}

/** The outcome of a failure nobody answered: a database outage is one, anything else is unexpected. */
export function outcomeForFailure(error: unknown): "database_unavailable" | "unexpected" {
  return isDatabaseUnavailable(error) ? "database_unavailable" : "unexpected";
}

/** The realm every `WWW-Authenticate` challenge names. */
export const AUTH_REALM = "Quayside";

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 section 3), or undefined for any other outcome.
 * A request without credentials gets the bare challenge (section 3.1: no error code); a key that does
 * not authenticate gets `invalid_token` with the outcome's sentence, so a client shows why.
 *
 * There is deliberately no `resource_metadata` (RFC 9728): keys are issued in the dashboard, not by an
 * OAuth server, and an MCP client that found one would start an OAuth login instead of showing this.
 */
export function bearerChallenge(outcome: OutcomeCode): string | undefined {
  const wire = OUTCOMES[outcome];
  if (wire.v1.status !== 401) return undefined;
  if (outcome === "missing_key") return `Bearer realm="${AUTH_REALM}"`;
  // error_description allows printable ASCII except '"' and '\' (RFC 6750 section 3).
  const description = wire.sentence.replace(/[^\x20-\x7e]|["\\]/g, "'");
  return `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="${description}"`;
}

/** The outcome a refusing member answers with (`unexpected` for an answer member: not a refusal). */
export function outcomeOf(union: ResultUnion, member: UnionMember): OutcomeCode {
  const answer = answerFor(union, member);
  return answer.kind === "refusal" ? answer.outcome : "unexpected";
}
