/**
 * The world's liner services as timetables: weekly sailings on every rotation, each ship of vessels.ts
 * deployed on one sailing slot of one loop, and where a ship is at any clock time. Feeds the simulator's
 * vessel positions, its DCSA Commercial Schedules point-to-point routes and the shipments' voyage plans
 * (shipment-plan/ books every vessel leg on one of these sailings, with this ship and these times): the
 * one timetable of the world. Pure functions of the world data and the time.
 *
 * - A rotation is sailed as a closed loop: calls in order, then back to the first call (a one-way
 *   rotation such as FAL1 westbound returns empty, without calls, and offers no sailings back).
 * - Port stays are 18 to 28 hours per call. The loop has as many ships as weeks it takes at 15 knots,
 *   rounded up, and the sailing speed is set so that the round trip is exactly that many weeks: every
 *   loop then leaves its first call on the same weekday and hour each week.
 * - Each of the 60 ships has a home slot on a loop. Every loop first gets one ship (the smallest loops
 *   first: the smallest ship of its operator or partners that fits, else any that fits, else the smallest
 *   left, as a charter would be), then the rest go to loops their operator runs or partners on and that
 *   they fit (Panama Canal ships up to about 15,500 TEU), in proportion to their free slots. Only the
 *   sailings of a slot with a home ship are "named": the world has 60 ships for 177 slots, so shipments
 *   and the carriers' schedules use the named sailings only (a loop with 6 ships on 15 slots offers a
 *   named sailing about every two and a half weeks). `vesselOfSailing` still gives a stand-in for an
 *   unnamed slot; its position is where its own home slot puts it.
 * - What really happens on a sailing (`sailedCall`, `vesselFix`): normal anchorage waits, the episodes
 *   (closures, strikes, canal restrictions), incidents (a share of legs, by the operator's schedule
 *   reliability, is late by about 5 days on average: bad weather slows the ship, congestion holds it at
 *   anchor), omitted calls (OMITTED_CALL_SHARE) and lateness made good by sailing faster and cutting
 *   stays. Plans and positions read the same function, so a ship is where its shipments' plans say.
 */
import { CARRIERS, type Carrier } from "../../reference-data/carriers";
import { berthAfterEpisodes, normalAnchorageWaitMs, passageDelayMs } from "./anchorage";
import { profileOf } from "./carrier-profiles";
import {
  bearingDegrees,
  greatCircleKm,
  greatCirclePoint,
  type LatLng,
  type Passage,
  seaDistanceNm,
  seaPathPoints,
  voyageDirection,
} from "./geo";
import { hash32, unitHash } from "./hash";
import { type Port, portByCode, type Terminal } from "./ports";
import { LINER_SERVICES, type LinerService } from "./services";
import { VESSELS, type Vessel } from "./vessels";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;
/** Sailings are counted in weeks from this Monday. */
export const FLEET_EPOCH = Date.UTC(2024, 0, 1);
const NOMINAL_KNOTS = 15;

export interface RotationCall {
  port: Port;
  /** Index in the rotation. */
  index: number;
  terminal: Terminal | undefined;
  /** Arrival and departure, ms after the sailing leaves call 0 (call 0 arrives before 0). */
  arrive: number;
  depart: number;
}

interface SeaSegment {
  kind: "sea";
  from: number;
  /** -1: back to call 0 at the end of the loop. */
  to: number;
  start: number;
  end: number;
  points: LatLng[];
  cumulativeKm: number[];
}

interface PortSegment {
  kind: "port";
  call: number;
  start: number;
  end: number;
}

export interface Rotation {
  service: LinerService;
  calls: RotationCall[];
  slots: number;
  roundTripMs: number;
  speedKnots: number;
  /** When sailing 0 leaves call 0. */
  firstDeparture: number;
  /** Home ship per slot, if any. */
  home: (Vessel | undefined)[];
  segments: (SeaSegment | PortSegment)[];
}

function legPassages(service: LinerService, from: number): readonly Passage[] {
  if (from < service.calls.length - 1 || service.cyclic) return service.passages[from] ?? [];
  // One-way rotations sail back empty through the passages they came by, in reverse.
  return [...new Set(service.passages.flat())].reverse();
}

