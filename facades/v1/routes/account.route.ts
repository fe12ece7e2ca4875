import type { FacadeDeps } from "../../facade";
import { AccountUsageDocument } from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { sendV1Error } from "../respond";

/**
 * GET /account/usage: plan, quota, slots and the billing cycle (field names in
 * docs/decisions/v1-shipments.md).
 */
export function mountAccountRoutes(api: V1Handlers, deps: FacadeDeps): void {
  api.on("accountUsage", async (req, res) => {
    const result = await deps.run(req, AccountUsageDocument);
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    const u = result.data.accountUsage!;
    res.json({
      success: true,
      data: {
        plan: u.plan.code,
        plan_name: u.plan.name,
        quota: u.slots.limit,
        used: u.slots.used,
        slots_held: u.slots.held,
        slots_remaining: u.slots.remaining,
        cycle: u.cycle,
        period_days: u.periodDays,
        cycle_start: u.slots.cycleStart,
        cycle_end: u.slots.cycleEnd,
        // Mirrors the X-RateLimit-* headers of this very answer.
        rate_limit: {
          limit: u.rateLimit.limit,
          remaining: u.rateLimit.remaining,
          reset: u.rateLimit.resetAt,
        },
        lookups_per_day: u.plan.lookupsPerDay,
        billing: { state: u.billingState, overdue_days: u.overdueDays, grace_days: u.graceDays },
      },
    });
  });
}
