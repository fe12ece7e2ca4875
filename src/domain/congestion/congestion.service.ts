/**
 * Port congestion: sampling the ports' AIS areas, turning what was seen and what tracked shipments
 * say into daily signals, scoring them into daily readings ahead of requests, and reading the board
 * and a port's reading (docs/decisions/congestion.md).
 *
 * Work is shared like the rest of the background work: `port_congestion_schedule` holds one row per
 * watched port with when it is next sampled and next scored; every process claims due rows with FOR
 * UPDATE SKIP LOCKED and a lease, so two processes never sample or score the same port at once and a
 * restart loses nothing. A board read is one query over the rows flagged `latest`.
 */

import type { Logger } from "pino";
import { claimDue } from "../../db/claim-due";
import type { PrismaClient } from "../../generated/prisma/client";
import type { PlanCode } from "../../generated/prisma/enums";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import { minimumPlanFor } from "../accounts/plans";
import { featureAccess, type Principal } from "../accounts/principal";
import { findPort } from "../ports/port-directory";
import { rankedPortCodes } from "../ports/port-traffic";
import type { ScheduledPortCall, ScheduleSource } from "../schedules/schedule-source";
import type { TrackingDocument } from "../tracking/model";
import { type AnchorageMove, recordSighting } from "./anchorage-sampler";
import type { PortAreaSource } from "./port-area-source";
import {
  type Berthing,
  BUNCHING_AFTER_END_MS,
  backlogClearing,
  isClosure,
  isStoppage,
  type ReportedDisruption,
  reportedEndAt,
  STOPPAGE_CATEGORIES,
  type StoppageRaise,
  signalCountsOf,
  stoppageMark,
  stoppagesAt,
  stoppagesRaising,
  withReopenings,
} from "./reported-stoppages";
import {
  BASELINE_DAYS,
  BASELINE_GAP_DAYS,
  type ComponentReading,
  scoreDaySignals,
  shiftDay,
  trend7d,
} from "./scoring";
import {
  type DaySignals,
  daySignals,
  type PortShipmentObservations,
  proformaDates,
  type ShipmentObservation,
  scheduleDeviationHours,
  shipmentObservations,
  type VesselArrival,
  vesselArrivals,
} from "./signals";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LEASE_MS = 15 * 60_000;
/**
 * Every watched port is scored on this interval, whoever ships there: the signals set the cadence, not
 * the customers. A port whose anchorage moves between two samplings (MOVE_SHIPS more or fewer ships at
 * anchor, and a quarter of the queue) is scored at once.
 */
export const SCORE_EVERY_MS = 3 * HOUR_MS;
export const MOVE_SHIPS = 3;
const MOVE_SHARE = 0.25;
/** Ports with a tracked arrival due this soon are watched (a schedule row), not scored more often. */
const SOON_MS = 72 * HOUR_MS;
/** Tracked shipments' documents older than the baseline plus the gap add nothing. */
const SHIPMENT_LOOKBACK_MS = (BASELINE_DAYS + BASELINE_GAP_DAYS + 14) * DAY_MS;
/** Arrivals compared with the proforma: the 14-day window of yesterday's signals, and today. */
const ARRIVAL_LOOKBACK_MS = 16 * DAY_MS;
/** A port's schedule of one date is asked once in this time (schedules change rarely, days never). */
const PROFORMA_TTL_MS = 12 * HOUR_MS;
const PROFORMA_CACHE_MAX = 20_000;
/** Stoppage events resolved this recently are still read for their change (a report of the end). */
const STOPPAGE_CHANGE_LOOKBACK_MS = 2 * DAY_MS;

export interface CongestionHistoryItem {
  date: string;
  score: number;
  bucket: string;
  tier: string;
  vessels_waiting: number;
  median_anchorage_wait_h: number | null;
}

export interface BoardItem {
  locode: string;
  name: string;
  country: string;
  score: number;
  bucket: string;
  tier: string;
  trend7d: number;
  vesselsWaiting: number;
  medianAnchorageWaitH: number | null;
  longestWaitDays: number | null;
  computedAt: Date;
  lat: number;
  lng: number;
  components: ComponentReading[];
  /**
   * The reported closures or strikes that raised the score above the queue's own (reported-stoppages.ts),
   * as they were when it was computed; empty when the score is the queue's own.
   */
  raisedBy: StoppageRaise[];
}

