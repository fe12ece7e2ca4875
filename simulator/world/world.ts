/**
 * The simulated world's entry points: which shipment a reference leads to at a moment in time, and the
 * DCSA events of a shipment at a moment in time. Both are pure functions of their arguments; the small
 * cache only avoids planning the same shipment twice.
 *
 * Anchoring in time: each carrier's time is cut into 18-week cycles (references.ts) and a shipment is
 * placed inside its cycle at an offset drawn from its seed, so that at any clock time a carrier's
 * shipments are spread over all stages (booked, in transit, delivered). A shipment never moves once
 * placed: an issued bill of lading or booking keeps the same timeline and boxes until its number is
 * reused 4 cycles later, and a box moves from one shipment to the next as cycles pass, as real boxes
 * do. Document numbers the world did not issue are unknown, except in the sandbox's world, where a
 * made-up one leads to a synthetic shipment until a later cycle's one is booked under it.
 */
import type { Carrier } from "../../reference-data/carriers";
import type { DcsaEvent } from "../dcsa-types";
import { containerPrefixesOf, profileOf } from "./carrier-profiles";
import { renderEvents } from "./dcsa-events";
import { unitHash } from "./hash";
import { containerNumber } from "./iso6346";
import { type PlannedPortCall, PortCallRegistry } from "./port-calls";
import { findPort, type Port } from "./ports";
import {
  CYCLE_MS,
  cycleAt,
  cycleStartMs,
  findSimulatedCarrier,
  groupMembers,
  groupStartOf,
  issueDocumentNumber,
  normalizeReference,
  type ReferenceKind,
  type ResolvedReference,
  resolveReference,
  syntheticDocumentNumber,
} from "./references";
import { type PlannedContainer, planShipment, type ShipmentPlan } from "./shipment-plan";
import { buildTimeline, journeyEnd, reportedAt, sailingOf, type Timeline } from "./shipment-timeline";

export type { ReferenceKind } from "./references";

/** Share of shipments a carrier's API does not return (data gaps, other offices' bookings). */
export const UNKNOWN_SHARE = 0.06;
const DAY = 86_400_000;
/** A box (or a sandbox's made-up number) not in use in the current cycle is looked for this many cycles back. */
const CYCLES_BACK = 4;

export interface Shipment {
  scac: string;
  carrier: Carrier;
  /** The seed the shipment is planned from: its identity. */
  key: string;
  cycle: number;
  bookedAt: Date;
  /** When the last box of the shipment is back at a depot, with every delay. */
  completesAt: Date;
  cancelled: boolean;
  carrierBookingReference: string;
  transportDocumentReference: string;
  transportDocumentTypeCode: "BOL" | "SWB";
  containers: readonly PlannedContainer[];
  portOfLoading: Port;
  portOfDischarge: Port;
  transshipmentPorts: readonly Port[];
  plan: ShipmentPlan;
  timeline: Timeline;
}

interface PlacedPlan {
  plan: ShipmentPlan;
  bookedAt: number;
  completesAt: number;
}

export interface EventQuery {
  /** Keep only this box's equipment events. */
  equipmentReference?: string;
  /** SHIPMENT events (booking confirmation, B/L issue) belong to document and booking queries. */
  includeShipmentEvents?: boolean;
}

/**
 * The sandbox's world (spec v1 section 4.3): every reference leads to a shipment, of whichever
 * carrier is asked, except the ones listed as unknown (they give the carrier's "no record").
 */
export interface EveryReferenceOptions {
  unknown: readonly string[];
}

export class SimulatedWorld {
  private readonly cache = new Map<string, PlacedPlan>();
  /** The proforma calls of the voyages of every shipment placed so far (port-calls.ts). */
  private readonly portCalls = new PortCallRegistry();
  private readonly unknown: ReadonlySet<string>;

  constructor(
    private readonly cacheSize = 4096,
    private readonly everyReference?: EveryReferenceOptions,
  ) {
    this.unknown = new Set(everyReference?.unknown.map(normalizeReference) ?? []);
  }

