/**
 * Timeline: sailing and land transit times, delays, voyage numbers, and the milestones of a plan in
 * the order they are drawn.
 */
import type { Carrier } from "../../../reference-data/carriers";
import { type CarrierProfile, profileOf } from "../carrier-profiles";
import { greatCircleKm, voyageDirection } from "../geo";
import { SeededRandom } from "../hash";
import { type InlandMode, type InlandPlace, inlandPlacesFor } from "../inland-places";
import { IMPORT_DWELL_DAYS, type Port } from "../ports";
import { type BoxSpec, planContainers } from "./boxes";
import {
  DAY,
  HOUR,
  type LandLeg,
  type LegSailing,
  MINUTE,
  type Milestone,
  type Shift,
  type ShipmentPlan,
  type Site,
  type TransportRef,
  type VesselLeg,
} from "./model";
import { chooseRoute, type RouteLeg } from "./route";
import { customerAt, depotAt, inlandTerminalAt, legSailings, portTerminal } from "./ships";

const DELAY_REMARKS: readonly (readonly [remark: string, code?: string])[] = [
  ["Adverse weather en route", "WEA"],
  ["Port congestion at previous call"],
  ["Berth congestion at destination"],
  ["Delayed departure from previous port"],
];

function landTransitTime(
  rng: SeededRandom,
  mode: InlandMode,
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
): number {
  const km = greatCircleKm(from, to) * 1.25;
  const kmPerHour = mode === "TRUCK" ? 55 : mode === "RAIL" ? 32 : 10;
  const handling = mode === "TRUCK" ? rng.between(1, 3) : rng.between(4, 12);
  return (km / kmPerHour + handling) * HOUR;
}

function voyageNumber(style: CarrierProfile["voyageStyle"], departure: number, direction: string): string {
  const date = new Date(departure);
  const year = date.getUTCFullYear();
  const startOfYear = Date.UTC(year, 0, 1);
  const week = Math.min(52, Math.floor((departure - startOfYear) / (7 * DAY)) + 1);
  const weekText = String(week).padStart(2, "0");
  return style === "maersk"
    ? `${year % 10}${weekText}${direction}`
    : `${String(year % 100).padStart(2, "0")}${weekText}${direction}`;
}

/**
 * Voyage number of a leg's sailing as the carrier writes it: the year and week the sailing leaves its
 * loop's first call (the same for every shipment on the voyage), then the direction.
 */
export function voyageOf(plan: ShipmentPlan, leg: VesselLeg, sailing: LegSailing, inbound: boolean): string {
  return voyageNumber(
    plan.profile.voyageStyle,
    sailing.loopDeparture,
    inbound ? leg.inboundDirection : leg.outboundDirection,
  );
}

export interface PlanRequest {
  carrier: Carrier;
  seed: string;
  boxes: BoxSpec;
  /** The first vessel leg sails on the first bookable sailing leaving at or after this time (ms). */
  earliestDeparture: number;
}

/** Time a transshipped box needs between the feeder's arrival and the connecting ship's departure. */
export const MINIMUM_CONNECTION = 2 * DAY;

const NO_SHIFT: Shift = { kind: "none" };

type MilestoneInput = Omit<Milestone, "order" | "reportingLag" | "shift" | "jitter"> &
  Partial<Pick<Milestone, "shift" | "jitter">>;

/**
 * Builds the milestones of one shipment. The draws from the seeded stream happen in the order of the
 * methods below, which is part of the world's definition: reordering them changes every shipment.
 */
class ShipmentPlanner {
  readonly milestones: Milestone[] = [];
  private order = 0;
  private readonly reportingLag: number;

  constructor(private readonly rng: SeededRandom) {
    // One reporting delay per shipment: carriers batch their feeds, and a constant delay keeps the order
    // in which events are published the same as the order in which they happen.
    this.reportingLag = Math.round(rng.between(5, 45)) * MINUTE;
  }

