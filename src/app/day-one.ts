/**
 * Day one of an embedded install (issue 36): the world's recent past, sampled once at first start in
 * the background, so the congestion board, per-port readings with their 90-day history, predictive
 * ETA, terminal records, D&D and disruption matches are there within minutes instead of after the
 * eight days the baselines need (docs/day-one.md).
 *
 * What it does, in order:
 * 1. tracks a few dozen of the simulator's shipments for the demo organisation (arrived in the last
 *    three months at the ports where the world's lines call most, and some still at sea): the shipment
 *    signals of congestion (dwell, ETA slip, schedule deviation) and the demo's dashboard come from them;
 * 2. samples every watched port's AIS area over the baseline window (97 days) in memory, with the
 *    anchorage sampler's rules (anchorage-sampler.ts), hourly over the last two weeks and every three
 *    hours before (the far past only feeds baselines);
 * 3. turns each past day into its signals and reading with the congestion rules' own pure functions
 *    (signals.ts, scoring.ts), and writes everything in a few batch inserts;
 * 4. lets the congestion service score today itself, so the board's newest readings are its own.
 *
 * Why in memory and not through the service one sighting at a time: measured on this project's
 * 2-core machine, one `samplePort` costs about 40 ms and one `scorePortNow` about 70 ms on PGlite;
 * 60 ports over 97 days would take over half an hour. The same past computed in memory and inserted
 * in batches takes well under a minute (docs/day-one.md has the timings).
 */
