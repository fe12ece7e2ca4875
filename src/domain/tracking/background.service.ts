import type { PrismaClient, Shipment } from "../../generated/prisma/client";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../observability/logger";
import type { QueueStat } from "../../observability/metrics";
import { planOf } from "../accounts/plans";
import { detectCarriers } from "../carriers/carrier-detection";
import type { Carrier } from "../carriers/carrier-directory";
import { parseReference } from "../references/reference";
import { type DiscoveryBarrier, discoveryBarrier } from "../shipments/carrier-discovery";
import { shipmentName, shipmentNumberOf } from "../shipments/shipment-id";
import type { WebhooksService } from "../webhooks/webhooks.service";
import { ItemCommit, untilCommittedOrWrappedUp } from "./batch-commit";
import type { DocumentStore } from "./document-store";
import { refreshGapMs } from "./shipment-facts";
import type { Actor, TrackingService } from "./tracking.service";

/** retry-failed: failed within this window, at most this many per call, one call per this period. */
export const RETRY_FAILED_WINDOW_MS = 7 * 86_400_000;
export const RETRY_FAILED_MAX = 200;
export const RETRY_FAILED_PERIOD_MS = 15 * 60_000;
/** A claimed refresh or discovery is leased this long: a crashed worker's claim is picked up again. */
const LEASE_MS = 15 * 60_000;

/**
 * Work that runs without a request: scheduled refreshes, carrier discovery for failed shipments and
 * the retry-failed queue. The database rows are the queue (`next_refresh_at`, `discovery_status`),
 * claimed with FOR UPDATE SKIP LOCKED, so several worker processes share it and a restart loses
 * nothing: the schedule is the data.
 */
