import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { CounterStore } from "../limits/counter-store";

/** The surfaces whose calls are counted per calendar month (compat `api_calls.used`). */
export const API_SURFACES = ["compat", "v1", "mcp", "graphql"] as const;
export type ApiSurface = (typeof API_SURFACES)[number];

export interface ApiCallMonth {
  /** Calendar month in UTC, `YYYY-MM`. */
  month: string;
  /** Calls counted in that month on that surface for the organisation (all of its keys). */
  calls: number;
}

/** The UTC calendar month an instant falls in, `YYYY-MM`. */
export function callMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** How long a month's live total lives in the counter store: past the month's end, whatever its length. */
const MONTH_TTL_MS = 40 * 24 * 3_600_000;
/** How often counted calls are written to the database. */
export const API_CALL_FLUSH_MS = 1_000;

/**
 * Counts API calls per organisation, calendar month and surface, without a write on the call's path:
 * the live total is a counter (this process's memory, or Redis shared by every instance when
 * configured, so the count is exact across processes), and the calls counted here are added to the
 * month's row in the database in one statement per key every second and at shutdown (`close`), so the
 * durable count loses nothing a client was told. A key's counter starts from the database's row the
 * first time this process meets it, and from 0 at the start of a month. There is no monthly allowance:
 * the count is information (compat `api_calls.used`), never a limit.
 */
export class ApiCallsService {
  /** Calls counted here and not yet in the database, by `organization|month|surface`. */
  private readonly pending = new Map<string, number>();
  /** Keys whose counter this process has started from the database. */
  private readonly started = new Map<string, Promise<void>>();
  private readonly flusher: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly counters: CounterStore,
  ) {
    this.flusher = setInterval(() => void this.flush().catch(() => undefined), API_CALL_FLUSH_MS);
    this.flusher.unref();
  }

  /** Counts one call now and returns the month's total, this call included. */
  async record(organizationId: string, surface: ApiSurface): Promise<ApiCallMonth> {
    const month = callMonth(this.clock.now());
    const key = `${organizationId}|${month}|${surface}`;
    await this.start(key, organizationId, month, surface);
    const calls = await this.counters.increment(counterKey(key), 1, MONTH_TTL_MS);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    return { month, calls };
  }

  /** The calls counted so far this month (or in `month`), without counting one. */
  async count(organizationId: string, surface: ApiSurface, month?: string): Promise<ApiCallMonth> {
    const wanted = month ?? callMonth(this.clock.now());
    const key = `${organizationId}|${wanted}|${surface}`;
    if (this.started.has(key)) {
      await this.started.get(key);
      return { month: wanted, calls: await this.counters.peek(counterKey(key)) };
    }
    const row = await this.prisma.apiCallCount.findUnique({
      where: { organizationId_month_surface: { organizationId, month: wanted, surface } },
    });
    return { month: wanted, calls: row?.count ?? 0 };
  }

  /** Writes every counted call to the database; runs every second and once more at shutdown. */
  async flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      const batch = [...this.pending];
      this.pending.clear();
      for (const [key, calls] of batch) {
        const [organizationId, month, surface] = key.split("|") as [string, string, string];
        try {
          await this.prisma.$executeRaw`
            INSERT INTO api_call_counts (organization_id, month, surface, count)
            VALUES (${organizationId}, ${month}, ${surface}, ${calls})
            ON CONFLICT (organization_id, month, surface)
            DO UPDATE SET count = api_call_counts.count + EXCLUDED.count`;
        } catch (error) {
          // Kept for the next flush: a database outage delays the write, it never loses a call.
          this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
          throw error;
        }
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.flusher);
    await this.flush();
  }

  /**
   * Starts a key's counter from the database the first time this process meets it, once: the first
   * process to do so (a marker counter says which) adds the row's count; with Redis that is one
   * process for all, in memory every process is its own.
   */
  private start(key: string, organizationId: string, month: string, surface: string): Promise<void> {
    let started = this.started.get(key);
    if (!started) {
      started = (async () => {
        const first = (await this.counters.increment(`${counterKey(key)}:started`, 1, MONTH_TTL_MS)) === 1;
        if (!first) return;
        const row = await this.prisma.apiCallCount.findUnique({
          where: { organizationId_month_surface: { organizationId, month, surface } },
          select: { count: true },
        });
        if (row && row.count > 0) await this.counters.increment(counterKey(key), row.count, MONTH_TTL_MS);
      })();
      started.catch(() => this.started.delete(key));
      this.started.set(key, started);
    }
    return started;
  }
}

function counterKey(key: string): string {
  return `api-calls:${key}`;
}
