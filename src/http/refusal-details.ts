import { nextPlanForRate } from "../domain/accounts/plans";
import type { Principal } from "../domain/accounts/principal";

/**
 * What a 429 tells the caller about their plan: exactly one of `upgrade` (a higher plan buys a
 * bigger minute) or `contactUrl` (none does).
 */
export function rateLimitPlanDetail(principal: Principal, baseUrl: string) {
  const next = nextPlanForRate(principal.organization.plan);
  if (next) {
    return {
      plan: principal.plan.code,
      upgrade: {
        next_plan: next.code,
        next_limit_per_min: next.ratePerMinute,
        url: `${baseUrl}/billing/upgrade?plan=${next.code}`,
      },
    };
  }
  return { plan: principal.plan.code, contactUrl: `${baseUrl}/contact` };
}