export class BackgroundTracking {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      tracking: TrackingService;
      documents: DocumentStore;
      webhooks: WebhooksService;
      directory: readonly Carrier[];
    },
  ) {}

  /**
   * Re-fetches shipments whose refresh is due (at most `limit` per call). `stop` (the service
   * stopping) is checked between shipments: none starts after it, and the one in progress is waited
   * for only if its carrier already answered and it is saving (a few statements); one still waiting
   * for its carrier is abandoned and will write nothing when the answer comes (`ItemCommit`, as bulk
   * tracking's wrap-up). A carrier lookup is up to 10 s times 3 attempts: waiting for it held a stop
   * for a whole batch of them. What was claimed and not refreshed is due again at once, not after the
   * lease.
   */
  async refreshDue(limit = 25, stop?: AbortSignal): Promise<number> {
    const { prisma, clock, tracking } = this.deps;
    if (stop?.aborted) return 0;
    const now = clock.now();
    const leasedUntil = new Date(now.getTime() + LEASE_MS);
    const claimed = await prisma.$queryRaw<{ id: string }[]>`
      UPDATE shipments SET next_refresh_at = ${leasedUntil}
       WHERE id IN (
         SELECT id FROM shipments
          WHERE next_refresh_at <= ${now} AND deleted_at IS NULL AND failed_at IS NULL
          ORDER BY next_refresh_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    const notRefreshed: string[] = [];
    for (const [at, { id }] of claimed.entries()) {
      if (stop?.aborted) {
        notRefreshed.push(...claimed.slice(at).map((row) => row.id));
        break;
      }
      const shipment = await prisma.shipment.findUnique({ where: { id } });
      if (!shipment || shipment.deletedAt) continue;
      const actor = await this.actorFor(shipment);
      if (!actor) continue;
      const commit = new ItemCommit();
      const run = tracking.track(actor, {
        reference: shipment.reference,
        type: shipment.referenceType,
        carrier: shipment.carrierScac ?? undefined,
        // A teammate's track may have fetched it moments ago: share that answer (the store is the
        // organisation's own, so another organisation's fetch never serves it).
        freshness: "serve-fresh",
        maxAgeMs: refreshGapMs(shipment.eta, now) / 2,
        refresh: true,
        surface: "job",
        commit,
      });
      try {
        if (!stop) await run;
        else if (!(await untilCommittedOrWrappedUp(run, commit, stop)).done) notRefreshed.push(id);
      } catch (error) {
        this.deps.logger.error(
          { err: error, shipmentId: id },
          "Scheduled refresh failed; retried after the lease",
        );
      }
    }
    if (notRefreshed.length > 0) {
      // Only while still leased by this claim: nothing else moved them meanwhile.
      await prisma.shipment.updateMany({
        where: { id: { in: notRefreshed }, nextRefreshAt: leasedUntil },
        data: { nextRefreshAt: now },
      });
      this.deps.logger.info(
        { notRefreshed: notRefreshed.length },
        "Stopping: scheduled refreshes not started are due again",
      );
    }
    return claimed.length;
  }

  /**
   * Tries the other candidate carriers of failed shipments queued for discovery. When one answers,
   * the shipment goes live under it and `discovery.recovered` fires.
   */
  async discoverQueued(limit = 10, stop?: AbortSignal): Promise<number> {
    const { prisma, clock } = this.deps;
    if (stop?.aborted) return 0;
    const now = clock.now();
    const claimed = await prisma.$queryRaw<{ id: string; organizationId: string }[]>`
      UPDATE shipments SET discovery_status = 'running', discovery_updated_at = ${now}
       WHERE id IN (
         SELECT id FROM shipments
          WHERE deleted_at IS NULL AND failed_at IS NOT NULL
            AND (discovery_status = 'queued'
                 OR (discovery_status = 'running' AND discovery_updated_at < ${new Date(now.getTime() - LEASE_MS)}))
          ORDER BY discovery_updated_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING id, organization_id AS "organizationId"`;
    // Their discovery status shows in reads: now running, and whatever each attempt leaves.
    const changed = { shipments: claimed as { id: string; organizationId: string }[] };
    await answersChanged(changed);
    for (const [at, { id }] of claimed.entries()) {
      if (stop?.aborted) {
        // Stopping: the ones not started go back to the queue, not to the lease.
        await prisma.shipment.updateMany({
          where: { id: { in: claimed.slice(at).map((row) => row.id) }, discoveryStatus: "running" },
          data: { discoveryStatus: "queued" },
        });
        break;
      }
      await this.discover(id);
    }
    await answersChanged(changed);
    return claimed.length;
  }

  private async discover(id: string): Promise<void> {
    const { prisma, clock, tracking, webhooks, documents } = this.deps;
    const shipment = await prisma.shipment.findUnique({ where: { id } });
    if (!shipment || shipment.deletedAt || !shipment.failedAt) return;
    const actor = await this.actorFor(shipment);
    const parsed = parseReference(shipment.reference, shipment.referenceType);
    if (!actor || !parsed.ok) {
      await prisma.shipment.update({
        where: { id },
        data: { discoveryStatus: "exhausted", discoveryUpdatedAt: clock.now() },
      });
      return;
    }
    const history = await documents.carriersThatAnswered(shipment.organizationId, parsed.value.normalized);
    const candidates = detectCarriers(parsed.value, { history, directory: this.deps.directory })
      .map((c) => c.scac)
      .filter((scac) => !shipment.triedCarriers.includes(scac));
    for (const scac of candidates) {
      // Untracked while the search went on: asking the next carrier would track it again.
      const live = await prisma.shipment.findUnique({ where: { id }, select: { deletedAt: true } });
      if (!live || live.deletedAt) return;
      const outcome = await tracking.track(actor, {
        reference: shipment.reference,
        type: shipment.referenceType,
        carrier: scac,
        freshness: "fetch",
        surface: "job",
      });
      if (outcome.kind === "tracked") {
        await prisma.$transaction(async (tx) => {
          await tx.shipment.update({
            where: { id: outcome.shipment.id },
            data: { discoveryStatus: "recovered", discoveryUpdatedAt: clock.now() },
          });
          await webhooks.enqueue(tx, shipment.organizationId, [
            {
              event: "discovery.recovered",
              data: {
                reference_number: shipment.reference,
                type: shipment.referenceType === "container" ? "Container" : "Bill of Lading",
                carrier: outcome.carrier.scac,
                carrier_name: outcome.carrier.name,
                shipment_id: shipmentName(outcome.shipment.number),
              },
            },
          ]);
        });
        return;
      }
      if (outcome.kind !== "not_found") break; // a carrier down or a limit: stop, keep what we know
    }
    await prisma.shipment.update({
      where: { id },
      data: {
        discoveryStatus: "exhausted",
        discoveryUpdatedAt: clock.now(),
        triedCarriers: [...new Set([...shipment.triedCarriers, ...candidates])],
      },
    });
  }

  /**
   * POST /shipments/retry-failed: failed within 7 days, at most 200, once per organisation per 15
   * minutes. Plans without discovery, or organisations that switched it off, are examined but
   * skipped, and the answer says which of the two. No slot is spent.
   */
  async queueRetryFailed(
    actor: Actor,
    shipmentIds?: string[],
  ): Promise<
    | {
        kind: "queued";
        examined: number;
        queued: number;
        skipped: number;
        /** Why the skipped ones were not queued; null when none was skipped. */
        skippedReason: DiscoveryBarrier | null;
      }
    | { kind: "too_soon"; retryAfterSeconds: number }
  > {
    const { prisma, clock } = this.deps;
    const org = actor.organization;
    const now = clock.now();
    const outcome = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`retry-failed:${org.id}`}))`;
      const last = await tx.retryFailedRun.findFirst({
        where: { organizationId: org.id },
        orderBy: { createdAt: "desc" },
      });
      if (last && now.getTime() - last.createdAt.getTime() < RETRY_FAILED_PERIOD_MS) {
        return {
          kind: "too_soon" as const,
          retryAfterSeconds: Math.ceil(
            (last.createdAt.getTime() + RETRY_FAILED_PERIOD_MS - now.getTime()) / 1000,
          ),
        };
      }
      const numbers = (shipmentIds ?? []).map(shipmentNumberOf).filter((n): n is bigint => n !== null);
      const failed = await tx.shipment.findMany({
        where: {
          organizationId: org.id,
          deletedAt: null,
          failedAt: { gte: new Date(now.getTime() - RETRY_FAILED_WINDOW_MS) },
          ...(shipmentIds ? { OR: [{ id: { in: shipmentIds } }, { number: { in: numbers } }] } : {}),
        },
        orderBy: { failedAt: "desc" },
        take: RETRY_FAILED_MAX,
        select: { id: true },
      });
      const barrier = discoveryBarrier(org);
      const eligible = barrier === null;
      if (eligible && failed.length > 0) {
        await tx.shipment.updateMany({
          where: { id: { in: failed.map((s) => s.id) } },
          // A retry asks every candidate again, including those tried before.
          data: { discoveryStatus: "queued", discoveryUpdatedAt: now, triedCarriers: [] },
        });
      }
      const queued = eligible ? failed.length : 0;
      const run = { examined: failed.length, queued, skipped: failed.length - queued };
      await tx.retryFailedRun.create({ data: { organizationId: org.id, ...run, createdAt: now } });
      return { kind: "queued" as const, ...run, skippedReason: run.skipped > 0 ? barrier : null };
    });
    if (outcome.kind === "queued" && outcome.queued > 0) await answersChanged({ organizations: [org.id] });
    return outcome;
  }

  /**
   * The queues background work drains, read for the metrics: how much waits in each, and how long the
   * oldest due item has been due (a delivery's or refresh's due time; a discovery's queueing time).
   */
  async queueStats(): Promise<QueueStat[]> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const refreshDue = { nextRefreshAt: { lte: now }, deletedAt: null };
    const queued = { discoveryStatus: "queued", deletedAt: null };
    const [deliveries, dueDelivery, refreshes, discoveries] = await Promise.all([
      prisma.webhookDelivery.count({ where: { status: "pending" } }),
      prisma.webhookDelivery.aggregate({
        _min: { nextAttemptAt: true },
        where: { status: "pending", nextAttemptAt: { lte: now } },
      }),
      prisma.shipment.aggregate({ _count: { _all: true }, _min: { nextRefreshAt: true }, where: refreshDue }),
      prisma.shipment.aggregate({
        _count: { _all: true },
        _min: { discoveryUpdatedAt: true },
        where: queued,
      }),
    ]);
    const ageOf = (since: Date | null) => (since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0);
    return [
      {
        queue: "webhook_deliveries",
        depth: deliveries,
        oldestDueAgeSeconds: ageOf(dueDelivery._min.nextAttemptAt),
      },
      {
        queue: "refresh_due",
        depth: refreshes._count._all,
        oldestDueAgeSeconds: ageOf(refreshes._min.nextRefreshAt),
      },
      {
        queue: "discovery",
        depth: discoveries._count._all,
        oldestDueAgeSeconds: ageOf(discoveries._min.discoveryUpdatedAt),
      },
    ];
  }

  /** Jobs act for the user who added the shipment, with the organisation's current plan and no key. */
  async actorFor(shipment: Shipment): Promise<Actor | null> {
    const user = await this.deps.prisma.user.findUnique({
      where: { id: shipment.addedByUserId },
      include: { organization: true },
    });
    if (!user) return null;
    const { organization, ...rest } = user;
    return { user: rest, organization, plan: planOf(organization), apiKey: null };
  }
}