export interface PortReading extends BoardItem {
  history: CongestionHistoryItem[];
}

export type ReadingOutcome =
  | { kind: "scored"; reading: PortReading }
  /** A port Quayside knows but holds no signal for: never shown as a score of 0. */
  | {
      kind: "not-scored";
      locode: string;
      name: string;
      country: string;
      lat: number | null;
      lng: number | null;
    }
  | { kind: "unknown-port" };

interface ShipmentSignals {
  byPort: Map<string, PortShipmentObservations>;
  /** Vessel arrivals of the last 16 days per port, for the schedule deviation. */
  arrivals: Map<string, VesselArrival[]>;
  /** Ports with a tracked arrival due within 72 h. */
  arrivingSoon: Set<string>;
  loadedAt: number;
}

/**
 * Whether the caller may read congestion (spec v1 rule 9): the plan must include it (`plan_required`,
 * naming the cheapest plan that does), then the organisation's switch must be on (`feature_disabled`).
 * A plan lacking the feature cannot switch it on, so the plan answers first.
 */
export type CongestionAccess =
  | { kind: "on" }
  | { kind: "plan_required"; feature: "port_congestion"; minPlan: PlanCode }
  | { kind: "feature_disabled"; feature: "port_congestion" };

export function congestionAccess(principal: Principal): CongestionAccess {
  const access = featureAccess(principal.organization, "port_congestion");
  if (access === "plan_required") {
    return {
      kind: "plan_required",
      feature: "port_congestion",
      minPlan: minimumPlanFor("port_congestion").code,
    };
  }
  if (access === "feature_disabled") return { kind: "feature_disabled", feature: "port_congestion" };
  return { kind: "on" };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

export class CongestionService {
  private shipmentCache: ShipmentSignals | undefined;
  /** The shipment load the schedule last followed (`followShipments`). */
  private followedLoad: number | undefined;
  /** Proforma calls per carrier, port and date: scoring asks a schedule once, not per shipment. */
  private readonly proformaCache = new Map<string, { calls: ScheduledPortCall[]; fetchedAt: number }>();
  /** Each stoppage event's mark as this process last saw it (`stoppageMark`). */
  private readonly stoppageMarks = new Map<string, string>();

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      /** Asked in order; the first that knows the port answers. */
      areaSources: readonly PortAreaSource[];
      /** How often each watched port's area is sampled. */
      sampleEveryMs: number;
      /** Ports watched besides the 60 largest container ports. */
      extraPorts?: readonly string[];
      /** Carriers' Commercial Schedules, for the proforma arrivals (schedule deviation). */
      scheduleSources?: readonly ScheduleSource[];
    },
  ) {}

  /** The watched ports (largest container ports, configured extras) get a schedule row each. */
  async ensureWatched(): Promise<number> {
    const now = this.deps.clock.now();
    const codes = [...new Set([...rankedPortCodes(), ...(this.deps.extraPorts ?? [])])]
      .map((code) => findPort(code)?.locode)
      .filter((code): code is string => code !== undefined);
    const created = await this.deps.prisma.portCongestionSchedule.createMany({
      data: codes.map((locode) => ({ locode, nextSampleAt: now, nextScoreAt: now })),
      skipDuplicates: true,
    });
    return created.count;
  }

  /** Samples the AIS areas of ports whose sampling is due (at most `limit`); returns the ports. */
  async sampleDue(limit = 20, stop?: AbortSignal): Promise<string[]> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const claimed = await claimDue(
      prisma,
      { table: "port_congestion_schedule", key: "locode", due: "next_sample_at" },
      now,
      new Date(now.getTime() + LEASE_MS),
      limit,
    );
    for (const locode of claimed) {
      // Stopping: none starts after the signal (those left keep their lease and come back after it).
      if (stop?.aborted) break;
      const move = await this.sampleArea(locode);
      await prisma.portCongestionSchedule.update({
        where: { locode },
        data: { nextSampleAt: new Date(now.getTime() + this.deps.sampleEveryMs) },
      });
      // A ship berthing at a port under a reported closure may be its reopening (reported-stoppages.ts
      // `berthingResumedAt`): scored now, so the floor lifts within a sampling, not at the interval.
      if (move && (anchorageMoved(move) || (move.berthed > 0 && (await this.underClosure(locode, now))))) {
        // Scored at the next scoring pass rather than at its interval. A row under a scorer's lease is
        // left alone (it is being scored now), so no second process can claim it meanwhile.
        await prisma.portCongestionSchedule.updateMany({
          where: { locode, nextScoreAt: { gt: now, lte: new Date(now.getTime() + SCORE_EVERY_MS) } },
          data: { nextScoreAt: now },
        });
      }
    }
    return claimed;
  }

  /** One sighting of a port's area from the first source that knows the port. */
  async samplePort(locode: string): Promise<boolean> {
    return (await this.sampleArea(locode)) !== null;
  }

  /** One sighting, and how it moved the anchorage; null when no source could read the port. */
  private async sampleArea(locode: string): Promise<AnchorageMove | null> {
    for (const source of this.deps.areaSources) {
      const outcome = await source.vesselsAt(locode);
      if (outcome.kind === "unknown-port") continue;
      if (outcome.kind === "unavailable") {
        this.deps.logger.warn(
          { locode, source: source.name, reason: outcome.reason },
          "Port area not sampled",
        );
        continue;
      }
      return recordSighting(this.deps.prisma, locode, outcome.vessels, outcome.at);
    }
    return null;
  }

  /**
   * Scores ports whose scoring is due (at most `limit`); returns the ports. First, when the tracked
   * shipments were read afresh (every 10 minutes at most), the schedule follows them (`followShipments`).
   */
  async scoreDue(limit = 20, stop?: AbortSignal): Promise<string[]> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    await this.followShipments(now.getTime());
    await this.followStoppages(now);
    const claimed = await claimDue(
      prisma,
      { table: "port_congestion_schedule", key: "locode", due: "next_score_at" },
      now,
      new Date(now.getTime() + LEASE_MS),
      limit,
    );
    if (claimed.length === 0) return [];
    const shipments = await this.shipmentSignals(now.getTime());
    for (const locode of claimed) {
      if (stop?.aborted) break;
      await this.scorePortNow(locode, shipments, stop);
      // Stopped while it asked a carrier: nothing was stored, the port keeps its lease.
      if (stop?.aborted) break;
      await prisma.portCongestionSchedule.update({
        where: { locode },
        data: { nextScoreAt: new Date(now.getTime() + SCORE_EVERY_MS), lastScoredAt: now },
      });
    }
    return claimed;
  }

  /**
   * A port named by a reported closure or strike that started, changed or ended since the last pass is
   * scored in this pass, not at its interval: the news comes hours before the queue shows it, and its
   * end is when the floor it set goes (reported-stoppages.ts). Each process keeps the marks it saw, so
   * a restart scores those ports once more, which costs one score each.
   */
  async followStoppages(now: Date): Promise<void> {
    const events = await this.stoppageEvents(now, STOPPAGE_CHANGE_LOOKBACK_MS);
    const ports = new Set<string>();
    for (const event of events) {
      if (!isStoppage(event)) continue;
      const mark = stoppageMark(event);
      if (this.stoppageMarks.get(event.id) === mark) continue;
      this.stoppageMarks.set(event.id, mark);
      for (const port of event.ports) ports.add(port);
    }
    if (ports.size === 0) return;
    // A row under a scorer's lease is left alone (it is being scored now), as for a moved anchorage.
    await this.deps.prisma.portCongestionSchedule.updateMany({
      where: {
        locode: { in: [...ports] },
        nextScoreAt: { gt: now, lte: new Date(now.getTime() + SCORE_EVERY_MS) },
      },
      data: { nextScoreAt: now },
    });
  }

  /** Whether an active reported closure names the port. */
  private async underClosure(locode: string, now: Date): Promise<boolean> {
    return (await this.stoppageEvents(now, 0, locode)).some((e) => e.status === "active" && isClosure(e));
  }

  /**
   * The port's berthings (waits ended alongside) since the first report of the earliest closure among
   * the events naming it, of ships that anchored after that report: what `withReopenings` reads. None
   * is read when no closure names the port.
   */
  private async closureBerthings(
    locode: string,
    events: readonly ReportedDisruption[],
    now: number,
  ): Promise<Berthing[]> {
    const closures = events.filter((e) => e.ports.includes(locode) && isClosure(e));
    if (closures.length === 0) return [];
    const since = new Date(Math.min(...closures.map((e) => e.firstSeen.getTime())));
    const rows = await this.deps.prisma.portAnchorageWait.findMany({
      where: {
        locode,
        berthSeen: true,
        anchoredAt: { gte: since },
        berthedAt: { gte: since, lte: new Date(now) },
      },
      select: { anchoredAt: true, berthedAt: true },
    });
    return rows.map((r) => ({ anchoredAt: r.anchoredAt.getTime(), berthedAt: r.berthedAt!.getTime() }));
  }

  /**
   * The published disruption events that can be stoppages: active ones naming a port, and (with a
   * lookback) those resolved within it, whose end is a change to follow.
   */
  private async stoppageEvents(
    now: Date,
    resolvedWithinMs: number,
    locode?: string,
  ): Promise<ReportedDisruption[]> {
    const rows = await this.deps.prisma.disruption.findMany({
      where: {
        category: { in: [...STOPPAGE_CATEGORIES] },
        ...(locode ? { ports: { has: locode } } : { NOT: { ports: { isEmpty: true } } }),
        OR: [
          { status: "active" },
          ...(resolvedWithinMs > 0
            ? [{ resolvedAt: { gte: new Date(now.getTime() - resolvedWithinMs) } }]
            : []),
        ],
      },
      select: {
        id: true,
        headline: true,
        category: true,
        severity: true,
        status: true,
        ports: true,
        state: true,
        firstSeen: true,
        lastUpdated: true,
        resolvedAt: true,
      },
    });
    return rows.map((row) => ({ ...row, signalCounts: signalCountsOf(row.state) }));
  }

  /**
   * The watched set follows the tracked shipments: a port with shipment signals (a port of discharge, a
   * transshipment port, an arrival due within 72 h) that is not watched gets a schedule row, and is
   * sampled and scored like a watched one from then on. Its cadence is the signals' (SCORE_EVERY_MS,
   * sooner when its anchorage moves), not the shipments': a reading means the same whoever ships there.
   */
  async followShipments(now: number): Promise<void> {
    const signals = await this.shipmentSignals(now);
    if (this.followedLoad === signals.loadedAt) return;
    this.followedLoad = signals.loadedAt;
    const ports = [
      ...new Set([...signals.byPort.keys(), ...signals.arrivals.keys(), ...signals.arrivingSoon]),
    ]
      .map((code) => findPort(code)?.locode)
      .filter((code): code is string => code !== undefined);
    if (ports.length > 0) {
      await this.deps.prisma.portCongestionSchedule.createMany({
        data: ports.map((locode) => ({ locode, nextSampleAt: new Date(now), nextScoreAt: new Date(now) })),
        skipDuplicates: true,
      });
    }
  }

  /**
   * Computes today's signals (and closes yesterday's at midnight), then today's reading. A port with no
   * readable component is not scored: it leaves the board.
   */
  async scorePortNow(
    locode: string,
    shipments?: ShipmentSignals,
    /** The service stopping: the carriers' schedule calls are aborted and nothing is stored. */
    stop?: AbortSignal,
  ): Promise<BoardItem | null> {
    const now = this.deps.clock.now().getTime();
    const signals = shipments ?? (await this.shipmentSignals(now));
    const today = dayOf(now);
    const yesterday = shiftDay(today, -1);
    const stored = await this.deps.prisma.portCongestionSignal.findUnique({
      where: { locode_day: { locode, day: new Date(dayStart(yesterday)) } },
      select: { computedAt: true },
    });
    const observed = signals.byPort.get(locode);
    const deviations = await this.scheduleDeviations(locode, signals.arrivals.get(locode) ?? [], now, stop);
    // A score without the schedules the stop cut short would be a worse one: the next start scores it.
    if (stop?.aborted) return null;
    const observations: PortShipmentObservations | undefined =
      observed || deviations.length > 0
        ? {
            dwellDays: observed?.dwellDays ?? [],
            etaSlipHours: observed?.etaSlipHours ?? [],
            scheduleDeviationHours: deviations,
          }
        : undefined;
    if (!stored || stored.computedAt.getTime() < dayStart(today)) {
      await this.storeSignals(locode, yesterday, dayStart(today), observations);
    }
    await this.storeSignals(locode, today, now, observations);
    return this.scoreDay(locode, today, now);
  }

  private async storeSignals(
    locode: string,
    day: string,
    end: number,
    shipments: PortShipmentObservations | undefined,
  ): Promise<void> {
    const { prisma } = this.deps;
    const since = new Date(end - 14 * DAY_MS);
    const [waits, arrivals, first] = await Promise.all([
      this.waitsBefore(locode, end),
      prisma.portArrival.findMany({
        where: { locode, arrivedAt: { gte: since, lt: new Date(end) } },
        select: { arrivedAt: true },
      }),
      prisma.portArrival.findFirst({
        where: { locode },
        orderBy: { arrivedAt: "asc" },
        select: { arrivedAt: true },
      }),
    ]);
    const signals = daySignals({
      end,
      waits,
      arrivals: arrivals.map((a) => a.arrivedAt),
      shipments,
      stillOpenAfter: end - 6 * HOUR_MS,
      watchedSince: first?.arrivedAt.getTime(),
    });
    const data = { ...signals, computedAt: new Date(end) };
    await prisma.portCongestionSignal.upsert({
      where: { locode_day: { locode, day: new Date(dayStart(day)) } },
      create: { locode, day: new Date(dayStart(day)), ...data },
      update: data,
    });
  }

  /** The port's anchorage waits that began before `end` and were running within the week before it. */
  private waitsBefore(locode: string, end: number) {
    return this.deps.prisma.portAnchorageWait.findMany({
      where: {
        locode,
        anchoredAt: { lt: new Date(end) },
        OR: [{ berthedAt: null }, { berthedAt: { gte: new Date(end - 7 * DAY_MS) } }],
      },
      select: { anchoredAt: true, lastSeenAt: true, berthedAt: true },
    });
  }

  /**
   * Whether the port's queue is the clearing backlog of a stoppage whose end the news reported within
   * CLEARING_WINDOW_MS (reported-stoppages.ts): its queue has not grown anew past its size at that end.
   */
  private async clearingBacklog(
    locode: string,
    events: readonly ReportedDisruption[],
    now: number,
    waitingNow: number,
  ): Promise<boolean> {
    const endedAt = reportedEndAt(locode, events, now);
    if (endedAt === null) return false;
    const atEnd = daySignals({
      end: endedAt,
      waits: await this.waitsBefore(locode, endedAt),
      arrivals: [],
      shipments: undefined,
      stillOpenAfter: endedAt - 6 * HOUR_MS,
    });
    return backlogClearing(atEnd.vesselsWaiting, waitingNow);
  }

  /** Scores one stored day against the 90 days before the last 7 and writes the reading. */
  async scoreDay(locode: string, day: string, now: number): Promise<BoardItem | null> {
    const { prisma } = this.deps;
    const port = findPort(locode);
    const first = shiftDay(day, -(BASELINE_DAYS + BASELINE_GAP_DAYS));
    const baselineEnd = shiftDay(day, -BASELINE_GAP_DAYS);
    const rows = await prisma.portCongestionSignal.findMany({
      where: { locode, day: { gte: new Date(dayStart(first)), lte: new Date(dayStart(day)) } },
      orderBy: { day: "asc" },
    });
    const todayRow = rows.find((r) => dayOf(r.day.getTime()) === day);
    const baseline = rows.filter((r) => dayOf(r.day.getTime()) < baselineEnd);
    if (!todayRow || !port || port.lat === null || port.lng === null) return this.unscore(locode);
    const reported = await this.stoppageEvents(new Date(now), BUNCHING_AFTER_END_MS, locode);
    // A closure the port's AIS shows over (berthing resumed) reads as ended there, news or not.
    const events = withReopenings(locode, reported, await this.closureBerthings(locode, reported, now), now);
    const stoppages = stoppagesAt(locode, events);
    const clearing = await this.clearingBacklog(locode, events, now, todayRow.vesselsWaiting);
    const bunchingHoldsBacklog = reportedEndAt(locode, events, now, BUNCHING_AFTER_END_MS) !== null;
    const scored = scoreDaySignals(
      todayRow,
      baseline,
      now,
      stoppages[0] ?? null,
      clearing,
      bunchingHoldsBacklog,
    );
    if (!scored) return this.unscore(locode);
    const earlier = await prisma.portCongestionReading.findMany({
      where: { locode, day: { gte: new Date(dayStart(shiftDay(day, -7))), lt: new Date(dayStart(day)) } },
      select: { day: true, score: true },
    });
    const trend = trend7d(
      scored.score,
      earlier.map((r) => ({ day: dayOf(r.day.getTime()), score: r.score })),
      day,
    );
    const item: BoardItem = {
      locode: port.locode,
      name: port.name,
      country: port.country ?? port.countryCode,
      score: scored.score,
      bucket: scored.bucket,
      tier: scored.tier,
      trend7d: trend,
      vesselsWaiting: todayRow.vesselsWaiting,
      medianAnchorageWaitH: todayRow.anchorageWaitH,
      longestWaitDays:
        todayRow.longestWaitH === null ? null : Math.round((todayRow.longestWaitH / 24) * 10) / 10,
      computedAt: new Date(now),
      lat: port.lat,
      lng: port.lng,
      components: scored.components,
      raisedBy: stoppagesRaising(stoppages, scored.queueScore, scored.score),
    };
    const reading = {
      latest: true,
      name: item.name,
      country: item.country,
      lat: item.lat,
      lng: item.lng,
      score: item.score,
      bucket: item.bucket,
      tier: item.tier,
      trend7d: item.trend7d,
      vesselsWaiting: item.vesselsWaiting,
      medianAnchorageWaitH: item.medianAnchorageWaitH,
      longestWaitDays: item.longestWaitDays,
      components: item.components as unknown as object[],
      raisedBy: item.raisedBy as unknown as object[],
      computedAt: item.computedAt,
    };
    await prisma.$transaction([
      prisma.portCongestionReading.updateMany({
        where: { locode: port.locode, latest: true, day: { not: new Date(dayStart(day)) } },
        data: { latest: false },
      }),
      prisma.portCongestionReading.upsert({
        where: { locode_day: { locode: port.locode, day: new Date(dayStart(day)) } },
        create: { locode: port.locode, day: new Date(dayStart(day)), ...reading },
        update: reading,
      }),
    ]);
    await answersChanged({ types: ["PortCongestion"] });
    return item;
  }

  /** A port with no readable signal leaves the board (its past readings stay in its history). */
  private async unscore(locode: string): Promise<null> {
    await this.deps.prisma.portCongestionReading.updateMany({
      where: { locode, latest: true },
      data: { latest: false },
    });
    await answersChanged({ types: ["PortCongestion"] });
    return null;
  }

  /** Tracked shipments' dwell and ETA slip per port of discharge, and ports with arrivals soon. */
  async shipmentSignals(now: number): Promise<ShipmentSignals> {
    if (
      this.shipmentCache &&
      now - this.shipmentCache.loadedAt < 10 * 60_000 &&
      now >= this.shipmentCache.loadedAt
    ) {
      return this.shipmentCache;
    }
    const rows = await this.deps.prisma.$queryRaw<
      { carrier_scac: string; reference_key: string; content: unknown }[]
    >`
      SELECT d.carrier_scac, d.reference_key, v.content
        FROM carrier_documents d
        JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
       WHERE d.latest_version > 0 AND d.last_synced_at >= ${new Date(now - SHIPMENT_LOOKBACK_MS)}`;
    const byPort = new Map<string, PortShipmentObservations>();
    const arrivals = new Map<string, VesselArrival[]>();
    const arrivalSeen = new Set<string>();
    const arrivingSoon = new Set<string>();
    // Organisations tracking the same reference each hold a copy: a shipment counts once.
    const seen = new Set<string>();
    for (const row of rows) {
      const identity = `${row.carrier_scac}:${row.reference_key}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      const document = row.content as TrackingDocument;
      // One observation per ship call, however many tracked shipments it carried.
      for (const arrival of vesselArrivals(document)) {
        if (arrival.at < now - ARRIVAL_LOOKBACK_MS || arrival.at > now) continue;
        const locode = findPort(arrival.locode)?.locode ?? arrival.locode;
        const key = `${arrival.scac}|${arrival.vesselImo}|${arrival.voyage}|${locode}`;
        if (arrivalSeen.has(key)) continue;
        arrivalSeen.add(key);
        const list = arrivals.get(locode) ?? [];
        list.push({ ...arrival, locode });
        arrivals.set(locode, list);
      }
      const observed = shipmentObservations(document);
      if (!observed) continue;
      const locode = findPort(observed.locode)?.locode ?? observed.locode;
      const entry = byPort.get(locode) ?? { dwellDays: [], etaSlipHours: [] };
      entry.dwellDays.push(...observed.dwellDays);
      entry.etaSlipHours.push(...observed.etaSlipHours);
      byPort.set(locode, entry);
      const eta = document.etaHistory.at(-1)?.eta;
      if (!document.ata && eta && Date.parse(eta) >= now && Date.parse(eta) <= now + SOON_MS)
        arrivingSoon.add(locode);
    }
    this.shipmentCache = { byPort, arrivals, arrivingSoon, loadedAt: now };
    return this.shipmentCache;
  }

  /**
   * The schedule deviation of a port's recent vessel arrivals: each against the proforma arrival of the
   * same vessel and voyage in its carrier's port schedules (DCSA Commercial Schedules), asked once per
   * carrier, port and date and kept 12 hours. A carrier whose schedules cannot be read (no source for
   * it, a failure on any date) contributes nothing this time, so the component is absent rather than
   * computed from half a schedule; scoring goes on without it.
   */
  private async scheduleDeviations(
    locode: string,
    arrivals: readonly VesselArrival[],
    now: number,
    stop?: AbortSignal,
  ): Promise<ShipmentObservation[]> {
    const sources = this.deps.scheduleSources ?? [];
    if (arrivals.length === 0 || sources.length === 0) return [];
    const observations: ShipmentObservation[] = [];
    const byCarrier = new Map<string, VesselArrival[]>();
    for (const arrival of arrivals) {
      const list = byCarrier.get(arrival.scac) ?? [];
      list.push(arrival);
      byCarrier.set(arrival.scac, list);
    }
    for (const [scac, carrierArrivals] of byCarrier) {
      const source = sources.find((s) => s.scac === scac);
      if (!source) continue;
      const dates = [...new Set(carrierArrivals.flatMap((a) => proformaDates(a.at)))].sort();
      let calls: ScheduledPortCall[] | null;
      try {
        calls = await this.proformaCalls(source, locode, dates, now, stop);
      } catch (error) {
        // Aborted by the stop: not the carrier's failure, and nothing is stored from this score.
        if (!stop?.aborted) this.deps.logger.warn({ err: error, locode, scac }, "Port schedule not read");
        calls = null;
      }
      if (!calls) continue;
      for (const arrival of carrierArrivals) {
        const hours = scheduleDeviationHours(arrival, calls);
        if (hours !== null) observations.push({ at: arrival.at, value: hours });
      }
    }
    return observations;
  }

  /** A carrier's proforma calls at a port on the given dates, or null when any date cannot be read. */
  private async proformaCalls(
    source: ScheduleSource,
    locode: string,
    dates: readonly string[],
    now: number,
    stop?: AbortSignal,
  ): Promise<ScheduledPortCall[] | null> {
    const calls: ScheduledPortCall[] = [];
    for (const date of dates) {
      if (stop?.aborted) return null;
      const key = `${source.scac}|${locode}|${date}`;
      const cached = this.proformaCache.get(key);
      if (cached && now >= cached.fetchedAt && now - cached.fetchedAt < PROFORMA_TTL_MS) {
        calls.push(...cached.calls);
        continue;
      }
      const answer = await source.portSchedule({ locode, date }, stop);
      if (stop?.aborted) return null;
      if (answer.kind === "unavailable") {
        this.deps.logger.warn(
          { locode, scac: source.scac, date, reason: answer.reason },
          "Port schedule not read: no schedule deviation from this carrier",
        );
        return null;
      }
      this.proformaCache.delete(key);
      this.proformaCache.set(key, { calls: answer.calls, fetchedAt: now });
      if (this.proformaCache.size > PROFORMA_CACHE_MAX) {
        const oldest = this.proformaCache.keys().next().value;
        if (oldest !== undefined) this.proformaCache.delete(oldest);
      }
      calls.push(...answer.calls);
    }
    return calls;
  }

  /** The board: every scored port's newest reading, most congested first. One query. */
  async board(): Promise<BoardItem[]> {
    const rows = await this.deps.prisma.portCongestionReading.findMany({
      where: { latest: true },
      orderBy: [{ score: "desc" }, { locode: "asc" }],
    });
    return rows.map(toBoardItem);
  }

  /** One port's newest reading with its 90-day history; a known port without signal is not scored. */
  async reading(code: string): Promise<ReadingOutcome> {
    const port = findPort(code);
    if (!port) return { kind: "unknown-port" };
    const now = this.deps.clock.now().getTime();
    const rows = await this.deps.prisma.portCongestionReading.findMany({
      where: { locode: port.locode, day: { gt: new Date(dayStart(shiftDay(dayOf(now), -BASELINE_DAYS))) } },
      orderBy: { day: "asc" },
    });
    const latest = rows.find((r) => r.latest);
    if (!latest) {
      return {
        kind: "not-scored",
        locode: port.locode,
        name: port.name,
        country: port.country ?? port.countryCode,
        lat: port.lat,
        lng: port.lng,
      };
    }
    return {
      kind: "scored",
      reading: {
        ...toBoardItem(latest),
        history: rows.map((r) => ({
          date: dayOf(r.day.getTime()),
          score: r.score,
          bucket: r.bucket,
          tier: r.tier,
          vessels_waiting: r.vesselsWaiting,
          median_anchorage_wait_h: r.medianAnchorageWaitH,
        })),
      },
    };
  }

  /** A port's stored signals of one day (what the reading was computed from). */
  async signalsFor(locode: string, day: string): Promise<DaySignals | null> {
    const row = await this.deps.prisma.portCongestionSignal.findUnique({
      where: { locode_day: { locode, day: new Date(dayStart(day)) } },
    });
    return row;
  }
}

/** Whether one sighting moved the anchorage enough to score the port before its interval. */
export function anchorageMoved(move: AnchorageMove): boolean {
  // From an empty anchorage (a port's first sighting among them) nothing is known to have moved: a
  // port scored before its first sampling is not scored twice for it.
  if (move.waitingBefore === 0) return false;
  const change = Math.abs(move.waitingNow - move.waitingBefore);
  return change >= MOVE_SHIPS && change >= MOVE_SHARE * Math.max(move.waitingBefore, move.waitingNow);
}

function toBoardItem(
  row: Omit<BoardItem, "components" | "raisedBy"> & { components: unknown; raisedBy: unknown },
): BoardItem {
  return {
    locode: row.locode,
    name: row.name,
    country: row.country,
    score: row.score,
    bucket: row.bucket,
    tier: row.tier,
    trend7d: row.trend7d,
    vesselsWaiting: row.vesselsWaiting,
    medianAnchorageWaitH: row.medianAnchorageWaitH,
    longestWaitDays: row.longestWaitDays,
    computedAt: row.computedAt,
    lat: row.lat,
    lng: row.lng,
    components: row.components as ComponentReading[],
    raisedBy: row.raisedBy as StoppageRaise[],
  };
}
