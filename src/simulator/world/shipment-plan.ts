/**
 * Plans one shipment: route, ships, boxes and a timeline of milestones, all drawn from one seeded
 * stream. Times are planned relative to the booking confirmation; the timeline of what really happens
 * (late arrivals, missed connections) and of what the carrier knows at a given moment is derived from
 * the plan in shipment-timeline.ts.
 *
 * Figures follow published ones where there are some (fleet speeds reported by Clarksons and BIMCO,
 * Sea-Intelligence schedule reliability, port dwell studies): speeds of 13.5-16.5 kn, connections at a
 * hub of 3-10 days, import dwell by region, 45-90% of arrivals on time by alliance and about 5 days
 * average delay for late ships (lognormal).
 */
import type { Carrier } from "../../domain/carriers/carrier-directory";
import { type CarrierProfile, containerPrefixesOf, profileOf } from "./carrier-profiles";
import { greatCircleKm, type Passage, seaDistanceNm, voyageDirection } from "./geo";
import { SeededRandom, unitHash } from "./hash";
import { type InlandMode, type InlandPlace, inlandPlacesFor } from "./inland-places";
import { containerNumber, ISO_SIZE_TYPES, isIssuableSerial } from "./iso6346";
import { IMPORT_DWELL_DAYS, type Port, portByCode, type Terminal } from "./ports";
import { LINER_SERVICES, type LinerService } from "./services";
import { VESSELS, type Vessel } from "./vessels";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

export type FacilityType = "POTE" | "DEPO" | "CLOC" | "RAMP" | "INTE";

/** A place an event happens at, with the facility DCSA names it by. */
export interface Site {
  unLocode: string;
  locationName: string;
  lat: number;
  lng: number;
  timeZone: string;
  facilityType: FacilityType;
  /** SMDG terminal code, when the site is a terminal in the SMDG list. */
  smdgCode?: string;
}

export interface PlannedContainer {
  equipmentReference: string;
  isoEquipmentCode: string;
  sealNumber: string;
}

export interface VesselLeg {
  service: LinerService;
  /** Service code published for the booking carrier, if any. */
  serviceCode?: string;
  /** Ship of the planned sailing, then of the next weekly sailings should the box be rolled. */
  vessels: readonly Vessel[];
  loadPort: Port;
  dischargePort: Port;
  loadSite: Site;
  dischargeSite: Site;
  /** Call sequence numbers of the two calls within the rotation. */
  loadSequence: number;
  dischargeSequence: number;
  outboundDirection: string;
  inboundDirection: string;
  departureRel: number;
  arrivalRel: number;
  /** How much later (or earlier, if negative) the ship really arrives than planned. */
  arrivalDelay: number;
  /** Share of the delay the carrier publishes at its first estimate revision. */
  firstRevisionShare: number;
  changeRemark?: string;
  delayReasonCode?: string;
}

export interface LandLeg {
  mode: "RAIL" | "BARGE";
  from: Site;
  to: Site;
  departureRel: number;
  arrivalRel: number;
}

/** Which part of the journey a milestone belongs to, so it moves with the right delays. */
export type Shift =
  | { kind: "none" }
  /** Moves with the real departure of vessel leg `leg` (0-based), which a missed connection postpones. */
  | { kind: "departure"; leg: number }
  /** Moves with the real arrival of vessel leg `leg`. */
  | { kind: "arrival"; leg: number };

export type TransportRef =
  | { kind: "vessel"; leg: number; end: "load" | "discharge" }
  | { kind: "land"; leg: "pre" | "on"; end: "from" | "to" }
  | { kind: "truck"; site: Site };

export interface Milestone {
  /** Stable within the shipment; part of event IDs. */
  key: string;
  eventType: "TRANSPORT" | "EQUIPMENT" | "SHIPMENT";
  code: string;
  rel: number;
  shift: Shift;
  /** Real time minus planned time, before delays. */
  jitter: number;
  /** How long after the fact the carrier publishes it. */
  reportingLag: number;
  site?: Site;
  container?: number;
  empty?: boolean;
  transport?: TransportRef;
  documentTypeCode?: "BKG" | "TRD";
  reason?: string;
  order: number;
}

