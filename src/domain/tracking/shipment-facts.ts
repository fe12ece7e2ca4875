import type { GeoPoint, TrackedFacility, TrackedLocation, TrackingDocument } from "./model";

/**
 * Facts derived from a stored document, the same on every surface. Pure: time comes in as `now`.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const REFRESH_GAP_MS = 12 * HOUR_MS;
export const ARRIVING_REFRESH_GAP_MS = 4 * HOUR_MS;
/** The arriving window: from 48 hours before the ETA until 7 days after it. */
const ARRIVING_FROM_MS = 48 * HOUR_MS;
const ARRIVING_UNTIL_MS = 7 * DAY_MS;
/** A shipment is delayed when its ETA moved more than a day later than the first one we recorded. */
export const DELAY_THRESHOLD_MS = DAY_MS;

export function isActive(status: string, deletedAt: Date | null = null): boolean {
  return deletedAt === null && status !== "DELIVERED" && status !== "CANCELLED";
}

/** The refresh gap that applies at `now`: 4 hours while arriving, 12 otherwise. */
export function refreshGapMs(eta: Date | null, now: Date): number {
  if (!eta) return REFRESH_GAP_MS;
  const delta = now.getTime() - eta.getTime();
  return delta >= -ARRIVING_FROM_MS && delta <= ARRIVING_UNTIL_MS ? ARRIVING_REFRESH_GAP_MS : REFRESH_GAP_MS;
}

/** When `refreshGapMs` next switches gap for this ETA (an answer showing the gap holds until then). */
export function refreshGapChangesAt(eta: Date | null, now: Date): Date | null {
  if (!eta) return null;
  const next = [eta.getTime() - ARRIVING_FROM_MS, eta.getTime() + ARRIVING_UNTIL_MS + 1].find(
    (at) => at > now.getTime(),
  );
  return next === undefined ? null : new Date(next);
}

export interface RefreshSchedule {
  nextRefreshEligibleAt: Date | null;
  refreshEligibleNow: boolean;
}

/** Null when never synced or no longer moving; eligible when the gap has elapsed and it still moves. */
export function refreshSchedule(input: {
  status: string;
  lastSyncedAt: Date | null;
  eta: Date | null;
  deletedAt?: Date | null;
  now: Date;
}): RefreshSchedule {
  if (!input.lastSyncedAt || !isActive(input.status, input.deletedAt ?? null)) {
    return { nextRefreshEligibleAt: null, refreshEligibleNow: false };
  }
  const next = new Date(input.lastSyncedAt.getTime() + refreshGapMs(input.eta, input.now));
  return { nextRefreshEligibleAt: next, refreshEligibleNow: next.getTime() <= input.now.getTime() };
}

/**
 * The next instant after `now` at which `refreshSchedule` answers differently: the gap changes at the
 * edges of the arrival window, eligibility at the next refresh instant. Null: not before a write.
 */
export function refreshScheduleChangesAt(input: {
  status: string;
  lastSyncedAt: Date | null;
  eta: Date | null;
  deletedAt?: Date | null;
  now: Date;
}): Date | null {
  if (!input.lastSyncedAt || !isActive(input.status, input.deletedAt ?? null)) return null;
  const now = input.now.getTime();
  const { nextRefreshEligibleAt } = refreshSchedule(input);
  const candidates = [
    nextRefreshEligibleAt?.getTime() ?? Number.POSITIVE_INFINITY,
    refreshGapChangesAt(input.eta, input.now)?.getTime() ?? Number.POSITIVE_INFINITY,
  ];
  const next = Math.min(...candidates.filter((at) => at > now));
  return Number.isFinite(next) ? new Date(next) : null;
}

/**
 * When a count of days left until `until` (`ceil((until - now) / day)`, at least 0) next changes;
 * null once it is 0 for good.
 */
export function daysLeftChangesAt(until: number | null, now: Date): Date | null {
  if (until === null || Number.isNaN(until)) return null;
  const left = until - now.getTime();
  if (left <= 0) return null;
  return new Date(now.getTime() + (left % DAY_MS || DAY_MS));
}

export function isDelayed(doc: TrackingDocument): boolean {
  const first = doc.etaHistory[0]?.eta;
  const current = doc.route.pod.instant;
  if (!first || !current) return false;
  return new Date(current).getTime() - new Date(first).getTime() > DELAY_THRESHOLD_MS;
}

function locationOf(doc: TrackingDocument, key: string | null): TrackedLocation | undefined {
  return key ? doc.locations.find((l) => l.key === key) : undefined;
}

export function placeText(location: TrackedLocation | undefined): string {
  if (!location) return "";
  return [location.name, location.country].filter(Boolean).join(", ");
}

