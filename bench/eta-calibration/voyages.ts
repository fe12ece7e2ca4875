/**
 * Simulated voyages for the ETA calibration: shipments of the carrier simulator's world (simulator/world),
 * whose true arrivals it knows (every delay and episode included), observed at chosen moments the way
 * the service would see them: the carrier's ETA as published at that moment, the vessel's position and
 * recent speed while the box is aboard a sailing ship, and the port of discharge's usual anchorage wait.
 *
 * Pure and seeded: the same seed gives the same voyages and observations.
 *
 * The world plans a leg's real arrival (sailing at 13.5-16.5 kn, a stay at each call, a drawn delay,
 * episodes) but not the ship's speed minute by minute, so the replay places a sailing ship along its leg
 * in proportion to the leg's real sailing time: a late ship is seen making less speed than planned. That
 * is how a delay shows on AIS when it is weather or slow steaming, but not when a ship sails at speed and
 * then waits at anchor; docs/eta-calibration.md says what this makes optimistic.
 */
import { CARRIERS } from "../../reference-data/carriers";
import { anchorageNorm } from "../../simulator/world/anchorage";
import { seaDistanceNm } from "../../simulator/world/geo";
import { unitHash } from "../../simulator/world/hash";
import { findPort, type Port } from "../../simulator/world/ports";
import { planShipment, type ShipmentPlan, type VesselLeg } from "../../simulator/world/shipment-plan";
import { buildTimeline, knownShifts, type Timeline } from "../../simulator/world/shipment-timeline";
import type { CarrierBiasTable } from "../../src/domain/eta/calibration-table";
import type {
  CallAhead,
  EtaInput,
  HorizonBucket,
  PortWaitReading,
  VesselProgress,
} from "../../src/domain/eta/eta-model";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PUBLISHED_ROUNDING = 15 * 60_000;
/** The world's stay at an intermediate call: 16-40 h, drawn per call (shipment-plan/timeline.ts). */
const STAY_HOURS = 28;
/** Bookings spread over four months of 2026, so the world's dated episodes (typhoon, strike, canal) are met. */
const FIRST_BOOKING = Date.UTC(2026, 0, 5);
const BOOKING_SPREAD = 120 * DAY;

/** Lines whose loops the world sails, by alliance and size. */
export const REPLAY_CARRIERS = [
  "MAEU",
  "MSCU",
  "CMDU",
  "HLCU",
  "ONEY",
  "EGLV",
  "COSU",
  "ZIMU",
  "HDMU",
  "YMLU",
];

/** Time-to-arrival ranges (days) each voyage is observed at, one moment per range. */
const OBSERVATION_RANGES: readonly [number, number][] = [
  [0.1, 1],
  [1, 3],
  [3, 7],
  [7, 14],
  [14, 35],
];

export interface SimulatedVoyage {
  id: string;
  scac: string;
  pod: string;
  bookedAt: number;
  /** True arrival of the vessel at the final port of discharge (the event that sets `ata`). */
  ata: number;
  plan: ShipmentPlan;
  timeline: Timeline;
}

export interface VoyageObservation {
  voyage: SimulatedVoyage;
  now: number;
  input: EtaInput;
}

function portOf(code: string): Port | undefined {
  return findPort(code);
}

function legCalls(leg: VesselLeg): { ports: Port[]; nm: number[] } {
  const { calls, passages } = leg.service;
  const count = calls.length;
  // Sequences are 1-based call numbers in the rotation; a leg of a loop may wrap past its last call.
  const start = leg.loadSequence - 1;
  const steps = (leg.dischargeSequence - 1 - start + count) % count;
  const ports: Port[] = [];
  const nm: number[] = [];
  for (let step = 0; step <= steps; step++) {
    const index = (start + step) % count;
    const port = portOf(calls[index]!);
    if (!port) continue;
    if (ports.length > 0) {
      nm.push(seaDistanceNm(ports[ports.length - 1]!, port, passages[(index - 1 + count) % count] ?? []));
    }
    ports.push(port);
  }
  return { ports, nm };
}

/** The world's shipments with a sea leg, planned from seeded ids, with their true arrivals. */
export function simulatedVoyages(seed: string, count: number): SimulatedVoyage[] {
  const voyages: SimulatedVoyage[] = [];
  for (let i = 0; voyages.length < count && i < count * 4; i++) {
    const scac = REPLAY_CARRIERS[i % REPLAY_CARRIERS.length]!;
    const carrier = CARRIERS.find((c) => c.scac === scac);
    if (!carrier) continue;
    const id = `${seed}-${i}`;
    // The world books legs on its fleet's sailings (simulator/world/fleet.ts): the plan says when it is booked.
    const plan = planShipment({
      carrier,
      seed: id,
      boxes: { fixed: [], generate: true },
      earliestDeparture:
        FIRST_BOOKING + Math.floor(unitHash("eta-replay-booking", id) * BOOKING_SPREAD) + 21 * DAY,
    });
    const last = plan.legs[plan.legs.length - 1];
    if (!last || plan.cancelledRel !== undefined) continue;
    const bookedAt = plan.bookedAt;
    const timeline = buildTimeline(plan);
    const ata = bookedAt + last.arrivalRel + (timeline.actual.arrival[plan.legs.length - 1] ?? 0);
    voyages.push({ id, scac, pod: last.dischargePort.unLocode, bookedAt, ata, plan, timeline });
  }
  return voyages;
}

