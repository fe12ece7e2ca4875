import type { Logger } from "pino";
import { claimDue } from "../../db/claim-due";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { type AnswerChange, answersChanged, onAnswersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import { featureAccess } from "../accounts/principal";
import { addDays } from "../demurrage/calendar";
import { type DndService, lastFreeDaysGiven } from "../demurrage/dnd.service";
import { currentClock } from "../demurrage/dnd-assessment";
import { type KeptDnd, keptDndInputs, keptDndValidUntil } from "../demurrage/kept-dnd";
import { storedArrivalP50 } from "../eta/eta.service";
import { nextLocalMidnight } from "../ports/local-midnight";
import { FACTS_MAX_AGE_MS, type HoldStatus, type HoldType } from "../terminals/terminal-facts";
import type { TerminalRecords } from "../terminals/terminal-records.service";
import type { DocumentStore } from "../tracking/document-store";

/**
 * "Last free day within N days" on the overview and in the list filter (issue 38): the days before a
 * last free day in which a forwarder books the truck; the same as D&D's `at_risk` window.
 */
export const LAST_FREE_DAY_SOON_DAYS = 3;

/** One box's free time as the list shows it. */
export interface BoxFreeTime {
  container: string;
  /** Port-local `YYYY-MM-DD`; null when no terms and no terminal give one. */
  demurrageLastFreeDay: string | null;
  detentionLastFreeDay: string | null;
  /** The clock running now (started, not stopped), if any. */
  running: "demurrage" | "detention" | "combined" | null;
}

export interface BoxHold {
  container: string;
  type: HoldType;
  status: HoldStatus;
}

/** What `shipments.free_time` holds. */
export interface FreeTimeFacts {
  containers: BoxFreeTime[];
  /** The earliest last free day of a running clock (port-local date); null when none runs. */
  lastFreeDay: string | null;
  /** The port of discharge's zone the dates are in (null: UTC). */
  timeZone: string | null;
  holds: BoxHold[];
}

/** A claimed row is left alone this long by other processes, so a crashed worker's claim lapses. */
const DND_LEASE_MS = 5 * 60_000;

/** The instant a port-local date starts (its midnight), from the day before's noon UTC. */
function startOfLocalDate(date: string, zone: string | null): Date {
  return nextLocalMidnight(new Date(`${addDays(date, -1)}T12:00:00Z`), zone);
}

interface Row {
  id: string;
  organizationId: string;
  documentId: string | null;
  organization: Parameters<typeof featureAccess>[0];
  document: { lastSyncedAt: Date | null } | null;
  predictedEta: unknown;
}

/**
 * The live shipments whose summary lists `box`. The GIN index of migration 20261202050000 is on this
 * expression (Prisma's JSON filter writes another, which read every shipment row once per change).
 */
export function shipmentsHoldingBox(box: string): Prisma.Sql {
  return Prisma.sql`SELECT id FROM shipments WHERE deleted_at IS NULL AND ${summaryListsBox(box)}`;
}

/**
 * The organisations' live rows waiting for their free time: never computed, or older than their last
 * write. Each arm is answered by its own partial index (migration 20261202051000), which holds only
 * such rows, so the lookup does not read the organisation's other rows.
 */
export function shipmentsAwaitingFreeTime(organizationIds: readonly string[]): Prisma.Sql {
  const ids = [...organizationIds];
  return Prisma.sql`SELECT id FROM shipments
     WHERE organization_id = ANY(${ids}::text[]) AND deleted_at IS NULL AND free_time_at IS NULL
    UNION
    SELECT id FROM shipments
     WHERE organization_id = ANY(${ids}::text[]) AND deleted_at IS NULL AND free_time_at < updated_at`;
}

/** The condition the index answers: the summary's boxes contain `box`. */
export function summaryListsBox(box: string): Prisma.Sql {
  return Prisma.sql`summary -> 'containerNumbers' @> ${JSON.stringify([box])}::jsonb`;
}

/**
 * Keeps each shipment's free time (last free days, the running clock) and holds on its row when
 * their inputs change, so the list's exceptions are conditions on the row compared with the core's
 * clock (docs/decisions/dashboard-exceptions.md). Inputs: the newest version (a document changed),
 * terminal facts (a box changed), contract terms (the organisation's active shipments). A prediction
 * does not move them: only a running clock (an actual discharge or gate-out) is an exception, and its
 * last free day does not depend on the predicted arrival.
 */
export class ShipmentFreeTime {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      documents: DocumentStore;
      dnd: DndService;
      terminals: TerminalRecords;
      logger: Logger;
    },
  ) {}

  /** Listens to the writes that feed free time and holds; returns the unsubscribe. */
  listen(): () => void {
    // The write that announced the change has committed: a failure here leaves the rows' free time
    // as it was (recomputed with their next change) and must not fail that write's answer.
    // Once per write (a track's version, terminal records and prediction): computed once, from all.
    return onAnswersChanged(
      (change) =>
        this.onChange(change).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, "Free time and holds could not be recomputed");
        }),
      { oncePerWrite: true },
    );
  }

  private async onChange(change: AnswerChange): Promise<void> {
    const { prisma } = this.deps;
    const or: Prisma.ShipmentWhereInput[] = [];
    if (change.shipments?.length) or.push({ id: { in: change.shipments.map((s) => s.id) } });
    if (change.documents?.length) or.push({ documentId: { in: [...change.documents] } });
    const boxes = change.containers ?? [];
    const organizations = change.organizations ?? [];
    const ids =
      or.length === 0
        ? []
        : await prisma.shipment.findMany({ where: { deletedAt: null, OR: or }, select: { id: true } });
    // One indexed lookup per box (shipmentsHoldingBox).
    for (const box of boxes)
      ids.push(...(await prisma.$queryRaw<{ id: string }[]>(shipmentsHoldingBox(box))));
    // An organisation-wide change (a new shipment tracked, a failure recorded): its rows written
    // since their free time was last computed, and those never computed.
    if (organizations.length > 0)
      ids.push(...(await prisma.$queryRaw<{ id: string }[]>(shipmentsAwaitingFreeTime(organizations))));
    if (ids.length === 0) return;
    await this.recompute([...new Set(ids.map((r) => r.id))]);
  }

  /** Contract terms changed: every active shipment of the organisation. */
  async organizationTermsChanged(organizationId: string): Promise<void> {
    const rows = await this.deps.prisma.shipment.findMany({
      where: { organizationId, deletedAt: null, status: { notIn: ["DELIVERED", "CANCELLED"] } },
      select: { id: true },
    });
    await this.recompute(rows.map((r) => r.id));
  }

  /** Rows never computed (a database from before this column): filled in batches, at start. */
  async backfill(batch = 200): Promise<number> {
    let done = 0;
    for (;;) {
      const rows = await this.deps.prisma.shipment.findMany({
        where: { freeTimeAt: null, deletedAt: null },
        select: { id: true },
        take: batch,
      });
      if (rows.length === 0) return done;
      await this.recompute(rows.map((r) => r.id));
      done += rows.length;
    }
  }

  /**
   * The D&D schedules kept on rows that have passed their boundary (the port's midnight, stale carrier
   * facts, a terminal fact grown old), recomputed oldest first, each claimed so two processes never
   * compute one twice; returns how many were claimed. Until a row is recomputed its reads assess on
   * the spot, so this only decides how soon reads are served from the row again.
   */
  async recomputeDue(limit = 100): Promise<number> {
    const now = this.deps.clock.now();
    const claimed = await claimDue(
      this.deps.prisma,
      { table: "shipments", key: "id", due: "dnd_valid_until" },
      now,
      new Date(now.getTime() + DND_LEASE_MS),
      limit,
    );
    await this.recompute(claimed);
    return claimed.length;
  }

  /** Computes and stores the free time and holds of these shipments, then says so to the caches. */
  async recompute(shipmentIds: readonly string[]): Promise<void> {
    if (shipmentIds.length === 0) return;
    const { prisma, clock } = this.deps;
    const rows: Row[] = await prisma.shipment.findMany({
      where: { id: { in: [...shipmentIds] } },
      select: {
        id: true,
        organizationId: true,
        documentId: true,
        organization: true,
        document: { select: { lastSyncedAt: true } },
        predictedEta: true,
      },
    });
    // Shipments of one document in one organisation with one stored prediction have the same inputs
    // (the document's newest version, its boxes' terminal facts, the organisation's terms and plan):
    // computed once and written in one statement. A box's change reaches every shipment that holds
    // it, and a bill of lading tracked by each of its containers is as many rows.
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = JSON.stringify([row.organizationId, row.documentId, row.predictedEta ?? null]);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    const changed: { id: string; organizationId: string }[] = [];
    for (const group of groups.values()) {
      const row = group[0]!;
      const facts = await this.factsOf(row);
      const soonest = facts?.facts.lastFreeDay ?? null;
      const zone = facts?.facts.timeZone ?? null;
      const starts = soonest ? startOfLocalDate(soonest, zone) : null;
      const ends = soonest ? startOfLocalDate(addDays(soonest, 1), zone) : null;
      await prisma.shipment.updateMany({
        where: { id: { in: group.map((r) => r.id) } },
        data: {
          freeTime: facts ? (facts.facts as unknown as Prisma.InputJsonObject) : undefined,
          lastFreeDayStartsAt: starts,
          freeTimeEndsAt: ends,
          holdsUntil: facts?.holdsUntil ?? null,
          freeTimeAt: clock.now(),
          dndSchedule: facts?.dnd ? (facts.dnd as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
          dndValidUntil: facts?.dnd ? new Date(facts.dnd.validUntil) : null,
        },
      });
      for (const { id, organizationId } of group) changed.push({ id, organizationId });
    }
    if (changed.length === 0) return;
    // Derived: the listeners that recompute facts (this one, in every service graph of the process:
    // the live one, the sandbox world's, day one's past) do not hear it, or two graphs would answer
    // each other's announcements for ever.
    await answersChanged({ shipments: changed }, { derived: true });
  }

  private async factsOf(
    row: Row,
  ): Promise<{ facts: FreeTimeFacts; holdsUntil: Date | null; dnd: KeptDnd | null } | null> {
    const { documents, dnd, terminals } = this.deps;
    if (!row.documentId) return null;
    const latest = (await documents.latestOfMany([row.documentId]))[0];
    const doc = latest?.content ?? null;
    if (!doc) return null;
    const pod = doc.locations.find((l) => l.key === doc.route.pod.locationKey);
    const boxes = doc.containers.map((c) => c.number);
    // Every box's terminal facts in one read: their last free days, their holds and their age.
    const terminal = await terminals.currentFactsOfMany(boxes);
    const given = lastFreeDaysGiven(terminal.facts);
    const current = boxes.map((box) => terminal.facts.get(box) ?? null);
    // A tariff's day goes with the plan's D&D (predictive ETA), as on every other surface; the
    // terminal's day is always shown (last-free-day.ts).
    const withTariff = featureAccess(row.organization, "predictive_eta") === "on";
    const [published, contracts, dwell] = withTariff
      ? await Promise.all([
          dnd.publishedTariffs(),
          dnd.contractTermsOf([row.organizationId]),
          dnd.dwellDaysAt(pod?.unLocode ? [pod.unLocode] : []),
        ])
      : [[], [], new Map<string, number>()];
    const tariffs = [...contracts, ...published];
    const now = this.deps.clock.now();
    const assessed = dnd.assess({
      organizationId: row.organizationId,
      doc,
      tariffs,
      dwell,
      factsConfirmedAt: row.document?.lastSyncedAt ?? null,
      terminalLastFreeDays: given,
      now,
    });
    // The full schedule as a read assesses it (shipment-dnd.ts): with the predicted arrival the read
    // projects discharge from, which free time leaves out (only a running clock is an exception). Kept
    // only where D&D is on and the row stores its prediction: a read of a row without one predicts on
    // the spot, from the clock.
    const predictedArrival = storedArrivalP50(row.predictedEta);
    let kept: KeptDnd | null = null;
    if (latest && withTariff && predictedArrival !== undefined) {
      const confirmedAt = latest.document.lastSyncedAt;
      const full =
        predictedArrival === null
          ? assessed
          : dnd.assess({
              organizationId: row.organizationId,
              doc,
              tariffs,
              dwell,
              predictedArrival,
              factsConfirmedAt: confirmedAt,
              terminalLastFreeDays: given,
              now,
            });
      const fetched = Date.parse(doc.fetchedAt);
      kept = {
        containers: full.containers,
        assessedAt: now.toISOString(),
        inputs: keptDndInputs({
          versionId: latest.version.id,
          factsConfirmedAt: confirmedAt,
          predictedArrival,
          dwellDays: (pod?.unLocode ? dwell.get(pod.unLocode) : undefined) ?? null,
          contractTermIds: contracts.map((t) => t.id),
        }),
        validUntil: keptDndValidUntil({
          now,
          portMidnight: nextLocalMidnight(now, pod?.timeZone ?? null),
          factsConfirmedAt: new Date(Math.max(fetched, confirmedAt?.getTime() ?? fetched)),
          terminalFactsChangeAt: terminal.changeAt,
        }).toISOString(),
      };
    }
    const containers = assessed.containers.map((box): BoxFreeTime => {
      const clock = currentClock(box);
      const terminalDay = given.get(box.container);
      // Without terms the clock cannot run, yet a terminal that gives a day for a box still at it is
      // counting that box's free time.
      const runs =
        (clock.clockStartedAt !== null && clock.clockStoppedAt === null) ||
        (clock.status === "unknown" && terminalDay !== undefined && !terminalDay.gatedOut);
      const tariffDay = (day: string | null, source: string | null) =>
        withTariff || source === "terminal" ? day : null;
      return {
        container: box.container,
        demurrageLastFreeDay:
          tariffDay(box.demurrage.lastFreeDay, box.demurrage.lastFreeDaySource) ??
          (terminalDay && !terminalDay.gatedOut ? terminalDay.lastFreeDay : null),
        detentionLastFreeDay: box.detention
          ? tariffDay(box.detention.lastFreeDay, box.detention.lastFreeDaySource)
          : null,
        running: runs ? clock.chargeType : null,
      };
    });
    const runningDays = containers.flatMap((c) => {
      const day =
        c.running === "detention" ? c.detentionLastFreeDay : c.running ? c.demurrageLastFreeDay : null;
      return day ? [day] : [];
    });
    const holds: BoxHold[] = [];
    let newest = Number.NEGATIVE_INFINITY;
    current.forEach((facts, i) => {
      if (!facts || facts.facts.holds.length === 0) return;
      for (const h of facts.facts.holds) holds.push({ container: boxes[i]!, type: h.type, status: h.status });
      newest = Math.max(newest, Date.parse(facts.facts.checkedAt));
    });
    return {
      facts: {
        containers,
        lastFreeDay: runningDays.sort()[0] ?? null,
        timeZone: pod?.timeZone ?? null,
        holds,
      },
      holdsUntil: holds.length > 0 ? new Date(newest + FACTS_MAX_AGE_MS) : null,
      dnd: kept,
    };
  }
}