  /**
   * The shipment a reference leads to at `now`, or undefined when the carrier does not know it (not its
   * number, not booked yet, or one of the ~6% of references its API does not return).
   */
  shipmentFor(scac: string, reference: string, kind: ReferenceKind, now: Date): Shipment | undefined {
    const carrier = findSimulatedCarrier(scac);
    if (!carrier) return undefined;
    const normalized = normalizeReference(reference);
    const nowMs = now.getTime();
    if (this.unknown.has(normalized)) return undefined;
    const madeUp = this.everyReference !== undefined;
    const resolved =
      resolveReference(carrier, kind, normalized, nowMs, { madeUp }) ??
      this.anyReference(carrier, kind, normalized);
    if (!resolved) return undefined;
    if (resolved.kind === "box" || resolved.kind === "leased-box") return this.boxShipment(resolved, nowMs);
    if (resolved.kind === "synthetic") return this.syntheticShipment(resolved, nowMs);
    // An issued document: the shipment it was issued for, once booked.
    const shipment =
      resolved.kind === "group"
        ? this.groupShipment(carrier, resolved.prefix, resolved.start, resolved.cycle, resolved.members)
        : this.hiredShipment(carrier, resolved.reference, resolved.hireSlot, resolved.cycle);
    if (shipment.bookedAt.getTime() > nowMs) return undefined;
    return this.isKnown(shipment) ? shipment : undefined;
  }

  /**
   * In the sandbox's world a box of any owner is leased to the carrier asked (its journeys keep the
   * sandbox's earlier shape: a made-up booking with siblings), any document is made up.
   */
  private anyReference(
    carrier: Carrier,
    kind: ReferenceKind,
    reference: string,
  ): ResolvedReference | undefined {
    if (!this.everyReference) return undefined;
    if (kind === "equipment") {
      return /^[A-Z]{4}\d{7}$/.test(reference)
        ? { kind: "leased-box", carrier, reference, hireSlot: -1 }
        : undefined;
    }
    return { kind: "synthetic", carrier, referenceKind: kind, reference };
  }

  private isKnown(shipment: Shipment): boolean {
    return this.everyReference !== undefined || isKnown(shipment);
  }

  /**
   * A carrier's proforma calls at a port on a local date there: the voyages of the shipments the world
   * has planned so far (port-calls.ts). Undefined for a port the world does not have.
   */
  portCallsOn(scac: string, locode: string, date: string): PlannedPortCall[] | undefined {
    const port = findPort(locode);
    if (!port) return undefined;
    return this.portCalls.callsOn(scac, port, date);
  }

  /** DCSA events of a shipment as published at `now`. */
  eventsFor(shipment: Shipment, now: Date, query: EventQuery = {}): DcsaEvent[] {
    return renderEvents(
      shipment.plan,
      shipment.timeline,
      {
        carrierBookingReference: shipment.carrierBookingReference,
        transportDocumentReference: shipment.transportDocumentReference,
      },
      now.getTime(),
      {
        ...(query.equipmentReference
          ? { equipmentReference: normalizeReference(query.equipmentReference) }
          : {}),
        includeShipmentEvents: query.includeShipmentEvents ?? true,
      },
    );
  }

  /** The sandbox's made-up document number: the latest shipment booked under it by now. */
  private syntheticShipment(
    resolved: Extract<ResolvedReference, { kind: "synthetic" }>,
    nowMs: number,
  ): Shipment | undefined {
    const { carrier, referenceKind, reference } = resolved;
    const current = cycleAt(carrier.scac, nowMs);
    for (let cycle = current; cycle > current - CYCLES_BACK; cycle--) {
      const seed = `${carrier.scac}|${referenceKind}|${reference}|${cycle}`;
      // Maersk quotes one number for both, so a quoted one is both.
      const sameNumber = profileOf(carrier).bookingIsBillOfLading;
      const booking =
        referenceKind === "booking" || sameNumber
          ? reference
          : syntheticDocumentNumber(carrier, "booking", seed);
      const document =
        referenceKind === "document" || sameNumber
          ? reference
          : syntheticDocumentNumber(carrier, "document", seed);
      const shipment = this.place(carrier, seed, cycle, { fixed: [], generate: true }, booking, document);
      if (shipment.bookedAt.getTime() <= nowMs) return this.isKnown(shipment) ? shipment : undefined;
    }
    return undefined;
  }

  private groupShipment(
    carrier: Carrier,
    prefix: string,
    start: number,
    cycle: number,
    members: readonly number[],
  ): Shipment {
    const key = { cycle, prefix, start };
    // Every group has its issued numbers (the carrier has owner prefixes); the fallback is never used.
    const seed = `${carrier.scac}|group|${prefix}|${start}|${cycle}`;
    const booking =
      issueDocumentNumber(carrier, "booking", key) ?? syntheticDocumentNumber(carrier, "booking", seed);
    const document =
      issueDocumentNumber(carrier, "document", key) ?? syntheticDocumentNumber(carrier, "document", seed);
    const boxes = members.map((serial) => containerNumber(prefix, serial));
    return this.place(carrier, seed, cycle, { fixed: boxes, generate: false }, booking, document);
  }

