/**
 * The voyages the service-path replay follows: shipments of the carrier simulator's world (the one the
 * embedded simulator serves), picked deterministically from a seed, spread over every carrier the world
 * answers, each with the reference a customer would track and the world's true arrival at the port of
 * discharge. Pure: the same seed and window give the same voyages.
 */
import { CARRIERS, type Carrier } from "../../reference-data/carriers";
import { containerPrefixesOf } from "../../simulator/world/carrier-profiles";
import { episodesBetween } from "../../simulator/world/episodes";
import { unitHash } from "../../simulator/world/hash";
import { cycleAt, groupMembers, issueDocumentNumber } from "../../simulator/world/references";
import { actualTime, reportedAt } from "../../simulator/world/shipment-timeline";
import { actualArrivalAtPod, type Shipment, SimulatedWorld } from "../../simulator/world/world";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Group positions drawn per carrier and cycle: enough candidates for every share and the episodes' quota. */
const POSITIONS_PER_CYCLE = 1_500;
/**
 * At least this share of the voyages met an episode of the world (typhoon, strike, canal restriction):
 * at the world's own rate a 300-voyage sample may meet few or none.
 */
const EPISODE_SHARE = 0.05;

/** One voyage of the replay. */
export interface ReplayVoyage {
  scac: string;
  /** What is tracked: the first box of the shipment, or its booking where the carrier answers only those. */
  reference: string;
  type: "container" | "booking";
  /** The world's identity of the shipment (its plan seed). */
  key: string;
  /** When the reference first answers: the box has left the depot (or the booking is confirmed). */
  trackableAt: number;
  /** The real departure of the first vessel leg. */
  departureAt: number;
  /** The real arrival of the last vessel leg at the port of discharge: what every prediction is scored against. */
  ata: number;
  pol: string;
  pod: string;
  vesselLegs: number;
  /** Episodes of the world (typhoon, strike, canal restriction) at its ports or on its passages while it sailed. */
  episodes: string[];
}

export interface VoyageSelection {
  seed: string;
  /** Tracking window: a voyage's reference first answers in [from, from + days). */
  window: { from: string; days: number };
  voyages: ReplayVoyage[];
  /** Voyages per carrier, and how many carriers the world answers that could not fill their share. */
  carriers: Record<string, number>;
  /** Episodes that overlap the replay's clock span. */
  episodes: string[];
}

/**
 * A shipment the world cannot plan is no candidate: the embedded simulator would answer its reference
 * with an error, which measures the simulator, not the prediction.
 */
function candidate(plan: () => ReplayVoyage | null): ReplayVoyage | null {
  try {
    return plan();
  } catch {
    return null;
  }
}

/**
 * The world's episodes a voyage met, from the episodes' ground truth (episodes.ts): a typhoon or strike
 * at one of its ports, or a canal restriction on a passage of its legs, between its departure and its
 * arrival (a port episode from two days before, as a queue it left outlasts it).
 */
function episodesMet(legs: Shipment["plan"]["legs"], departureAt: number, ata: number): string[] {
  const ports = new Set(legs.flatMap((leg) => [leg.loadPort.unLocode, leg.dischargePort.unLocode]));
  const passages = new Set(
    legs.flatMap((leg) => {
      const { passages: between } = leg.service;
      const from = leg.loadSequence - 1;
      const to = leg.dischargeSequence - 1;
      // passages[i] lies between calls i and i + 1; a leg may wrap past the loop's last call.
      return (to > from ? between.slice(from, to) : [...between.slice(from), ...between.slice(0, to)]).flat();
    }),
  );
  return episodesBetween(departureAt - 2 * DAY, ata)
    .filter((e) =>
      e.chokepoint
        ? passages.has(e.chokepoint) && e.start.getTime() < ata && e.end.getTime() > departureAt
        : e.ports.some((p) => ports.has(p)),
    )
    .map((e) => e.id);
}

/** Carriers whose references the world answers, in directory order. */
function replayCarriers(): Carrier[] {
  return CARRIERS.filter((c) => containerPrefixesOf(c).length > 0);
}

/** The reference a customer of this carrier tracks: a box, or the booking when boxes are not answered. */
function trackedReference(carrier: Carrier, shipment: Shipment): Pick<ReplayVoyage, "reference" | "type"> {
  if (carrier.supportedTypes.includes("container")) {
    return { reference: shipment.containers[0]!.equipmentReference, type: "container" };
  }
  return { reference: shipment.carrierBookingReference, type: "booking" };
}

function whenTrackable(shipment: Shipment, type: ReplayVoyage["type"]): number {
  if (type === "booking") return shipment.bookedAt.getTime();
  const moves = shipment.plan.milestones.filter((m) => m.container === 0);
  return Math.min(...moves.map((m) => reportedAt(m, shipment.timeline)));
}