import { randomUUID } from "node:crypto";
import { startSimulator } from "../../simulator/server";
import { portAreaAnswer } from "../../simulator/vessel-positions";
import { actualArrivalAtPod, knownShipments, type Shipment } from "../../simulator/world/world";
import type { AppConfig } from "../config";
import type { SqlRunner } from "../db/database";
import { DEMO_ORGANIZATION, type DemoOutcome } from "../domain/accounts/demo";
import { planOf } from "../domain/accounts/plans";
import type { Principal } from "../domain/accounts/principal";
import { LOST_AFTER_MS, SAME_CALL_MS } from "../domain/congestion/anchorage-sampler";
import { CongestionService } from "../domain/congestion/congestion.service";
import type { AreaVessel } from "../domain/congestion/port-area-source";
import {
  BASELINE_DAYS,
  BASELINE_GAP_DAYS,
  type ComponentReading,
  scoreDaySignals,
  shiftDay,
  trend7d,
} from "../domain/congestion/scoring";
import {
  type DaySignals,
  daySignals,
  type PortShipmentObservations,
  proformaDates,
  type ShipmentObservation,
  scheduleDeviationHours,
  type VesselArrival,
} from "../domain/congestion/signals";
import type { LookupUpstreams } from "../domain/lookups/lookups";
import { findPort } from "../domain/ports/port-directory";
import type { ScheduledPortCall, ScheduleSource } from "../domain/schedules/schedule-source";
import type { TrackingService } from "../domain/tracking/tracking.service";
import { ManualClock } from "../lib/clock";
import type { Logger } from "../observability/logger";
import { createCarrierTracker, loadCarrierRegistry } from "../upstream/carriers/carrier-registry";
import { mapSimulatorArea } from "../upstream/vessels/simulator-port-area.adapter";
import { createServices, type Services } from "./services";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days of readings the history holds (the contract's 90-day history). */
export const HISTORY_DAYS = 90;
/**
 * Days sampled: today's baseline reaches back 90 days before the last 7, and the oldest reading of
 * the 90-day history needs a baseline of its own (at least the 14 days bunching looks at).
 */
export const SAMPLED_DAYS = BASELINE_DAYS + BASELINE_GAP_DAYS + 14;
/** The recent past is sampled at the live sampler's own step; before it, every 3 hours. */
const RECENT_DAYS = 14;
/**
 * At most 6 hours: the sampler ends a wait whose vessel was not seen for 6 hours, so a coarser step
 * would end every wait at its first sighting. 3 hours keeps waits of 3 hours and more (the only ones
 * that count) visible at both ends.
 */
export const FAR_PAST_STEP_MS = 3 * HOUR_MS;
/** Rows per insert: each column travels as one array parameter (`unnest`), so a batch is one statement. */
const BATCH_ROWS = 20_000;

/** Who is at anchor off a port or alongside it at a moment: the simulator's port area, read in-process. */
export type PastPortArea = (locode: string, at: number) => AreaVessel[] | null;

/** The simulator's port area at any moment (its answer is a pure function of the port and the time). */
export const simulatorPastPortArea: PastPortArea = (locode, at) => {
  const answer = portAreaAnswer(new URLSearchParams({ port: locode }), at);
  if (answer.status !== 200) return null;
  const mapped = mapSimulatorArea(answer.body);
  return typeof mapped === "string" ? null : mapped.vessels;
};

export interface DayOneReport {
  ms: number;
  phases: Record<string, number>;
  shipmentsTracked: number;
  ports: number;
  sightings: number;
  waits: number;
  arrivals: number;
  signals: number;
  readings: number;
  /** Ports on the board after today's scoring, and how many of them read all five components. */
  boardPorts: number;
  boardPortsWithAllComponents: number;
}

/** The server stopped while day one sampled: nothing of the past was written. */
export class DayOneStopped extends Error {
  constructor() {
    super("day one stopped before the recent past was written");
  }
}

/** Whether this database still needs its day one: nothing sampled yet. */
export async function needsDayOne(services: Services): Promise<boolean> {
  const [signals, waits] = await Promise.all([
    services.db.prisma.portCongestionSignal.count(),
    services.db.prisma.portAnchorageWait.count(),
  ]);
  return signals === 0 && waits === 0;
}

/** Yields to the event loop: the sampling never holds a request up for long. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function sampleRecentPast(input: {
  services: Services;
  /** The demo organisation's owner: the tracked shipments are theirs. Null: no shipments tracked. */
  demo: Principal | null;
  portArea: PastPortArea;
  scheduleSources: readonly ScheduleSource[];
  logger: Logger;
  /** Carriers whose shipments the demo tracks (those with schedules, for the schedule deviation). */
  carriers: readonly string[];
  /** Stop between steps (the server stopping); what was written stays. */
  stop?: AbortSignal;
  /**
   * Tracking at a moment of the past (the same database, a simulator on a clock set back): the demo's
   * arrived shipments are first tracked as they sailed. Absent: tracked only now.
   */
  past?: { clock: ManualClock; tracking: TrackingService };
  /**
   * Exactly these ports, sampled and scored (the sandbox world's board), instead of the watched set
   * (the 60 largest and the tracked shipments' ports).
   */
  ports?: readonly string[];
}): Promise<DayOneReport> {
  const { services, logger } = input;
  const started = performance.now();
  const phases: Record<string, number> = {};
  const phase = (name: string) => {
    phases[name] = Math.round(performance.now() - started);
  };
  const now = services.clock.now().getTime();

  let shipmentsTracked = 0;
  if (input.demo) {
    const demo = input.demo;
    const picks = await pickDemoShipments(input.carriers, now);
    phase("picked");
    const track = (tracking: TrackingService, pick: DemoShipmentPick) =>
      tracking
        .track(demo, {
          reference: pick.reference,
          type: "booking",
          carrier: pick.scac,
          freshness: "fetch",
          surface: "v1",
        })
        .catch((error: unknown) => {
          logger.warn({ err: error, reference: pick.reference }, "Day one: a demo shipment was not tracked");
          return null;
        });
    // Followed from before they arrived, as a customer's would have been: the first ETA the carrier
    // gave is in the shipment's history, so its arrival reads as an ETA slip (the carrier answers only
    // the actual arrival once the ship is in).
    if (input.past) {
      for (const pick of picks
        .filter((p) => p.arrival < now)
        .sort((a, b) => a.followedFrom - b.followedFrom)) {
        if (input.stop?.aborted) break;
        input.past.clock.set(pick.followedFrom);
        await track(input.past.tracking, pick);
      }
    }
    phase("followed");
    for (const pick of picks) {
      if (input.stop?.aborted) break;
      if ((await track(services.tracking, pick))?.kind === "tracked") shipmentsTracked++;
    }
  }
  phase("shipments");

  const watched = input.ports ? [...input.ports] : await watchedPorts(services, now);

  // 2. The AIS areas, in memory.
  const today = dayOf(now);
  const firstDay = shiftDay(today, -SAMPLED_DAYS);
  const start = dayStart(firstDay);
  const recentFrom = dayStart(shiftDay(today, -RECENT_DAYS));
  const step = Math.min(services.config.congestion.sampleEveryMs, FAR_PAST_STEP_MS);
  const logs = new Map(watched.map((locode) => [locode, new AreaLog(locode)]));
  // Whole steps back from now, so the last sighting is now's and the live sampler continues from it.
  const moments: number[] = [];
  for (let t = now; t >= recentFrom; t -= step) moments.push(t);
  const lastRecent = moments.at(-1) ?? now;
  for (let t = lastRecent - FAR_PAST_STEP_MS; t >= start; t -= FAR_PAST_STEP_MS) moments.push(t);
  moments.reverse();
  let sightings = 0;
  for (const at of moments) {
    if (input.stop?.aborted) break;
    for (const log of logs.values()) {
      const vessels = input.portArea(log.locode, at);
      if (vessels) {
        log.sight(vessels, at);
        sightings++;
      }
    }
    // One moment of every port is a few milliseconds of the simulator's arithmetic: requests go in between.
    await breathe();
  }
  phase("sampled");

  // 3. Each closed day's signals and reading, per port.
  const backfill = new CongestionService({
    prisma: services.db.prisma,
    clock: new ManualClock(now),
    logger,
    areaSources: [],
    sampleEveryMs: services.config.congestion.sampleEveryMs,
  });
  const schedules = new ProformaCalls(input.scheduleSources, logger);
  const signalRows: SignalRow[] = [];
  const readingRows: ReadingRow[] = [];
  const signalsByPort = new Map<string, Map<string, DaySignals>>();
  const readingsByPort = new Map<string, { day: string; score: number }[]>();
  for (let day = shiftDay(firstDay, 1); day < today; day = shiftDay(day, 1)) {
    if (input.stop?.aborted) break;
    const end = dayStart(shiftDay(day, 1));
    const shipments = await backfill.shipmentSignals(end);
    for (const log of logs.values()) {
      const locode = log.locode;
      const observed = shipments.byPort.get(locode);
      const deviations = await schedules.deviations(locode, shipments.arrivals.get(locode) ?? []);
      const observations: PortShipmentObservations | undefined =
        observed || deviations.length > 0
          ? {
              dwellDays: observed?.dwellDays ?? [],
              etaSlipHours: observed?.etaSlipHours ?? [],
              scheduleDeviationHours: deviations,
            }
          : undefined;
      const signals = log.signalsAt(end, observations);
      const byDay = signalsByPort.get(locode) ?? new Map<string, DaySignals>();
      byDay.set(day, signals);
      signalsByPort.set(locode, byDay);
      signalRows.push({ locode, day, signals, computedAt: end });
      if (day < shiftDay(today, -(HISTORY_DAYS - 1))) continue;
      const history = readingsByPort.get(locode) ?? [];
      const reading = readingOf({ locode, day, end, byDay, history });
      if (reading) {
        history.push({ day, score: reading.score });
        readingsByPort.set(locode, history);
        readingRows.push(reading);
      }
    }
    await breathe();
  }
  phase("scored");

  // Stopped before the past was complete: nothing is written, so the next start samples it whole
  // (`needsDayOne` looks for written waits and signals).
  if (input.stop?.aborted) throw new DayOneStopped();
  const waits = [...logs.values()].flatMap((log) => log.waitRows());
  const arrivals = [...logs.values()].flatMap((log) => log.arrivalRows());
  const { sql } = services.db;
  await insertRows(sql, "port_anchorage_waits", WAIT_COLUMNS, waits);
  await insertRows(sql, "port_arrivals", ARRIVAL_COLUMNS, arrivals);
  await insertRows(sql, "port_congestion_signals", SIGNAL_COLUMNS, signalRows);
  await insertRows(sql, "port_congestion_readings", READING_COLUMNS, readingRows);
  phase("written");

  // 4. Today, by the congestion service itself (its newest readings are the board's).
  let boardPorts = 0;
  let boardPortsWithAllComponents = 0;
  for (const locode of watched) {
    if (input.stop?.aborted) break;
    const item = await services.congestion.scorePortNow(locode);
    if (item) {
      boardPorts++;
      if (item.components.length === 5) boardPortsWithAllComponents++;
    }
  }
  phase("today");

  const report: DayOneReport = {
    ms: Math.round(performance.now() - started),
    phases,
    shipmentsTracked,
    ports: watched.length,
    sightings,
    waits: waits.length,
    arrivals: arrivals.length,
    signals: signalRows.length,
    readings: readingRows.length,
    boardPorts,
    boardPortsWithAllComponents,
  };
  return report;
}

