/**
 * The congestion scenario without a service: the simulator's port areas read in-process at each step
 * (the answer `GET /vessels/area` gives, mapped as the service's adapter maps it), turned into waits and
 * arrivals by the sampler's rules (anchorage-sampler.ts) in memory, and scored with the service's own
 * pure functions (`daySignals`, `scorePort`) on the service's schedule: every port every interval,
 * yesterday's signals closed at the first score after midnight. A window takes seconds here where the
 * service path (scenario.ts, `BENCH_CONGESTION_PATH=service`) takes many minutes of PGlite writes; the
 * same arithmetic, so the same figures, is what calibration needs (the service path checks the
 * wiring). What it leaves out: the database, HTTP and the lease-based schedule (one process here).
 */
import { type FeedPublisher, feedXml } from "../../simulator/feeds";
import { portAreaAnswer } from "../../simulator/vessel-positions";
import { SIMULATOR_PUBLISHERS } from "../../src/app/disruption-feeds";
import { LOST_AFTER_MS, SAME_CALL_MS } from "../../src/domain/congestion/anchorage-sampler";
import type { AreaVessel } from "../../src/domain/congestion/port-area-source";
import {
  type Berthing,
  BUNCHING_AFTER_END_MS,
  backlogClearing,
  isClosure,
  type ReportedDisruption,
  reportedEndAt,
  stoppageAt,
  stoppageMark,
  withReopenings,
} from "../../src/domain/congestion/reported-stoppages";
import {
  BASELINE_DAYS,
  BASELINE_GAP_DAYS,
  type ComponentInput,
  scorePort,
  shiftDay,
} from "../../src/domain/congestion/scoring";
import { type DaySignals, daySignals } from "../../src/domain/congestion/signals";
import { ingestItem, type PipelineState, sweepSilentEvents } from "../../src/domain/disruptions/pipeline";
import { findPort } from "../../src/domain/ports/port-directory";
import { rankedPortCodes } from "../../src/domain/ports/port-traffic";
import { feedItemsOf } from "../../src/upstream/feeds/feed.mapper";
import { mapSimulatorArea } from "../../src/upstream/vessels/simulator-port-area.adapter";
import type { StepBoard, StepItem } from "./metrics";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Wait {
  vesselKey: string;
  anchoredAt: number;
  lastSeenAt: number;
  berthedAt: number | null;
  /** Ended with the vessel seen alongside (recordSighting's `berthSeen`), not lost from view. */
  berthSeen: boolean;
}

/** One port's waits, arrivals and daily signals, kept as the service keeps them in its tables. */
class PortLog {
  waits: Wait[] = [];
  arrivals: { vesselKey: string; at: number }[] = [];
  days = new Map<string, { signals: DaySignals; computedAt: number }>();

  /** recordSighting's rules, in memory. */
  sight(vessels: readonly AreaVessel[], at: number): void {
    const lostBefore = at - LOST_AFTER_MS;
    const keys = new Set(vessels.map((v) => v.key));
    const open = this.waits.filter((w) => w.berthedAt === null);
    const recent = new Set([
      ...this.arrivals
        .filter((a) => keys.has(a.vesselKey) && a.at >= at - SAME_CALL_MS)
        .map((a) => a.vesselKey),
      ...this.waits
        .filter((w) => keys.has(w.vesselKey) && w.lastSeenAt >= at - SAME_CALL_MS)
        .map((w) => w.vesselKey),
    ]);
    const running = open.filter((w) => w.lastSeenAt >= lostBefore);
    for (const w of open) if (w.lastSeenAt < lostBefore) w.berthedAt = w.lastSeenAt;
    const openByVessel = new Map(running.map((w) => [w.vesselKey, w]));
    const moored = new Set(vessels.filter((v) => v.status === "moored").map((v) => v.key));
    for (const v of vessels) {
      if (v.status !== "at-anchor") continue;
      const wait = openByVessel.get(v.key);
      if (wait) wait.lastSeenAt = at;
      else
        this.waits.push({
          vesselKey: v.key,
          anchoredAt: at,
          lastSeenAt: at,
          berthedAt: null,
          berthSeen: false,
        });
    }
    for (const w of running) {
      if (moored.has(w.vesselKey)) {
        w.berthedAt = at;
        w.lastSeenAt = at;
        w.berthSeen = true;
      }
    }
    const sameCall = new Set([...recent, ...openByVessel.keys()]);
    for (const key of keys) if (!sameCall.has(key)) this.arrivals.push({ vesselKey: key, at });
    // Nothing older than the longest window is read again.
    const keepAfter = at - 15 * DAY;
    this.waits = this.waits.filter((w) => w.berthedAt === null || w.berthedAt >= keepAfter);
    this.arrivals = this.arrivals.filter((a) => a.at >= keepAfter || a === this.arrivals[0]);
  }

