import type { PartnerEventFacts } from "../partners/partner-event";
import { placeLocations } from "../routes/placed-locations";
import { haversineKm } from "../routes/sea-route";
import type { GeoPoint, TrackedEvent, TrackingDocument } from "../tracking/model";

/**
 * The journey after the port (issue 41): the inland legs drawn from a partner's positions, and the
 * predicted arrival at the final destination (the place of delivery beyond the port of discharge).
 * Pure: the document, the partner's stored events and the clock come in; the rules are recorded in
 * docs/decisions/final-destination-eta.md.
 */

export type InlandMode = "TRUCK" | "RAIL" | "BARGE";

/** Average door-to-door speeds over the straight-line distance times ROUTE_FACTOR, in km/h. */
export const INLAND_SPEED_KMH: Record<InlandMode, number> = { TRUCK: 55, RAIL: 40, BARGE: 12 };
/** Roads and tracks are longer than the great circle: the straight line times this. */
export const ROUTE_FACTOR = 1.3;
/** Arrival at the port of discharge to departure inland when nobody said otherwise: discharge, customs, a pick-up slot. */
export const DEFAULT_PORT_DWELL_HOURS = 72;
/** The inland transit when the destination has no coordinates. */
export const DEFAULT_TRANSIT_HOURS = 24;
/** A position fix at most this old is fresh (confidence high); up to STALE_FIX_HOURS it is medium. */
export const FRESH_FIX_HOURS = 2;
export const STALE_FIX_HOURS = 12;

const HOUR = 3_600_000;

/** A partner event as stored: its facts and when we received it. */
export interface StoredPartnerFacts {
  facts: PartnerEventFacts;
  receivedAt: Date;
}

export interface InlandLeg {
  mode: InlandMode;
  path: GeoPoint[];
  /** The first and the last position's instants (the port of discharge's anchor has none of its own). */
  from: Date;
  to: Date;
}

export type FinalDestinationEtaSource = "partner_position" | "partner_estimate" | "inland_default";

export interface FinalDestinationEta {
  p50: Date;
  p80: Date;
  source: FinalDestinationEtaSource;
  confidence: "high" | "medium" | "low";
  computedAt: Date;
  /** The final destination's name. */
  place: string;
  /** The final destination's time zone (placeLocations), for its wall-clock arrival (compat `postpod`). */
  timeZone: string;
  /** Straight-line kilometres still to go from the position (or the port) to the destination; null without coordinates. */
  remainingKm: number | null;
  /** The inland leg's mode the speed was taken for. */
  mode: InlandMode;
  /**
   * The first instant at which the same inputs give another answer by the clock alone (p50 reaches
   * now and is held there, or a fix's age crosses a confidence boundary): how long a kept answer holds.
   */
  changesAt: Date;
}

/** The prediction at the port of discharge the inland leg is added to (PredictiveEta's p50 and p80). */
export interface PodPrediction {
  p50: Date;
  p80: Date;
}

interface Fix {
  at: number;
  point: GeoPoint;
  mode: InlandMode | null;
}

/** The partner's dated, actual places with coordinates: position fixes and milestones at a known place. */
function fixesOf(doc: TrackingDocument, events: readonly StoredPartnerFacts[]): Fix[] {
  const places = placeLocations(doc);
  const fixes: Fix[] = [];
  for (const { facts } of events) {
    if (!facts.actual) continue;
    let { lat, lng } = facts.location;
    if ((lat === null || lng === null) && facts.location.unLocode) {
      const known = places.find((p) => p.unLocode === facts.location.unLocode);
      lat = known?.lat ?? null;
      lng = known?.lng ?? null;
    }
    if (lat === null || lng === null) continue;
    const mode = facts.modeOfTransport === "VESSEL" ? null : facts.modeOfTransport;
    fixes.push({ at: Date.parse(facts.instant), point: { lat, lng }, mode });
  }
  return fixes.sort((a, b) => a.at - b.at);
}

/** The box's first actual discharge at the port of discharge, across the boxes (ms), or null. */
function dischargedAt(doc: TrackingDocument): number | null {
  const pod = doc.route.pod.locationKey;
  const times = doc.containers
    .flatMap((c) => c.events)
    .filter((e) => e.actual && e.eventCode === "DISC" && e.locationKey === pod && e.instant !== null)
    .map((e) => Date.parse(e.instant!));
  return times.length > 0 ? Math.min(...times) : null;
}

function pointOf(doc: TrackingDocument, key: string | null): GeoPoint | null {
  if (key === null) return null;
  const place = placeLocations(doc).find((p) => p.key === key);
  return place && place.lat !== null && place.lng !== null ? { lat: place.lat, lng: place.lng } : null;
}

