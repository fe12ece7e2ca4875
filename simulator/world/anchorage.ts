/**
 * Anchorage queues: how long a ship lies at anchor before it berths, in normal times and in an episode.
 * Pure functions of the port, the call's key and the time, so positions, DCSA events and tests agree.
 *
 * Normal waits by region [our assumption, shaped on published figures]: most calls at efficient hubs
 * berth on their window and only a share waits (MarineTraffic and Oceanbolt count only ships at anchor
 * for more than 3 h, and the median because lay-ups skew the mean); West and North African gateways
 * queue for days (Kuehne+Nagel port updates: 7 days at Algiers and Djen-Djen, 9 at Dar es Salaam). A
 * waiting ship's time is lognormal around the port's median.
 */

import { chokepointEpisodeAt, episodesBetween } from "./episodes";
import type { Passage } from "./geo";
import { unitHash } from "./hash";
import type { Port, Region } from "./ports";

const HOUR = 3_600_000;
/** After a port reopens its queue takes this long to clear: late arrivals still wait, less and less. */
export const QUEUE_CLEARING_MS = 48 * HOUR;

export interface AnchorageNorm {
  /** Share of calls that anchor before berthing. */
  share: number;
  /** Median wait of the calls that anchor, hours. */
  medianHours: number;
}

const REGION_NORMS: Readonly<Record<Region, AnchorageNorm>> = {
  "east-asia": { share: 0.4, medianHours: 9 },
  "southeast-asia": { share: 0.45, medianHours: 10 },
  "south-asia": { share: 0.55, medianHours: 18 },
  "middle-east": { share: 0.45, medianHours: 14 },
  europe: { share: 0.4, medianHours: 11 },
  "north-africa": { share: 0.6, medianHours: 40 },
  "west-africa": { share: 0.7, medianHours: 60 },
  "north-america": { share: 0.35, medianHours: 10 },
  "central-america": { share: 0.35, medianHours: 9 },
  "south-america": { share: 0.5, medianHours: 16 },
  oceania: { share: 0.45, medianHours: 14 },
};

/** Ports whose published figures differ from their region's. */
const PORT_NORMS: Readonly<Record<string, AnchorageNorm>> = {
  // Kuehne+Nagel port updates, 2024-25: Algiers and Djen-Djen about 7 days, Dar es Salaam about 9.
  DZALG: { share: 0.85, medianHours: 168 },
  DZDJE: { share: 0.85, medianHours: 168 },
  TZDAR: { share: 0.85, medianHours: 216 },
  // Durban's 2023-24 queues (Transnet) and Colombo's 2024 transshipment surge (2-3 days).
  ZADUR: { share: 0.7, medianHours: 72 },
  LKCMB: { share: 0.6, medianHours: 36 },
};

export function anchorageNorm(port: Port): AnchorageNorm {
  return PORT_NORMS[port.unLocode] ?? REGION_NORMS[port.region];
}

/** A standard normal draw from two stable coins (Box-Muller). */
function normalDraw(...parts: readonly (string | number)[]): number {
  const u = Math.max(1e-9, unitHash("normal-u", ...parts));
  const v = unitHash("normal-v", ...parts);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Normal-time wait of one call at anchor before its berth window, in ms (0: berths on arrival). */
export function normalAnchorageWaitMs(port: Port, callKey: string): number {
  const norm = anchorageNorm(port);
  if (unitHash("anchorage-waits", port.unLocode, callKey) >= norm.share) return 0;
  const hours = norm.medianHours * Math.exp(0.55 * normalDraw("anchorage-wait", port.unLocode, callKey));
  return Math.round(Math.min(hours, norm.medianHours * 4) * 4) * (HOUR / 4);
}

/**
 * When a ship that reached the anchorage at `anchoredAt` with a berth window at `window` really berths,
 * given the port's episodes: a closed port berths nobody until it reopens, then works its queue off over
 * two days; a strike leaves a third of the berth capacity, so the wait grows with the time left; ships
 * arriving while the queue clears still wait, less and less.
 */
export function berthAfterEpisodes(port: Port, anchoredAt: number, window: number, callKey: string): number {
  let berth = Math.max(anchoredAt, window);
  const coin = unitHash("episode-queue", port.unLocode, callKey);
  for (const episode of episodesBetween(anchoredAt - QUEUE_CLEARING_MS, anchoredAt + 1)) {
    if (!episode.ports.includes(port.unLocode)) continue;
    const start = episode.start.getTime();
    const end = episode.end.getTime();
    if (anchoredAt < start) continue;
    const share = episode.facts.berthCapacityShare;
    if (anchoredAt < end) {
      const held = episode.facts.portClosed
        ? end - anchoredAt + coin * QUEUE_CLEARING_MS
        : (end - anchoredAt) * (1 - share) + coin * 24 * HOUR;
      berth = Math.max(berth, anchoredAt + held);
    } else {
      const left = 1 - (anchoredAt - end) / QUEUE_CLEARING_MS;
      const backlog = episode.facts.portClosed ? 36 * HOUR : 18 * HOUR;
      berth = Math.max(berth, anchoredAt + left * coin * backlog);
    }
  }
  return Math.round(berth / 60_000) * 60_000;
}

/** Extra sailing time of a leg through restricted passages, given when the ship reaches them. */
export function passageDelayMs(passages: readonly Passage[], reachedAt: number): number {
  let delay = 0;
  for (const passage of passages) {
    const episode = chokepointEpisodeAt(passage, reachedAt);
    if (episode) delay += episode.facts.transitDelayHours * HOUR;
  }
  return delay;
}
