/**
 * Whether and when to try an upstream request again. Pure functions: the current time and the random
 * source come in as arguments, so tests pin both.
 */

export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  /** Backoff before the first retry; doubles for each further retry. */
  baseDelayMs: number;
  /** Ceiling of the exponential backoff. */
  maxDelayMs: number;
  /**
   * Longest `Retry-After` we wait for inside one request. A carrier asking for more gets its answer
   * (rate-limited / unreachable) straight away, so a user's lookup does not hang for minutes.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
};

/**
 * `Retry-After` as delta-seconds (`120`) or an HTTP date, in milliseconds from `now`. A date in the
 * past means "now" (0). Absent or unreadable: null.
 */
export function parseRetryAfterMs(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only the HTTP-date forms (IMF-fixdate, RFC 850, asctime) name a weekday or a month; anything else
  // Date.parse would accept ("5", "2024") is not a Retry-After value.
  if (!/[A-Za-z]{3}/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries from many
 * lookups spread out but never collapse to zero.
 */
export function backoffDelayMs(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * r);
}

/** 408, 429 and 5xx are worth another try; 501 and 505 say the request will never work. */
export function isRetryableStatus(status: number): boolean {
  if (status === 408 || status === 429) return true;
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

/** What went wrong with one attempt. */
export type AttemptFailure =
  | { kind: "network" }
  | { kind: "timeout" }
  | { kind: "status"; status: number; retryAfterMs: number | null };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * @param attemptsMade attempts already made, the failed one included (1 after the first failure).
 *
 * A timeout is not retried: a carrier that did not answer within the timeout will rarely answer a
 * second later, and the user is waiting. Refused or reset connections are retried.
 */
export function decideRetry(
  failure: AttemptFailure,
  attemptsMade: number,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  if (attemptsMade >= policy.maxAttempts) return { retry: false };
  switch (failure.kind) {
    case "timeout":
      return { retry: false };
    case "network":
      return { retry: true, delayMs: backoffDelayMs(attemptsMade - 1, policy, random) };
    case "status": {
      if (!isRetryableStatus(failure.status)) return { retry: false };
      if (failure.retryAfterMs !== null) {
        if (failure.retryAfterMs > policy.maxRetryAfterMs) return { retry: false };
        return { retry: true, delayMs: failure.retryAfterMs };
      }
      return { retry: true, delayMs: backoffDelayMs(attemptsMade - 1, policy, random) };
    }
  }
}
