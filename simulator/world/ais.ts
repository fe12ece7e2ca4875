/**
 * What an AIS position service has received of a ship: the latest report, which is not always from the
 * moment asked. Ships report every few seconds, but a service's copy lags: terrestrial receivers relay
 * within minutes near the coast, satellites pass over the open sea every hour or so and sometimes miss a
 * ship for hours, and now and then a ship is not heard for a day or more (a transponder switched off or
 * failing, a gap in coverage). The world decides this on purpose, as a pure function of the ship and the
 * time, so the same question always gets the same (possibly old) fix. Rates [our assumption, shaped on
 * the coverage AIS providers describe]:
 * - reports land on a 10-minute grid: a fresh fix is at most about 10 minutes old;
 * - AIS_OUTAGE_SHARE of the 6-hour blocks a ship spends have an outage of 1 to 5 hours (more often at
 *   sea than alongside, where terrestrial receivers hear it);
 * - AIS_GAP_SHARE of a ship's days start a silence of 24 to 72 hours: its latest fix is that old.
 */

import { hash32, unitHash } from "./hash";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const GRID = 10 * MINUTE;
const BLOCK = 6 * HOUR;

/** Share of 6-hour blocks with an outage of 1 to 5 hours. */
export const AIS_OUTAGE_SHARE = 0.12;
/** Share of days on which a silence of 24 to 72 hours begins. */
export const AIS_GAP_SHARE = 0.01;
/** The longest silence: how far back a gap that began earlier can still reach. */
const LONGEST_GAP = 72 * HOUR;

export interface Silence {
  start: number;
  end: number;
  kind: "outage" | "gap";
}

/** The silences of a ship that cover a moment, if any (outages within a block, multi-day gaps). */
export function silenceAt(imo: string, at: number): Silence | undefined {
  for (let day = Math.floor((at - LONGEST_GAP) / DAY); day <= Math.floor(at / DAY); day++) {
    if (unitHash("ais-gap", imo, day) >= AIS_GAP_SHARE) continue;
    const start = day * DAY + Math.floor(unitHash("ais-gap-start", imo, day) * 24) * HOUR;
    const end = start + (24 + (hash32("ais-gap-length", imo, day) % 49)) * HOUR;
    if (at >= start && at < end) return { start, end, kind: "gap" };
  }
  const block = Math.floor(at / BLOCK);
  if (unitHash("ais-outage", imo, block) < AIS_OUTAGE_SHARE) {
    const length = (1 + (hash32("ais-outage-length", imo, block) % 5)) * HOUR;
    const start = block * BLOCK + Math.floor(unitHash("ais-outage-start", imo, block) * (BLOCK - length));
    if (at >= start && at < start + length) return { start, end: start + length, kind: "outage" };
  }
  return undefined;
}

/**
 * The time of the latest report a position service holds of a ship at `now`: the last grid moment not in
 * a silence. Never later than `now`, and never earlier at a later `now` (it only moves forward).
 */
export function latestReportAt(imo: string, now: number): number {
  let at = Math.floor(now / GRID) * GRID;
  for (let guard = 0; guard < 20; guard++) {
    const silence = silenceAt(imo, at);
    if (!silence) return at;
    at = Math.floor((silence.start - 1) / GRID) * GRID;
  }
  return at;
}