  add(input: MilestoneInput): Milestone {
    const milestone: Milestone = {
      shift: NO_SHIFT,
      jitter: 0,
      ...input,
      reportingLag: input.eventType === "SHIPMENT" ? 0 : this.reportingLag,
      order: this.order++,
    };
    this.milestones.push(milestone);
    return milestone;
  }

  /** Gate and yard moves happen within minutes of their plan. */
  yardJitter(): number {
    return this.rng.between(-15, 15) * MINUTE;
  }

  /** Trains, barges and ships leave up to an hour or so off their schedule. */
  departureJitter(maxLateMinutes = 60): number {
    return this.rng.between(-30, maxLateMinutes) * MINUTE;
  }

  box(
    container: number,
    key: string,
    code: string,
    rel: number,
    site: Site,
    transport: TransportRef,
    options: { empty?: boolean; shift?: Shift; jitter?: number } = {},
  ): void {
    this.add({
      key: `C${container}-${key}`,
      eventType: "EQUIPMENT",
      code,
      rel,
      site,
      container,
      empty: options.empty ?? false,
      transport,
      shift: options.shift ?? NO_SHIFT,
      jitter: options.jitter ?? this.yardJitter(),
    });
  }
}

/** The longest a box would wait at a hub of a route for its connecting sailing. */
const MAX_CONNECTION = 14 * DAY;

function longestConnection(route: readonly RouteLeg[], earliestDeparture: number): number {
  let notBefore = earliestDeparture;
  let longest = 0;
  route.forEach((routeLeg, index) => {
    const k0 = routeLeg.path[0]?.callIndex ?? 0;
    const booked = legSailings(routeLeg.service, k0, k0 + routeLeg.path.length - 1, notBefore)[0];
    if (!booked) {
      longest = Number.POSITIVE_INFINITY;
      return;
    }
    if (index > 0) longest = Math.max(longest, booked.departure - notBefore + MINIMUM_CONNECTION);
    notBefore = booked.arrival + MINIMUM_CONNECTION;
  });
  return longest;
}

function planLegs(
  rng: SeededRandom,
  route: readonly RouteLeg[],
  carrier: Carrier,
  profile: CarrierProfile,
  earliestDeparture: number,
): VesselLeg[] {
  const legs: VesselLeg[] = [];
  let notBefore = earliestDeparture;
  route.forEach((routeLeg, index) => {
    const first = routeLeg.path[0];
    const last = routeLeg.path[routeLeg.path.length - 1];
    if (!first || !last) throw new Error("empty route leg");
    const secondStop = routeLeg.path[1] ?? last;
    const beforeLast = routeLeg.path[routeLeg.path.length - 2] ?? first;
    // The loop's sailing from the port of loading, with its ship and times (world/fleet.ts).
    const k0 = first.callIndex;
    const sailings = legSailings(routeLeg.service, k0, k0 + routeLeg.path.length - 1, notBefore);
    const booked = sailings[0];
    if (!booked) throw new Error(`no sailing of ${routeLeg.service.name} to book`);
    const remark = rng.pick(DELAY_REMARKS);
    const serviceCode = routeLeg.service.codes[carrier.scac] ?? routeLeg.service.codes[profile.fleet ?? ""];
    legs.push({
      service: routeLeg.service,
      ...(serviceCode ? { serviceCode } : {}),
      sailings,
      loadPort: first.port,
      dischargePort: last.port,
      loadSite: portTerminal(rng, first.port),
      dischargeSite: portTerminal(rng, last.port),
      loadSequence: first.callIndex + 1,
      dischargeSequence: last.callIndex + 1,
      outboundDirection: voyageDirection(first.port, secondStop.port),
      inboundDirection: voyageDirection(beforeLast.port, last.port),
      // Absolute for now; planShipment makes them relative to the booking.
      departureRel: booked.departure,
      arrivalRel: booked.arrival,
      firstRevisionShare: rng.between(0.3, 0.7),
      changeRemark: remark[0],
      ...(remark[1] ? { delayReasonCode: remark[1] } : {}),
    });
    // The connecting loop's next sailing from the hub that leaves time to transship.
    if (index < route.length - 1) notBefore = booked.arrival + MINIMUM_CONNECTION;
  });
  // Times relative to the first departure until the booking moves time 0.
  const origin = legs[0]?.departureRel ?? 0;
  for (const leg of legs) {
    leg.departureRel -= origin;
    leg.arrivalRel -= origin;
  }
  return legs;
}