function buildRotation(service: LinerService): Rotation {
  const ports = service.calls.map((code) => portByCode(code));
  const count = ports.length;
  const stays = ports.map((_, i) => (18 + 10 * unitHash("fleet-stay", service.name, i)) * HOUR);
  const legNm = ports.map((port, i) => seaDistanceNm(port, ports[(i + 1) % count]!, legPassages(service, i)));
  const totalNm = legNm.reduce((a, b) => a + b, 0);
  const totalStay = stays.reduce((a, b) => a + b, 0);
  const slots = Math.max(1, Math.ceil(((totalNm / NOMINAL_KNOTS) * HOUR + totalStay) / WEEK));
  const roundTripMs = slots * WEEK;
  const speedKnots = totalNm / ((roundTripMs - totalStay) / HOUR);
  const calls: RotationCall[] = [];
  let clock = 0;
  ports.forEach((port, index) => {
    if (index > 0) clock += (legNm[index - 1]! / speedKnots) * HOUR;
    const arrive = index === 0 ? -stays[0]! : clock;
    const depart = index === 0 ? 0 : clock + stays[index]!;
    if (index > 0) clock = depart;
    const terminal =
      port.terminals.length > 0
        ? port.terminals[hash32("fleet-terminal", service.name, index) % port.terminals.length]
        : undefined;
    calls.push({ port, index, terminal, arrive, depart });
  });
  const segments: (SeaSegment | PortSegment)[] = [];
  calls.forEach((call, i) => {
    const next = (i + 1) % count;
    const to = calls[next]!;
    const end = next === 0 ? roundTripMs - stays[0]! : to.arrive;
    const points = seaPathPoints(call.port, to.port, legPassages(service, i));
    const cumulativeKm = [0];
    for (let p = 1; p < points.length; p++) {
      cumulativeKm.push(cumulativeKm[p - 1]! + greatCircleKm(points[p - 1]!, points[p]!));
    }
    if (i > 0) segments.push({ kind: "port", call: i, start: call.arrive, end: call.depart });
    segments.push({
      kind: "sea",
      from: i,
      to: next === 0 ? -1 : next,
      start: call.depart,
      end,
      points,
      cumulativeKm,
    });
  });
  segments.push({ kind: "port", call: 0, start: roundTripMs - stays[0]!, end: roundTripMs });
  const firstDeparture = FLEET_EPOCH + Math.floor(unitHash("fleet-start", service.name) * 7 * 24) * HOUR;
  return {
    service,
    calls,
    slots,
    roundTripMs,
    speedKnots,
    firstDeparture,
    home: Array.from({ length: slots }, () => undefined),
    segments,
  };
}

export function fitsService(vessel: Vessel, service: LinerService): boolean {
  const throughPanama = service.passages.some((passages) => passages.includes("panama"));
  return vessel.teu <= (throughPanama ? 15_500 : service.maxTeu * 1.2);
}

/** Slot order that spreads a loop's ships over its weeks: 0, n/2, n/4, 3n/4... */
function spreadOrder(slots: number): number[] {
  return Array.from({ length: slots }, (_, i) => i).sort(
    (a, b) => ((a * 0.6180339887) % 1) - ((b * 0.6180339887) % 1) || a - b,
  );
}

let rotations: Rotation[] | undefined;
const homes = new Map<string, { rotation: Rotation; slot: number }>();

export function fleetRotations(): readonly Rotation[] {
  if (rotations) return rotations;
  const built = LINER_SERVICES.map(buildRotation);
  const used = new Map<Rotation, number>();
  const home = (vessel: Vessel, rotation: Rotation) => {
    const slot = spreadOrder(rotation.slots).find((s) => rotation.home[s] === undefined)!;
    rotation.home[slot] = vessel;
    used.set(rotation, (used.get(rotation) ?? 0) + 1);
    homes.set(vessel.imo, { rotation, slot });
  };
  const related = (vessel: Vessel, r: Rotation) =>
    r.service.operator === vessel.operator || r.service.partners.includes(vessel.operator);
  // Every loop gets one named ship first, so that every loop has sailings to book: the smallest loops
  // first, the smallest ship of the operator's or partners' that fits, else any that fits, else the
  // smallest ship left (out of the trade's size, as a charter at short notice would be).
  const bySize = (a: Vessel, b: Vessel) => a.teu - b.teu || a.imo.localeCompare(b.imo);
  for (const rotation of [...built].sort(
    (a, b) => a.service.maxTeu - b.service.maxTeu || a.service.name.localeCompare(b.service.name),
  )) {
    const free = VESSELS.filter((v) => !homes.has(v.imo)).sort(bySize);
    const fitting = free.filter((v) => fitsService(v, rotation.service));
    const chosen = fitting.find((v) => related(v, rotation)) ?? fitting[0] ?? free[0];
    if (chosen) home(chosen, rotation);
  }
  for (const vessel of VESSELS) {
    if (homes.has(vessel.imo)) continue;
    const free = (r: Rotation) => r.slots - (used.get(r) ?? 0);
    const own = built.filter((r) => free(r) > 0 && fitsService(vessel, r.service) && related(vessel, r));
    const pool = own.length > 0 ? own : built.filter((r) => free(r) > 0 && fitsService(vessel, r.service));
    const chosen = [...pool].sort(
      (a, b) =>
        free(b) / b.slots - free(a) / a.slots ||
        b.service.weight - a.service.weight ||
        a.service.name.localeCompare(b.service.name),
    )[0];
    if (chosen) home(vessel, chosen);
  }
  rotations = built;
  return built;
}

