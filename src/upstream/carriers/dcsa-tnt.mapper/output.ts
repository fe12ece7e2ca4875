/**
 * Output helpers.
 */
import type { GeoPoint, TrackedFacility, TrackedLocation } from "../../../domain/tracking/model";
import type { Candidate } from "./mapping-run";

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function orderedUsed<T>(
  sequence: Candidate[],
  keyOf: (c: Candidate) => string | null,
  pool: Map<string, T>,
): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const c of sequence) {
    const key = keyOf(c);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    const item = pool.get(key);
    if (item !== undefined) out.push(item);
  }
  return out;
}

export function currentPosition(
  sequence: Candidate[],
  locations: Map<string, TrackedLocation>,
  facilities: Map<string, TrackedFacility>,
): GeoPoint | null {
  for (const c of [...sequence].reverse()) {
    if (!c.actual || c.instantMs === null) continue;
    const loc = locations.get(c.locationKey);
    if (loc?.lat != null && loc.lng != null) return { lat: loc.lat, lng: loc.lng };
    const fac = c.facilityKey ? facilities.get(c.facilityKey) : undefined;
    if (fac?.lat != null && fac.lng != null) return { lat: fac.lat, lng: fac.lng };
  }
  return null;
}
