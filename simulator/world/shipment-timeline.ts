/**
 * Turns a plan into times: what really happens (every delay in full) and what the carrier has
 * published at a given moment. Every vessel leg is a sailing of the world's fleet (fleet.ts), so what
 * really happens is what the ship does: its real departure and arrival, with the incidents, anchorage
 * waits and episodes (a typhoon's closure, a strike, a canal restriction) the fleet gives it; a box that
 * misses its connection takes the loop's next bookable sailing, with that sailing's ship.
 *
 * A late ship's ETA is revised twice while it sails, at 35% and 80% of the planned sailing time: first
 * with part of the delay, then with all of it, so repeated queries show the estimate move as the clock
 * passes. A late departure is published three days before the ship's proforma departure.
 */
import {
  type LegSailing,
  MINIMUM_CONNECTION,
  type Milestone,
  type Shift,
  type ShipmentPlan,
} from "./shipment-plan";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A carrier publishes a ship's late departure this long before the proforma departure. */
const DEPARTURE_NOTICE = 3 * DAY;
/** Arrivals closer than this to the proforma are not revised. */
const REVISED_FROM = HOUR;

export interface LegShifts {
  /** Which of the leg's sailings (`leg.sailings`) the box takes. */
  sailing: number[];
  departure: number[];
  arrival: number[];
}

/** A view's belief about a sailing: how late it leaves and arrives against its proforma. */
export type SailingView = (
  leg: number,
  choice: number,
  sailing: LegSailing,
) => { departure: number; arrival: number };

/** The real delays of every sailing. */
export const actualView: SailingView = (_leg, _choice, sailing) => ({
  departure: sailing.actualDeparture - sailing.departure,
  arrival: sailing.actualArrival - sailing.arrival,
});

/** Which sailing each leg takes and how far its departure and arrival move from the plan, in a view. */
export function legShifts(
  plan: ShipmentPlan,
  view: SailingView,
  settled: (leg: number) => number | undefined = () => undefined,
): LegShifts {
  const chosen: number[] = [];
  const departure: number[] = [];
  const arrival: number[] = [];
  let readyAt = Number.NEGATIVE_INFINITY;
  plan.legs.forEach((leg, index) => {
    // A box that misses its connection sails on the loop's next sailing it can make.
    let choice =
      settled(index) ??
      leg.sailings.findIndex((s, i) => s.departure + view(index, i, s).departure >= readyAt);
    if (choice < 0) choice = leg.sailings.length - 1;
    const sailing = leg.sailings[choice]!;
    const delays = view(index, choice, sailing);
    chosen[index] = choice;
    departure[index] = sailing.departure + delays.departure - (plan.bookedAt + leg.departureRel);
    arrival[index] = sailing.arrival + delays.arrival - (plan.bookedAt + leg.arrivalRel);
    readyAt = sailing.arrival + delays.arrival + MINIMUM_CONNECTION;
  });
  return { sailing: chosen, departure, arrival };
}

export function shiftOf(shift: Shift, shifts: LegShifts): number {
  if (shift.kind === "departure") return shifts.departure[shift.leg] ?? 0;
  if (shift.kind === "arrival") return shifts.arrival[shift.leg] ?? 0;
  return 0;
}

/** The sailing a leg takes in a set of shifts. */
export function sailingOf(plan: ShipmentPlan, leg: number, shifts: LegShifts): LegSailing | undefined {
  const sailings = plan.legs[leg]?.sailings ?? [];
  return sailings[shifts.sailing[leg] ?? 0] ?? sailings[0];
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
  /** Each leg's real arrival delay against its sailing's proforma (the ship's, episodes included). */
  arrivalDelays: readonly number[];
  actual: LegShifts;
  /** Absolute times of the ETA revisions of each leg (only legs whose arrival differs from plan). */
  revisions: readonly Revision[];
}

export function buildTimeline(plan: ShipmentPlan, bookedAt: number = plan.bookedAt): Timeline {
  if (bookedAt !== plan.bookedAt) throw new Error("a plan's times are the fleet's: book it at plan.bookedAt");
  const actual = legShifts(plan, actualView);
  const revisions: Revision[] = [];
  const sailings = plan.legs.map((_, index) => sailingOf(plan, index, actual)!);
  const arrivalDelays = sailings.map((sailing) => sailing.actualArrival - sailing.arrival);
  sailings.forEach((sailing, index) => {
    const late = Math.abs(arrivalDelays[index] ?? 0) >= REVISED_FROM;
    if (!late && sailing.actualDeparture - sailing.departure < REVISED_FROM) return;
    const planned = sailing.arrival - sailing.departure;
    revisions.push({ leg: index, at: sailing.actualDeparture + 0.35 * planned });
    revisions.push({ leg: index, at: sailing.actualDeparture + 0.8 * planned });
  });
  return { bookedAt, arrivalDelays, actual, revisions };
}

/**
 * Arrival delays of the legs' real sailings as the carrier has published them at `now`: a late departure
 * once it is announced (DEPARTURE_NOTICE), then the rest of the delay in two revisions while the ship
 * sails, and all of it once the ship has arrived.
 */
export function knownDelays(plan: ShipmentPlan, timeline: Timeline, now: number): number[] {
  return plan.legs.map((leg, index) => {
    const sailing = sailingOf(plan, index, timeline.actual);
    const delay = timeline.arrivalDelays[index] ?? 0;
    if (!sailing) return 0;
    if (now >= sailing.actualArrival) return delay;
    const late = sailing.actualDeparture - sailing.departure;
    const departureKnown = now >= sailing.departure - DEPARTURE_NOTICE ? late : 0;
    const [first, second] = timeline.revisions.filter((revision) => revision.leg === index);
    if (!first || !second || now < first.at) return departureKnown;
    if (now < second.at) {
      return departureKnown + Math.round(((delay - departureKnown) * leg.firstRevisionShare) / HOUR) * HOUR;
    }
    return delay;
  });
}

/** The legs' sailings and shifts as the carrier has published them at `now`. */
export function knownShifts(plan: ShipmentPlan, timeline: Timeline, now: number): LegShifts {
  const arrivals = knownDelays(plan, timeline, now);
  const taken = (leg: number) => timeline.actual.sailing[leg] ?? 0;
  return legShifts(
    plan,
    (leg, choice, sailing) => ({
      departure:
        now >= sailing.departure - DEPARTURE_NOTICE ? sailing.actualDeparture - sailing.departure : 0,
      // Revisions are of the sailing the box really takes; another sailing is believed on time.
      arrival: choice !== taken(leg) ? 0 : (arrivals[leg] ?? 0),
    }),
    // Once the box has sailed on a leg, the carrier knows which sailing it took.
    (leg) => {
      const sailing = plan.legs[leg]?.sailings[taken(leg)];
      return sailing && now >= sailing.actualDeparture ? taken(leg) : undefined;
    },
  );
}

/**
 * The ship the carrier names for a leg's sailing at `now`: a swapped ship's announced one until the
 * carrier learns of the swap (fleet.ts VESSEL_SWAP_SHARE), then the one that really sails.
 */
export function namedVessel(sailing: LegSailing, now: number) {
  return sailing.announcedVessel && sailing.swapKnownAt !== undefined && now < sailing.swapKnownAt
    ? sailing.announcedVessel
    : sailing.vessel;
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
export function journeyEnd(plan: ShipmentPlan): number {
  const timeline = buildTimeline(plan);
  return Math.max(...plan.milestones.map((milestone) => reportedAt(milestone, timeline)));
}