/** The rotation that sails a liner service. */
export function rotationOf(service: LinerService): Rotation {
  const rotation = fleetRotations().find((r) => r.service === service || r.service.name === service.name);
  if (!rotation) throw new Error(`no rotation for ${service.name}`);
  return rotation;
}

/** Sailing number m (any integer) of a rotation: when it leaves call 0. */
export function sailingDeparture(rotation: Rotation, sailing: number): number {
  return rotation.firstDeparture + sailing * WEEK;
}

function slotOf(rotation: Rotation, sailing: number): number {
  return ((sailing % rotation.slots) + rotation.slots) % rotation.slots;
}

/** The ship of a sailing: the slot's home ship, else a stand-in from the operator's fleet. */
export function vesselOfSailing(rotation: Rotation, sailing: number): Vessel {
  fleetRotations();
  const slot = slotOf(rotation, sailing);
  const home = rotation.home[slot];
  if (home) return home;
  const fitting = VESSELS.filter((v) => fitsService(v, rotation.service));
  const own = fitting.filter((v) => v.operator === rotation.service.operator);
  const pool = own.length > 0 ? own : fitting.length > 0 ? fitting : VESSELS;
  return pool[hash32("fleet-stand-in", rotation.service.name, slot) % pool.length]!;
}

/** A ship by IMO number; by MMSI only when no IMO number is asked (an IMO number that is not ours wins). */
export function findVessel(imo: string | undefined, mmsi: string | undefined): Vessel | undefined {
  if (imo) return VESSELS.find((v) => v.imo === imo);
  return mmsi ? VESSELS.find((v) => v.mmsi === mmsi) : undefined;
}

export interface VesselFix {
  vessel: Vessel;
  rotation: Rotation;
  lat: number;
  lng: number;
  /** Knots; 0 at anchor and alongside. */
  speed: number;
  course: number;
  heading: number;
  draught: number;
  /** Not alongside: sailing or at anchor. */
  atSea: boolean;
  /** Lying at anchor off `nextCall`, waiting for its berth (since `anchoredSince`). */
  atAnchor: boolean;
  anchoredSince: number | undefined;
  /** The call last left and when. */
  lastCall: { port: Port; departedAt: number };
  /** The call sailed to (or lying at) and when it berths (berthed). */
  nextCall: { port: Port; arrivesAt: number };
}

/** What a ship does during one stretch of a loop sailing, in absolute times. */
type Piece =
  | {
      kind: "sea";
      segment: SeaSegment;
      start: number;
      end: number;
      from: Port;
      to: Port;
      berthAt: number;
      departedAt: number;
    }
  | {
      kind: "anchor";
      segment: SeaSegment;
      start: number;
      end: number;
      from: Port;
      to: Port;
      departedAt: number;
    }
  | { kind: "berth"; call: RotationCall; start: number; end: number; previous: Port; departedAt: number };

interface SailingPieces {
  pieces: Piece[];
  /** Real arrival (berth) and departure of each call index; call 0's arrival ends the round trip. */
  berth: number[];
  leave: number[];
  /** What the episodes added to the arrival at each call: a restricted canal on the way, a port's hold. */
  episodeDelay: number[];
  /** When the ship leaves call 0 at the start of the round trip. */
  departure: number;
  /** How late the ship leaves call 0 at the end of the round trip (carried into the next one). */
  lateness: number;
}

/** The most a ship speeds up to make good lost time: it sails a leg in no less than 80% of its time. */
const RECOVERY_SHARE = 0.2;
/** The most of a leg's time an anchorage wait takes from its sailing. */
const MOST_CARVED_SHARE = 0.2;
/** The most a late ship cuts from a port stay: a quarter. */
const STAY_CUT_SHARE = 0.25;
/** Incidents make a ship at most this late; episodes may still hold it longer. */
const MOST_INCIDENT_LATENESS = 10 * DAY;
/** A ship slowed by weather still makes this much way; the rest of its delay is spent at anchor. */
const SLOWEST_KNOTS = 10.5;

/**
 * Share of a loop's calls the ship leaves out on a sailing (a port omission announced to shippers
 * before the sailing; never the loop's first call). Our assumption: carriers omitted or blanked a few
 * percent of calls in 2024-2025 (the Red Sea diversions, slack-season blank sailings).
 */
export const OMITTED_CALL_SHARE = 0.03;
/**
 * Share of named sailings whose ship is swapped after the carrier has published the voyage plan (a
 * phase-in or phase-out, a ship kept back by a repair): the carrier's events name the ship it first
 * announced until it learns of the swap, between six days before and two days after the box's ship
 * leaves its port of loading. Our assumption, of the order of the substitutions seen in published
 * rotation changes.
 */
