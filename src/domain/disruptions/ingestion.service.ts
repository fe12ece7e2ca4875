import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { DisruptionsService } from "./disruptions.service";
import type { FeedFetcher, FeedSourceConfig } from "./feed-source";

/** Backoff after failures: the interval doubled per failure in a row, at most six hours. */
const MAX_BACKOFF_MS = 6 * 3_600_000;

export interface IngestionTick {
  fetched: number;
  failed: number;
  accepted: number;
}

/**
 * Feed ingestion as shared background work: every process may run it; a source is claimed by moving
 * its `next_fetch_at` forward in one conditional update, so two processes never fetch the same feed at
 * once. Health (last success, last error, items seen) is kept per source; a failed fetch is an error
 * of that source and backs it off, never a crash of the worker.
 */
export class FeedIngestion {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      fetcher: FeedFetcher;
      disruptions: DisruptionsService;
      sources: readonly FeedSourceConfig[];
      intervalMs: number;
    },
  ) {}

  /** Writes the configured sources (new ones due now); sources no longer configured are disabled. */
  async syncSources(): Promise<void> {
    const { prisma, sources, clock } = this.deps;
    for (const s of sources) {
      await prisma.disruptionSource.upsert({
        where: { id: s.id },
        create: {
          id: s.id,
          publisher: s.publisher,
          url: s.url,
          kind: s.kind,
          authoritative: s.authoritative,
          // Due at once on the service's clock (a simulated clock may be far from the database's).
          nextFetchAt: clock.now(),
        },
        update: {
          publisher: s.publisher,
          url: s.url,
          kind: s.kind,
          authoritative: s.authoritative,
          enabled: true,
        },
      });
    }
    await prisma.disruptionSource.updateMany({
      where: { id: { notIn: sources.map((s) => s.id) } },
      data: { enabled: false },
    });
  }

  /** Fetches every source that is due (claimed first), ingests its items, then resolves silent events. */
  async tick(): Promise<IngestionTick> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const due = await prisma.disruptionSource.findMany({
      where: { enabled: true, nextFetchAt: { lte: now } },
      orderBy: { nextFetchAt: "asc" },
    });
    const result: IngestionTick = { fetched: 0, failed: 0, accepted: 0 };
    for (const row of due) {
      const config = this.deps.sources.find((s) => s.id === row.id);
      if (!config) continue;
      // Claim: only the process whose update still sees the old time fetches.
      const claimed = await prisma.disruptionSource.updateMany({
        where: { id: row.id, nextFetchAt: row.nextFetchAt },
        data: { nextFetchAt: new Date(now.getTime() + this.deps.intervalMs), lastFetchedAt: now },
      });
      if (claimed.count === 0) continue;
      const outcome = await this.fetchOne(config, row);
      if (outcome === "failed") result.failed++;
      else {
        result.fetched++;
        result.accepted += outcome;
      }
    }
    await this.deps.disruptions.resolveSilent();
    return result;
  }

  private async fetchOne(
    config: FeedSourceConfig,
    row: { etag: string | null; lastModified: string | null; consecutiveFailures: number },
  ): Promise<number | "failed"> {
    const { prisma, clock, fetcher, disruptions } = this.deps;
    let fetched: Awaited<ReturnType<FeedFetcher["fetch"]>>;
    try {
      fetched = await fetcher.fetch(config, { etag: row.etag, lastModified: row.lastModified });
    } catch (error) {
      fetched = { kind: "error", reason: error instanceof Error ? error.message : "fetch failed" };
    }
    const now = clock.now();
    if (fetched.kind === "error") {
      const failures = row.consecutiveFailures + 1;
      const backoff = Math.min(MAX_BACKOFF_MS, this.deps.intervalMs * 2 ** Math.min(failures - 1, 10));
      await prisma.disruptionSource.update({
        where: { id: config.id },
        data: {
          lastErrorAt: now,
          lastError: fetched.reason.slice(0, 300),
          consecutiveFailures: failures,
          nextFetchAt: new Date(now.getTime() + backoff),
        },
      });
      return "failed";
    }
    if (fetched.kind === "not_modified") {
      await prisma.disruptionSource.update({
        where: { id: config.id },
        data: { lastSuccessAt: now, consecutiveFailures: 0 },
      });
      return 0;
    }
    const report = await disruptions.ingest(config, fetched.items);
    await prisma.disruptionSource.update({
      where: { id: config.id },
      data: {
        lastSuccessAt: now,
        consecutiveFailures: 0,
        etag: fetched.etag,
        lastModified: fetched.lastModified,
        itemsSeen: { increment: fetched.items.length },
        itemsAccepted: { increment: report.accepted },
      },
    });
    return report.accepted;
  }
}