/** The live service's watched set: the 60 largest ports and those the tracked shipments call at. */
async function watchedPorts(services: Services, now: number): Promise<string[]> {
  await services.congestion.ensureWatched();
  // Ports the tracked shipments call at are watched too (the service's own rule).
  await services.congestion.followShipments(now);
  const rows = await services.db.prisma.portCongestionSchedule.findMany({
    select: { locode: true },
    orderBy: { locode: "asc" },
  });
  return rows.map((r) => r.locode);
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

function* batches<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) yield rows.slice(i, i + BATCH_ROWS);
}

interface SignalRow {
  locode: string;
  day: string;
  signals: DaySignals;
  computedAt: number;
}

interface ReadingRow {
  locode: string;
  day: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  score: number;
  bucket: string;
  tier: string;
  trend7d: number;
  vesselsWaiting: number;
  medianAnchorageWaitH: number | null;
  longestWaitDays: number | null;
  components: readonly ComponentReading[];
  computedAt: number;
}

/** A column of a batch insert: its name, its PostgreSQL type and its value in a row. */
type Column<T> = readonly [name: string, type: string, value: (row: T) => unknown];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Inserts rows column by column (`INSERT ... SELECT * FROM unnest($1::type[], ...)`): one statement
 * and one parameter per column for thousands of rows, where a multi-row VALUES list costs a parameter
 * per value. The same statement runs on PGlite and PostgreSQL.
 */
