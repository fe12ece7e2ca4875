import type { TrackedEvent, TrackingDocument } from "../tracking/model";
import { type PlacedLocation, wallClock } from "./placed-locations";
import { journeyCalls } from "./route-segments";
import { seaRoute } from "./sea-route";

/**
 * Our own arrival estimate at the port of discharge, for when the carrier gave none (compat
 * `route.pod.predictive_eta`). From the last dated vessel departure on the journey (a DEPA, else a
 * LOAD, actual or estimated, at the port of loading or a transshipment call), the remaining legs are
 * sailed along their sea routes at `SERVICE_SPEED_KNOTS`, plus `TRANSSHIPMENT_DWELL_HOURS` at each call
 * still ahead before the port of discharge. Null when the carrier gave an arrival date, when the port
 * of discharge or a call on the way has no coordinates, or when no departure is dated.
 */
export const SERVICE_SPEED_KNOTS = 14;
export const TRANSSHIPMENT_DWELL_HOURS = 24;
const HOUR_MS = 3_600_000;

export interface PredictedArrival {
  /** ISO 8601 UTC instant. */
  instant: string;
  /** Wall-clock time at the port of discharge, `YYYY-MM-DD HH:MM:SS`. */
  localDateTime: string;
  /** The call the estimate sails from, and when the vessel left (or is planned to leave) it. */
  fromLocationKey: string;
  departedAt: string;
  distanceNm: number;
}

function datedDepartureAt(doc: TrackingDocument, locationKey: string): TrackedEvent | undefined {
  const events = doc.containers
    .flatMap((c) => c.events)
    .filter((e) => e.locationKey === locationKey && e.instant !== null && e.legType === "sea");
  const latest = (code: string) =>
    events
      .filter((e) => e.eventCode === code)
      .sort((a, b) => Date.parse(b.instant!) - Date.parse(a.instant!))[0];
  return latest("DEPA") ?? latest("LOAD");
}

export function predictArrival(
  doc: TrackingDocument,
  places: readonly PlacedLocation[],
): PredictedArrival | null {
  const pod = doc.route.pod;
  if (pod.localDateTime !== null || pod.instant !== null || pod.locationKey === null) return null;
  const { keys, seaFrom, seaTo } = journeyCalls(doc);
  if (seaFrom < 0 || seaTo <= seaFrom) return null;
  const byKey = new Map(places.map((p) => [p.key, p]));
  for (let i = seaTo - 1; i >= seaFrom; i--) {
    const departure = datedDepartureAt(doc, keys[i]!);
    if (!departure) continue;
    let distanceNm = 0;
    for (let leg = i + 1; leg <= seaTo; leg++) {
      const a = byKey.get(keys[leg - 1]!);
      const b = byKey.get(keys[leg]!);
      if (a?.lat == null || a.lng == null || b?.lat == null || b.lng == null) return null;
      const route = seaRoute({ lat: a.lat, lng: a.lng }, { lat: b.lat, lng: b.lng });
      if (!route) return null;
      distanceNm += route.lengthNm;
    }
    const hours = distanceNm / SERVICE_SPEED_KNOTS + (seaTo - i - 1) * TRANSSHIPMENT_DWELL_HOURS;
    const arrival = new Date(Date.parse(departure.instant!) + Math.round(hours * HOUR_MS));
    const zone = byKey.get(pod.locationKey)?.timeZone ?? "Etc/UTC";
    return {
      instant: arrival.toISOString(),
      localDateTime: wallClock(arrival, zone),
      fromLocationKey: keys[i]!,
      departedAt: departure.instant!,
      distanceNm: Math.round(distanceNm),
    };
  }
  return null;
}
