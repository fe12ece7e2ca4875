import { journeyCalls } from "../routes/route-segments";
import type { TrackedEvent, TrackedVessel, TrackingDocument } from "../tracking/model";

/**
 * Where a shipment stands on its sea journey, read from its tracking document: the carrier's ETA at
 * the final port of discharge, whether the vessel has arrived there, and while a box is aboard a
 * sailing ship, which ship and which calls lie ahead. Pure; the service adds the position and the
 * congestion readings.
 */
export interface JourneyProgress {
  /** The vessel's arrival at the final port of discharge has happened (`ata`): nothing to predict. */
  arrived: boolean;
  /** When the vessel arrived at the final port of discharge (ms), once it has and the time is known. */
  ata: number | null;
  carrierEta: number | null;
  podLocationKey: string | null;
  /**
   * The vessel's departure from the port of loading: when it sailed (null: not yet) and when it sails
   * or sailed (the actual time, else the carrier's estimate; null: unknown).
   */
  sailedFromPolAt: number | null;
  polDepartureAt: number | null;
  /** A transshipment lies on the box's way (the box changes vessel). */
  transshipment: boolean;
  /**
   * A transshipped box's last vessel leg: the departure from its last transshipment port (the latest
   * in time when the document names several), the voyage named on it, when it sailed (null: not yet)
   * and when it sails or sailed (actual, else the latest estimate). Null without a transshipment or a
   * dated vessel departure there.
   */
  lastLeg: {
    locationKey: string;
    voyage: string | null;
    departureAt: number;
    sailedAt: number | null;
  } | null;
  /**
   * A transshipped box's first transshipment port (the one its first ship reaches first): the vessel
   * arrival there and the connecting departure, each actual or the latest estimate. Null without a
   * transshipment or a dated vessel arrival and departure there.
   */
  firstConnection: {
    locationKey: string;
    arrivalAt: number;
    arrived: boolean;
    departureAt: number;
    /** The voyage named on the connecting departure. */
    voyage: string | null;
    connected: boolean;
  } | null;
  /** Set while a box is aboard a vessel that left a call and has not reached the next one. */
  sailing: {
    vessel: TrackedVessel;
    /** Location key of the call the vessel last left. */
    departedFrom: string;
    /** When it left that call (ms; null when the event has no time). */
    departedAt: number | null;
    /** Location keys from the call ahead to the port of discharge (the last one). */
    callsAhead: string[];
    /** Which of them change vessel (transshipment calls). */
    transshipments: Set<string>;
  } | null;
}

const allEvents = (doc: TrackingDocument): TrackedEvent[] => doc.containers.flatMap((c) => c.events);

function actualAt(events: readonly TrackedEvent[], key: string, codes: readonly string[]): TrackedEvent[] {
  return events.filter((e) => e.actual && e.locationKey === key && codes.includes(e.eventCode));
}

export function journeyProgress(doc: TrackingDocument): JourneyProgress {
  const pod = doc.route.pod;
  const arrived = doc.ata !== null || pod.actual === true;
  const carrierEta = !arrived && pod.instant !== null ? Date.parse(pod.instant) : null;
  const ataText = doc.ata ?? (pod.actual === true ? pod.instant : null);
  const ataMs = ataText === null ? Number.NaN : Date.parse(ataText);
  const base = {
    arrived,
    ata: Number.isFinite(ataMs) ? ataMs : null,
    carrierEta,
    podLocationKey: pod.locationKey,
    ...polDeparture(doc),
    transshipment: doc.transshipmentLocationKeys.length > 0,
    lastLeg: lastLegDeparture(doc),
    firstConnection: firstConnection(doc),
  };
  if (arrived) return { ...base, sailing: null };
  const { keys, seaFrom, seaTo } = journeyCalls(doc);
  if (seaFrom < 0 || seaTo <= seaFrom) return { ...base, sailing: null };
  const events = allEvents(doc);
  for (let i = seaTo - 1; i >= seaFrom; i--) {
    const departures = actualAt(events, keys[i]!, ["DEPA"]).filter((e) => e.vesselKey !== null);
    if (departures.length === 0) continue;
    // Left call i: sailing unless the next call already saw the vessel arrive.
    if (actualAt(events, keys[i + 1]!, ["ARRI", "DISC"]).length > 0) break;
    const latest = departures.sort((a, b) => Date.parse(b.instant ?? "0") - Date.parse(a.instant ?? "0"))[0]!;
    const vessel = doc.vessels.find((v) => v.key === latest.vesselKey);
    if (!vessel) break;
    return {
      ...base,
      sailing: {
        vessel,
        departedFrom: keys[i]!,
        departedAt: latest.instant === null ? null : Date.parse(latest.instant),
        callsAhead: keys.slice(i + 1, seaTo + 1),
        transshipments: new Set(doc.transshipmentLocationKeys),
      },
    };
  }
  return { ...base, sailing: null };
}