/** The usual wait at a port, as its congestion reading would give it (tier B: a world port). */
export function portWait(port: Port): PortWaitReading {
  const norm = anchorageNorm(port);
  return { medianWaitHours: norm.medianHours, anchoredShare: norm.share, tier: "B", congested: false };
}

/** The carrier's ETA at the port of discharge as published at `now` (revisions known by then). */
export function carrierEtaAt(voyage: SimulatedVoyage, now: number): number {
  const { plan, timeline } = voyage;
  const shifts = knownShifts(plan, timeline, now);
  const lastIndex = plan.legs.length - 1;
  const estimate = voyage.bookedAt + plan.legs[lastIndex]!.arrivalRel + (shifts.arrival[lastIndex] ?? 0);
  // Published to the quarter hour, as the world's carriers do (dcsa-events.ts).
  return Math.round(estimate / PUBLISHED_ROUNDING) * PUBLISHED_ROUNDING;
}

function vesselAt(voyage: SimulatedVoyage, now: number): VesselProgress | null {
  const { plan, timeline, bookedAt } = voyage;
  for (let i = 0; i < plan.legs.length; i++) {
    const leg = plan.legs[i]!;
    const departed = bookedAt + leg.departureRel + (timeline.actual.departure[i] ?? 0);
    const arrived = bookedAt + leg.arrivalRel + (timeline.actual.arrival[i] ?? 0);
    if (now < departed || now >= arrived) continue;
    const { ports, nm } = legCalls(leg);
    const legNm = nm.reduce((a, b) => a + b, 0);
    if (legNm <= 0) return null;
    const intermediate = Math.max(0, ports.length - 2);
    const stayMs = STAY_HOURS * HOUR;
    const sailingMs = Math.max(HOUR, arrived - departed - stayMs * intermediate);
    const knots = Math.min(25, Math.max(6, legNm / (sailingMs / HOUR)));
    // AIS freshness: mostly fresh, sometimes a gap of hours, now and then of days (satellite coverage).
    const gapDraw = unitHash("eta-replay-gap", voyage.id, now);
    const ageHours =
      gapDraw < 0.7 ? gapDraw * 1.4 : gapDraw < 0.9 ? 1 + (gapDraw - 0.7) * 55 : 12 + (gapDraw - 0.9) * 360;
    const fixedAt = Math.max(departed, now - ageHours * HOUR);
    // Where the ship was at its fix: hop by hop at its real pace, a stay at each call on the way.
    let clock = departed;
    let sailedNm = 0;
    let nextCall = 1;
    for (let k = 0; k < nm.length; k++) {
      const hopMs = (nm[k]! / legNm) * sailingMs;
      if (fixedAt < clock + hopMs) {
        sailedNm += (nm[k]! * (fixedAt - clock)) / hopMs;
        nextCall = k + 1;
        break;
      }
      clock += hopMs;
      sailedNm += nm[k]!;
      nextCall = k + 1;
      if (k < nm.length - 1) {
        if (fixedAt < clock + stayMs) break; // alongside at ports[k + 1]: its stay still counts ahead
        clock += stayMs;
        nextCall = k + 2;
      }
    }
    const callsAhead: CallAhead[] = [];
    for (let c = nextCall; c < ports.length - 1; c++) {
      callsAhead.push({ transshipment: false, wait: portWait(ports[c]!) });
    }
    let remainingNm = legNm - sailedNm;
    for (let j = i + 1; j < plan.legs.length; j++) {
      const next = legCalls(plan.legs[j]!);
      callsAhead.push({ transshipment: true, wait: null });
      for (let k = 1; k < next.ports.length - 1; k++)
        callsAhead.push({ transshipment: false, wait: portWait(next.ports[k]!) });
      remainingNm += next.nm.reduce((a, b) => a + b, 0);
    }
    const fixes = Math.min(8, Math.floor((fixedAt - departed) / (6 * HOUR)));
    const recentSogKnots = Array.from(
      { length: fixes },
      (_, f) => Math.round((knots + (unitHash("eta-replay-sog", voyage.id, now, f) - 0.5) * 1.2) * 10) / 10,
    );
    // Successive fixes six hours apart at the leg's real pace: the speed made good toward the port
    // the service measures from its position history (docs/decisions/eta.md).
    const madeGood = fixes >= 2 ? { knots, fixes: fixes + 1, spanHours: fixes * 6, consistent: true } : null;
    return { fixedAt, recentSogKnots, remainingNm, callsAhead, madeGood };
  }
  return null;
}

/** One observation of a voyage per time-to-arrival range (none before the booking). */
export function observeVoyage(voyage: SimulatedVoyage, bias: CarrierBiasTable): VoyageObservation[] {
  const observations: VoyageObservation[] = [];
  const pod = portOf(voyage.pod);
  OBSERVATION_RANGES.forEach(([lo, hi], r) => {
    const days = lo + (hi - lo) * unitHash("eta-replay-moment", voyage.id, r);
    const now = Math.round((voyage.ata - days * DAY) / 60_000) * 60_000;
    if (now <= voyage.bookedAt) return;
    const vessel = vesselAt(voyage, now);
    observations.push({
      voyage,
      now,
      input: {
        seedKey: voyage.id,
        now,
        carrierEta: carrierEtaAt(voyage, now),
        carrierBias: bias[voyage.scac] ?? {},
        vessel,
        pod: pod ? portWait(pod) : null,
        // Before departure and between vessels nothing is sailing: the carrier alone, no fault.
        fallback: vessel ? null : "not_sailing",
      },
    });
  });
  return observations;
}

export type { HorizonBucket };