export const VESSEL_SWAP_SHARE = 0.04;
/**
 * Share of a loop's legs (call to call) on which an incident (weather, congestion, a breakdown) makes the
 * ship late, per the operator's schedule reliability: with lateness carried over the next calls until
 * it is made good, this gives about the carriers' published share of late arrivals (more than a day
 * behind the proforma; test/simulator/fleet-consistency.test.ts measures it).
 */
export function incidentShare(service: LinerService): number {
  const operator = CARRIERS.find((c) => c.scac === service.operator);
  const onTime = operator ? profileOf(operator).onTimeShare : 0.55;
  return (1 - onTime) * INCIDENTS_PER_LATE_ARRIVAL;
}
/** Late arrivals follow an incident for a few calls: the share of legs with an incident is smaller. */
const INCIDENTS_PER_LATE_ARRIVAL = 0.3;

/** Whether a sailing leaves out a call (index in the rotation). */
export function callOmitted(rotation: Rotation, sailing: number, index: number): boolean {
  if (index === 0 || rotation.calls.length < 4) return false;
  return unitHash("omitted-call", rotation.service.name, sailing, index) < OMITTED_CALL_SHARE;
}

/** A standard normal draw from two stable coins (Box-Muller). */
function normalDraw(...parts: readonly (string | number)[]): number {
  const u = Math.max(1e-9, unitHash("fleet-normal-u", ...parts));
  const v = unitHash("fleet-normal-v", ...parts);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * The incident of one leg of a sailing, if any: about 5 days on average (lognormal, 1 to 14 days, as late
 * ships are in Sea-Intelligence's figures); weather slows the ship down to about 10.5 knots and holds it
 * at anchor for the rest, congestion holds it at anchor off the port.
 */
function legIncident(
  rotation: Rotation,
  sailing: number,
  from: number,
  sailMs: number,
): { slowMs: number; anchorMs: number } {
  const name = rotation.service.name;
  if (unitHash("leg-incident", name, sailing, from) >= incidentShare(rotation.service)) {
    return { slowMs: 0, anchorMs: 0 };
  }
  const sigma = 0.6;
  const mu = Math.log(5) - (sigma * sigma) / 2;
  const days = Math.min(
    14,
    Math.max(1, Math.exp(mu + sigma * normalDraw("leg-incident", name, sailing, from))),
  );
  const delay = Math.round(days * 4) * (DAY / 4);
  if (unitHash("leg-incident-kind", name, sailing, from) >= 0.5) return { slowMs: 0, anchorMs: delay };
  const slowest = Math.max(0, sailMs * (rotation.speedKnots / SLOWEST_KNOTS - 1));
  const slowMs = Math.round(Math.min(delay, slowest) / 60_000) * 60_000;
  return { slowMs, anchorMs: delay - slowMs };
}

/**
 * One round trip of a ship from `base` (when it is due to leave call 0) with `carried` lateness: normal
 * anchorage waits carved out of each leg (the ship sails a little faster and anchors before its berth
 * window), the episodes' closures and strikes holding it at anchor, canal restrictions slowing the leg,
 * incidents, omitted calls (the ship sails past and waits for its next window), and lateness made good by
 * sailing faster and shortening stays.
 */
function sailingPieces(rotation: Rotation, sailing: number, carried: number): SailingPieces {
  const { calls, service } = rotation;
  const vessel = vesselOfSailing(rotation, sailing);
  const base = sailingDeparture(rotation, sailing);
  const pieces: Piece[] = [];
  const berth: number[] = [];
  const episodeDelay: number[] = [];
  const leave: number[] = [];
  let lateness = carried;
  let berthAt = base;
  let depart = base + carried;
  let departedFrom = calls[0]!.port;
  let departedAt = depart;
  for (const segment of rotation.segments) {
    if (segment.kind === "sea") {
      const to = segment.to === -1 ? calls[0]! : calls[segment.to]!;
      const omitted = segment.to !== -1 && callOmitted(rotation, sailing, segment.to);
      const window = base + segment.end;
      const callKey = `${service.name}:${vessel.imo}:${to.index}:${Math.round(window / HOUR)}`;
      const duration = segment.end - segment.start;
      // The wait is carved out of the leg only as far as a ship can make it up (about 19 knots at most).
      const wait = omitted
        ? 0
        : Math.min(normalAnchorageWaitMs(to.port, callKey), MOST_CARVED_SHARE * duration);
      const planned = duration - wait;
      const drawn = omitted
        ? { slowMs: 0, anchorMs: 0 }
        : legIncident(rotation, sailing, segment.from, planned);
      // A ship already far behind is not made later still by its incidents: the operator keeps it going
      // (bunkers, berth priority) rather than let it slide weeks behind its proforma.
      const room = Math.max(0, MOST_INCIDENT_LATENESS - lateness);
      const toMinute = (ms: number) => Math.round(ms / 60_000) * 60_000;
      const incident = {
        slowMs: toMinute(Math.min(drawn.slowMs, room)),
        anchorMs: toMinute(Math.min(drawn.anchorMs, Math.max(0, room - drawn.slowMs))),
      };
      const passage = passageDelayMs(legPassages(service, segment.from), depart + planned / 2);
      const sail = Math.max((1 - RECOVERY_SHARE) * duration, planned - lateness) + passage + incident.slowMs;
      const anchored = depart + sail;
      const held = omitted
        ? anchored
        : berthAfterEpisodes(to.port, anchored, Math.max(window, anchored), callKey);
      berthAt = omitted ? anchored : held + incident.anchorMs;
      const unheld = Math.round(Math.max(window, anchored) / 60_000) * 60_000;
      episodeDelay[to.index] = passage + Math.max(0, held - unheld);
      pieces.push({
        kind: "sea",
        segment,
        start: depart,
        end: anchored,
        from: departedFrom,
        to: to.port,
        berthAt,
        departedAt,
      });
      if (berthAt > anchored) {
        pieces.push({
          kind: "anchor",
          segment,
          start: anchored,
          end: berthAt,
          from: departedFrom,
          to: to.port,
          departedAt,
        });
      }
      if (omitted) {
        // Sailing past: the ship goes on to the next call without stopping.
        berth[to.index] = anchored;
        leave[to.index] = anchored;
        depart = anchored;
      }
    } else {
      const call = calls[segment.call]!;
      if (segment.call !== 0 && callOmitted(rotation, sailing, segment.call)) continue;
      const stay = segment.end - segment.start;
      const late = Math.max(0, berthAt - (base + segment.start));
      const left = berthAt + Math.max((1 - STAY_CUT_SHARE) * stay, stay - late);
      pieces.push({ kind: "berth", call, start: berthAt, end: left, previous: departedFrom, departedAt });
      berth[call.index] = berthAt;
      if (segment.call !== 0) leave[call.index] = left;
      lateness = Math.max(0, left - (base + segment.end));
      depart = left;
      departedFrom = call.port;
      departedAt = left;
    }
  }
  const first = pieces[0]!;
  // A piece sailing to an omitted call heads for the next call the ship makes.
  let next: { to: Port; berthAt: number } | undefined;
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i]!;
    if (piece.kind === "berth") {
      next = undefined;
      continue;
    }
    const omitted = piece.segment.to !== -1 && callOmitted(rotation, sailing, piece.segment.to);
    if (omitted && next && piece.kind === "sea") pieces[i] = { ...piece, to: next.to, berthAt: next.berthAt };
    if (piece.kind === "sea" && !omitted) next = { to: piece.to, berthAt: piece.berthAt };
    else if (piece.kind === "sea" && next) next = { to: next.to, berthAt: next.berthAt };
  }
  leave[0] = first.start;
  return { pieces, berth, leave, episodeDelay, departure: first.start, lateness };
}

