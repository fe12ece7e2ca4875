import { type TrackedEvent, type TrackingDocument, visibleEvents } from "./model";

export interface TimelineEntry {
  /** The box the event is about. */
  container: string;
  event: TrackedEvent;
}

/**
 * Every box's shown events as one journey, oldest first. Events without a date go last (they are the
 * carrier's plans without a time); equal instants keep the carrier's order, box by box.
 */
export function timelineOf(doc: TrackingDocument): TimelineEntry[] {
  const entries = doc.containers.flatMap((c) =>
    visibleEvents(c).map((event) => ({ container: c.number, event })),
  );
  const at = (e: TimelineEntry) =>
    e.event.instant === null ? Number.POSITIVE_INFINITY : Date.parse(e.event.instant);
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => at(a.entry) - at(b.entry) || a.order - b.order)
    .map(({ entry }) => entry);
}