function voyageOf(world: SimulatedWorld, carrier: Carrier, shipment: Shipment): ReplayVoyage | null {
  if (shipment.cancelled || shipment.containers.length === 0) return null;
  const { reference, type } = trackedReference(carrier, shipment);
  const trackableAt = whenTrackable(shipment, type);
  const departure = shipment.plan.milestones.find(
    (m) => m.code === "DEPA" && m.transport?.kind === "vessel" && m.transport.leg === 0,
  );
  if (!departure) return null;
  const departureAt = actualTime(departure, shipment.timeline);
  if (departureAt <= trackableAt) return null;
  // The reference must lead to this very shipment when it is tracked (a box's earlier journey ends first).
  const seen = world.shipmentFor(
    carrier.scac,
    reference,
    type === "container" ? "equipment" : "booking",
    new Date(trackableAt + HOUR),
  );
  if (seen?.key !== shipment.key) return null;
  const { legs } = shipment.plan;
  // The world's truth: when the last leg's ship really berths at the port of discharge.
  const ata = actualArrivalAtPod(shipment);
  return {
    scac: carrier.scac,
    reference,
    type,
    key: shipment.key,
    trackableAt,
    departureAt,
    ata,
    pol: legs[0]!.loadPort.unLocode,
    pod: legs[legs.length - 1]!.dischargePort.unLocode,
    vesselLegs: legs.length,
    episodes: episodesMet(legs, departureAt, ata),
  };
}

/**
 * The voyages of one carrier whose reference first answers inside the window, in the seed's order: the
 * carrier's issued bookings of the cycles the window touches, at positions the seed draws, so two seeds
 * draw different shipments.
 */
function carrierVoyages(
  world: SimulatedWorld,
  carrier: Carrier,
  input: { seed: string; from: number; to: number; maxJourneyDays: number },
): ReplayVoyage[] {
  const prefix = containerPrefixesOf(carrier)[0]!;
  // A shipment is booked up to a few weeks before its box leaves the depot.
  const cycles = new Set([cycleAt(carrier.scac, input.from - 30 * DAY), cycleAt(carrier.scac, input.to)]);
  const found: { order: number; voyage: ReplayVoyage }[] = [];
  const seen = new Set<string>();
  for (const cycle of cycles) {
    for (let i = 0; i < POSITIONS_PER_CYCLE; i++) {
      const start = Math.floor(
        unitHash("eta-replay-position", input.seed, carrier.scac, cycle, i) * 1_000_000,
      );
      if (!groupMembers(carrier.scac, prefix, cycle, start)) continue;
      const booking = issueDocumentNumber(carrier, "booking", { cycle, prefix, start });
      if (!booking || seen.has(booking)) continue;
      seen.add(booking);
      // Asked at the end of the window's journeys: booked by then, so the world answers it.
      const voyage = candidate(() => {
        const shipment = world.shipmentFor(carrier.scac, booking, "booking", new Date(input.to + 120 * DAY));
        return shipment ? voyageOf(world, carrier, shipment) : null;
      });
      if (!voyage || voyage.trackableAt < input.from || voyage.trackableAt >= input.to) continue;
      if (voyage.ata - voyage.trackableAt > input.maxJourneyDays * DAY) continue;
      found.push({ order: unitHash("eta-replay-order", input.seed, voyage.key), voyage });
    }
  }
  return found.sort((a, b) => a.order - b.order).map((f) => f.voyage);
}

/**
 * `count` voyages tracked from `from` for `days`, spread evenly over the carriers the world answers
 * (round robin in the seed's order; a carrier with too few voyages in the window leaves its share to
 * the others), at least EPISODE_SHARE of them delayed by an episode.
 */
export function selectVoyages(input: {
  seed: string;
  count: number;
  from: Date;
  days: number;
  /** Leave out journeys (reference answering to arrival) longer than this; the smoke run keeps them short. */
  maxJourneyDays?: number;
}): VoyageSelection {
  const world = new SimulatedWorld(64);
  const carriers = replayCarriers();
  const from = input.from.getTime();
  const to = from + input.days * DAY;
  const pools = carriers.map((carrier) =>
    carrierVoyages(world, carrier, {
      seed: input.seed,
      from,
      to,
      maxJourneyDays: input.maxJourneyDays ?? 120,
    }),
  );
  const voyages: ReplayVoyage[] = [];
  const roundRobin = (lists: ReplayVoyage[][], upTo: number) => {
    for (let round = 0; voyages.length < upTo && lists.some((l) => l.length > round); round++) {
      for (const list of lists) {
        const voyage = list[round];
        if (voyage && voyages.length < upTo && !voyages.includes(voyage)) voyages.push(voyage);
      }
    }
  };
  roundRobin(
    pools.map((pool) => pool.filter((v) => v.episodes.length > 0)),
    Math.ceil(input.count * EPISODE_SHARE),
  );
  roundRobin(
    pools.map((pool) => pool.filter((v) => !voyages.includes(v))),
    input.count,
  );
  const perCarrier: Record<string, number> = {};
  for (const v of voyages) perCarrier[v.scac] = (perCarrier[v.scac] ?? 0) + 1;
  const end = Math.max(...voyages.map((v) => v.ata));
  return {
    seed: input.seed,
    window: { from: input.from.toISOString(), days: input.days },
    voyages,
    carriers: perCarrier,
    episodes: episodesBetween(from, end).map((e) => e.id),
  };
}
