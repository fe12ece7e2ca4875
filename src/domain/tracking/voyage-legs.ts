import type { TrackedEvent, TrackingDocument } from "./model";

/**
 * The journey's voyages as the carrier dated them: each departure of a vessel (or a barge) and the
 * arrival that follows it. Built from the transport events, which the carrier reports once per call
 * but the document mirrors into every container on it, so they are taken once each.
 */
export const VOYAGE_LEG_STATUSES = ["PLANNED", "SAILING", "COMPLETED"] as const;
export type VoyageLegStatus = (typeof VOYAGE_LEG_STATUSES)[number];

export interface VoyageLeg {
  /** 1, 2, 3 ... in sailing order. */
  sequence: number;
  vesselKey: string | null;
  voyage: string | null;
  departure: TrackedEvent;
  /** Null while no arrival follows the departure (the carrier has not planned it yet). */
  arrival: TrackedEvent | null;
  status: VoyageLegStatus;
}

const isWaterborne = (e: TrackedEvent) => e.modeOfTransport === "VESSEL" || e.modeOfTransport === "BARGE";

/**
 * Vessel and barge departures and arrivals once each (one per code, place, vessel and voyage), in time
 * order; undated ones first, as an empty instant sorts before any date.
 */
export function uniqueTransportEvents(doc: TrackingDocument): TrackedEvent[] {
  const seen = new Map<string, TrackedEvent>();
  for (const e of doc.containers.flatMap((c) => c.events)) {
    if (!isWaterborne(e) || (e.eventCode !== "DEPA" && e.eventCode !== "ARRI")) continue;
    const key = `${e.eventCode}|${e.locationKey}|${e.vesselKey ?? ""}|${e.voyage ?? ""}`;
    if (!seen.has(key)) seen.set(key, e);
  }
  return [...seen.values()].sort((a, b) => (a.instant ?? "").localeCompare(b.instant ?? ""));
}

/** Completed once the arrival happened, sailing once the departure did, planned before. */
export function voyageLegStatus(departure: TrackedEvent, arrival: TrackedEvent | null): VoyageLegStatus {
  if (arrival?.actual) return "COMPLETED";
  return departure.actual ? "SAILING" : "PLANNED";
}

/**
 * A leg is a departure and the next arrival. A departure with no arrival before the next departure is
 * a leg of its own with no arrival; an arrival with no departure before it starts nothing. The vessel
 * and voyage are the departure's, else the arrival's.
 */
export function voyageLegs(doc: TrackingDocument): VoyageLeg[] {
  const legs: VoyageLeg[] = [];
  const close = (departure: TrackedEvent, arrival: TrackedEvent | null) =>
    legs.push({
      sequence: legs.length + 1,
      vesselKey: departure.vesselKey ?? arrival?.vesselKey ?? null,
      voyage: departure.voyage ?? arrival?.voyage ?? null,
      departure,
      arrival,
      status: voyageLegStatus(departure, arrival),
    });
  let open: TrackedEvent | undefined;
  for (const e of uniqueTransportEvents(doc)) {
    if (e.eventCode === "DEPA") {
      if (open) close(open, null);
      open = e;
    } else if (open) {
      close(open, e);
      open = undefined;
    }
  }
  if (open) close(open, null);
  return legs;
}

/** The legs one vessel sailed, in sailing order. */
export function legsOfVessel(legs: readonly VoyageLeg[], vesselKey: string): VoyageLeg[] {
  return legs.filter((leg) => leg.vesselKey === vesselKey);
}

/** The voyage numbers a vessel sailed the journey under, once each, in sailing order. */
export function voyagesOfVessel(legs: readonly VoyageLeg[], vesselKey: string): string[] {
  const voyages = legsOfVessel(legs, vesselKey).map((leg) => leg.voyage);
  return [...new Set(voyages.filter((v): v is string => v !== null))];
}