  /** The shipment a box is on: the latest one that has taken it out of the depot. */
  private boxShipment(
    resolved: Extract<ResolvedReference, { kind: "box" | "leased-box" }>,
    nowMs: number,
  ): Shipment | undefined {
    const { carrier } = resolved;
    const current = cycleAt(carrier.scac, nowMs);
    for (let cycle = current; cycle > current - CYCLES_BACK; cycle--) {
      let shipment: Shipment | undefined;
      if (resolved.kind === "box") {
        const start = groupStartOf(carrier.scac, resolved.prefix, cycle, resolved.serial);
        const members = groupMembers(carrier.scac, resolved.prefix, cycle, start);
        if (members?.includes(resolved.serial)) {
          shipment = this.groupShipment(carrier, resolved.prefix, start, cycle, members);
        }
      } else if (!this.everyReference) {
        shipment = this.hiredShipment(carrier, resolved.reference, resolved.hireSlot, cycle);
      } else {
        const seed = `${carrier.scac}|leased|${resolved.reference}|${cycle}`;
        shipment = this.place(
          carrier,
          seed,
          cycle,
          { fixed: [resolved.reference], generate: true },
          syntheticDocumentNumber(carrier, "booking", seed),
          syntheticDocumentNumber(carrier, "document", seed),
        );
      }
      if (shipment && boxHasLeftDepot(shipment, resolved.reference, nowMs)) {
        return this.isKnown(shipment) ? shipment : undefined;
      }
    }
    return undefined;
  }

  /** A leased box's journey in a cycle: the box alone, under the numbers issued for its hire slot. */
  private hiredShipment(carrier: Carrier, box: string, hireSlot: number, cycle: number): Shipment {
    const key = { cycle, hireSlot };
    const seed = `${carrier.scac}|leased|${box}|${cycle}`;
    const booking =
      issueDocumentNumber(carrier, "booking", key) ?? syntheticDocumentNumber(carrier, "booking", seed);
    const document =
      issueDocumentNumber(carrier, "document", key) ?? syntheticDocumentNumber(carrier, "document", seed);
    return this.place(carrier, seed, cycle, { fixed: [box], generate: false }, booking, document);
  }

  private place(
    carrier: Carrier,
    seed: string,
    cycle: number,
    boxes: { fixed: readonly string[]; generate: boolean },
    carrierBookingReference: string,
    transportDocumentReference: string,
  ): Shipment {
    const placed = this.placedPlan(carrier, seed, cycle, boxes);
    const { plan } = placed;
    const firstLeg = plan.legs[0];
    const lastLeg = plan.legs[plan.legs.length - 1];
    if (!firstLeg || !lastLeg) throw new Error(`shipment ${seed} has no vessel leg`);
    const timeline = buildTimeline(plan);
    this.portCalls.record(plan, timeline);
    return {
      scac: carrier.scac,
      carrier,
      key: seed,
      cycle,
      bookedAt: new Date(placed.bookedAt),
      completesAt: new Date(placed.completesAt),
      cancelled: plan.cancelledRel !== undefined,
      carrierBookingReference,
      transportDocumentReference,
      transportDocumentTypeCode: plan.transportDocumentTypeCode,
      containers: plan.containers,
      portOfLoading: firstLeg.loadPort,
      portOfDischarge: lastLeg.dischargePort,
      transshipmentPorts: plan.legs.slice(1).map((leg) => leg.loadPort),
      plan,
      timeline,
    };
  }

  private placedPlan(
    carrier: Carrier,
    seed: string,
    cycle: number,
    boxes: { fixed: readonly string[]; generate: boolean },
  ): PlacedPlan {
    const cached = this.cache.get(seed);
    if (cached) {
      // Refresh the entry's position: the map's insertion order is the eviction order.
      this.cache.delete(seed);
      this.cache.set(seed, cached);
      return cached;
    }
    const plan = placeInCycle(carrier, seed, cycle, boxes);
    const bookedAt = plan.bookedAt;
    const span = journeyEnd(plan) - bookedAt;
    const placed = { plan, bookedAt, completesAt: bookedAt + span };
    this.cache.set(seed, placed);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return placed;
  }
}

/** The longest a booking is confirmed before its first departure (timeline.ts: 1-3 weeks, more by rail). */
const BOOKING_ROOM = 26 * DAY;

/**
 * Plans a shipment inside its cycle, leaving its boxes a couple of days to spare before their next
 * booking: the first departure is the first bookable sailing (world/fleet.ts) after a moment drawn from
 * the seed, spread over the room the journey leaves in the cycle. The journey's length depends on the
 * sailings it meets, so the room is measured on the plan from the start of the cycle first.
 */
