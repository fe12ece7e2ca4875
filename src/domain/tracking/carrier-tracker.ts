import type { ReferenceType } from "../references/reference";
import type { TrackingDocument } from "./model";

/**
 * What the tracking service needs from a carrier: a reference in, the canonical tracking document out.
 * How a carrier is asked and how its answer is read (DCSA Track & Trace and its mapper today, anything
 * else tomorrow) is the adapter's business, in src/upstream; the service knows only this port.
 */
export interface CarrierTracker {
  track(query: CarrierQuery, signal?: AbortSignal): Promise<CarrierAnswer>;
}

export interface CarrierQuery {
  /** Carrier code (SCAC), upper case. */
  scac: string;
  reference: string;
  referenceType: ReferenceType;
  /**
   * The box of a combined `<document>/<container>` value. A carrier whose API takes a document only
   * together with a box (HMM: booking and container) is sent both; the others are asked the document.
   */
  container?: string;
}

/**
 * Every way asking a carrier ends. Expected failures are values, not exceptions; only a caller's own
 * abort rejects (with the signal's reason).
 */
export type CarrierAnswer =
  /** The carrier's answer as our model, stamped with the time it was fetched. */
  | { kind: "found"; document: TrackingDocument }
  /** The carrier knows nothing for this reference. */
  | { kind: "not-found" }
  | CarrierFailure;

/** Why a carrier could not be reached; absent means not known more precisely. */
export type UnreachableCause =
  /** No answer within the timeout. */
  | "timeout"
  /** The connection was refused, reset or closed before an answer. */
  | "connection"
  /** The carrier answered, with an error status (5xx after retries, a redirect, a dead cursor). */
  | "status"
  /** No endpoint is configured for the carrier. */
  | "not-configured";

export type CarrierFailure =
  /**
   * Connection refused or reset, timeout, 5xx after retries, or no endpoint configured. `reason` is
   * the technical detail (for logs); `cause` says which of these it was, for the words a client sees.
   */
  | { kind: "unreachable"; reason: string; cause?: UnreachableCause }
  /** An answer that could not be read: not the carrier's format, or not a shipment's events. */
  | { kind: "malformed"; reason: string }
  /** The carrier is limiting our requests; `retryAfterSeconds` null when it did not say for how long. */
  | { kind: "rate-limited"; retryAfterSeconds: number | null }
  /** Our credentials were refused or are missing: a configuration problem, not the user's. */
  | { kind: "unauthorized"; reason: string };
