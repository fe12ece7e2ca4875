/** Distances for sailing and inland times. Great circles are a stand-in for real sea routes. */

export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_NAUTICAL_MILE = 1.852;

export function greatCircleKm(from: LatLng, to: LatLng): number {
  const toRad = Math.PI / 180;
  const dLat = (to.lat - from.lat) * toRad;
  const dLng = (to.lng - from.lng) * toRad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * toRad) * Math.cos(to.lat * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Canals and capes a rotation names between two calls ("[cape]" in services.ts). A great circle between
 * Singapore and Sines crosses Africa; routing it through the Cape of Good Hope gives a sea distance
 * within a few percent of published ones.
 */
export type Passage = "cape" | "suez" | "panama" | "gibraltar" | "malacca" | "ceylon";

const PASSAGE_WAYPOINTS: Record<Passage, readonly LatLng[]> = {
  cape: [{ lat: -35.2, lng: 19.5 }],
  // Bab-el-Mandeb, then the southern entrance of the Suez Canal; the order is chosen per direction.
  suez: [
    { lat: 12.6, lng: 43.4 },
    { lat: 29.9, lng: 32.55 },
  ],
  panama: [{ lat: 9.1, lng: -79.7 }],
  gibraltar: [{ lat: 35.95, lng: -5.6 }],
  malacca: [{ lat: 1.25, lng: 103.8 }],
  // Off Dondra Head: ships between the Strait of Malacca and the Arabian Sea pass south of Sri Lanka.
  ceylon: [{ lat: 5.6, lng: 80.6 }],
};

/** Coastal routing is longer than a great circle; this factor is the gap measured on open-sea legs. */
const COASTAL_FACTOR = 1.12;

function pathKm(points: readonly LatLng[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1];
    const to = points[i];
    if (from && to) total += greatCircleKm(from, to);
  }
  return total;
}

const seaDistances = new Map<string, number>();

/** Sea distance in nautical miles between two calls, through the passages named between them. */
export function seaDistanceNm(from: LatLng, to: LatLng, passages: readonly Passage[] = []): number {
  const key = `${from.lat},${from.lng}>${to.lat},${to.lng}|${passages.join()}`;
  const cached = seaDistances.get(key);
  if (cached !== undefined) return cached;
  const distance = computeSeaDistanceNm(from, to, passages);
  // Keys are pairs of known places, so the map stays small; the bound guards against arbitrary input.
  if (seaDistances.size > 100_000) seaDistances.clear();
  seaDistances.set(key, distance);
  return distance;
}

function computeSeaDistanceNm(from: LatLng, to: LatLng, passages: readonly Passage[]): number {
  let points: LatLng[] = [from];
  for (const passage of passages) {
    const waypoints = PASSAGE_WAYPOINTS[passage];
    const last = points[points.length - 1] ?? from;
    const forward = [...waypoints];
    const backward = [...waypoints].reverse();
    // A multi-point passage is sailed in whichever direction the voyage goes.
    const chosen = pathKm([last, ...forward, to]) <= pathKm([last, ...backward, to]) ? forward : backward;
    points = [...points, ...chosen];
  }
  points.push(to);
  return (pathKm(points) * COASTAL_FACTOR) / KM_PER_NAUTICAL_MILE;
}

/** Compass direction of a voyage leg as carriers put it on voyage numbers (E, W, N or S). */
export function voyageDirection(from: LatLng, to: LatLng): "E" | "W" | "N" | "S" {
  let dLng = to.lng - from.lng;
  if (dLng > 180) dLng -= 360;
  if (dLng < -180) dLng += 360;
  const dLat = to.lat - from.lat;
  if (Math.abs(dLng) >= Math.abs(dLat)) return dLng >= 0 ? "E" : "W";
  return dLat >= 0 ? "N" : "S";
}

/**
 * The points a sailing passes, from one call to the next through the passages between them, oriented
 * the way `seaDistanceNm` sails them: what a vessel's position is interpolated along.
 */
export function seaPathPoints(from: LatLng, to: LatLng, passages: readonly Passage[] = []): LatLng[] {
  let points: LatLng[] = [from];
  for (const passage of passages) {
    const waypoints = PASSAGE_WAYPOINTS[passage];
    const last = points[points.length - 1] ?? from;
    const forward = [...waypoints];
    const backward = [...waypoints].reverse();
    const chosen = pathKm([last, ...forward, to]) <= pathKm([last, ...backward, to]) ? forward : backward;
    points = [...points, ...chosen];
  }
  points.push(to);
  return points;
}

/** The point a fraction (0 to 1) of the way along a great circle. */
export function greatCirclePoint(from: LatLng, to: LatLng, fraction: number): LatLng {
  const toRad = Math.PI / 180;
  const φ1 = from.lat * toRad;
  const λ1 = from.lng * toRad;
  const φ2 = to.lat * toRad;
  const λ2 = to.lng * toRad;
  const δ = greatCircleKm(from, to) / EARTH_RADIUS_KM;
  if (δ === 0) return { ...from };
  const a = Math.sin((1 - fraction) * δ) / Math.sin(δ);
  const b = Math.sin(fraction * δ) / Math.sin(δ);
  const x = a * Math.cos(φ1) * Math.cos(λ1) + b * Math.cos(φ2) * Math.cos(λ2);
  const y = a * Math.cos(φ1) * Math.sin(λ1) + b * Math.cos(φ2) * Math.sin(λ2);
  const z = a * Math.sin(φ1) + b * Math.sin(φ2);
  return { lat: Math.atan2(z, Math.sqrt(x * x + y * y)) / toRad, lng: Math.atan2(y, x) / toRad };
}

/** Initial bearing from one point to another, degrees clockwise from north. */
export function bearingDegrees(from: LatLng, to: LatLng): number {
  const toRad = Math.PI / 180;
  const φ1 = from.lat * toRad;
  const φ2 = to.lat * toRad;
  const Δλ = (to.lng - from.lng) * toRad;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}
