/**
 * Turns a plan into times: what really happens (every delay in full) and what the carrier has
 * published at a given moment. A late ship's ETA is revised twice while it sails, at 35% and 80% of the
 * planned sailing time: first with part of the delay, then with all of it, so repeated queries show the
 * estimate move as the clock passes. Both revisions fall before the planned arrival, so once the ship is
 * due every estimate already carries the full delay.
 *
 * The world's episodes (episodes.ts) add to a leg's delay: a ship due at a port a typhoon has closed or
 * a strike has slowed waits at anchor as the queue model says (anchorage.ts), and a leg through a
 * restricted canal takes its extra days. Legs that meet no episode keep the plan's own delay.
 */
import { berthAfterEpisodes, passageDelayMs } from "./anchorage";
import type { Milestone, Shift, ShipmentPlan } from "./shipment-plan";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** Time a transshipped box needs between the feeder's arrival and the connecting ship's departure. */
const MINIMUM_CONNECTION = 2 * DAY;

export interface LegShifts {
  departure: number[];
  arrival: number[];
}

/** Shifts of every leg's departure and arrival for a given set of arrival delays. */
export function legShifts(plan: ShipmentPlan, delays: readonly number[]): LegShifts {
  const departure: number[] = [];
  const arrival: number[] = [];
  plan.legs.forEach((leg, index) => {
    const departureShift = departure[index] ?? 0;
    departure[index] = departureShift;
    arrival[index] = departureShift + (delays[index] ?? 0);
    const next = plan.legs[index + 1];
    if (next) {
      // A box that misses its connection sails on the loop's next weekly departure.
      const missedBy = leg.arrivalRel + (arrival[index] ?? 0) + MINIMUM_CONNECTION - next.departureRel;
      departure[index + 1] = missedBy > 0 ? Math.ceil(missedBy / WEEK) * WEEK : 0;
    }
  });
  return { departure, arrival };
}

export function shiftOf(shift: Shift, shifts: LegShifts): number {
  if (shift.kind === "departure") return shifts.departure[shift.leg] ?? 0;
  if (shift.kind === "arrival") return shifts.arrival[shift.leg] ?? 0;
  return 0;
}

/** The leg whose revisions a milestone's estimate depends on (it moves with legs up to this one). */
export function revisingLeg(shift: Shift): number {
  if (shift.kind === "arrival") return shift.leg;
  if (shift.kind === "departure") return shift.leg - 1;
  return -1;
}

export interface Revision {
  leg: number;
  at: number;
}

export interface Timeline {
  bookedAt: number;
  /** Each leg's real arrival delay: the plan's own plus what the episodes it met added. */
  arrivalDelays: readonly number[];
  actual: LegShifts;
  /** Absolute times of the ETA revisions of each leg (only legs whose arrival differs from plan). */
  revisions: readonly Revision[];
}

/** The plan's delays with what the world's episodes add, leg by leg (a late leg moves the next). */
function episodeDelays(plan: ShipmentPlan, bookedAt: number): number[] {
  const delays = plan.legs.map((leg) => leg.arrivalDelay);
  plan.legs.forEach((leg, index) => {
    const departure = bookedAt + leg.departureRel + (legShifts(plan, delays).departure[index] ?? 0);
    const sailing = leg.arrivalRel - leg.departureRel;
    const passages = leg.service.passages.slice(leg.loadSequence, leg.dischargeSequence).flat();
    const slowed = passageDelayMs(passages, departure + sailing / 2);
    const arrival = departure + sailing + (delays[index] ?? 0) + slowed;
    const callKey = `${leg.service.name}:${leg.vessels[0]?.imo ?? ""}:${leg.dischargeSequence}:${Math.round(arrival / HOUR)}`;
    const held = berthAfterEpisodes(leg.dischargePort, arrival, arrival, callKey) - arrival;
    delays[index] = (delays[index] ?? 0) + slowed + (held > HOUR ? held : 0);
  });
  return delays;
}

export function buildTimeline(plan: ShipmentPlan, bookedAt: number): Timeline {
  const arrivalDelays = episodeDelays(plan, bookedAt);
  const actual = legShifts(plan, arrivalDelays);
  const revisions: Revision[] = [];
  plan.legs.forEach((leg, index) => {
    if (arrivalDelays[index] === 0) return;
    const departure = bookedAt + leg.departureRel + (actual.departure[index] ?? 0);
    const sailing = leg.arrivalRel - leg.departureRel;
    revisions.push({ leg: index, at: departure + 0.35 * sailing });
    revisions.push({ leg: index, at: departure + 0.8 * sailing });
  });
  return { bookedAt, arrivalDelays, actual, revisions };
}

/** Arrival delays as the carrier has published them at `now`. */
export function knownDelays(plan: ShipmentPlan, timeline: Timeline, now: number): number[] {
  return plan.legs.map((leg, index) => {
    const delay = timeline.arrivalDelays[index] ?? 0;
    const [first, second] = timeline.revisions.filter((revision) => revision.leg === index);
    if (!first || !second || now < first.at) return 0;
    if (now < second.at) return Math.round((delay * leg.firstRevisionShare) / HOUR) * HOUR;
    return delay;
  });
}

export function actualTime(milestone: Milestone, timeline: Timeline): number {
  return timeline.bookedAt + milestone.rel + shiftOf(milestone.shift, timeline.actual) + milestone.jitter;
}

export function reportedAt(milestone: Milestone, timeline: Timeline): number {
  return actualTime(milestone, timeline) + milestone.reportingLag;
}

/** Latest ETA revision at or before `now` that affects the milestone, if any. */
export function latestRevision(milestone: Milestone, timeline: Timeline, now: number): number | undefined {
  const upTo = revisingLeg(milestone.shift);
  let latest: number | undefined;
  for (const revision of timeline.revisions) {
    if (revision.leg <= upTo && revision.at <= now && (latest === undefined || revision.at > latest)) {
      latest = revision.at;
    }
  }
  return latest;
}

/** When the last box is back at a depot: how long the shipment occupies its boxes. */
export function journeyEnd(plan: ShipmentPlan, bookedAt: number): number {
  const timeline = buildTimeline(plan, bookedAt);
  return Math.max(...plan.milestones.map((milestone) => reportedAt(milestone, timeline)));
}
