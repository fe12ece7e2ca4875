/**
 * Route: the liner loops a shipment sails, with a transshipment where two loops share a call.
 */
import type { Carrier } from "../../../reference-data/carriers";
import type { CarrierProfile } from "../carrier-profiles";
import { greatCircleKm, type Passage, seaDistanceNm } from "../geo";
import type { SeededRandom } from "../hash";
import { type Port, portByCode } from "../ports";
import { LINER_SERVICES, type LinerService } from "../services";

export interface PathStop {
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

export interface RouteLeg {
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

export function chooseRoute(rng: SeededRandom, carrier: Carrier, profile: CarrierProfile): RouteLeg[] {
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
