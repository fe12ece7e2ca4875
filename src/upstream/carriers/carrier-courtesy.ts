import type { CounterStore } from "../../domain/limits/counter-store";
import { DAY_MS, FixedWindowLimiter, MINUTE_MS } from "../../domain/limits/fixed-window";
import type { Clock } from "../../lib/clock";
import type { Sleep } from "../http/request";

/**
 * How the service behaves towards a carrier's API as a client: it remembers a carrier's request to
 * wait (`Retry-After` on a 429 or 503) and spends the carrier's request budget (per minute and per
 * day, from the registry). Both live in the counter store, so with Redis configured every process of
 * the deployment sees the same cooldown and spends from the same budget; without it, this process.
 */

export interface CarrierBudget {
  /** Requests per clock minute (Hapag-Lloyd: 10 on its entry tiers). */
  perMinute?: number;
  /** Requests per UTC day. */
  perDay?: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface CarrierCourtesy {
  /**
   * Before each request to `scac`: a cooldown short enough to sit out (at most `maxWaitMs`) is slept;
   * a longer one, or a spent budget, refuses the request with the wait in whole seconds. `waitedOut`:
   * the request has just slept the carrier's own `Retry-After` (its cooldown is then not slept twice;
   * a longer cooldown set meanwhile by another process still refuses).
   */
  admit(
    scac: string,
    budget: CarrierBudget | undefined,
    signal?: AbortSignal,
    waitedOut?: boolean,
  ): Promise<Admission>;
  /** The carrier asked us to wait `waitMs`: no request to it from any process before then. */
  coolDown(scac: string, waitMs: number): Promise<void>;
}

export interface CarrierCourtesyOptions {
  counters: CounterStore;
  clock: Clock;
  sleep: Sleep;
  /** The longest cooldown a request waits out instead of answering rate-limited. */
  maxWaitMs: number;
}

const cooldownKey = (scac: string) => `carrier-cooldown:${scac}`;

export function createCarrierCourtesy(options: CarrierCourtesyOptions): CarrierCourtesy {
  const { counters, clock, sleep, maxWaitMs } = options;
  const windows = new FixedWindowLimiter(counters, clock);
  return {
    async admit(scac, budget, signal, waitedOut = false) {
      const until = await counters.heldUntil(cooldownKey(scac));
      const waitMs = until - clock.now().getTime();
      if (waitMs > maxWaitMs) return { ok: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
      if (waitMs > 0 && !waitedOut) await sleep(waitMs, signal);
      // The minute first: a request the minute refuses does not spend from the day.
      if (budget?.perMinute !== undefined) {
        const minute = await windows.consume(`carrier-calls:${scac}`, budget.perMinute, MINUTE_MS);
        if (!minute.allowed) return { ok: false, retryAfterSeconds: minute.retryAfterSeconds };
      }
      if (budget?.perDay !== undefined) {
        const day = await windows.consume(`carrier-calls:${scac}`, budget.perDay, DAY_MS);
        if (!day.allowed) return { ok: false, retryAfterSeconds: day.retryAfterSeconds };
      }
      return { ok: true };
    },
    async coolDown(scac, waitMs) {
      if (!(waitMs > 0)) return;
      await counters.hold(cooldownKey(scac), clock.now().getTime() + waitMs, waitMs);
    },
  };
}
