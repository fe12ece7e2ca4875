import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { PlanCodeEnum } from "../accounts/plan-code";

export const PaymentOverdueRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "payment_overdue" }>>("PaymentOverdue")
  .implement({
    fields: (t) => ({
      overdueDays: t.exposeInt("overdueDays"),
      graceDays: t.exposeInt("graceDays"),
      plan: t.field({ type: PlanCodeEnum, resolve: (o) => o.plan }),
    }),
  });
