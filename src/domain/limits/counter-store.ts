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
  /**
   * `increment` in the same tick, where the count is this process's (memory): the rate windows of
   * every request are spent without a promise. Absent where a count is a round trip (Redis).
   */
  incrementNow?(key: string, amount: number, ttlMs: number): number;
  /** Current total, 0 when absent. */
  peek(key: string): Promise<number>;
  /**
   * Records that `key` holds until `untilMs` (epoch milliseconds; `ttlMs` from now), keeping a later
   * hold already recorded: a carrier's cooldown after it asked us to wait.
   */
  hold(key: string, untilMs: number, ttlMs: number): Promise<void>;
  /** Epoch milliseconds until which `key` holds; 0 when it does not (or no longer) hold. */
  heldUntil(key: string): Promise<number>;
  /** Forgets every window; only a store of this process's memory can (the sandbox world's is one). */
  clear?(): void;
  /**
   * A shared store's state, asked for `/readyz`: `shared` while it answers, `insurance` while counts
   * fall back to this process (absent: a memory store, which is never shared).
   */
  health?(): Promise<CounterHealth>;
  close(): Promise<void>;
}

export interface CounterHealth {
  mode: "shared" | "insurance";
  /** How many instances share the windows; in insurance each grants 1/instances of every limit. */
  instances: number;
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
    return this.incrementNow(key, amount, ttlMs);
  }

  incrementNow(key: string, amount: number, ttlMs: number): number {
    const now = this.clock.now().getTime();
    const current = this.counters.get(key);
    if (!current || current.expiresAt <= now) {
      this.counters.set(key, { count: amount, expiresAt: now + ttlMs });
      return amount;
    }
    current.count += amount;
    return current.count;
  }

  async hold(key: string, untilMs: number, ttlMs: number): Promise<void> {
    const now = this.clock.now().getTime();
    const current = this.counters.get(key);
    if (current && current.expiresAt > now && current.count >= untilMs) return;
    this.counters.set(key, { count: untilMs, expiresAt: now + ttlMs });
  }

  async heldUntil(key: string): Promise<number> {
    return this.peek(key);
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

// A later hold wins: two processes told to wait different times keep the longer wait.
const HOLD_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1`;

// Each instance stamps itself into one sorted set with Redis's own clock (no skew between hosts),
// stamps older than the window drop out, and the answer is how many instances are alive. A process
// that serves no API (QUAYSIDE_WORKERS=only) only counts (ARGV[3] "0"): it grants no window, so it
// takes no share of one.
const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[3] == '1' then redis.call('ZADD', KEYS[1], now, ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if ARGV[3] == '1' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return redis.call('ZCARD', KEYS[1])`;

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

  async hold(key: string, untilMs: number, ttlMs: number): Promise<void> {
    await this.redis.eval(
      HOLD_SCRIPT,
      1,
      this.prefix + key,
      Math.round(untilMs),
      Math.max(1, Math.round(ttlMs)),
    );
  }

  async heldUntil(key: string): Promise<number> {
    return this.peek(key);
  }

  /** Marks `instanceId` alive for `ttlMs` (unless `announce` is false); returns how many instances are alive. */
  async heartbeat(instanceId: string, ttlMs: number, announce = true): Promise<number> {
    return Number(
      await this.redis.eval(
        HEARTBEAT_SCRIPT,
        1,
        `${this.prefix}instances`,
        instanceId,
        ttlMs,
        announce ? "1" : "0",
      ),
    );
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

/** How often an instance says it is alive, and how long a silent one still counts. */
export const INSTANCE_HEARTBEAT_MS = 5_000;
export const INSTANCE_ALIVE_MS = 15_000;

/**
 * Redis with an in-memory insurance store (the insurance limiter of rate-limiter-flexible's
 * "Insurance Strategy"): when Redis cannot be reached, each instance keeps limiting on its own
 * instead of letting everything through (counters failing open let 140 of 140 requests through a
 * window of 120 on two instances) or refusing everything. Its share is 1/N of every window, N the
 * instances alive when Redis last answered (never fewer than `minimumInstances`): each increment
 * counts N times, so every limit, allowance and `X-RateLimit-Remaining` keeps its meaning and the
 * instances together stay within it. The exact shared window returns with the first call Redis
 * answers; what the instances counted meanwhile stays in their own memory.
 *
 * Every total this instance answers for a window is also kept as the window's floor here: the next
 * increment answers at least the floor plus what it adds (times N in insurance). Without it, a
 * command that timed out under load (1 s) fell back mid-window to an insurance count that started
 * near 0, and back to Redis's count a moment later, so `X-RateLimit-Remaining` went up and repeated
 * values; now it only goes down across one instance's answers, and the insurance window continues
 * from the shared count instead of granting its share again (docs/decisions/plans-and-limits.md).
 */
export class InsuredCounterStore implements CounterStore {
  readonly kind = "redis" as const;
  private degraded = false;
  private instancesSeen = 1;
  private readonly heartbeat: NodeJS.Timeout;
  /** The highest total answered per window key, until the window's time to live ends. */
  private readonly floors = new Map<string, { total: number; expiresAt: number }>();

  constructor(
    private readonly primary: RedisCounterStore,
    private readonly insurance: CounterStore,
    private readonly options: {
      instanceId: string;
      /** Instances assumed when Redis was never reached (or reported fewer). */
      minimumInstances: number;
      /** False for a process that serves no API: it is not counted among the instances. */
      announce?: boolean;
      onModeChange?: (health: CounterHealth, error?: unknown) => void;
      onInsuranceCount?: () => void;
      /** When window floors expire. */
      clock: Clock;
    },
  ) {
    void this.beat();
    this.heartbeat = setInterval(() => {
      void this.beat();
      this.sweepFloors();
    }, INSTANCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async increment(key: string, amount: number, ttlMs: number): Promise<number> {
    try {
      const total = await this.primary.increment(key, amount, ttlMs);
      this.answered();
      return this.aboveFloor(key, total, amount, ttlMs);
    } catch (error) {
      this.failed(error);
      this.options.onInsuranceCount?.();
      const share = this.share();
      const total = (await this.insurance.increment(key, amount, ttlMs)) * share;
      return this.aboveFloor(key, total, amount * share, ttlMs);
    }
  }

  /**
   * `total`, or the window's floor plus `added` when that is more, kept as the new floor. Synchronous
   * after the store's answer, so concurrent increments of one key get distinct totals.
   */
  private aboveFloor(key: string, total: number, added: number, ttlMs: number): number {
    const now = this.options.clock.now().getTime();
    const floor = this.floors.get(key);
    const previous = this.floorOf(key);
    const answered = previous > 0 ? Math.max(total, previous + added) : total;
    this.floors.set(key, {
      total: answered,
      expiresAt: floor && floor.expiresAt > now ? floor.expiresAt : now + ttlMs,
    });
    return answered;
  }

  private sweepFloors(): void {
    const now = this.options.clock.now().getTime();
    for (const [key, floor] of this.floors) if (floor.expiresAt <= now) this.floors.delete(key);
  }

  async peek(key: string): Promise<number> {
    try {
      const total = await this.primary.peek(key);
      this.answered();
      return Math.max(total, this.floorOf(key));
    } catch (error) {
      this.failed(error);
      return Math.max((await this.insurance.peek(key)) * this.share(), this.floorOf(key));
    }
  }

  private floorOf(key: string): number {
    const floor = this.floors.get(key);
    return floor && floor.expiresAt > this.options.clock.now().getTime() ? floor.total : 0;
  }

  async hold(key: string, untilMs: number, ttlMs: number): Promise<void> {
    // Kept here too, so a cooldown survives Redis going away in the meantime.
    await this.insurance.hold(key, untilMs, ttlMs);
    try {
      await this.primary.hold(key, untilMs, ttlMs);
      this.answered();
    } catch (error) {
      this.failed(error);
    }
  }

  async heldUntil(key: string): Promise<number> {
    const own = await this.insurance.heldUntil(key);
    try {
      const shared = await this.primary.heldUntil(key);
      this.answered();
      return Math.max(own, shared);
    } catch (error) {
      this.failed(error);
      return own;
    }
  }

  async health(): Promise<CounterHealth> {
    await this.beat();
    return { mode: this.degraded ? "insurance" : "shared", instances: this.share() };
  }

  /** N in "1/N of every window". */
  private share(): number {
    return Math.max(this.options.minimumInstances, this.instancesSeen);
  }

  private async beat(): Promise<void> {
    try {
      this.instancesSeen = await this.primary.heartbeat(
        this.options.instanceId,
        INSTANCE_ALIVE_MS,
        this.options.announce ?? true,
      );
      this.answered();
    } catch (error) {
      this.failed(error);
    }
  }

  private answered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.onModeChange?.({ mode: "shared", instances: this.share() });
  }

  private failed(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.onModeChange?.({ mode: "insurance", instances: this.share() }, error);
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await Promise.all([this.primary.close(), this.insurance.close()]);
  }
}
