import type { CarrierFailure, CarrierQuery } from "../../domain/tracking/carrier-tracker";

export type { CarrierFailure, CarrierQuery };

/**
 * Every way one DCSA Track & Trace lookup ends, before mapping. Expected failures are values, not
 * exceptions; only a caller's own abort rejects (with the signal's reason).
 */
export type CarrierOutcome =
  /** Raw DCSA events from all pages, unvalidated (the mapper validates). `truncated`: the page cap or an unsafe Next-Page link stopped paging. */
  | { kind: "found"; events: unknown[]; pages: number; truncated: boolean }
  /** The carrier knows nothing for this reference (empty list, 404, or 400 on the reference). */
  | { kind: "not-found" }
  /** `malformed` here: a body that is not JSON or not an array of events. */
  | CarrierFailure;

/** A DCSA Track & Trace client: I/O only, the events as they came. `dcsaTracker` maps them. */
export interface CarrierAdapter {
  fetchEvents(query: CarrierQuery, signal?: AbortSignal): Promise<CarrierOutcome>;
}
