import type { ReferenceType } from "../../domain/tracking/model";

export interface CarrierQuery {
  /** Carrier code (SCAC), upper case. */
  scac: string;
  reference: string;
  referenceType: ReferenceType;
}

/**
 * Every way a carrier lookup ends. Expected failures are values, not exceptions; only a caller's own
 * abort rejects (with the signal's reason).
 */
export type CarrierOutcome =
  /** Raw DCSA events from all pages, unvalidated (the mapper validates). `truncated`: the page cap or an unsafe Next-Page link stopped paging. */
  | { kind: "found"; events: unknown[]; pages: number; truncated: boolean }
  /** The carrier knows nothing for this reference (empty list, 404, or 400 on the reference). */
  | { kind: "not-found" }
  /** Connection refused or reset, timeout, 5xx after retries, or no endpoint configured. */
  | { kind: "unreachable"; reason: string }
  /** A body that is not JSON or not an array of events. */
  | { kind: "malformed"; reason: string }
  /** 429 after retries; `retryAfterSeconds` null when the carrier did not say. */
  | { kind: "rate-limited"; retryAfterSeconds: number | null }
  /** 401/403 or missing credentials: a configuration problem, not the user's. */
  | { kind: "unauthorized"; reason: string };

export type CarrierFailure = Exclude<CarrierOutcome, { kind: "found" }>;

export interface CarrierAdapter {
  fetchEvents(query: CarrierQuery, signal?: AbortSignal): Promise<CarrierOutcome>;
}