/**
 * The inland legs a partner's positions draw: after the discharge, from the port of discharge through
 * each position in time order (before it, the export side's positions alone). A new mode (a truck to the
 * rail ramp, then the train) starts a new leg where the last one ended. No positions, no legs: the map
 * then shows the carrier's journey only.
 */
export function inlandLegs(doc: TrackingDocument, events: readonly StoredPartnerFacts[]): InlandLeg[] {
  const fixes = fixesOf(doc, events);
  if (fixes.length === 0) return [];
  const discharged = dischargedAt(doc);
  const port = pointOf(doc, doc.route.pod.locationKey);
  const exportSide = discharged === null ? [] : fixes.filter((f) => f.at < discharged);
  const importSide = discharged === null ? fixes : fixes.filter((f) => f.at >= discharged);
  const legs: InlandLeg[] = [];
  const draw = (side: Fix[], anchor: GeoPoint | null) => {
    let mode: InlandMode = side.find((f) => f.mode !== null)?.mode ?? "TRUCK";
    const drawn: Drawing[] = [];
    for (const fix of side) {
      const next = fix.mode ?? mode;
      const last = drawn.at(-1);
      if (!last || next !== last.mode) {
        const start = last?.path.at(-1) ?? anchor;
        drawn.push({ mode: next, path: start ? [start] : [], from: fix.at, to: fix.at });
      }
      mode = next;
      const current = drawn.at(-1)!;
      current.path.push(fix.point);
      current.to = fix.at;
    }
    legs.push(...drawn.map(finish));
  };
  draw(exportSide, null);
  draw(importSide, discharged === null ? null : port);
  return legs.filter((l) => l.path.length > 1);
}

interface Drawing {
  mode: InlandMode;
  path: GeoPoint[];
  from: number;
  to: number;
}

const finish = (l: Drawing): InlandLeg => ({
  mode: l.mode,
  path: l.path,
  from: new Date(l.from),
  to: new Date(l.to),
});

const hoursFor = (km: number, mode: InlandMode) => (km * ROUTE_FACTOR) / INLAND_SPEED_KMH[mode];

/** The box left the port of discharge inland: an actual laden gate-out or inland departure there after the discharge. */
function leftPort(doc: TrackingDocument, discharged: number | null): TrackedEvent | null {
  if (discharged === null) return null;
  const pod = doc.route.pod.locationKey;
  const departures = doc.containers
    .flatMap((c) => c.events)
    .filter(
      (e) =>
        e.actual &&
        e.instant !== null &&
        Date.parse(e.instant) >= discharged &&
        e.locationKey === pod &&
        ((e.eventCode === "GTOT" && e.emptyIndicator !== "EMPTY") ||
          (e.eventCode === "DEPA" && e.modeOfTransport !== "VESSEL")),
    )
    .sort((a, b) => a.instant!.localeCompare(b.instant!));
  return departures.at(-1) ?? null;
}

/**
 * The journey goes on beyond the port of discharge to a place of delivery the box has not reached:
 * only then is there an arrival at the final destination to predict (a list's other rows read nothing for it).
 */
export function aheadBeyondPort(doc: TrackingDocument): boolean {
  const { pod, postpod } = doc.route;
  if (postpod.locationKey === null || postpod.locationKey === pod.locationKey) return false;
  return postpod.actual !== true && doc.status !== "DELIVERED" && doc.status !== "CANCELLED";
}

/**
 * The predicted arrival at the final destination, when the journey has one beyond the port of discharge
 * and the box has not reached it. In order:
 * 1. a partner's position after the discharge (the newest): its straight-line distance to the
 *    destination times ROUTE_FACTOR at the leg's INLAND_SPEED_KMH, from the fix's time; confidence by the
 *    fix's age (FRESH_FIX_HOURS, STALE_FIX_HOURS);
 * 2. a partner's estimated arrival at the destination (EST ARRI or DROP at the consignee's place or the
 *    place of delivery) received after that fix: the partner's own date; confidence medium;
 * 3. otherwise the default: the port's departure inland (actual), else the arrival at the port of
 *    discharge (actual, else the predictive ETA, else the carrier's ETA) plus DEFAULT_PORT_DWELL_HOURS,
 *    plus the port-to-destination transit; confidence low.
 * Never before `now`; null when nothing dates the journey.
 */