export interface ShipmentPlan {
  seed: string;
  carrier: Carrier;
  profile: CarrierProfile;
  containers: readonly PlannedContainer[];
  transportDocumentTypeCode: "BOL" | "SWB";
  origin?: { place: InlandPlace; mode: InlandMode };
  destination?: { place: InlandPlace; mode: InlandMode };
  legs: readonly VesselLeg[];
  preCarriage?: LandLeg;
  onCarriage?: LandLeg;
  /** Relative time of the booking cancellation, for the rare cancelled booking. */
  cancelledRel?: number;
  milestones: readonly Milestone[];
}

// --- Route ----------------------------------------------------------------------------------------

interface PathStop {
  port: Port;
  /** Index of the call in the service's rotation. */
  callIndex: number;
  /** Passages sailed on the way to this stop from the previous one. */
  passagesBefore: readonly Passage[];
}

const paths = new Map<string, readonly PathStop[] | null>();

/** The calls of a loop from `start`, `steps` calls onwards; undefined when a one-way loop ends first. */
function pathFrom(service: LinerService, start: number, steps: number): readonly PathStop[] | undefined {
  const key = `${service.name}|${start}|${steps}`;
  const cached = paths.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const count = service.calls.length;
  let stops: PathStop[] | null = null;
  if ((service.cyclic || start + steps < count) && steps < count) {
    stops = [];
    for (let step = 0; step <= steps; step++) {
      const callIndex = (start + step) % count;
      const previous = (callIndex - 1 + count) % count;
      stops.push({
        port: portByCode(service.calls[callIndex] ?? ""),
        callIndex,
        passagesBefore: step === 0 ? [] : (service.passages[previous] ?? []),
      });
    }
  }
  paths.set(key, stops);
  return stops ?? undefined;
}

/** Where each port is called at: the loops and the call's index in their rotation. */
const CALLS_AT: ReadonlyMap<string, readonly { service: LinerService; index: number }[]> = (() => {
  const calls = new Map<string, { service: LinerService; index: number }[]>();
  for (const service of LINER_SERVICES) {
    service.calls.forEach((call, index) => {
      calls.set(call, [...(calls.get(call) ?? []), { service, index }]);
    });
  }
  return calls;
})();

interface RouteLeg {
  service: LinerService;
  path: readonly PathStop[];
}

function affinity(service: LinerService, carrier: Carrier, profile: CarrierProfile): number {
  const group = profile.fleet ?? carrier.scac;
  const own =
    service.operator === group || service.partners.includes(group) || service.partners.includes(carrier.scac);
  if (own) return 4;
  if (profile.alliance && service.alliance === profile.alliance) return 3;
  return 1;
}

function sameCity(a: Port, b: Port): boolean {
  return a.unLocode === b.unLocode || greatCircleKm(a, b) < 60;
}

function chooseRoute(rng: SeededRandom, carrier: Carrier, profile: CarrierProfile): RouteLeg[] {
  const weighted = LINER_SERVICES.map((s) => [s, s.weight * affinity(s, carrier, profile)] as const);
  const wantedLegs = rng.weighted([
    [1, 0.62],
    [2, 0.3],
    [3, 0.08],
  ] as const);
  for (let attempt = 0; attempt < 60; attempt++) {
    const legsWanted = attempt < 40 ? wantedLegs : 1;
    const first = rng.weighted(weighted);
    const start = rng.int(0, first.calls.length - 1);
    const route = extendRoute(rng, [], first, start, legsWanted);
    if (route) return route;
  }
  // Every service has at least two distant calls, so a direct sailing always exists.
  const fallback = LINER_SERVICES[0];
  const path = fallback ? pathFrom(fallback, 0, 5) : undefined;
  if (!fallback || !path) throw new Error("No liner services in the simulated world");
  return [{ service: fallback, path }];
}

const legDistances = new WeakMap<readonly PathStop[], number>();

function legDistanceNm(path: readonly PathStop[]): number {
  const cached = legDistances.get(path);
  if (cached !== undefined) return cached;
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1];
    const to = path[i];
    if (from && to) total += seaDistanceNm(from.port, to.port, to.passagesBefore);
  }
  legDistances.set(path, total);
  return total;
}