function placeInCycle(
  carrier: Carrier,
  seed: string,
  cycle: number,
  boxes: { fixed: readonly string[]; generate: boolean },
): ShipmentPlan {
  const start = cycleStartMs(carrier.scac, cycle);
  const end = start + CYCLE_MS - 2 * DAY;
  const plan = (earliestDeparture: number) => planShipment({ carrier, seed, boxes, earliestDeparture });
  const earliest = plan(start + BOOKING_ROOM);
  const first = earliest.legs[0]?.sailings[0]?.departure ?? start + BOOKING_ROOM;
  const tail = journeyEnd(earliest) - first;
  // A week of slack: a later start may wait longer for its sailings.
  const room = end - (start + BOOKING_ROOM) - tail - 7 * DAY;
  if (room <= 0) return earliest;
  const placed = plan(start + BOOKING_ROOM + Math.floor((unitHash(seed, "offset") * room) / 60_000) * 60_000);
  return journeyEnd(placed) <= end && placed.bookedAt >= start ? placed : earliest;
}

function isKnown(shipment: Shipment): boolean {
  return unitHash(shipment.key, "unknown") >= UNKNOWN_SHARE;
}

function boxHasLeftDepot(shipment: Shipment, equipmentReference: string, nowMs: number): boolean {
  const index = shipment.containers.findIndex((box) => box.equipmentReference === equipmentReference);
  if (index < 0) return false;
  const firstMove = shipment.plan.milestones.find((milestone) => milestone.container === index);
  if (!firstMove) return false;
  const cancelledAt =
    shipment.plan.cancelledRel === undefined
      ? Infinity
      : shipment.bookedAt.getTime() + shipment.plan.cancelledRel;
  const leftAt = reportedAt(firstMove, shipment.timeline);
  return leftAt <= nowMs && leftAt < cancelledAt;
}

const defaultWorld = new SimulatedWorld();

/**
 * The shipment a reference leads to for a carrier at `now` (a pure function of its arguments), or
 * undefined when the carrier does not know the reference.
 */
export function shipmentFor(
  scac: string,
  reference: string,
  kind: ReferenceKind,
  now: Date,
): Shipment | undefined {
  return defaultWorld.shipmentFor(scac, reference, kind, now);
}

/**
 * The true arrival (ms) of a shipment's ship at its port of discharge: when the ship of its last vessel
 * leg really berths there (world/fleet.ts: every incident, anchorage wait and episode included; a rolled
 * box's later sailing), which is also the ACT ARRI the carrier publishes and where the ship's AIS shows
 * it alongside. Pure; for benchmarks that score predictions against the world's truth.
 */
export function actualArrivalAtPod(shipment: Shipment): number {
  const last = shipment.plan.legs.length - 1;
  const sailing = sailingOf(shipment.plan, last, shipment.timeline.actual);
  if (!sailing) throw new Error(`shipment ${shipment.key} has no vessel leg`);
  return sailing.actualArrival;
}

/**
 * The same for a reference as a carrier answers it at `now` (`shipmentFor`): undefined when the carrier
 * does not know the reference then.
 */
export function actualArrivalAtPodFor(
  scac: string,
  reference: string,
  kind: ReferenceKind,
  now: Date,
): number | undefined {
  const shipment = shipmentFor(scac, reference, kind, now);
  return shipment ? actualArrivalAtPod(shipment) : undefined;
}

/** The DCSA T&T 2.2 events of a shipment as its carrier publishes them at `now`. */
export function eventsFor(shipment: Shipment, now: Date, query: EventQuery = {}): DcsaEvent[] {
  return defaultWorld.eventsFor(shipment, now, query);
}

/**
 * The shipments of a carrier its API answers at `now`, found through their issued bookings: the groups
 * of its first owner prefix in the current and the previous cycle (for tests and tools that need
 * a real booking or B/L rather than a box).
 */
export function* knownShipments(scac: string, now: Date): Generator<Shipment> {
  const carrier = findSimulatedCarrier(scac);
  const prefix = carrier ? containerPrefixesOf(carrier)[0] : undefined;
  if (!carrier || !prefix) return;
  const current = cycleAt(carrier.scac, now.getTime());
  // The two cycles side by side, so both early and late stages come up among the first shipments.
  for (let start = 0; start < 1_000_000; start++) {
    for (const cycle of [current, current - 1]) {
      if (!groupMembers(carrier.scac, prefix, cycle, start)) continue;
      const booking = issueDocumentNumber(carrier, "booking", { cycle, prefix, start });
      const shipment = booking && defaultWorld.shipmentFor(carrier.scac, booking, "booking", now);
      if (shipment) yield shipment;
    }
  }
}

/** The world's dated episodes (ground truth for tests and the disruption feed): see episodes.ts. */
export {
  chokepointEpisodeAt,
  type Episode,
  type EpisodeFacts,
  type EpisodeKind,
  episodesActiveAt,
  episodesBetween,
  episodesOfCycle,
  portEpisodeAt,
} from "./episodes";