async function insertRows<T>(
  sql: SqlRunner,
  table: string,
  columns: readonly Column<T>[],
  rows: readonly T[],
): Promise<void> {
  const names = columns.map(([name]) => `"${name}"`).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  const text = `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${arrays}) ON CONFLICT DO NOTHING`;
  for (const batch of batches(rows)) {
    await sql.query(
      text,
      columns.map(([, , value]) => batch.map(value)),
    );
  }
}

const WAIT_COLUMNS: readonly Column<Wait & { locode: string }>[] = [
  ["id", "text", () => randomUUID()],
  ["locode", "text", (w) => w.locode],
  ["vessel_key", "text", (w) => w.vesselKey],
  ["anchored_at", "timestamp(3)", (w) => iso(w.anchoredAt)],
  ["last_seen_at", "timestamp(3)", (w) => iso(w.lastSeenAt)],
  ["berthed_at", "timestamp(3)", (w) => iso(w.berthedAt)],
];

const ARRIVAL_COLUMNS: readonly Column<{ locode: string; vesselKey: string; at: number }>[] = [
  ["locode", "text", (a) => a.locode],
  ["vessel_key", "text", (a) => a.vesselKey],
  ["arrived_at", "timestamp(3)", (a) => iso(a.at)],
];

const SIGNAL_COLUMNS: readonly Column<SignalRow>[] = [
  ["locode", "text", (r) => r.locode],
  ["day", "date", (r) => r.day],
  ["anchorage_wait_h", "float8", (r) => r.signals.anchorageWaitH],
  ["anchorage_n", "int4", (r) => r.signals.anchorageN],
  ["dwell_d", "float8", (r) => r.signals.dwellD],
  ["dwell_n", "int4", (r) => r.signals.dwellN],
  ["eta_slip_h", "float8", (r) => r.signals.etaSlipH],
  ["eta_slip_n", "int4", (r) => r.signals.etaSlipN],
  ["schedule_deviation_h", "float8", (r) => r.signals.scheduleDeviationH],
  ["schedule_deviation_n", "int4", (r) => r.signals.scheduleDeviationN],
  ["bunching", "float8", (r) => r.signals.bunching],
  ["arrivals", "int4", (r) => r.signals.arrivals],
  ["vessels_waiting", "int4", (r) => r.signals.vesselsWaiting],
  ["longest_wait_h", "float8", (r) => r.signals.longestWaitH],
  ["newest_input_at", "timestamp(3)", (r) => iso(r.signals.newestInputAt?.getTime() ?? null)],
  ["computed_at", "timestamp(3)", (r) => iso(r.computedAt)],
];