function inlandEnd(
  rng: SeededRandom,
  port: Port,
  share: number,
): { place: InlandPlace; mode: InlandMode } | undefined {
  const choices = inlandPlacesFor(port.unLocode);
  const choice = choices.length > 0 && rng.chance(share) ? rng.pick(choices) : undefined;
  return choice ? { place: choice.place, mode: rng.pick(choice.modes) } : undefined;
}

/** Empty pick-up, pre-carriage and gate-in, in hours before the first departure (negative times). */
function planExport(
  planner: ShipmentPlanner,
  rng: SeededRandom,
  boxes: number,
  firstLeg: VesselLeg,
  origin: { place: InlandPlace; mode: InlandMode } | undefined,
): LandLeg | undefined {
  const loadCall: TransportRef = { kind: "vessel", leg: 0, end: "load" };
  let preCarriage: LandLeg | undefined;
  if (origin && origin.mode !== "TRUCK") {
    const from = inlandTerminalAt(origin.place, origin.mode);
    const to = { ...firstLeg.loadSite };
    const arrivalRel = -rng.between(48, 96) * HOUR;
    const departureRel = arrivalRel - landTransitTime(rng, origin.mode, origin.place, firstLeg.loadPort);
    preCarriage = { mode: origin.mode, from, to, departureRel, arrivalRel };
    const fromCall: TransportRef = { kind: "land", leg: "pre", end: "from" };
    const toCall: TransportRef = { kind: "land", leg: "pre", end: "to" };
    planner.add({
      key: "PRE-DEPA",
      eventType: "TRANSPORT",
      code: "DEPA",
      rel: departureRel,
      jitter: planner.departureJitter(),
      site: from,
      transport: fromCall,
    });
    planner.add({
      key: "PRE-ARRI",
      eventType: "TRANSPORT",
      code: "ARRI",
      rel: arrivalRel,
      jitter: planner.departureJitter(),
      site: to,
      transport: toCall,
    });
  }
  for (let c = 0; c < boxes; c++) {
    const load = -rng.between(4, 18) * HOUR;
    if (origin?.mode === "TRUCK") {
      // Carrier haulage: the box is trucked empty to the shipper, stuffed, and picked up laden.
      const gateIn = -rng.between(36, 96) * HOUR;
      const pickUp = gateIn - landTransitTime(rng, "TRUCK", origin.place, firstLeg.loadPort);
      const emptyOut = pickUp - rng.between(20, 72) * HOUR;
      const depot = depotAt(origin.place);
      const shipper = customerAt(origin.place, "Shipper");
      planner.box(c, "GTOT-EMPTY", "GTOT", emptyOut, depot, { kind: "truck", site: depot }, { empty: true });
      planner.box(c, "PICK", "PICK", pickUp, shipper, { kind: "truck", site: shipper });
      planner.box(c, "GTIN-POL", "GTIN", gateIn, firstLeg.loadSite, loadCall);
    } else if (origin && preCarriage) {
      // Rail or barge to an on-dock terminal: the box is discharged there, never gated in.
      const landLoad = preCarriage.departureRel - rng.between(2, 8) * HOUR;
      const gateIn = landLoad - rng.between(12, 48) * HOUR;
      const emptyOut = gateIn - rng.between(20, 72) * HOUR;
      const depot = depotAt(origin.place);
      const fromCall: TransportRef = { kind: "land", leg: "pre", end: "from" };
      planner.box(c, "GTOT-EMPTY", "GTOT", emptyOut, depot, { kind: "truck", site: depot }, { empty: true });
      planner.box(c, "GTIN-INLAND", "GTIN", gateIn, preCarriage.from, fromCall);
      planner.box(c, "LOAD-INLAND", "LOAD", landLoad, preCarriage.from, fromCall);
      const landDischarge = preCarriage.arrivalRel + rng.between(2, 6) * HOUR;
      planner.box(c, "DISC-POL", "DISC", landDischarge, preCarriage.to, {
        kind: "land",
        leg: "pre",
        end: "to",
      });
    } else {
      const gateIn = -rng.between(36, 96) * HOUR;
      const emptyOut = gateIn - rng.between(20, 96) * HOUR;
      const depot = depotAt(firstLeg.loadPort);
      planner.box(c, "GTOT-EMPTY", "GTOT", emptyOut, depot, { kind: "truck", site: depot }, { empty: true });
      planner.box(c, "GTIN-POL", "GTIN", gateIn, firstLeg.loadSite, loadCall);
    }
    // Loaded shortly before the ship leaves, so a ship that leaves late loads late too.
    planner.box(c, "LOAD-L0", "LOAD", load, firstLeg.loadSite, loadCall, {
      jitter: 0,
      shift: { kind: "departure", leg: 0 },
    });
  }
  return preCarriage;
}

