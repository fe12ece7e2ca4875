import { emptyRoutePoint, type RoutePoint, type TrackingDocument, visibleEvents } from "./model";

/**
 * Where the journey starts and ends, as the SeaRates-shaped answer's `route.prepol` and
 * `route.postpod` show them. The carrier's place of receipt (delivery) when it named one; otherwise
 * the port of loading (discharge) itself, as SeaRates answers a port-to-port journey: the location is
 * never left empty while the port is known. The date is then the first actual event at that place
 * (the spec: "the first event date at the last destination point"), or null with `actual` null while
 * nothing has happened there yet.
 */
export function journeyEnds(doc: TrackingDocument): { origin: RoutePoint; destination: RoutePoint } {
  return {
    origin: doc.route.prepol.locationKey ? doc.route.prepol : firstActualAt(doc, doc.route.pol.locationKey),
    destination: doc.route.postpod.locationKey
      ? doc.route.postpod
      : firstActualAt(doc, doc.route.pod.locationKey),
  };
}

function firstActualAt(doc: TrackingDocument, locationKey: string | null): RoutePoint {
  if (locationKey === null) return emptyRoutePoint();
  let first: RoutePoint | null = null;
  for (const container of doc.containers) {
    for (const event of visibleEvents(container)) {
      if (event.locationKey !== locationKey || !event.actual || event.instant === null) continue;
      if (first?.instant && first.instant <= event.instant) continue;
      first = { locationKey, localDateTime: event.localDateTime, instant: event.instant, actual: true };
    }
  }
  return first ?? { locationKey, localDateTime: null, instant: null, actual: null };
}