const READING_COLUMNS: readonly Column<ReadingRow>[] = [
  ["locode", "text", (r) => r.locode],
  ["day", "date", (r) => r.day],
  // History: the service's own score of today is the one flagged latest.
  ["latest", "bool", () => false],
  ["name", "text", (r) => r.name],
  ["country", "text", (r) => r.country],
  ["lat", "float8", (r) => r.lat],
  ["lng", "float8", (r) => r.lng],
  ["score", "int4", (r) => r.score],
  ["bucket", "text", (r) => r.bucket],
  ["tier", "text", (r) => r.tier],
  ["trend_7d", "float8", (r) => r.trend7d],
  ["vessels_waiting", "int4", (r) => r.vesselsWaiting],
  ["median_anchorage_wait_h", "float8", (r) => r.medianAnchorageWaitH],
  ["longest_wait_days", "float8", (r) => r.longestWaitDays],
  ["components", "jsonb", (r) => JSON.stringify(r.components)],
  ["computed_at", "timestamp(3)", (r) => iso(r.computedAt)],
];

interface Wait {
  vesselKey: string;
  anchoredAt: number;
  lastSeenAt: number;
  berthedAt: number | null;
}

/**
 * One port's sightings turned into anchorage waits and arrivals, by the rules of `recordSighting`
 * (anchorage-sampler.ts), held in memory: a vessel first seen at anchor opens a wait, seen again
 * extends it, seen alongside closes it; a wait whose vessel was not seen for 6 hours ended when it
 * was last seen; a vessel's first sighting in 48 hours is an arrival.
 */
export class AreaLog {
  private readonly waits: Wait[] = [];
  private readonly open = new Map<string, Wait>();
  private readonly arrivals: { vesselKey: string; at: number }[] = [];
  private readonly lastArrival = new Map<string, number>();
  private readonly lastWaitSeen = new Map<string, number>();

  constructor(readonly locode: string) {}

  sight(vessels: readonly AreaVessel[], at: number): void {
    for (const [key, wait] of this.open) {
      if (wait.lastSeenAt < at - LOST_AFTER_MS) {
        wait.berthedAt = wait.lastSeenAt;
        this.open.delete(key);
      }
    }
    const since = at - SAME_CALL_MS;
    const sameCall = (key: string) =>
      this.open.has(key) ||
      (this.lastArrival.get(key) ?? -Infinity) >= since ||
      (this.lastWaitSeen.get(key) ?? -Infinity) >= since;
    const arrived = vessels.filter((v) => !sameCall(v.key)).map((v) => v.key);
    for (const vessel of vessels) {
      const wait = this.open.get(vessel.key);
      if (vessel.status === "at-anchor") {
        if (wait) wait.lastSeenAt = at;
        else {
          const opened = { vesselKey: vessel.key, anchoredAt: at, lastSeenAt: at, berthedAt: null };
          this.waits.push(opened);
          this.open.set(vessel.key, opened);
        }
        this.lastWaitSeen.set(vessel.key, at);
      } else if (wait) {
        wait.berthedAt = at;
        wait.lastSeenAt = at;
        this.open.delete(vessel.key);
        this.lastWaitSeen.set(vessel.key, at);
      }
    }
    for (const key of new Set(arrived)) {
      this.arrivals.push({ vesselKey: key, at });
      this.lastArrival.set(key, at);
    }
  }

  /** The day's signals as the service computes them at `end` (congestion.service.ts `storeSignals`). */
  signalsAt(end: number, shipments: PortShipmentObservations | undefined): DaySignals {
    const waits = this.waits
      .filter((w) => w.anchoredAt < end && (w.berthedAt === null || w.berthedAt >= end - 7 * DAY_MS))
      .map((w) => ({
        anchoredAt: new Date(w.anchoredAt),
        lastSeenAt: new Date(w.lastSeenAt),
        berthedAt: w.berthedAt === null ? null : new Date(w.berthedAt),
      }));
    const arrivals = this.arrivals
      .filter((a) => a.at >= end - 14 * DAY_MS && a.at < end)
      .map((a) => new Date(a.at));
    return daySignals({
      end,
      waits,
      arrivals,
      shipments,
      stillOpenAfter: end - 6 * HOUR_MS,
      watchedSince: this.arrivals[0]?.at,
    });
  }

  waitRows(): (Wait & { locode: string })[] {
    return this.waits.map((w) => ({ ...w, locode: this.locode }));
  }

  arrivalRows(): { locode: string; vesselKey: string; at: number }[] {
    return this.arrivals.map((a) => ({ ...a, locode: this.locode }));
  }
}

/**
 * One closed day's reading, by the rules of the service's `scoreDay`: each component against the
 * 90 days before the last 7, scored with `scorePort`, the trend against the readings before it.
 */
