import type { Clock } from "../../lib/clock";
import type { CounterStore } from "./counter-store";

export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Whole seconds until the reset, at least 1: what `Retry-After` carries. */
  retryAfterSeconds: number;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/**
 * Fixed windows aligned to the clock (minute or UTC day), so every process computes the same window
 * key from the time alone and a shared store needs nothing else.
 */
export class FixedWindowLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
  ) {}

  async consume(
    subject: string,
    limit: number,
    windowMs: number = MINUTE_MS,
    cost = 1,
  ): Promise<WindowDecision> {
    const { key, now, windowEnd } = this.window(subject, windowMs);
    // A little slack on the TTL so that a slow clock on one process never reads a reset counter early.
    const total = await this.store.increment(key, cost, windowEnd - now + 5_000);
    return decision({ total, limit, now, windowEnd }, total <= limit);
  }

  /**
   * `consume` in the same tick when the store counts in this process's memory (every request spends
   * two windows: no promise for either); undefined when the store is shared and the caller awaits
   * `consume`.
   */
  consumeNow(
    subject: string,
    limit: number,
    windowMs: number = MINUTE_MS,
    cost = 1,
  ): WindowDecision | undefined {
    if (!this.store.incrementNow) return undefined;
    const { key, now, windowEnd } = this.window(subject, windowMs);
    const total = this.store.incrementNow(key, cost, windowEnd - now + 5_000);
    return decision({ total, limit, now, windowEnd }, total <= limit);
  }

  /** The state of a window without spending from it (for headers on answers that cost nothing). */
  async peek(subject: string, limit: number, windowMs: number = MINUTE_MS): Promise<WindowDecision> {
    const { key, now, windowEnd } = this.window(subject, windowMs);
    const total = await this.store.peek(key);
    return decision({ total, limit, now, windowEnd }, total < limit);
  }

  private window(subject: string, windowMs: number) {
    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    return { key: `${subject}:${windowMs}:${windowStart}`, now, windowEnd: windowStart + windowMs };
  }
}

function decision(
  { total, limit, now, windowEnd }: { total: number; limit: number; now: number; windowEnd: number },
  allowed: boolean,
): WindowDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - total),
    resetAt: Math.ceil(windowEnd / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}