/** Departures, transshipments and the arrival at the port of discharge. */
function planSea(
  planner: ShipmentPlanner,
  rng: SeededRandom,
  boxes: number,
  legs: readonly VesselLeg[],
): void {
  legs.forEach((leg, index) => {
    const departureShift: Shift = { kind: "departure", leg: index };
    const arrivalShift: Shift = { kind: "arrival", leg: index };
    const loadCall: TransportRef = { kind: "vessel", leg: index, end: "load" };
    const dischargeCall: TransportRef = { kind: "vessel", leg: index, end: "discharge" };
    planner.add({
      key: `L${index}-DEPA`,
      eventType: "TRANSPORT",
      code: "DEPA",
      rel: leg.departureRel,
      shift: departureShift,
      // The ship's own departure (world/fleet.ts): what its AIS shows.
      jitter: 0,
      site: leg.loadSite,
      transport: loadCall,
    });
    if (index > 0) {
      for (let c = 0; c < boxes; c++) {
        const load = leg.departureRel - rng.between(4, 12) * HOUR;
        planner.box(c, `LOAD-L${index}`, "LOAD", load, leg.loadSite, loadCall, {
          shift: departureShift,
          jitter: 0,
        });
      }
    }
    planner.add({
      key: `L${index}-ARRI`,
      eventType: "TRANSPORT",
      code: "ARRI",
      rel: leg.arrivalRel,
      shift: arrivalShift,
      site: leg.dischargeSite,
      transport: dischargeCall,
    });
    // At a hub boxes come off within the ship's call; at the destination the discharge takes longer.
    const isLast = index === legs.length - 1;
    for (let c = 0; c < boxes; c++) {
      const discharge = leg.arrivalRel + (isLast ? rng.between(8, 30) : rng.between(6, 14)) * HOUR;
      planner.box(c, `DISC-L${index}`, "DISC", discharge, leg.dischargeSite, dischargeCall, {
        shift: arrivalShift,
        jitter: 0,
      });
    }
  });
}