/**
 * Whether a shipper would book this way: a loop may wander, but not sail three times the direct
 * distance (Le Havre to Antwerp by way of West Africa).
 */
function isPlausibleDetour(sailedNm: number, from: Port, to: Port, allowanceNm: number): boolean {
  return sailedNm <= 2.6 * (greatCircleKm(from, to) / 1.852) + allowanceNm;
}

function extendRoute(
  rng: SeededRandom,
  done: RouteLeg[],
  service: LinerService,
  start: number,
  legsLeft: number,
): RouteLeg[] | undefined {
  const origin = done[0]?.path[0]?.port ?? portByCode(service.calls[start] ?? "");
  const visited = new Set(done.flatMap((leg) => leg.path.slice(0, -1).map((stop) => stop.port.unLocode)));
  const lastLeg = done[done.length - 1];
  const here = lastLeg ? lastLeg.path[lastLeg.path.length - 1]?.port : origin;
  if (!here) return undefined;
  const reach = here === origin ? 0 : greatCircleKm(origin, here);
  const sailedSoFar = done.reduce((sum, leg) => sum + legDistanceNm(leg.path), 0);
  const maxSteps = Math.min(8, service.calls.length - 1);
  if (legsLeft === 1) {
    const ends: (readonly PathStop[])[] = [];
    for (let steps = 1; steps <= maxSteps; steps++) {
      const path = pathFrom(service, start, steps);
      const end = path?.[path.length - 1]?.port;
      if (!path || !end) continue;
      if (visited.has(end.unLocode) || sameCity(end, here) || sameCity(end, origin)) continue;
      if (greatCircleKm(origin, end) < Math.max(400, reach + 300)) continue;
      const legNm = legDistanceNm(path);
      if (!isPlausibleDetour(legNm, here, end, 1500)) continue;
      if (!isPlausibleDetour(sailedSoFar + legNm, origin, end, 2000)) continue;
      ends.push(path);
    }
    return ends.length > 0 ? [...done, { service, path: rng.pick(ends) }] : undefined;
  }
  // Transship at a later call of this loop that another loop also calls at.
  const hubs: { steps: number; next: LinerService; nextStart: number }[] = [];
  for (let steps = 1; steps <= maxSteps; steps++) {
    const path = pathFrom(service, start, steps);
    const hub = path?.[path.length - 1]?.port;
    if (!path || !hub || visited.has(hub.unLocode) || sameCity(hub, here)) continue;
    if (!isPlausibleDetour(legDistanceNm(path), here, hub, 1500)) continue;
    for (const call of CALLS_AT.get(hub.unLocode) ?? []) {
      if (call.service !== service) hubs.push({ steps, next: call.service, nextStart: call.index });
    }
  }
  if (hubs.length === 0) return undefined;
  const hub = rng.pick(hubs);
  const path = pathFrom(service, start, hub.steps);
  if (!path) return undefined;
  return extendRoute(rng, [...done, { service, path }], hub.next, hub.nextStart, legsLeft - 1);
}

// --- Ships and voyages ----------------------------------------------------------------------------

function chooseVessels(
  rng: SeededRandom,
  service: LinerService,
  profile: CarrierProfile,
  carrier: Carrier,
): Vessel[] {
  const group = profile.fleet ?? carrier.scac;
  // Trade sizes are typical, not limits; the Panama Canal's neo-Panamax locks are (about 15,000 TEU).
  const throughPanama = service.passages.some((passages) => passages.includes("panama"));
  const fits = (vessel: Vessel) => vessel.teu <= (throughPanama ? 15_500 : service.maxTeu * 1.2);
  const own = VESSELS.filter((vessel) => vessel.operator === group);
  const operatorShips = VESSELS.filter((vessel) => vessel.operator === service.operator);
  // A carrier puts its own ships on loops it shares; otherwise it buys slots on the operator's ships.
  // A loop too small for those fleets is sailed by a chartered ship that fits.
  const pools = [own.filter(fits), operatorShips.filter(fits), VESSELS.filter(fits)];
  const pool = pools.find((candidates) => candidates.length > 0) ?? VESSELS;
  return [rng.pick(pool), rng.pick(pool), rng.pick(pool)];
}

