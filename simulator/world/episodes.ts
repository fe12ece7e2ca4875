/**
 * The world's dated episodes: a typhoon that closes Shanghai and Ningbo-Zhoushan, a strike at a European
 * port and a canal restriction, as a deterministic calendar. The calendar repeats every episode cycle
 * (13 weeks counted from the fleet epoch, so four "seasons" a year) with per-cycle variation drawn from
 * the cycle number: start hour, duration, which European port strikes, which canal is restricted. Any
 * clock time therefore has a recent history of episodes, and the same time always has the same ones.
 *
 * This is the world's ground truth: the anchorage queues (anchorage.ts), the ships' positions
 * (fleet.ts), the shipments' ETA slips (shipment-timeline.ts) and the disruption news feed all read it,
 * and tests read it to know what the service should have noticed. Pure functions of the time.
 *
 * Figures: Shanghai and Ningbo waits of 24-72 h with 123-160 ships at anchor after typhoon closures
 * (Kuehne+Nagel port updates, Dec 2024 and Apr 2025); European port strikes of 24-72 h (Antwerp pilots,
 * Oct 2024; Rotterdam lashers, Oct 2024; Hamburg ver.di warning strikes, Jun-Jul 2024); Panama Canal
 * draught and transit restrictions (2023-24 drought) adding days of queue at the locks.
 */
import type { Passage } from "./geo";
import { unitHash } from "./hash";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The calendar counts from Monday 2024-01-01 (the fleet epoch) and repeats every 13 weeks. */
export const EPISODE_EPOCH = Date.UTC(2024, 0, 1);
export const EPISODE_CYCLE_MS = 13 * 7 * DAY;

export type EpisodeKind = "typhoon" | "strike" | "canal_restriction";

export interface Episode {
  /** Stable id: kind and the cycle's first day, e.g. `typhoon-2026-09-28`. */
  id: string;
  kind: EpisodeKind;
  /** UN/LOCODEs of the ports it closes or slows; empty for a canal restriction. */
  ports: readonly string[];
  /** The canal or strait it restricts; null for a port episode. */
  chokepoint: Passage | null;
  start: Date;
  /** Exclusive: the port reopens (or the canal returns to normal) at this instant. */
  end: Date;
  title: string;
  facts: EpisodeFacts;
}

export interface EpisodeFacts {
  /** What happened, in a sentence a news item could carry. */
  cause: string;
  /** A typhoon closes its ports: no ship berths until the end. */
  portClosed: boolean;
  /**
   * Share of normal berth capacity left while it lasts: 0 when closed, about a third in a strike (work
   * to rule, one shift), 1 for a canal restriction (ports are unaffected).
   */
  berthCapacityShare: number;
  /** Extra hours a ship spends to pass a restricted canal (queue at the locks); 0 for port episodes. */
  transitDelayHours: number;
  /** The country the episode happens in (ISO 3166 alpha-2), or null for a canal or one across two countries. */
  countryCode: string | null;
}

interface Template {
  kind: EpisodeKind;
  /** Day of the cycle the episode starts on. */
  startDay: number;
  build(cycle: number): Omit<Episode, "id" | "kind" | "start" | "end"> & { durationMs: number };
}

const STRIKE_PORTS = [
  { code: "BEANR", name: "Antwerp-Bruges", country: "BE", who: "pilots" },
  { code: "NLRTM", name: "Rotterdam", country: "NL", who: "lashers" },
  { code: "DEHAM", name: "Hamburg", country: "DE", who: "port workers (warning strike)" },
  { code: "FRLEH", name: "Le Havre", country: "FR", who: "dockers" },
] as const;

const CANALS = [
  { chokepoint: "panama", name: "Panama Canal", cause: "drought lowers Gatun Lake: fewer daily transits" },
  { chokepoint: "suez", name: "Suez Canal", cause: "a grounded ship blocks the southbound convoy" },
] as const;

/**
 * Episodes outside the calendar, each on its own date (issue 36): held out for the congestion
 * benchmark's judgement, so a rule tuned on the calendar's typhoons and strikes is measured on ports and
 * hours it never saw. Dated after every window any test or bench split read before they were added (the
 * last, 2027-02-18), in a stretch of the calendar with no port episode (the cycle's canal restriction
 * touches no port), so nothing measured before moves. An early-season typhoon over the Taiwan Strait
 * closes Kaohsiung and Xiamen for three and a half days, ending at 22:00 UTC: between two of the
 * benchmark's 3-hourly readings, with the news of the reopening (3 hours after the end) after the next.
 */
const ONE_OFF_EPISODES: readonly Episode[] = [
  {
    id: "typhoon-2027-03-22",
    kind: "typhoon",
    ports: ["TWKHH", "CNXMN"],
    chokepoint: null,
    start: new Date("2027-03-22T10:00:00Z"),
    end: new Date("2027-03-25T22:00:00Z"),
    title: "Typhoon closes Kaohsiung and Xiamen",
    facts: {
      cause: "typhoon: terminals suspend berthing and yard operations",
      portClosed: true,
      berthCapacityShare: 0,
      transitDelayHours: 0,
      countryCode: null,
    },
  },
];

/** Every port an episode can ever touch: others skip the calendar altogether. */
export const EPISODE_PORTS: ReadonlySet<string> = new Set([
  "CNSHA",
  "CNNGB",
  ...STRIKE_PORTS.map((p) => p.code),
  ...ONE_OFF_EPISODES.flatMap((e) => e.ports),
]);
/** Every passage an episode can ever restrict. */
export const EPISODE_PASSAGES: ReadonlySet<Passage> = new Set(CANALS.map((c) => c.chokepoint));

