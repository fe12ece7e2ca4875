import { periodDays, planOf } from "../../../domain/accounts/plans";
import type { Principal } from "../../../domain/accounts/principal";
import { peekRateWindows } from "../../../domain/limits/rate-windows";
import type { SlotUsage } from "../../../domain/tracking/slots.service";
import type { Organization } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { BillingCycleEnum } from "../accounts/billing-cycle";
import { BillingStateEnum } from "../accounts/billing-state";
import { PlanRef } from "../accounts/plan";
import { RateWindowRef } from "../accounts/rate-window";
import { SlotUsageRef } from "./slot-usage";

const AccountUsageRef = builder
  .objectRef<{ slots: SlotUsage; organization: Organization; principal: Principal }>("AccountUsage")
  .implement({
    description: "Plan, slots of the billing cycle and the calling key's rate window.",
    fields: (t) => ({
      plan: t.field({ type: PlanRef, resolve: (u) => planOf(u.organization) }),
      cycle: t.field({ type: BillingCycleEnum, resolve: (u) => u.organization.billingCycle }),
      periodDays: t.int({ resolve: (u) => periodDays(u.organization.billingCycle) }),
      slots: t.field({ type: SlotUsageRef, resolve: (u) => u.slots }),
      billingState: t.field({ type: BillingStateEnum, resolve: (u) => u.organization.billingState }),
      overdueDays: t.int({ resolve: (u) => u.organization.overdueDays }),
      graceDays: t.int({ resolve: (u) => u.organization.graceDays }),
      rateLimit: t.field({
        type: RateWindowRef,
        resolve: (u, _a, ctx) => peekRateWindows(ctx.services.limiter, u.principal),
      }),
    }),
  });

builder.queryFields((t) => ({
  accountUsage: t.withAuth({ developerMode: true }).field({
    type: AccountUsageRef,
    nullable: true,
    resolve: async (_r, _a, ctx) => {
      const p = ctx.principal;
      return {
        slots: await ctx.services.slots.usage(p.organization),
        organization: p.organization,
        principal: p,
      };
    },
  }),
}));