function readingOf({
  locode,
  day,
  end,
  byDay,
  history,
}: {
  locode: string;
  day: string;
  end: number;
  byDay: ReadonlyMap<string, DaySignals>;
  history: readonly { day: string; score: number }[];
}): ReadingRow | null {
  const port = findPort(locode);
  const todayRow = byDay.get(day);
  if (!todayRow || !port || port.lat === null || port.lng === null) return null;
  const first = shiftDay(day, -(BASELINE_DAYS + BASELINE_GAP_DAYS));
  const baselineEnd = shiftDay(day, -BASELINE_GAP_DAYS);
  const baseline = [...byDay.entries()].filter(([d]) => d >= first && d < baselineEnd).map(([, r]) => r);
  const scored = scoreDaySignals(todayRow, baseline, end);
  if (!scored) return null;
  return {
    locode: port.locode,
    day,
    name: port.name,
    country: port.country ?? port.countryCode,
    lat: port.lat,
    lng: port.lng,
    score: scored.score,
    bucket: scored.bucket,
    tier: scored.tier,
    trend7d: trend7d(scored.score, history, day),
    vesselsWaiting: todayRow.vesselsWaiting,
    medianAnchorageWaitH: todayRow.anchorageWaitH,
    longestWaitDays:
      todayRow.longestWaitH === null ? null : Math.round((todayRow.longestWaitH / 24) * 10) / 10,
    components: scored.components,
    computedAt: end,
  };
}

/**
 * The schedule deviation of a port's arrivals against its carriers' proforma calls, by the rules of
 * the service's (one carrier's failure on any date: nothing from that carrier). A past date's schedule
 * does not change, so each carrier, port and date is asked once for the whole sampling.
 */
class ProformaCalls {
  private readonly asked = new Map<string, Promise<ScheduledPortCall[] | null>>();

  constructor(
    private readonly sources: readonly ScheduleSource[],
    private readonly logger: Logger,
  ) {}

  async deviations(locode: string, arrivals: readonly VesselArrival[]): Promise<ShipmentObservation[]> {
    const observations: ShipmentObservation[] = [];
    const byCarrier = new Map<string, VesselArrival[]>();
    for (const arrival of arrivals)
      byCarrier.set(arrival.scac, [...(byCarrier.get(arrival.scac) ?? []), arrival]);
    for (const [scac, carrierArrivals] of byCarrier) {
      const source = this.sources.find((s) => s.scac === scac);
      if (!source) continue;
      const dates = [...new Set(carrierArrivals.flatMap((a) => proformaDates(a.at)))].sort();
      const answers = await Promise.all(dates.map((date) => this.callsOn(source, locode, date)));
      if (answers.some((a) => a === null)) continue;
      const calls = answers.flatMap((a) => a ?? []);
      for (const arrival of carrierArrivals) {
        const hours = scheduleDeviationHours(arrival, calls);
        if (hours !== null) observations.push({ at: arrival.at, value: hours });
      }
    }
    return observations;
  }

  private callsOn(source: ScheduleSource, locode: string, date: string): Promise<ScheduledPortCall[] | null> {
    const key = `${source.scac}|${locode}|${date}`;
    let calls = this.asked.get(key);
    if (!calls) {
      calls = source.portSchedule({ locode, date }).then(
        (answer) => (answer.kind === "unavailable" ? null : answer.calls),
        (error: unknown) => {
          this.logger.warn(
            { err: error, locode, scac: source.scac, date },
            "Day one: port schedule not read",
          );
          return null;
        },
      );
      this.asked.set(key, calls);
    }
    return calls;
  }
}

export interface DemoShipmentPick {
  scac: string;
  reference: string;
  portOfDischarge: string;
  arrival: number;
  /** When the demo first tracked it: a week before its arrival, once it was booked. */
  followedFrom: number;
}

/** How long before its arrival the demo first tracked an arrived shipment. */
const FOLLOWED_BEFORE_ARRIVAL_MS = 7 * DAY_MS;

/** Shipments per port where the demo's tracked boxes gather, and still at sea. */
const PER_PORT = 14;
/** Of those, arrived in the last days (at most this many): today's dwell and ETA slip come from them. */
const RECENT_PER_PORT = 5;
/**
 * Arrived 1 to 12 days ago: discharged, most gated out within the dwell window (7 days), the arrival
 * inside the ETA slip's (14 days).
 */
