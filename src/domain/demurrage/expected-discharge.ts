import type { TrackedContainer, TrackingDocument } from "../tracking/model";

/**
 * THE seam for the expected discharge of a box that is not discharged yet; every demurrage
 * projection reads it through this function. With a predicted arrival at the port of discharge
 * (the predictive ETA's p50, docs/decisions/eta.md), the box is discharged that long after it as
 * the carrier plans between its own arrival estimate and the box's estimated DISC (0 when either is
 * missing or the plan has them backwards). Without one, the carrier's own estimate: the box's
 * estimated DISC there, else the document's arrival estimate.
 */
export function expectedDischargeAt(
  doc: TrackingDocument,
  container: TrackedContainer,
  predictedArrival: string | null = null,
): string | null {
  const pod = doc.route.pod.locationKey;
  if (pod === null) return null;
  const estimated = container.events.find(
    (e) => e.eventCode === "DISC" && e.locationKey === pod && !e.actual && e.instant !== null,
  );
  const carrier = estimated?.instant ?? doc.route.pod.instant;
  if (predictedArrival === null) return carrier;
  const arrival = doc.route.pod.instant;
  const plannedGap =
    estimated?.instant && arrival ? Math.max(0, Date.parse(estimated.instant) - Date.parse(arrival)) : 0;
  return new Date(Date.parse(predictedArrival) + plannedGap).toISOString();
}