function siteOfTerminal(port: Port, terminal: Terminal | undefined): Site {
  return {
    unLocode: port.unLocode,
    locationName: terminal?.name ?? port.name,
    lat: terminal?.lat ?? port.lat,
    lng: terminal?.lng ?? port.lng,
    timeZone: port.timeZone,
    facilityType: "POTE",
    ...(terminal ? { smdgCode: terminal.smdgCode } : {}),
  };
}

function portTerminal(rng: SeededRandom, port: Port): Site {
  return siteOfTerminal(port, port.terminals.length > 0 ? rng.pick(port.terminals) : undefined);
}

function depotAt(port: Port | InlandPlace): Site {
  return {
    unLocode: port.unLocode,
    locationName: `${port.name} empty container depot`,
    lat: port.lat,
    lng: port.lng,
    timeZone: port.timeZone,
    facilityType: "DEPO",
  };
}

function customerAt(place: InlandPlace | Port, party: "Shipper" | "Consignee"): Site {
  return {
    unLocode: place.unLocode,
    locationName: `${party} premises, ${place.name}`,
    lat: place.lat,
    lng: place.lng,
    timeZone: place.timeZone,
    facilityType: "CLOC",
  };
}

function inlandTerminalAt(place: InlandPlace, mode: "RAIL" | "BARGE"): Site {
  return {
    unLocode: place.unLocode,
    locationName:
      place.terminal?.name ?? `${place.name} ${mode === "RAIL" ? "rail terminal" : "inland barge terminal"}`,
    lat: place.terminal?.lat ?? place.lat,
    lng: place.terminal?.lng ?? place.lng,
    timeZone: place.timeZone,
    facilityType: mode === "RAIL" ? "RAMP" : "INTE",
    ...(place.terminal ? { smdgCode: place.terminal.smdgCode } : {}),
  };
}

// --- Boxes ----------------------------------------------------------------------------------------

/** A box's size and type are physical, so they follow its number, not the shipment. */
export function sizeTypeOf(equipmentReference: string): string {
  let threshold = unitHash("size-type", equipmentReference);
  for (const [code, share] of ISO_SIZE_TYPES) {
    threshold -= share;
    if (threshold < 0) return code;
  }
  return ISO_SIZE_TYPES[0]?.[0] ?? "45G1";
}

export interface BoxSpec {
  /** Boxes already decided (a queried box, a group's members). */
  fixed: readonly string[];
  /** Whether to add boxes drawn from the carrier's prefixes (for references not issued by the world). */
  generate: boolean;
}

function planContainers(rng: SeededRandom, carrier: Carrier, boxes: BoxSpec): PlannedContainer[] {
  const references = [...boxes.fixed];
  if (boxes.generate) {
    const extra = rng.weighted([
      [0, 0.45],
      [1, 0.25],
      [2, 0.15],
      [3, 0.1],
      [4, 0.05],
    ] as const);
    const wanted = boxes.fixed.length === 0 ? extra + 1 : extra;
    const prefixes = containerPrefixesOf(carrier);
    const fallbackPrefixes = prefixes.length > 0 ? prefixes.slice(0, 3) : ["TGHU", "TCNU", "SEGU"];
    while (references.length < boxes.fixed.length + wanted) {
      const prefix = rng.pick(fallbackPrefixes);
      const serial = rng.int(0, 999_999);
      if (!isIssuableSerial(prefix, serial)) continue;
      const reference = containerNumber(prefix, serial);
      if (!references.includes(reference)) references.push(reference);
    }
  }
  const sealPrefix = carrier.scac.replace(/\d/g, "").slice(0, 2).padEnd(2, "X");
  return references.map((equipmentReference) => ({
    equipmentReference,
    isoEquipmentCode: sizeTypeOf(equipmentReference),
    sealNumber: `${sealPrefix}${rng.int(1_000_000, 9_999_999)}`,
  }));
}

// --- Timeline -------------------------------------------------------------------------------------

const DELAY_REMARKS: readonly (readonly [remark: string, code?: string])[] = [
  ["Adverse weather en route", "WEA"],
  ["Port congestion at previous call"],
  ["Berth congestion at destination"],
  ["Delayed departure from previous port"],
];