const sailingCache = new Map<string, SailingPieces>();
/** Round trips a late ship's lateness is followed back (it is nearly always made good within one). */
const LATENESS_MEMORY = 3;

/** What really happens on sailing m of a loop (memoized; a pure function of the loop and m). */
function sailed(rotation: Rotation, sailing: number, depth = LATENESS_MEMORY): SailingPieces {
  const key = `${rotation.service.name}|${sailing}|${depth}`;
  const cached = sailingCache.get(key);
  if (cached) return cached;
  const carried = depth === 0 ? 0 : sailed(rotation, sailing - rotation.slots, depth - 1).lateness;
  const result = sailingPieces(rotation, sailing, carried);
  sailingCache.set(key, result);
  if (sailingCache.size > 20_000) {
    const oldest = sailingCache.keys().next().value;
    if (oldest !== undefined) sailingCache.delete(oldest);
  }
  return result;
}

/** Whether a sailing is sailed by its slot's home ship (a shipment can be booked on it). */
export function isNamedSailing(rotation: Rotation, sailing: number): boolean {
  fleetRotations();
  return rotation.home[slotOf(rotation, sailing)] !== undefined;
}

export interface SailedCall {
  port: Port;
  /** Index in the rotation. */
  index: number;
  /** The proforma (published) arrival and departure. */
  proformaArrival: number;
  proformaDeparture: number;
  /** When the ship really berths and leaves (equal, when the call is omitted). */
  arrival: number;
  departure: number;
  omitted: boolean;
  /** The part of the arrival's lateness the episodes made on the way in (a canal, a closed port). */
  episodeDelay: number;
}