/** The three episodes of every cycle, in calendar order. */
const TEMPLATES: readonly Template[] = [
  {
    kind: "typhoon",
    startDay: 16,
    build(cycle) {
      const durationMs = (3 + Math.floor(unitHash("episode-typhoon-days", cycle) * 3)) * DAY;
      return {
        ports: ["CNSHA", "CNNGB"],
        chokepoint: null,
        title: "Typhoon closes Shanghai and Ningbo-Zhoushan",
        durationMs,
        facts: {
          cause: "typhoon: terminals suspend berthing and yard operations",
          portClosed: true,
          berthCapacityShare: 0,
          transitDelayHours: 0,
          countryCode: "CN",
        },
      };
    },
  },
  {
    kind: "strike",
    startDay: 45,
    build(cycle) {
      const port = STRIKE_PORTS[Math.floor(unitHash("episode-strike-port", cycle) * STRIKE_PORTS.length)]!;
      const durationMs = (2 + Math.floor(unitHash("episode-strike-days", cycle) * 2)) * DAY;
      return {
        ports: [port.code],
        chokepoint: null,
        title: `Strike at ${port.name}`,
        durationMs,
        facts: {
          cause: `strike by ${port.who}: berths worked at a third of capacity`,
          portClosed: false,
          berthCapacityShare: 1 / 3,
          transitDelayHours: 0,
          countryCode: port.country,
        },
      };
    },
  },
  {
    kind: "canal_restriction",
    startDay: 68,
    build(cycle) {
      const canal = CANALS[Math.floor(unitHash("episode-canal", cycle) * CANALS.length)]!;
      const durationMs = (6 + Math.floor(unitHash("episode-canal-days", cycle) * 5)) * DAY;
      return {
        ports: [],
        chokepoint: canal.chokepoint,
        title: `${canal.name} restricts transits`,
        durationMs,
        facts: {
          cause: canal.cause,
          portClosed: false,
          berthCapacityShare: 1,
          transitDelayHours: 36 + Math.round(unitHash("episode-canal-delay", cycle) * 36),
          countryCode: null,
        },
      };
    },
  },
];

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function cycleOf(ms: number): number {
  return Math.floor((ms - EPISODE_EPOCH) / EPISODE_CYCLE_MS);
}

const cycleCache = new Map<number, readonly Episode[]>();

/** The episodes of one cycle, in start order. */
export function episodesOfCycle(cycle: number): readonly Episode[] {
  const cached = cycleCache.get(cycle);
  if (cached) return cached;
  const cycleStart = EPISODE_EPOCH + cycle * EPISODE_CYCLE_MS;
  const episodes = TEMPLATES.map((template): Episode => {
    // Episodes start between 00:00 and 18:00 UTC of their day, drawn per cycle.
    const start =
      cycleStart +
      template.startDay * DAY +
      Math.floor(unitHash("episode-hour", template.kind, cycle) * 18) * HOUR;
    const { durationMs, ...rest } = template.build(cycle);
    return {
      id: `${template.kind}-${isoDay(cycleStart + template.startDay * DAY)}`,
      kind: template.kind,
      ...rest,
      start: new Date(start),
      end: new Date(start + durationMs),
    };
  });
  if (cycleCache.size > 256) cycleCache.clear();
  cycleCache.set(cycle, episodes);
  return episodes;
}

/** Episodes overlapping [from, to): started before `to` and not ended at `from`, in start order. */
export function episodesBetween(from: Date | number, to: Date | number): Episode[] {
  const fromMs = typeof from === "number" ? from : from.getTime();
  const toMs = typeof to === "number" ? to : to.getTime();
  if (!(toMs > fromMs)) return [];
  const found: Episode[] = [];
  // No episode lasts a cycle, so the cycle before `from` is the earliest that can still be running.
  for (let cycle = cycleOf(fromMs) - 1; cycle <= cycleOf(toMs); cycle++) {
    for (const episode of episodesOfCycle(cycle)) {
      if (episode.start.getTime() < toMs && episode.end.getTime() > fromMs) found.push(episode);
    }
  }
  const oneOff = ONE_OFF_EPISODES.filter((e) => e.start.getTime() < toMs && e.end.getTime() > fromMs);
  if (oneOff.length === 0) return found;
  return [...found, ...oneOff].sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Episodes running at an instant. */
export function episodesActiveAt(time: Date | number): Episode[] {
  const ms = typeof time === "number" ? time : time.getTime();
  return episodesBetween(ms, ms + 1);
}

/** The port episode (typhoon or strike) touching a port at an instant, if any. */
export function portEpisodeAt(unLocode: string, time: number): Episode | undefined {
  return episodesActiveAt(time).find((episode) => episode.ports.includes(unLocode));
}

/** The latest port episode at a port that started at or before `time`, looking back `withinMs`. */
export function lastPortEpisode(unLocode: string, time: number, withinMs: number): Episode | undefined {
  return episodesBetween(time - withinMs, time + 1)
    .filter((episode) => episode.ports.includes(unLocode) && episode.start.getTime() <= time)
    .at(-1);
}

/** The canal restriction on a passage running at an instant, if any. */
export function chokepointEpisodeAt(passage: Passage, time: number): Episode | undefined {
  return episodesActiveAt(time).find((episode) => episode.chokepoint === passage);
}