/** Dwell, gate-out, on-carriage and the return of the empty box. */
function planImport(
  planner: ShipmentPlanner,
  rng: SeededRandom,
  boxes: number,
  legs: readonly VesselLeg[],
  destination: { place: InlandPlace; mode: InlandMode } | undefined,
): LandLeg | undefined {
  const lastIndex = legs.length - 1;
  const lastLeg = legs[lastIndex];
  if (!lastLeg) return undefined;
  const pod = lastLeg.dischargePort;
  const shift: Shift = { kind: "arrival", leg: lastIndex };
  const dischargeCall: TransportRef = { kind: "vessel", leg: lastIndex, end: "discharge" };
  let onCarriage: LandLeg | undefined;
  if (destination && destination.mode !== "TRUCK") {
    const from = { ...lastLeg.dischargeSite };
    const to = inlandTerminalAt(destination.place, destination.mode);
    const departureRel = lastLeg.arrivalRel + rng.between(50, 120) * HOUR;
    const arrivalRel = departureRel + landTransitTime(rng, destination.mode, pod, destination.place);
    onCarriage = { mode: destination.mode, from, to, departureRel, arrivalRel };
    planner.add({
      key: "ON-DEPA",
      eventType: "TRANSPORT",
      code: "DEPA",
      rel: departureRel,
      shift,
      jitter: planner.departureJitter(),
      site: from,
      transport: { kind: "land", leg: "on", end: "from" },
    });
    planner.add({
      key: "ON-ARRI",
      eventType: "TRANSPORT",
      code: "ARRI",
      rel: arrivalRel,
      shift,
      jitter: planner.departureJitter(),
      site: to,
      transport: { kind: "land", leg: "on", end: "to" },
    });
  }
  const dischargeOf = (c: number) =>
    planner.milestones.find((m) => m.key === `C${c}-DISC-L${lastIndex}`)?.rel ?? lastLeg.arrivalRel;
  for (let c = 0; c < boxes; c++) {
    if (destination && onCarriage) {
      const fromCall: TransportRef = { kind: "land", leg: "on", end: "from" };
      const toCall: TransportRef = { kind: "land", leg: "on", end: "to" };
      const landLoad = onCarriage.departureRel - rng.between(2, 8) * HOUR;
      const landDischarge = onCarriage.arrivalRel + rng.between(2, 6) * HOUR;
      const gateOut = landDischarge + rng.between(24, 72) * HOUR;
      const emptyIn = gateOut + rng.between(2, 7) * DAY;
      const depot = depotAt(destination.place);
      planner.box(c, "LOAD-ON", "LOAD", landLoad, onCarriage.from, fromCall, { shift });
      planner.box(c, "DISC-ON", "DISC", landDischarge, onCarriage.to, toCall, { shift });
      planner.box(c, "GTOT-LADEN", "GTOT", gateOut, onCarriage.to, toCall, { shift });
      planner.box(
        c,
        "GTIN-EMPTY",
        "GTIN",
        emptyIn,
        depot,
        { kind: "truck", site: depot },
        { shift, empty: true },
      );
      continue;
    }
    const [minDwell, maxDwell] = IMPORT_DWELL_DAYS[pod.region];
    const gateOut = dischargeOf(c) + rng.between(minDwell, maxDwell) * DAY;
    planner.box(c, "GTOT-LADEN", "GTOT", gateOut, lastLeg.dischargeSite, dischargeCall, { shift });
    const depot = depotAt(pod);
    if (destination) {
      // Carrier haulage to the consignee; the emptied box is trucked back to a depot at the port.
      const drive = landTransitTime(rng, "TRUCK", pod, destination.place);
      const consignee = customerAt(destination.place, "Consignee");
      const dropOff = gateOut + drive;
      const emptyIn = dropOff + rng.between(1, 4) * DAY + drive;
      planner.box(c, "DROP", "DROP", dropOff, consignee, { kind: "truck", site: consignee }, { shift });
      planner.box(
        c,
        "GTIN-EMPTY",
        "GTIN",
        emptyIn,
        depot,
        { kind: "truck", site: depot },
        { shift, empty: true },
      );
    } else {
      const emptyIn = gateOut + rng.between(2, 8) * DAY;
      planner.box(
        c,
        "GTIN-EMPTY",
        "GTIN",
        emptyIn,
        depot,
        { kind: "truck", site: depot },
        { shift, empty: true },
      );
    }
  }
  return onCarriage;
}

