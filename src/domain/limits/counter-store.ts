import type { Redis } from "ioredis";
import type { Clock } from "../../lib/clock";

/**
 * Atomic counters with a time to live: the one primitive behind per-key rate windows, daily lookup
 * allowances and per-address limits. In memory for one process; Redis when several processes must
 * share a count. Both are exact under concurrency: each increment is one atomic step.
 */
export interface CounterStore {
  readonly kind: "memory" | "redis";
  /** Adds `amount` to `key` (created with `ttlMs` to live) and returns the new total. */
  increment(key: string, amount: number, ttlMs: number): Promise<number>;
  /** Current total, 0 when absent. */
  peek(key: string): Promise<number>;
  /** Forgets every window; only a store of this process's memory can (the sandbox world's is one). */
  clear?(): void;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  readonly kind = "memory" as const;
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    // Windows expire on their own; the sweep only bounds memory for keys never seen again.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async increment(key: string, amount: number, ttlMs: number): Promise<number> {
    const now = this.clock.now().getTime();
    const current = this.counters.get(key);
    if (!current || current.expiresAt <= now) {
      this.counters.set(key, { count: amount, expiresAt: now + ttlMs });
      return amount;
    }
    current.count += amount;
    return current.count;
  }

  /** Forgets every window (the sandbox puts its world back after each request). */
  clear(): void {
    this.counters.clear();
  }

  async peek(key: string): Promise<number> {
    const current = this.counters.get(key);
    return current && current.expiresAt > this.clock.now().getTime() ? current.count : 0;
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, value] of this.counters) if (value.expiresAt <= now) this.counters.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

// INCRBY and the first PEXPIRE in one atomic script, so a crash between them cannot leave an
// immortal counter.
const INCREMENT_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total`;

export class RedisCounterStore implements CounterStore {
  readonly kind = "redis" as const;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = "quayside:",
  ) {}

  async increment(key: string, amount: number, ttlMs: number): Promise<number> {
    const total = await this.redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, amount, ttlMs);
    return Number(total);
  }

  async peek(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

/**
 * Redis with an in-memory insurance store: when Redis is unreachable each process keeps limiting on
 * its own rather than letting everything through or refusing everything.
 */
export class InsuredCounterStore implements CounterStore {
  readonly kind = "redis" as const;

  constructor(
    private readonly primary: CounterStore,
    private readonly insurance: CounterStore,
    private readonly onFallback: (error: unknown) => void = () => undefined,
  ) {}

  async increment(key: string, amount: number, ttlMs: number): Promise<number> {
    try {
      return await this.primary.increment(key, amount, ttlMs);
    } catch (error) {
      this.onFallback(error);
      return this.insurance.increment(key, amount, ttlMs);
    }
  }

  async peek(key: string): Promise<number> {
    try {
      return await this.primary.peek(key);
    } catch (error) {
      this.onFallback(error);
      return this.insurance.peek(key);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.insurance.close()]);
  }
}