  /** The service's closureBerthings: berthings seen since the earliest closure naming the port was reported. */
  closureBerthings(locode: string, events: readonly ReportedDisruption[], now: number): Berthing[] {
    const closures = events.filter((e) => e.ports.includes(locode) && isClosure(e));
    if (closures.length === 0) return [];
    const since = Math.min(...closures.map((e) => e.firstSeen.getTime()));
    return this.waits.flatMap((w) =>
      w.berthSeen &&
      w.berthedAt !== null &&
      w.anchoredAt >= since &&
      w.berthedAt >= since &&
      w.berthedAt <= now
        ? [{ anchoredAt: w.anchoredAt, berthedAt: w.berthedAt }]
        : [],
    );
  }

  /** storeSignals's selection and daySignals, for the day ending (or now) at `end`. */
  signals(end: number): DaySignals {
    return daySignals({
      end,
      waits: this.waits
        .filter((w) => w.anchoredAt < end && (w.berthedAt === null || w.berthedAt >= end - 7 * DAY))
        .map((w) => ({
          anchoredAt: new Date(w.anchoredAt),
          lastSeenAt: new Date(w.lastSeenAt),
          berthedAt: w.berthedAt === null ? null : new Date(w.berthedAt),
        })),
      arrivals: this.arrivals.filter((a) => a.at >= end - 14 * DAY && a.at < end).map((a) => new Date(a.at)),
      shipments: undefined,
      stillOpenAfter: end - 6 * HOUR,
      watchedSince: this.arrivals[0]?.at,
    });
  }
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The world's news as the service ingests it under `npm start`: each simulator publisher's feed read
 * at every step through the service's own feed mapper and disruption pipeline, in memory, events left
 * silent resolved as the disruptions worker resolves them. Only what is new since the last step is
 * ingested (the rest would be duplicates).
 */
class NewsLog {
  private state: PipelineState = { events: [], seen: [] };
  private readUpTo = Number.NEGATIVE_INFINITY;
  private ids = 0;

  read(at: number): ReportedDisruption[] {
    const items = SIMULATOR_PUBLISHERS.flatMap((p) =>
      feedItemsOf(
        feedXml(p.slug as FeedPublisher, at, "http://simulator.invalid"),
        {
          id: `simulator-${p.slug}`,
          publisher: p.publisher,
          url: "http://simulator.invalid",
          kind: p.kind,
          authoritative: p.kind !== "news",
        },
        new Date(at),
      ),
    )
      .filter((item) => item.publishedAt.getTime() > this.readUpTo)
      .sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime());
    for (const item of items) {
      this.state = ingestItem(this.state, item, () => `event-${++this.ids}`).state;
    }
    this.readUpTo = at;
    this.state = { ...this.state, events: sweepSilentEvents(this.state.events, new Date(at)) };
    return this.state.events.map((e) => ({
      id: e.id,
      headline: e.headline,
      category: e.category,
      severity: e.severity,
      status: e.status,
      ports: e.entities.ports,
      signalCounts: e.signalCounts,
      firstSeen: e.firstSeen,
      lastUpdated: e.lastUpdated,
      resolvedAt: e.resolvedAt,
    }));
  }
}

