/**
 * When an endpoint is switched off: only after it has failed continuously for a long time, never after a
 * burst. A receiver that is down for a deploy, with thirty deliveries due, fails thirty attempts in a
 * few seconds; counting attempts alone would switch it off for an outage of twenty seconds. Stripe's
 * anchor is days of failure, so a streak must both last `DISABLE_AFTER_FAILING_MS` and hold at least
 * `DISABLE_AFTER_FAILURES` failed attempts.
 *
 * A streak is continuous: a success ends it, and so does a quiet gap longer than `STREAK_GAP_MS` (more
 * than the longest retry wait, 6 hours), since then nothing says the endpoint was down meanwhile: an
 * endpoint that failed one delivery last week and fails a burst today is not "failing for a week".
 */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;
/** Failed attempts a streak needs besides its length, so a few retries spread over days never suffice. */
export const DISABLE_AFTER_FAILURES = 25;
/** Longer than the 6-hour retry cap plus the lease, so a retried delivery alone keeps a streak going. */
export const STREAK_GAP_MS = 12 * 3_600_000;

/** What the endpoint row knows of its current streak (`consecutiveFailures` counts the streak's attempts). */
export interface EndpointHealth {
  consecutiveFailures: number;
  failingSince: Date | null;
  lastFailedAt: Date | null;
}

/** One attempt's verdict, in the order the endpoint received them. */
export interface AttemptVerdict {
  ok: boolean;
  at: Date;
}

/** The streak after `attempts`, from what the row knew before them. */
export function foldHealth(before: EndpointHealth, attempts: readonly AttemptVerdict[]): EndpointHealth {
  let health = before;
  for (const attempt of attempts) {
    if (attempt.ok) {
      health = { consecutiveFailures: 0, failingSince: null, lastFailedAt: null };
      continue;
    }
    const continues =
      health.failingSince !== null &&
      health.lastFailedAt !== null &&
      attempt.at.getTime() - health.lastFailedAt.getTime() <= STREAK_GAP_MS;
    health = {
      consecutiveFailures: continues ? health.consecutiveFailures + 1 : 1,
      failingSince: continues ? health.failingSince : attempt.at,
      lastFailedAt: attempt.at,
    };
  }
  return health;
}

/** Whether this streak switches the endpoint off. */
export function shouldDisable(health: EndpointHealth): boolean {
  return (
    health.failingSince !== null &&
    health.lastFailedAt !== null &&
    health.consecutiveFailures >= DISABLE_AFTER_FAILURES &&
    health.lastFailedAt.getTime() - health.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
  );
}

/** The reason shown on a disabled endpoint. */
export function disabledReason(health: EndpointHealth): string {
  const days = ((health.lastFailedAt?.getTime() ?? 0) - (health.failingSince?.getTime() ?? 0)) / 86_400_000;
  return `failing continuously since ${health.failingSince?.toISOString()} (${days.toFixed(1)} days, ${health.consecutiveFailures} failed attempts in a row)`;
}