const RECENT_ARRIVAL = { fromDays: 12, toDays: 1 } as const;
const SHOWCASE_PORTS = 4;
const AT_SEA = 10;
/** Shipments looked at per carrier (the world's issued bookings, newest cycles first). */
const SCANNED_PER_CARRIER = 500;

/**
 * The simulator's shipments the demo tracks on day one: at the few ports where the world's lines
 * discharged most lately, boxes that arrived in the last days (today's dwell, ETA slip and schedule
 * deviation) and others spread over the three months before (their baselines), and boxes still at
 * sea bound there (predictive ETA, D&D, disruptions). Deterministic for a given moment.
 */
export async function pickDemoShipments(
  carriers: readonly string[],
  now: number,
  /**
   * The sandbox's choice (sandbox-congestion.ts): these ports instead of the busiest lately, with
   * `perPort` and `recentPerPort` in place of the day-one counts, and `atSea` still at sea. With
   * `recentSpread` the recent ones are spread over the recent window instead of the newest: with
   * only a few per port, the newest have not left the terminal yet, so none would give today's dwell.
   */
  options: {
    ports?: readonly string[];
    perPort?: number;
    recentPerPort?: number;
    recentSpread?: boolean;
    atSea?: number;
  } = {},
): Promise<DemoShipmentPick[]> {
  const perPort = options.perPort ?? PER_PORT;
  const recentPerPort = options.recentPerPort ?? RECENT_PER_PORT;
  const past: DemoShipmentPick[] = [];
  const atSea: DemoShipmentPick[] = [];
  for (const scac of carriers) {
    let scanned = 0;
    for (const shipment of knownShipments(scac, new Date(now))) {
      if (++scanned > SCANNED_PER_CARRIER) break;
      // Planning a shipment is a few milliseconds of arithmetic: requests are answered in between.
      if (scanned % 20 === 0) await breathe();
      const arrival = arrivalOf(shipment);
      if (arrival === null || shipment.cancelled) continue;
      const pick = {
        scac: shipment.scac,
        reference: shipment.carrierBookingReference,
        portOfDischarge: shipment.portOfDischarge.unLocode,
        arrival,
        followedFrom: Math.max(
          arrival - FOLLOWED_BEFORE_ARRIVAL_MS,
          shipment.bookedAt.getTime() + 6 * HOUR_MS,
        ),
      };
      if (arrival < now && arrival >= now - (SAMPLED_DAYS - 7) * DAY_MS) past.push(pick);
      else if (arrival >= now && arrival < now + 21 * DAY_MS) atSea.push(pick);
    }
  }
  const isRecent = (p: DemoShipmentPick) =>
    p.arrival >= now - RECENT_ARRIVAL.fromDays * DAY_MS && p.arrival < now - RECENT_ARRIVAL.toDays * DAY_MS;
  const tally = new Map<string, { recent: number; all: number }>();
  for (const p of past) {
    const t = tally.get(p.portOfDischarge) ?? { recent: 0, all: 0 };
    tally.set(p.portOfDischarge, { recent: t.recent + (isRecent(p) ? 1 : 0), all: t.all + 1 });
  }
  const showcase = options.ports
    ? [...options.ports]
    : [...tally.entries()]
        .sort(
          (a, b) =>
            Math.min(b[1].recent, RECENT_PER_PORT) - Math.min(a[1].recent, RECENT_PER_PORT) ||
            b[1].all - a[1].all ||
            a[0].localeCompare(b[0]),
        )
        .slice(0, SHOWCASE_PORTS)
        .map(([port]) => port);
  const chosen: DemoShipmentPick[] = [];
  for (const port of showcase) {
    const arrived = past.filter((p) => p.portOfDischarge === port).sort((a, b) => b.arrival - a.arrival);
    const recentArrivals = arrived.filter(isRecent);
    const recent = options.recentSpread
      ? spreadOver(recentArrivals, recentPerPort)
      : recentArrivals.slice(0, recentPerPort);
    const older = arrived.filter((p) => p.arrival < now - RECENT_ARRIVAL.fromDays * DAY_MS);
    // The rest spread evenly over the older arrivals, so every stretch of the baseline has some.
    chosen.push(...recent, ...spreadOver(older, perPort - recent.length));
  }
  const bound = atSea
    .sort(
      (a, b) =>
        Number(showcase.includes(b.portOfDischarge)) - Number(showcase.includes(a.portOfDischarge)) ||
        a.arrival - b.arrival,
    )
    .slice(0, options.atSea ?? AT_SEA);
  const seen = new Set<string>();
  return [...chosen, ...bound].filter((p) => {
    const key = `${p.scac}:${p.reference}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** At most `room` of `picks`, evenly spaced through the list (the first always among them). */
function spreadOver(picks: readonly DemoShipmentPick[], room: number): DemoShipmentPick[] {
  const every = Math.max(1, picks.length / room);
  const spread: DemoShipmentPick[] = [];
  for (let i = 0; i < picks.length && spread.length < room; i += every) spread.push(picks[Math.floor(i)]!);
  return spread;
}

function arrivalOf(shipment: Shipment): number | null {
  try {
    return actualArrivalAtPod(shipment);
  } catch {
    return null;
  }
}

/**
 * Starts day one in the background when this start is a new embedded install's first: the embedded
 * simulator, the workers and the demo on, nothing sampled yet, and (with QUAYSIDE_DAY_ONE=auto) a
 * PGlite data folder, not a throwaway in-memory database. Never delays readiness: the instance
 * already answers when it begins.
 */
export function startDayOne(input: {
  services: Services;
  config: AppConfig;
  simulator: boolean;
  demo: DemoOutcome | null;
  lookupUpstreams: LookupUpstreams;
}): { done: Promise<DayOneReport | null>; stop(): void } {
  const { services, config } = input;
  const stop = new AbortController();
  const folder = config.database.kind === "pglite" && config.database.dataDir !== "memory://";
  const wanted =
    config.dayOne !== "off" &&
    input.simulator &&
    config.workers.enabled &&
    !config.workers.only &&
    input.demo !== null &&
    (config.dayOne === "on" || folder);
  if (!wanted) return { done: Promise.resolve(null), stop: () => undefined };
  const done = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      if (!(await needsDayOne(services))) return null;
      services.logger.info("Day one: sampling the world's recent past (90 days) in the background");
      const past = await pastTracking(services, config);
      const report = await sampleRecentPast({
        services,
        past: past.tracking,
        demo: await demoOwner(services),
        portArea: simulatorPastPortArea,
        scheduleSources: input.lookupUpstreams.scheduleSources ?? [],
        logger: services.logger,
        carriers: config.scheduleCarriers,
        stop: stop.signal,
      }).finally(() => past.close());
      services.logger.info(report, "Day one: the recent past is in");
      return report;
    })
    .catch((error: unknown) => {
      if (error instanceof DayOneStopped)
        services.logger.info("Day one: stopped with the server; the next start samples again");
      else services.logger.error({ err: error }, "Day one: sampling the recent past failed");
      return null;
    });
  return { done, stop: () => stop.abort() };
}

/**
 * Tracking as it was at a moment of the past: a simulator of its own on a clock that day one sets
 * back (the world is a pure function of the time), and a tracking service on the same clock and the
 * same database, so what it stores is what the live service would have stored then.
 */
async function pastTracking(
  services: Services,
  config: AppConfig,
): Promise<{ tracking: { clock: ManualClock; tracking: TrackingService }; close(): Promise<void> }> {
  const clock = new ManualClock(services.clock.now());
  const simulator = await startSimulator({ port: 0, host: "127.0.0.1", clock });
  const registry = loadCarrierRegistry({
    file: config.carrierRegistryFile,
    env: config.environment,
    simulatorUrl: simulator.url,
  });
  const past = createServices({
    config: { ...config, redisUrl: undefined },
    db: services.db,
    clock,
    logger: services.logger,
    carrierGateway: createCarrierTracker(registry, { clock, timeoutMs: 10_000, retry: { maxAttempts: 1 } }),
    connectedCarriers: registry.connected,
    // The live graph, listening on the same database, keeps free time with the real clock.
    keepsFreeTime: false,
  });
  return {
    tracking: { clock, tracking: past.tracking },
    async close() {
      await past.close();
      await simulator.close();
    },
  };
}

/** The demo organisation's owner, as a principal without a key (the shipments are theirs). */
async function demoOwner(services: Services): Promise<Principal | null> {
  const organization = await services.accounts.findOrganization(DEMO_ORGANIZATION);
  if (!organization) return null;
  const user = await services.db.prisma.user.findFirst({
    where: { organizationId: organization.id, role: "owner", removedAt: null },
    orderBy: { createdAt: "asc" },
  });
  return user ? { apiKey: null, user, organization, plan: planOf(organization) } : null;
}