/** scorePortNow and scoreDay's arithmetic on the in-memory log; null when not scored. */
function score(
  locode: string,
  log: PortLog,
  now: number,
  reported: readonly ReportedDisruption[],
): StepItem | null {
  // As the service's scoreDay does: a closure the port's AIS shows over reads as ended there.
  const events = withReopenings(locode, reported, log.closureBerthings(locode, reported, now), now);
  const today = dayOf(now);
  const yesterday = shiftDay(today, -1);
  const stored = log.days.get(yesterday);
  if (!stored || stored.computedAt < dayStart(today)) {
    log.days.set(yesterday, { signals: log.signals(dayStart(today)), computedAt: dayStart(today) });
  }
  const todayRow = log.signals(now);
  log.days.set(today, { signals: todayRow, computedAt: now });
  const first = shiftDay(today, -(BASELINE_DAYS + BASELINE_GAP_DAYS));
  const baselineEnd = shiftDay(today, -BASELINE_GAP_DAYS);
  const baseline = [...log.days.entries()]
    .filter(([day]) => day >= first && day < baselineEnd)
    .map(([, row]) => row.signals);
  const values = (pick: (r: DaySignals) => number | null) =>
    baseline.map(pick).filter((v): v is number => v !== null);
  const components: ComponentInput[] = [
    {
      name: "anchorage_wait",
      raw: todayRow.anchorageWaitH,
      n: todayRow.anchorageN,
      baseline: values((r) => r.anchorageWaitH),
    },
    { name: "bunching", raw: todayRow.bunching, n: todayRow.arrivals, baseline: values((r) => r.bunching) },
  ];
  // As the service's scoreDay does: a clearing backlog after a reported end is not read as congestion.
  const endedAt = reportedEndAt(locode, events, now);
  const clearingBacklog =
    endedAt !== null && backlogClearing(log.signals(endedAt).vesselsWaiting, todayRow.vesselsWaiting);
  const scored = scorePort({
    components,
    medianWaitHours: todayRow.anchorageWaitH,
    dwellDays: todayRow.dwellD,
    baselineDaysWithData: baseline.filter((r) => r.anchorageWaitH !== null || r.bunching !== null).length,
    observations7d: Math.max(todayRow.arrivals, todayRow.anchorageN),
    newestInputAgeHours: todayRow.newestInputAt ? (now - todayRow.newestInputAt.getTime()) / HOUR : Infinity,
    stoppage: stoppageAt(locode, events),
    clearingBacklog,
    bunchingHoldsBacklog: reportedEndAt(locode, events, now, BUNCHING_AFTER_END_MS) !== null,
  });
  if (!scored) return null;
  return {
    locode,
    score: scored.score,
    bucket: scored.bucket,
    computedAt: now,
    vesselsWaiting: todayRow.vesselsWaiting,
    z: Object.fromEntries(scored.components.map((c) => [c.name, c.z])),
  };
}

/** The boards of the window, read after each step, as the service's board would list them. */
export function replayWindow(input: {
  warmUpFrom: number;
  from: number;
  to: number;
  stepMs: number;
  scoreEveryMs: number;
  /** Whether the news is read (reported stoppages); off reproduces the queue-only readings. */
  news?: boolean;
}): StepBoard[] {
  const ports = rankedPortCodes()
    .map((code) => findPort(code)?.locode)
    .filter((code): code is string => code !== undefined);
  const logs = new Map(ports.map((p) => [p, new PortLog()]));
  const latest = new Map<string, StepItem>();
  const nextScore = new Map(ports.map((p) => [p, input.warmUpFrom]));
  const boards: StepBoard[] = [];
  const news = input.news === false ? null : new NewsLog();
  const marks = new Map<string, string>();
  for (let t = input.warmUpFrom; t < input.to; t += input.stepMs) {
    for (const port of ports) {
      const answer = portAreaAnswer(new URLSearchParams({ port }), t);
      const mapped = mapSimulatorArea(answer.body);
      if (typeof mapped === "string") throw new Error(`${port}: ${mapped}`);
      logs.get(port)!.sight(mapped.vessels, mapped.at.getTime());
    }
    // As the service's scoreDue does: a port named by a stoppage event that changed is scored now.
    const events = news?.read(t) ?? [];
    for (const event of events) {
      const mark = stoppageMark(event);
      if (marks.get(event.id) === mark) continue;
      marks.set(event.id, mark);
      for (const port of event.ports) if (nextScore.has(port)) nextScore.set(port, t);
    }
    // As the scenario drives the service: the warm-up scores at midnight only (closing the days).
    if (t < input.from && new Date(t).getUTCHours() !== 0) continue;
    for (const port of ports) {
      if (nextScore.get(port)! > t) continue;
      const item = score(port, logs.get(port)!, t, events);
      if (item) latest.set(port, item);
      else latest.delete(port);
      nextScore.set(port, t + input.scoreEveryMs);
    }
    if (t < input.from) continue;
    const items = [...latest.values()].sort((a, b) => b.score - a.score || a.locode.localeCompare(b.locode));
    boards.push({ at: t, items });
  }
  return boards;
}