/** Where the journey starts and ends: place of dispatch or port of loading; destination or port of discharge. */
export function originAndDestination(doc: TrackingDocument): { origin: string; destination: string } {
  const origin = locationOf(doc, doc.route.prepol.locationKey) ?? locationOf(doc, doc.route.pol.locationKey);
  const destination =
    locationOf(doc, doc.route.postpod.locationKey) ?? locationOf(doc, doc.route.pod.locationKey);
  return { origin: placeText(origin), destination: placeText(destination) };
}

/** Whole days from the first departure to arrival (actual or estimated), and days left from now. */
export function journeyDays(doc: TrackingDocument, now: Date): { totalDays: number; remainingDays: number } {
  const start = doc.route.pol.instant ?? doc.route.prepol.instant ?? firstEventInstant(doc);
  const end = doc.route.pod.instant;
  const totalDays =
    start && end ? Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS)) : 0;
  const remainingDays =
    end && doc.status !== "DELIVERED" && !doc.route.pod.actual
      ? Math.max(0, Math.ceil((Date.parse(end) - now.getTime()) / DAY_MS))
      : 0;
  return { totalDays, remainingDays };
}

function firstEventInstant(doc: TrackingDocument): string | null {
  const instants = doc.containers
    .flatMap((c) => c.events.map((e) => e.instant))
    .filter((i): i is string => i !== null);
  return instants.sort()[0] ?? null;
}

/** "2 x 40' High Cube Dry, 1 x 20' Dry": only boxes whose type is known are counted. */
export function containerSummary(doc: TrackingDocument): string {
  const counts = new Map<string, number>();
  for (const c of doc.containers) {
    const label = c.description ?? c.isoCode ?? c.sizeType;
    if (label) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, n]) => `${n} x ${label}`).join(", ");
}

/** The current position: the carrier's when given, else the last place with an actual event. */
export function currentPosition(doc: TrackingDocument): { lat: number; lng: number } | null {
  if (doc.currentPosition) return doc.currentPosition;
  const actual = doc.containers
    .flatMap((c) => c.events)
    .filter((e) => e.actual && e.instant)
    .sort((a, b) => Date.parse(a.instant!) - Date.parse(b.instant!));
  for (let i = actual.length - 1; i >= 0; i--) {
    const place = locationOf(doc, actual[i]!.locationKey);
    if (place?.lat != null && place.lng != null) return { lat: place.lat, lng: place.lng };
  }
  return null;
}

/**
 * The ordered calls of the journey with coordinates (place of receipt, port of loading,
 * transshipments, port of discharge, place of delivery), a place repeated in a row taken once.
 */
export function routePoints(doc: TrackingDocument): GeoPoint[] {
  const keys = [
    doc.route.prepol.locationKey,
    doc.route.pol.locationKey,
    ...doc.transshipmentLocationKeys,
    doc.route.pod.locationKey,
    doc.route.postpod.locationKey,
  ];
  const points: GeoPoint[] = [];
  let previous: string | null = null;
  for (const key of keys) {
    if (!key || key === previous) continue;
    const place = locationOf(doc, key);
    if (place?.lat != null && place.lng != null) points.push({ lat: place.lat, lng: place.lng });
    previous = key;
  }
  return points;
}

/**
 * The vessel's arrival at the final port of discharge as wall-clock time there; null until it arrived
 * (an arrival at a transshipment call does not count).
 */
export function arrivalLocalDateTime(doc: TrackingDocument): string | null {
  return doc.ata !== null && doc.route.pod.actual === true ? doc.route.pod.localDateTime : null;
}

/** The location a facility is at: the one with the facility's UN/LOCODE. */
export function facilityLocation(doc: TrackingDocument, facility: TrackedFacility): TrackedLocation | null {
  if (facility.locode === null) return null;
  return doc.locations.find((l) => l.unLocode === facility.locode) ?? null;
}

/**
 * A facility's country: its ISO code, else the first two letters of its UN/LOCODE. The adapter leaves
 * `countryCode` null for a user-assigned code (XZ, the high seas ...), which is not a country; this
 * still names the code's country part, for a client that needs one.
 */
export function facilityCountryCode(facility: TrackedFacility): string | null {
  return facility.countryCode ?? facility.locode?.slice(0, 2) ?? null;
}

/**
 * When the refresh job should next look at a shipment: after its gap, plus up to 10% more chosen by
 * hash of the shipment and sync time, so shipments tracked in the same second spread out instead of
 * all falling due together. Null when it no longer moves.
 */
export function nextRefreshAt(input: {
  shipmentId: string;
  status: string;
  lastSyncedAt: Date | null;
  eta: Date | null;
  now: Date;
}): Date | null {
  if (!input.lastSyncedAt || !isActive(input.status)) return null;
  const gap = refreshGapMs(input.eta, input.now);
  const spread = (fnv1a(`${input.shipmentId}|${input.lastSyncedAt.getTime()}`) / 2 ** 32) * 0.1 * gap;
  return new Date(input.lastSyncedAt.getTime() + gap + Math.floor(spread));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
