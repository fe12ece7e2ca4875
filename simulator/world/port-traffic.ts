/**
 * A port's traffic as an AIS receiver around it sees it: the world's own 60 ships that lie at anchor
 * off it or alongside it (fleet.ts), plus the rest of the port's mainline calls, which the world does
 * not name one by one (other operators' ships, feeders of the big hubs). Both queue by the same rules
 * (anchorage.ts), so an episode shows at a port as a growing anchorage.
 *
 * Calls a day [our assumption, scaled on throughput]: about 24 mainline container calls a day at
 * Shanghai, the busiest port (2024: about 51.5 million TEU), falling with the square root of the
 * throughput rank (Singapore 17, the 60th port 3), and 2 a day at ports outside the top 60. Arrivals on
 * a day are Poisson, at any hour. Pure functions of the port and the time.
 */
import { berthAfterEpisodes, normalAnchorageWaitMs } from "./anchorage";
import { type VesselFix, vesselFix } from "./fleet";
import { greatCirclePoint } from "./geo";
import { hash32, unitHash } from "./hash";
import type { Port } from "./ports";
import { VESSELS, type Vessel } from "./vessels";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far back arrivals can still be waiting or alongside (the longest queues last about ten days). */
const LOOKBACK_DAYS = 12;
/** The longest normal wait of an unnamed caller: chronic queues beyond it are cut. */
const MAX_NORMAL_WAIT = 10 * DAY;

export function callsPerDay(port: Port): number {
  if (port.rank === undefined) return 2;
  return Math.max(3, Math.round(24 / Math.sqrt(port.rank)));
}

export interface TrafficVessel {
  mmsi: string;
  imo: string | null;
  name: string;
  status: "at-anchor" | "moored";
  lat: number;
  lng: number;
  /** The port it waits for or lies at. */
  destination: string;
}

/** Poisson draw from a stable coin (inverse transform). */
function poisson(mean: number, ...parts: readonly (string | number)[]): number {
  const u = unitHash("poisson", ...parts);
  let k = 0;
  let p = Math.exp(-mean);
  let cumulative = p;
  while (u > cumulative && k < mean * 5 + 10) {
    k++;
    p *= mean / k;
    cumulative += p;
  }
  return k;
}

interface Call {
  key: string;
  anchoredAt: number;
  berthAt: number;
  leaveAt: number;
}

/**
 * Days of calls kept: a day's calls are asked for by every moment of the 13 days it stays in view, at
 * every port watched (day one's backfill asks 60 ports at a thousand moments). A day's calls are a pure
 * function of the port and the day, so a kept answer is the answer.
 */
const KEPT_CALL_DAYS = 4_096;
const keptCalls = new Map<string, readonly Call[]>();

/** The unnamed mainline calls of one UTC day at a port: when each reaches the anchorage and berths. */
export function unnamedCalls(port: Port, day: number): readonly Call[] {
  const key = `${port.unLocode}:${day}`;
  let calls = keptCalls.get(key);
  if (!calls) {
    calls = callsOfDay(port, day);
    // The oldest kept day goes first (a Map iterates in insertion order).
    if (keptCalls.size >= KEPT_CALL_DAYS) keptCalls.delete(keptCalls.keys().next().value as string);
    keptCalls.set(key, calls);
  }
  return calls;
}

function callsOfDay(port: Port, day: number): Call[] {
  const count = poisson(callsPerDay(port), "port-calls", port.unLocode, day);
  return Array.from({ length: count }, (_, i) => {
    const key = `traffic:${port.unLocode}:${day}:${i}`;
    const ready = day * DAY + Math.floor(unitHash("call-hour", key) * DAY);
    const wait = Math.min(normalAnchorageWaitMs(port, key), MAX_NORMAL_WAIT);
    const berthAt = berthAfterEpisodes(port, ready, ready + wait, key);
    const leaveAt = berthAt + (18 + 10 * unitHash("call-stay", key)) * HOUR;
    return { key, anchoredAt: ready, berthAt, leaveAt };
  });
}

/**
 * The world's own ships at anchor or alongside at one moment, by the port they wait for or lie at. Every
 * port asked about the same moment shares one pass over the fleet (about 0.8 ms of arithmetic, which
 * each port repeated before); the last moment's answer is kept.
 */
let keptMoment: { at: number; byPort: Map<string, { vessel: Vessel; fix: VesselFix }[]> } | null = null;
function namedShipsByPort(nowMs: number): Map<string, { vessel: Vessel; fix: VesselFix }[]> {
  if (keptMoment?.at === nowMs) return keptMoment.byPort;
  const byPort = new Map<string, { vessel: Vessel; fix: VesselFix }[]>();
  for (const vessel of VESSELS) {
    const fix = vesselFix(vessel, nowMs);
    if (!fix || (fix.atSea && !fix.atAnchor)) continue;
    const at = fix.nextCall.port.unLocode;
    const ships = byPort.get(at);
    if (ships) ships.push({ vessel, fix });
    else byPort.set(at, [{ vessel, fix }]);
  }
  keptMoment = { at: nowMs, byPort };
  return byPort;
}

/** Every container ship at anchor off the port or alongside it at a moment. */
export function portTrafficAt(port: Port, nowMs: number): TrafficVessel[] {
  const seen: TrafficVessel[] = [];
  for (const { vessel, fix } of namedShipsByPort(nowMs).get(port.unLocode) ?? []) {
    seen.push({
      mmsi: vessel.mmsi ?? `9${vessel.imo}0`,
      imo: vessel.imo,
      name: vessel.name,
      status: fix.atAnchor ? "at-anchor" : "moored",
      lat: fix.lat,
      lng: fix.lng,
      destination: port.unLocode,
    });
  }
  const today = Math.floor(nowMs / DAY);
  for (let day = today - LOOKBACK_DAYS; day <= today; day++) {
    for (const call of unnamedCalls(port, day)) {
      if (nowMs < call.anchoredAt || nowMs >= call.leaveAt) continue;
      const anchored = nowMs < call.berthAt;
      // The anchorage spreads 5-15 km seaward of the port; berths are at the port.
      const bearing = unitHash("anchor-bearing", port.unLocode) * 2 * Math.PI;
      const reach = anchored ? (5 + 10 * unitHash("anchor-spot", call.key)) / 111 : 0;
      const spot = greatCirclePoint(
        port,
        { lat: port.lat + Math.sin(bearing) * reach * 2, lng: port.lng + Math.cos(bearing) * reach * 2 },
        0.5,
      );
      seen.push({
        mmsi: String(200_000_000 + (hash32("traffic-mmsi", call.key) % 500_000_000)),
        imo: null,
        name: `${port.name
          .toUpperCase()
          .replace(/[^A-Z]+/g, " ")
          .trim()} CALLER ${(hash32("traffic-name", call.key) % 9000) + 1000}`,
        status: anchored ? "at-anchor" : "moored",
        lat: Math.round(spot.lat * 1e5) / 1e5,
        lng: Math.round(spot.lng * 1e5) / 1e5,
        destination: port.unLocode,
      });
    }
  }
  return seen;
}