/**
 * Call k of sailing m, with k counted from call 0 of that sailing and possibly past the end of a cyclic
 * loop (the same ship's next round trip, sailing m + slots): proforma and real times.
 */
export function sailedCall(rotation: Rotation, sailing: number, k: number): SailedCall {
  const count = rotation.calls.length;
  const lap = Math.floor(k / count);
  const index = k % count;
  const own = sailing + lap * rotation.slots;
  const call = rotation.calls[index]!;
  const start = sailingDeparture(rotation, own);
  const omitted = callOmitted(rotation, own, index);
  const trip = sailed(rotation, own);
  // Call 0 is reached at the end of the previous round trip of the same slot.
  const arrival = index === 0 ? sailed(rotation, own - rotation.slots).berth[0]! : trip.berth[index]!;
  return {
    port: call.port,
    index,
    proformaArrival: start + call.arrive,
    proformaDeparture: start + call.depart,
    arrival,
    departure: index === 0 ? trip.departure : trip.leave[index]!,
    omitted,
    episodeDelay:
      (index === 0 ? sailed(rotation, own - rotation.slots).episodeDelay[0] : trip.episodeDelay[index]) ?? 0,
  };
}

/**
 * The first `count` bookable sailings (`isBookable`) of a loop from call k0 to call k1 whose proforma
 * departure from k0 is at or after `notBefore`.
 */
export function bookableSailings(
  rotation: Rotation,
  k0: number,
  k1: number,
  notBefore: number,
  count: number,
): number[] {
  const offset = sailingDeparture(rotation, 0) + rotation.calls[k0 % rotation.calls.length]!.depart;
  const found: number[] = [];
  let sailing = Math.ceil((notBefore - offset) / WEEK);
  for (let tries = 0; found.length < count && tries < 400; tries++, sailing++) {
    if (isBookable(rotation, sailing, k0, k1)) found.push(sailing);
  }
  return found;
}

/** Where a ship is at a moment, on its home slot's sailings. */
export function vesselFix(vessel: Vessel, nowMs: number): VesselFix | undefined {
  fleetRotations();
  const home = homes.get(vessel.imo);
  if (!home) return undefined;
  const { rotation, slot } = home;
  const sinceFirst = nowMs - rotation.firstDeparture - slot * WEEK;
  const lap = Math.floor(sinceFirst / rotation.roundTripMs);
  const sailing = slot + lap * rotation.slots;
  const current = sailed(rotation, sailing);
  const previous = sailed(rotation, sailing - rotation.slots);
  const within = (p: Piece) => nowMs >= p.start && nowMs < p.end;
  // A late round trip runs into the time of the next one: the ship finishes it first.
  const piece = previous.pieces.find(within) ?? current.pieces.find(within) ?? current.pieces[0]!;
  const draught =
    Math.round((10 + 5.5 * Math.min(1, vessel.teu / 24_000) + unitHash("draught", vessel.imo) * 0.8) * 10) /
    10;
  if (piece.kind === "berth") {
    const spot = piece.call.terminal ?? piece.call.port;
    return {
      vessel,
      rotation,
      lat: spot.lat,
      lng: spot.lng,
      speed: 0,
      course: 0,
      heading: Math.round(unitHash("berth-heading", vessel.imo, piece.call.port.unLocode) * 359),
      draught,
      atSea: false,
      atAnchor: false,
      anchoredSince: undefined,
      lastCall: { port: piece.previous, departedAt: piece.departedAt },
      nextCall: { port: piece.call.port, arrivesAt: piece.start },
    };
  }
  const { segment } = piece;
  const total = segment.cumulativeKm[segment.cumulativeKm.length - 1] ?? 0;
  if (piece.kind === "anchor") {
    // The anchorage lies on the approach, about 8 nautical miles out.
    const spot = pointAlong(segment, Math.max(0, total - Math.min(15, total * 0.1)));
    return {
      vessel,
      rotation,
      lat: Math.round(spot.here.lat * 1e5) / 1e5,
      lng: Math.round(spot.here.lng * 1e5) / 1e5,
      speed: 0,
      course: 0,
      heading: Math.round(unitHash("anchor-heading", vessel.imo, Math.floor(nowMs / (6 * HOUR))) * 359),
      draught,
      atSea: true,
      atAnchor: true,
      anchoredSince: piece.start,
      lastCall: { port: piece.from, departedAt: piece.departedAt },
      nextCall: { port: piece.to, arrivesAt: piece.end },
    };
  }
  const fraction = (nowMs - piece.start) / (piece.end - piece.start);
  const { here, towards } = pointAlong(segment, fraction * total);
  const course = Math.round(bearingDegrees(here, towards) * 10) / 10;
  const jitter = unitHash("sog", vessel.imo, Math.floor(nowMs / HOUR)) - 0.5;
  const knots = total / 1.852 / ((piece.end - piece.start) / HOUR);
  return {
    vessel,
    rotation,
    lat: Math.round(here.lat * 1e5) / 1e5,
    lng: Math.round(here.lng * 1e5) / 1e5,
    speed: Math.round((knots + jitter) * 10) / 10,
    course,
    heading: Math.round((course + jitter * 4 + 360) % 360),
    draught,
    atSea: true,
    atAnchor: false,
    anchoredSince: undefined,
    lastCall: { port: piece.from, departedAt: piece.departedAt },
    nextCall: { port: piece.to, arrivesAt: piece.berthAt },
  };
}

