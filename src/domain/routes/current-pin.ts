import type { GeoPoint, TrackedEvent, TrackingDocument } from "../tracking/model";
import type { RouteSegment } from "./route-segments";
import { haversineKm } from "./sea-route";

/**
 * Where to pin the shipment on a map now. While a vessel is between a departure that happened and an
 * arrival that has not, the pin moves along the sea route in proportion to the time elapsed between
 * the actual departure and the (estimated) arrival; otherwise it is the carrier's position, else the
 * place of the last actual event (`fallback`). Longitudes are wrapped back into -180..180.
 */
export function currentPin(
  doc: TrackingDocument,
  segments: readonly RouteSegment[],
  fallback: GeoPoint | null,
  now: Date,
): GeoPoint | null {
  const dated = doc.containers
    .flatMap((c) => c.events)
    .filter((e): e is TrackedEvent & { instant: string } => e.instant !== null)
    .sort((a, b) => Date.parse(a.instant) - Date.parse(b.instant));
  const lastActual = dated.filter((e) => e.actual && Date.parse(e.instant) <= now.getTime()).at(-1);
  if (lastActual?.eventCode === "DEPA" && lastActual.legType === "sea") {
    const segment = segments.find((s) => s.kind === "SEA" && s.fromLocationKey === lastActual.locationKey);
    const departed = Date.parse(lastActual.instant);
    const arrival = segment
      ? dated.find(
          (e) =>
            e.locationKey === segment.toLocationKey &&
            (e.eventCode === "ARRI" || e.eventCode === "DISC") &&
            Date.parse(e.instant) > departed,
        )
      : undefined;
    if (segment && arrival && !arrival.actual) {
      const span = Date.parse(arrival.instant) - departed;
      const fraction = Math.min(1, Math.max(0, (now.getTime() - departed) / span));
      return wrap(pointAlong(segment.path, fraction));
    }
  }
  return fallback;
}

/** The point a fraction of the way along a [lat, lng] path, by distance. */
export function pointAlong(path: readonly [number, number][], fraction: number): [number, number] {
  const legs: number[] = [];
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const km = haversineKm(
      { lat: path[i - 1]![0], lng: path[i - 1]![1] },
      { lat: path[i]![0], lng: path[i]![1] },
    );
    legs.push(km);
    total += km;
  }
  let remaining = total * fraction;
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i]!;
    if (remaining <= leg && leg > 0) {
      const t = remaining / leg;
      const [aLat, aLng] = path[i]!;
      const [bLat, bLng] = path[i + 1]!;
      return [aLat + (bLat - aLat) * t, aLng + (bLng - aLng) * t];
    }
    remaining -= leg;
  }
  return path.at(-1)!;
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;

function wrap([lat, lng]: [number, number]): GeoPoint {
  return { lat: round(lat), lng: round(((((lng + 180) % 360) + 360) % 360) - 180) };
}
