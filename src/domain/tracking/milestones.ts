import { type TrackedContainer, type TrackedEvent, type TrackingDocument, visibleEvents } from "./model";

/**
 * Where a journey stands, read from the events every surface shows (visibleEvents): a hidden code
 * (a delivery DROP) never becomes anyone's "last event".
 */

/** The container's latest visible event that happened, in the carrier's order; null before any. */
export function lastActualEvent(container: TrackedContainer): TrackedEvent | null {
  return visibleEvents(container).findLast((e) => e.actual) ?? null;
}

export interface Milestones {
  /** The latest dated event that happened, across every container. */
  last: TrackedEvent | null;
  /** The earliest dated event still expected, across every container. */
  next: TrackedEvent | null;
}

/**
 * The last and the next milestone of the whole shipment, by time. Undated events are left out: they
 * cannot be placed. On equal times the later in the document wins for the last one and the earlier
 * for the next one.
 */
export function milestones(doc: TrackingDocument): Milestones {
  const dated = doc.containers
    .flatMap(visibleEvents)
    .filter((e): e is TrackedEvent & { instant: string } => e.instant !== null)
    .sort((a, b) => a.instant.localeCompare(b.instant));
  return {
    last: dated.findLast((e) => e.actual) ?? null,
    next: dated.find((e) => !e.actual) ?? null,
  };
}

/** False when the carrier gave no date, or one so implausible that the adapter dropped it. */
export function isDateFromCarrier(event: TrackedEvent): boolean {
  return event.localDateTime !== null;
}

export const CONTENT_STATES = ["OK", "NO_CONTAINERS", "NO_EVENTS", "CANCELLED"] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

/**
 * What a tracked document has to show, the first that applies: the carrier cancelled the shipment;
 * it names no container; no container has an event a client sees; else OK.
 */
export function contentState(doc: TrackingDocument): ContentState {
  if (doc.status === "CANCELLED") return "CANCELLED";
  if (doc.containers.length === 0) return "NO_CONTAINERS";
  if (doc.containers.every((c) => visibleEvents(c).length === 0)) return "NO_EVENTS";
  return "OK";
}