/** The point `along` km into a sea segment's path, and the waypoint it heads for. */
function pointAlong(segment: SeaSegment, along: number): { here: LatLng; towards: LatLng } {
  let p = 1;
  while (p < segment.cumulativeKm.length - 1 && segment.cumulativeKm[p]! < along) p++;
  const a = segment.points[p - 1]!;
  const b = segment.points[p]!;
  const legKm = segment.cumulativeKm[p]! - segment.cumulativeKm[p - 1]!;
  return {
    here: greatCirclePoint(a, b, legKm > 0 ? (along - segment.cumulativeKm[p - 1]!) / legKm : 0),
    towards: b,
  };
}

// --- Point-to-point sailings ------------------------------------------------------------------------

/** Whether a carrier sells space on a loop: its own or its group's, as a partner, or in its alliance. */
export function sellsOn(carrier: Carrier, service: LinerService): boolean {
  const profile = profileOf(carrier);
  const group = profile.fleet ?? carrier.scac;
  if (service.operator === group || service.partners.includes(group)) return true;
  if (service.partners.includes(carrier.scac)) return true;
  return (
    profile.alliance !== undefined && profile.alliance !== "MSC" && service.alliance === profile.alliance
  );
}

export interface CallTime {
  call: RotationCall;
  arrive: number;
  depart: number;
}

export interface SailingLeg {
  rotation: Rotation;
  sailing: number;
  vessel: Vessel;
  /** From the origin call to the destination call, both included, with absolute times. */
  calls: CallTime[];
}

export interface SailingRoute {
  legs: SailingLeg[];
}

interface PathTemplate {
  rotation: Rotation;
  /** Indices in call order from origin to destination; may wrap past the end of a cyclic loop. */
  indices: number[];
}

function paths(rotation: Rotation, originCode: string, destinationCode: string): PathTemplate[] {
  const calls = rotation.calls;
  const count = calls.length;
  const out: PathTemplate[] = [];
  calls.forEach((call, i) => {
    if (call.port.unLocode !== originCode) return;
    const indices = [i];
    for (let step = 1; step < count; step++) {
      const k = i + step;
      if (!rotation.service.cyclic && k >= count) return;
      indices.push(k);
      const port = calls[k % count]!.port.unLocode;
      if (port === originCode) return;
      if (port === destinationCode) {
        out.push({ rotation, indices });
        return;
      }
    }
  });
  return out;
}

function callTimes(template: PathTemplate, sailing: number): CallTime[] {
  const { rotation } = template;
  const start = sailingDeparture(rotation, sailing);
  const count = rotation.calls.length;
  return template.indices.map((k) => {
    const call = rotation.calls[k % count]!;
    const lap = Math.floor(k / count) * rotation.roundTripMs;
    return { call, arrive: start + lap + call.arrive, depart: start + lap + call.depart };
  });
}

function leg(template: PathTemplate, sailing: number): SailingLeg {
  return {
    rotation: template.rotation,
    sailing,
    vessel: vesselOfSailing(template.rotation, sailing),
    calls: callTimes(template, sailing),
  };
}

/** Sailings whose departure from the first index falls in [from, to). */
function sailingsLeaving(template: PathTemplate, from: number, to: number): number[] {
  const offset = callTimes(template, 0)[0]!.depart;
  const first = Math.ceil((from - offset) / WEEK);
  const out: number[] = [];
  for (let m = first; offset + m * WEEK < to; m++) out.push(m);
  return out;
}

/** Whether a sailing is named and calls at both ends of the template (no omitted end). */
function bookable(template: PathTemplate, sailing: number): boolean {
  return isBookable(template.rotation, sailing, template.indices[0]!, template.indices.at(-1)!);
}

/**
 * Whether shipments can be booked on sailing m from call k0 to call k1 (counted as in `sailedCall`):
 * the slot has its home ship and the sailing makes both calls.
 */
export function isBookable(rotation: Rotation, sailing: number, k0: number, k1: number): boolean {
  if (!isNamedSailing(rotation, sailing)) return false;
  const count = rotation.calls.length;
  const omits = (k: number) =>
    callOmitted(rotation, sailing + Math.floor(k / count) * rotation.slots, k % count);
  return !omits(k0) && !omits(k1);
}

