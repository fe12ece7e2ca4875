import { createHash } from "node:crypto";
import type { Clock } from "../../lib/clock";
import type { CounterStore } from "../limits/counter-store";

/**
 * Failed sign-ins to one account, from any number of addresses, before the account is locked for a
 * while. Low enough that guessing from many addresses (each under its own limit of 10 per 15
 * minutes) stays slow; high enough for a few typing mistakes.
 */
export const ACCOUNT_FAILURES_BEFORE_LOCK = 5;
/** Failures are counted together for this long after the first of them. */
export const ACCOUNT_FAILURE_MEMORY_MS = 15 * 60 * 1000;
/** The first lock of an account lasts this long; each further lock doubles it... */
export const ACCOUNT_FIRST_LOCK_MS = 60 * 1000;
/** ...up to this: a lock can delay the owner by minutes, never shut them out for hours. */
export const ACCOUNT_LONGEST_LOCK_MS = 15 * 60 * 1000;
/** How long the locks of an account are remembered for the doubling, from its first lock. */
export const ACCOUNT_LOCKS_REMEMBERED_MS = 24 * 60 * 60 * 1000;

/**
 * How long the account stays locked after its `lockNumber`-th lock (1 for the first): one minute,
 * then 2, 4, 8, and 15 minutes from the fifth on.
 */
export function accountLockMs(lockNumber: number): number {
  const doublings = Math.max(0, Math.floor(lockNumber) - 1);
  // Past 2^4 the ceiling holds anyway; the cap on the exponent keeps the arithmetic finite.
  return Math.min(ACCOUNT_FIRST_LOCK_MS * 2 ** Math.min(doublings, 30), ACCOUNT_LONGEST_LOCK_MS);
}

export type AccountLockState = { locked: false } | { locked: true; retryAfterSeconds: number };

/**
 * The per-account half of sign-in throttling (the per-address half is a fixed window in the people
 * service). Kept in the shared counter store, so every process of a deployment sees one lock. An
 * account is named by a hash of its normalised e-mail address, whether or not a user has it: a lock
 * answers alike for an address nobody uses, so it tells nobody which accounts exist.
 *
 * A success does not clear the failures: a correct password proves nothing about the other
 * attempts, and the count forgets them on its own after ACCOUNT_FAILURE_MEMORY_MS.
 */
export class AccountSignInLock {
  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock,
  ) {}

  async state(email: string): Promise<AccountLockState> {
    const now = this.clock.now().getTime();
    const until = await this.counters.heldUntil(this.key(email, "locked"));
    if (until <= now) return { locked: false };
    return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  /** Counts a failed sign-in; the one that reaches the bound locks the account. */
  async recordFailure(email: string): Promise<void> {
    const locksKey = this.key(email, "locks");
    // Failures since the account's last lock: a lock starts a fresh count.
    const locks = await this.counters.peek(locksKey);
    const failures = await this.counters.increment(
      this.key(email, `failures:${locks}`),
      1,
      ACCOUNT_FAILURE_MEMORY_MS,
    );
    // Exactly the bound, so concurrent failures past it do not lock twice.
    if (failures !== ACCOUNT_FAILURES_BEFORE_LOCK) return;
    const lockNumber = await this.counters.increment(locksKey, 1, ACCOUNT_LOCKS_REMEMBERED_MS);
    const lockMs = accountLockMs(lockNumber);
    const now = this.clock.now().getTime();
    await this.counters.hold(this.key(email, "locked"), now + lockMs, lockMs + 5_000);
  }

  private key(email: string, part: string): string {
    const account = createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
    return `sign-in-account:${account}:${part}`;
  }
}