/** The vessel's departure from the port of loading: actual once it has sailed, else the latest estimate. */
function polDeparture(doc: TrackingDocument): {
  sailedFromPolAt: number | null;
  polDepartureAt: number | null;
} {
  const key = doc.route.pol.locationKey;
  const instant = (e: TrackedEvent) => (e.instant === null ? Number.NaN : Date.parse(e.instant));
  const departures = allEvents(doc).filter(
    (e) => key !== null && e.locationKey === key && e.eventCode === "DEPA" && Number.isFinite(instant(e)),
  );
  const sailed = departures.filter((e) => e.actual).map(instant);
  if (sailed.length > 0) return { sailedFromPolAt: Math.min(...sailed), polDepartureAt: Math.min(...sailed) };
  const estimated = departures.map(instant);
  return { sailedFromPolAt: null, polDepartureAt: estimated.length > 0 ? Math.max(...estimated) : null };
}

/** The box's departure on its last vessel leg, from the last transshipment port (JourneyProgress.lastLeg). */
function lastLegDeparture(doc: TrackingDocument): JourneyProgress["lastLeg"] {
  const keys = new Set(doc.transshipmentLocationKeys);
  if (keys.size === 0) return null;
  const instant = (e: TrackedEvent) => (e.instant === null ? Number.NaN : Date.parse(e.instant));
  const departures = allEvents(doc).filter(
    (e) =>
      keys.has(e.locationKey) &&
      e.eventCode === "DEPA" &&
      e.vesselKey !== null &&
      Number.isFinite(instant(e)),
  );
  if (departures.length === 0) return null;
  const last = departures.reduce((a, b) => (instant(b) > instant(a) ? b : a));
  const there = departures.filter((e) => e.locationKey === last.locationKey);
  const sailed = there.filter((e) => e.actual);
  const chosen = sailed.length > 0 ? sailed.reduce((a, b) => (instant(b) < instant(a) ? b : a)) : last;
  return {
    locationKey: last.locationKey,
    voyage: chosen.voyage,
    departureAt: instant(chosen),
    sailedAt: sailed.length > 0 ? instant(chosen) : null,
  };
}

/** The box's first connection (JourneyProgress.firstConnection). */
function firstConnection(doc: TrackingDocument): JourneyProgress["firstConnection"] {
  const keys = new Set(doc.transshipmentLocationKeys);
  if (keys.size === 0) return null;
  const instant = (e: TrackedEvent) => (e.instant === null ? Number.NaN : Date.parse(e.instant));
  const moves = allEvents(doc).filter(
    (e) => keys.has(e.locationKey) && e.vesselKey !== null && Number.isFinite(instant(e)),
  );
  const arrivals = moves.filter((e) => e.eventCode === "ARRI");
  if (arrivals.length === 0) return null;
  const key = arrivals.reduce((a, b) => (instant(b) < instant(a) ? b : a)).locationKey;
  const at = (code: string) => {
    const there = moves.filter((e) => e.locationKey === key && e.eventCode === code);
    const sailed = there.filter((e) => e.actual);
    if (sailed.length > 0) {
      const first = sailed.reduce((a, b) => (instant(b) < instant(a) ? b : a));
      return { at: instant(first), actual: true, voyage: first.voyage };
    }
    if (there.length === 0) return null;
    const latest = there.reduce((a, b) => (instant(b) > instant(a) ? b : a));
    return { at: instant(latest), actual: false, voyage: latest.voyage };
  };
  const arrival = at("ARRI");
  const departure = at("DEPA");
  if (!arrival || !departure) return null;
  return {
    locationKey: key,
    arrivalAt: arrival.at,
    arrived: arrival.actual,
    departureAt: departure.at,
    voyage: departure.voyage,
    connected: departure.actual,
  };
}