function firstSailingLeaving(template: PathTemplate, from: number): number {
  let sailing = Math.ceil((from - callTimes(template, 0)[0]!.depart) / WEEK);
  for (let tries = 0; tries < 60 && !bookable(template, sailing); tries++) sailing++;
  return sailing;
}

const CONNECTION_MS = 24 * HOUR;

/**
 * Routes a carrier sells from one port to another whose departure (or arrival) falls in a window:
 * direct sailings, or, when the carrier has none on the pair and transshipment is allowed, one change of
 * ship at a port both loops call (the three shortest such routings), taking the first connection at
 * least a day after arrival.
 */
export function routesBetween(input: {
  carrier: Carrier;
  origin: Port;
  destination: Port;
  from: number;
  to: number;
  by: "departure" | "arrival";
  maxTransshipments: number;
}): SailingRoute[] {
  const sold = fleetRotations().filter((r) => sellsOn(input.carrier, r.service));
  const o = input.origin.unLocode;
  const d = input.destination.unLocode;
  const templates: PathTemplate[][] = sold.flatMap((r) => paths(r, o, d).map((t) => [t]));
  if (templates.length === 0 && input.maxTransshipments >= 1)
    templates.push(...transshipmentTemplates(sold, input));
  const span = input.by === "arrival" ? 120 * DAY : 0;
  const routes: SailingRoute[] = [];
  for (const chain of templates) {
    const [first, ...rest] = chain;
    for (const sailing of sailingsLeaving(first!, input.from - span, input.to)) {
      // Only the sailings the world's ships sail, calling where the route says.
      if (!bookable(first!, sailing)) continue;
      const legs = [leg(first!, sailing)];
      for (const next of rest) {
        const arrivedAt = legs[legs.length - 1]!.calls.at(-1)!.arrive;
        legs.push(leg(next, firstSailingLeaving(next, arrivedAt + CONNECTION_MS)));
      }
      const departure = legs[0]!.calls[0]!.depart;
      const arrival = legs.at(-1)!.calls.at(-1)!.arrive;
      const when = input.by === "arrival" ? arrival : departure;
      if (when >= input.from && when < input.to) routes.push({ legs });
    }
  }
  return routes.sort(
    (a, b) =>
      a.legs[0]!.calls[0]!.depart - b.legs[0]!.calls[0]!.depart ||
      a.legs.at(-1)!.calls.at(-1)!.arrive - b.legs.at(-1)!.calls.at(-1)!.arrive,
  );
}

function transshipmentTemplates(
  sold: readonly Rotation[],
  input: { origin: Port; destination: Port },
): PathTemplate[][] {
  const o = input.origin.unLocode;
  const d = input.destination.unLocode;
  const direct = greatCircleKm(input.origin, input.destination) / 1.852;
  const found: { chain: PathTemplate[]; days: number }[] = [];
  for (const a of sold) {
    const hubs = new Set(a.calls.map((c) => c.port.unLocode).filter((code) => code !== o && code !== d));
    for (const hub of hubs) {
      for (const first of paths(a, o, hub)) {
        for (const b of sold) {
          if (b === a) continue;
          for (const second of paths(b, hub, d)) {
            const one = callTimes(first, 0);
            const two = callTimes(second, 0);
            const sailedNm =
              ((one.at(-1)!.arrive - one[0]!.depart) / HOUR) * a.speedKnots +
              ((two.at(-1)!.arrive - two[0]!.depart) / HOUR) * b.speedKnots;
            if (sailedNm > 2.6 * direct + 2000) continue;
            const days =
              (one.at(-1)!.arrive - one[0]!.depart + two.at(-1)!.arrive - two[0]!.depart) / DAY + 4;
            found.push({ chain: [first, second], days });
          }
        }
      }
    }
  }
  return found
    .sort((x, y) => x.days - y.days)
    .slice(0, 3)
    .map((f) => f.chain);
}

/** Voyage numbers as the carrier writes them: year and week of the loop departure, then the direction. */
export function voyageNumber(carrier: Carrier, legOfRoute: SailingLeg): string {
  const departure = sailingDeparture(legOfRoute.rotation, legOfRoute.sailing);
  const date = new Date(departure);
  const year = date.getUTCFullYear();
  const week = Math.min(52, Math.floor((departure - Date.UTC(year, 0, 1)) / WEEK) + 1);
  const first = legOfRoute.calls[0]!.call.port;
  const second = legOfRoute.calls[1]?.call.port ?? first;
  const direction = voyageDirection(first, second);
  const ww = String(week).padStart(2, "0");
  return profileOf(carrier).voyageStyle === "maersk"
    ? `${year % 10}${ww}${direction}`
    : `${String(year % 100).padStart(2, "0")}${ww}${direction}`;
}
