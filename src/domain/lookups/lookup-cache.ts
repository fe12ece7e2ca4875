import { Redis } from "ioredis";
import type { Clock } from "../../lib/clock";

/**
 * Answers of lookups kept for a while (vessel positions 5 minutes, schedules 30 minutes, carrier
 * lookups an hour). In memory for one process; in Redis when `REDIS_URL` is set, so a repeat served by
 * another process is a cache hit too (and costs nothing there either). Values are JSON.
 */
export interface LookupCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Bounded in-memory cache; the oldest entries go first when full. Expiry follows the injected clock. */
export class MemoryLookupCache implements LookupCache {
  private readonly entries = new Map<string, { json: string; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 20_000,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return JSON.parse(entry.json) as T;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { json: JSON.stringify(value), expiresAt: this.clock.now().getTime() + ttlMs });
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** Redis with the memory cache as insurance: an unreachable Redis degrades to per-process caching. */
export class RedisLookupCache implements LookupCache {
  constructor(
    private readonly redis: Redis,
    private readonly insurance: LookupCache,
    private readonly onFallback: (error: unknown) => void = () => undefined,
    private readonly prefix = "quayside:cache:",
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    try {
      const json = await this.redis.get(this.prefix + key);
      return json === null ? undefined : (JSON.parse(json) as T);
    } catch (error) {
      this.onFallback(error);
      return this.insurance.get<T>(key);
    }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(value), "PX", Math.max(1, Math.round(ttlMs)));
    } catch (error) {
      this.onFallback(error);
      await this.insurance.set(key, value, ttlMs);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
    await this.insurance.close();
  }
}

export function createLookupCache(
  redisUrl: string | undefined,
  clock: Clock,
  onFallback: (error: unknown) => void,
): LookupCache {
  const memory = new MemoryLookupCache(clock);
  if (!redisUrl) return memory;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => undefined); // reported through onFallback, once per failed call
  return new RedisLookupCache(redis, memory, onFallback);
}
