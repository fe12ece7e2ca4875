import type { BillingCycle } from "../../generated/prisma/enums";
import { periodDays } from "../accounts/plans";

const DAY_MS = 86_400_000;

/**
 * The start of the billing cycle that contains `now`: cycles follow each other every 30 (monthly) or
 * 365 (yearly) days from the organisation's first cycle start, so no job is needed to roll them over.
 */
export function currentCycleStart(
  org: { cycleStartedAt: Date; billingCycle: BillingCycle },
  now: Date,
): Date {
  const length = periodDays(org.billingCycle) * DAY_MS;
  const elapsed = now.getTime() - org.cycleStartedAt.getTime();
  const cycles = Math.max(0, Math.floor(elapsed / length));
  return new Date(org.cycleStartedAt.getTime() + cycles * length);
}

export function cycleEnd(cycleStart: Date, cycle: BillingCycle): Date {
  return new Date(cycleStart.getTime() + periodDays(cycle) * DAY_MS);
}

/**
 * When a client refused for a spent slot allowance may ask again (`Retry-After`): the seconds until
 * the cycle ends and a new allowance starts, rounded up, and at least one so that it is never "now".
 */
export function secondsUntilCycleEnd(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}
