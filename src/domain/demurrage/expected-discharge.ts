import type { TrackedContainer, TrackingDocument } from "../tracking/model";

/**
 * THE seam for the expected discharge of a box that is not discharged yet: today the carrier's own
 * estimate (the box's estimated DISC at the port of discharge, else the document's arrival estimate
 * there). When the predictive ETA's p50 exists, it is plugged in here and nowhere else: every
 * demurrage projection reads the expected discharge through this function.
 */
export function expectedDischargeAt(doc: TrackingDocument, container: TrackedContainer): string | null {
  const pod = doc.route.pod.locationKey;
  if (pod === null) return null;
  const estimated = container.events.find(
    (e) => e.eventCode === "DISC" && e.locationKey === pod && !e.actual && e.instant !== null,
  );
  return estimated?.instant ?? doc.route.pod.instant;
}