function arrivalDelay(rng: SeededRandom, profile: CarrierProfile, sailingTime: number): number {
  if (rng.chance(profile.onTimeShare)) {
    // "On time" in schedule reliability means within a day; most ships are within hours.
    return Math.max(-Math.min(6 * HOUR, 0.1 * sailingTime), rng.between(-6 * HOUR, 10 * HOUR));
  }
  // Late ships average about 5 days (Sea-Intelligence, 2024-2025); a lognormal with that mean.
  const sigma = 0.6;
  const mu = Math.log(5) - (sigma * sigma) / 2;
  const days = Math.min(14, Math.max(1, Math.exp(mu + sigma * rng.normal())));
  return Math.round(days * DAY);
}

function sailingTime(rng: SeededRandom, path: readonly PathStop[]): number {
  const knots = rng.between(13.5, 16.5);
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1];
    const to = path[i];
    if (!from || !to) continue;
    total += (seaDistanceNm(from.port, to.port, to.passagesBefore) / knots) * HOUR;
    // Berth time and waiting at anchor at every intermediate call.
    if (i < path.length - 1) total += rng.between(16, 40) * HOUR;
  }
  return total;
}

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

/** Voyage number of a leg's ship when it departs at the given time. */
export function voyageOf(plan: ShipmentPlan, leg: VesselLeg, departureMs: number, inbound: boolean): string {
  return voyageNumber(
    plan.profile.voyageStyle,
    departureMs,
    inbound ? leg.inboundDirection : leg.outboundDirection,
  );
}

export interface PlanRequest {
  carrier: Carrier;
  seed: string;
  boxes: BoxSpec;
}

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

function planLegs(
  rng: SeededRandom,
  route: readonly RouteLeg[],
  carrier: Carrier,
  profile: CarrierProfile,
): VesselLeg[] {
  const legs: VesselLeg[] = [];
  // The first departure from the port of loading is time 0 until the booking moves time 0.
  let departure = 0;
  route.forEach((routeLeg, index) => {
    const first = routeLeg.path[0];
    const last = routeLeg.path[routeLeg.path.length - 1];
    if (!first || !last) throw new Error("empty route leg");
    const secondStop = routeLeg.path[1] ?? last;
    const beforeLast = routeLeg.path[routeLeg.path.length - 2] ?? first;
    const sailing = sailingTime(rng, routeLeg.path);
    const arrival = departure + sailing;
    const delay = arrivalDelay(rng, profile, sailing);
    const remark = Math.abs(delay) >= 12 * HOUR ? rng.pick(DELAY_REMARKS) : undefined;
    const serviceCode = routeLeg.service.codes[carrier.scac] ?? routeLeg.service.codes[profile.fleet ?? ""];
    legs.push({
      service: routeLeg.service,
      ...(serviceCode ? { serviceCode } : {}),
      vessels: chooseVessels(rng, routeLeg.service, profile, carrier),
      loadPort: first.port,
      dischargePort: last.port,
      loadSite: portTerminal(rng, first.port),
      dischargeSite: portTerminal(rng, last.port),
      loadSequence: first.callIndex + 1,
      dischargeSequence: last.callIndex + 1,
      outboundDirection: voyageDirection(first.port, secondStop.port),
      inboundDirection: voyageDirection(beforeLast.port, last.port),
      departureRel: departure,
      arrivalRel: arrival,
      arrivalDelay: delay,
      firstRevisionShare: rng.between(0.3, 0.7),
      ...(remark ? { changeRemark: remark[0] } : {}),
      ...(remark?.[1] ? { delayReasonCode: remark[1] } : {}),
    });
    // The connecting loop's next sailing from the hub.
    if (index < route.length - 1) departure = arrival + rng.between(3, 10) * DAY;
  });
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
    planner.box(c, "LOAD-L0", "LOAD", load, firstLeg.loadSite, loadCall, { jitter: 0 });
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
      jitter: planner.departureJitter(90),
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
  const route = chooseRoute(rng, carrier, profile);
  const containers = planContainers(rng, carrier, request.boxes);
  const transportDocumentTypeCode = rng.chance(0.65) ? "BOL" : "SWB";
  const planner = new ShipmentPlanner(rng);
  const legs = planLegs(rng, route, carrier, profile);
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