function moveTimes(
  legs: VesselLeg[],
  land: readonly (LandLeg | undefined)[],
  milestones: readonly Milestone[],
  by: number,
): void {
  for (const milestone of milestones) milestone.rel += by;
  for (const leg of legs) {
    leg.departureRel += by;
    leg.arrivalRel += by;
  }
  for (const leg of land) {
    if (!leg) continue;
    leg.departureRel += by;
    leg.arrivalRel += by;
  }
}

export function planShipment(request: PlanRequest): ShipmentPlan {
  const { carrier, seed } = request;
  const profile = profileOf(carrier);
  const rng = new SeededRandom(seed);
  // Shippers book transshipments that connect within about two weeks at the hub: a route whose next
  // bookable sailing leaves later than that is drawn again (the last draw is kept).
  let route = chooseRoute(rng, carrier, profile);
  for (
    let attempt = 0;
    attempt < 12 && longestConnection(route, request.earliestDeparture) > MAX_CONNECTION;
    attempt++
  ) {
    route = chooseRoute(rng, carrier, profile);
  }
  const containers = planContainers(rng, carrier, request.boxes);
  const transportDocumentTypeCode = rng.chance(0.65) ? "BOL" : "SWB";
  const planner = new ShipmentPlanner(rng);
  const legs = planLegs(rng, route, carrier, profile, request.earliestDeparture);
  const firstDeparture = legs[0]?.sailings[0]?.departure ?? request.earliestDeparture;
  const firstLeg = legs[0];
  const lastLeg = legs[legs.length - 1];
  if (!firstLeg || !lastLeg) throw new Error("route without legs");
  const origin = inlandEnd(rng, firstLeg.loadPort, 0.35);
  const destination = inlandEnd(rng, lastLeg.dischargePort, 0.4);

  const booking = planner.add({
    key: "BKG-CONF",
    eventType: "SHIPMENT",
    code: "CONF",
    rel: 0,
    documentTypeCode: "BKG",
  });
  const preCarriage = planExport(planner, rng, containers.length, firstLeg, origin);
  planSea(planner, rng, containers.length, legs);
  const onCarriage = planImport(planner, rng, containers.length, legs, destination);
  planner.add({
    key: "TRD-ISSU",
    eventType: "SHIPMENT",
    code: "ISSU",
    rel: firstLeg.departureRel + rng.between(20, 72) * HOUR,
    documentTypeCode: "TRD",
  });

  // Time 0 becomes the booking confirmation: one to three weeks before the first departure, and at
  // least a day before the first box leaves its depot.
  const moves = planner.milestones.filter((m) => m.eventType !== "SHIPMENT");
  const earliest = Math.min(...moves.map((m) => m.rel - Math.abs(m.jitter)));
  const lead = Math.max(rng.between(7, 21) * DAY, -earliest + rng.between(24, 72) * HOUR);
  moveTimes(legs, [preCarriage, onCarriage], planner.milestones, lead);
  booking.rel = 0;

  // About one booking in seventy is cancelled before any box leaves the depot.
  let cancelledRel: number | undefined;
  if (rng.chance(0.015)) {
    const firstBoxMove = Math.min(...moves.map((m) => m.rel - Math.abs(m.jitter)));
    cancelledRel = rng.between(12 * HOUR, Math.max(13 * HOUR, Math.min(5 * DAY, firstBoxMove - 12 * HOUR)));
    planner.add({
      key: "BKG-REJE",
      eventType: "SHIPMENT",
      code: "REJE",
      rel: cancelledRel,
      documentTypeCode: "BKG",
      reason: "Booking cancelled at the shipper's request",
    });
  }

  return {
    seed,
    bookedAt: firstDeparture - lead,
    carrier,
    profile,
    containers,
    transportDocumentTypeCode,
    ...(origin ? { origin } : {}),
    ...(destination ? { destination } : {}),
    legs,
    ...(preCarriage ? { preCarriage } : {}),
    ...(onCarriage ? { onCarriage } : {}),
    ...(cancelledRel === undefined ? {} : { cancelledRel }),
    milestones: planner.milestones,
  };
}