export function finalDestinationEta(input: {
  doc: TrackingDocument;
  events: readonly StoredPartnerFacts[];
  podPrediction: PodPrediction | null;
  now: Date;
}): FinalDestinationEta | null {
  const { doc, events, podPrediction, now } = input;
  const { pod, postpod } = doc.route;
  if (!aheadBeyondPort(doc)) return null;
  const place = placeLocations(doc).find((l) => l.key === postpod.locationKey);
  const destination = pointOf(doc, postpod.locationKey);
  const port = pointOf(doc, pod.locationKey);
  const discharged = dischargedAt(doc);
  const fixes = fixesOf(doc, events).filter((f) => discharged === null || f.at >= discharged);
  const fix = fixes.at(-1) ?? null;
  const mode: InlandMode = fixes.findLast((f) => f.mode !== null)?.mode ?? inlandModeOf(doc) ?? "TRUCK";
  const clamp = (ms: number) => Math.max(ms, now.getTime());
  const result = ({
    p50,
    spreadMs,
    source,
    confidence,
    remainingKm,
    boundaries = [],
  }: {
    p50: number;
    spreadMs: number;
    source: FinalDestinationEtaSource;
    confidence: FinalDestinationEta["confidence"];
    remainingKm: number | null;
    /** Instants at which the answer changes although nothing new arrives (a fix ageing). */
    boundaries?: readonly number[];
  }): FinalDestinationEta => ({
    p50: new Date(clamp(p50)),
    p80: new Date(clamp(p50) + spreadMs),
    source,
    confidence,
    computedAt: now,
    place: place?.name ?? "",
    timeZone: place?.timeZone ?? "Etc/UTC",
    remainingKm: remainingKm === null ? null : Math.round(remainingKm),
    mode,
    // A p50 already held at now moves with every read; otherwise it holds until it is reached.
    changesAt: new Date(Math.min(clamp(p50), ...boundaries.filter((b) => b > now.getTime()))),
  });

  const estimate = partnerEstimate(events, place?.unLocode ?? null);
  if (estimate && (!fix || estimate.receivedAt.getTime() > fix.at)) {
    return result({
      p50: Date.parse(estimate.facts.instant),
      spreadMs: 2 * HOUR,
      source: "partner_estimate",
      confidence: "medium",
      remainingKm: fix && destination ? haversineKm(fix.point, destination) : null,
    });
  }
  if (fix && destination) {
    const km = haversineKm(fix.point, destination);
    const travel = hoursFor(km, mode) * HOUR;
    const age = now.getTime() - fix.at;
    const confidence =
      age <= FRESH_FIX_HOURS * HOUR ? "high" : age <= STALE_FIX_HOURS * HOUR ? "medium" : "low";
    return result({
      p50: fix.at + travel,
      spreadMs: Math.max(HOUR, 0.3 * travel),
      source: "partner_position",
      confidence,
      remainingKm: km,
      boundaries: [fix.at + FRESH_FIX_HOURS * HOUR + 1, fix.at + STALE_FIX_HOURS * HOUR + 1],
    });
  }

  const km = port && destination ? haversineKm(port, destination) : null;
  const transit = (km === null ? DEFAULT_TRANSIT_HOURS : hoursFor(km, mode)) * HOUR;
  const departed = leftPort(doc, discharged);
  if (departed)
    return result({
      p50: Date.parse(departed.instant!) + transit,
      spreadMs: 12 * HOUR,
      source: "inland_default",
      confidence: "low",
      remainingKm: km,
    });
  const dwell = DEFAULT_PORT_DWELL_HOURS * HOUR;
  const podArrival =
    pod.actual === true && pod.instant !== null
      ? { p50: Date.parse(pod.instant), spread: 0 }
      : podPrediction
        ? {
            p50: podPrediction.p50.getTime(),
            spread: podPrediction.p80.getTime() - podPrediction.p50.getTime(),
          }
        : pod.instant !== null
          ? { p50: Date.parse(pod.instant), spread: 0 }
          : null;
  if (!podArrival) return null;
  // The dwell is the widest unknown: two days on top of the port's own window.
  return result({
    p50: podArrival.p50 + dwell + transit,
    spreadMs: podArrival.spread + 48 * HOUR,
    source: "inland_default",
    confidence: "low",
    remainingKm: km,
  });
}

/** The carrier's own inland mode after the port (a rail or barge on-carriage it reports), if any. */
function inlandModeOf(doc: TrackingDocument): InlandMode | null {
  const pod = doc.route.pod.locationKey;
  const onward = doc.containers
    .flatMap((c) => c.events)
    .find(
      (e) =>
        e.kind === "TRANSPORT" && e.eventCode === "DEPA" && e.locationKey === pod && e.legType === "land",
    );
  const m = onward?.modeOfTransport;
  return m === "TRUCK" || m === "RAIL" || m === "BARGE" ? m : null;
}

/** The newest (by receipt) partner estimate of the arrival at the consignee's place or the place of delivery. */
function partnerEstimate(events: readonly StoredPartnerFacts[], destinationLocode: string | null) {
  return (
    events
      .filter(
        ({ facts }) =>
          !facts.actual &&
          (facts.eventCode === "ARRI" || facts.eventCode === "DROP") &&
          (facts.facilityTypeCode === "CLOC" ||
            (destinationLocode !== null && facts.location.unLocode === destinationLocode)),
      )
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
      .at(-1) ?? null
  );
}
