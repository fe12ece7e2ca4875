import type { Feature } from "../../../domain/accounts/plans";
import type { PlanCode } from "../../../generated/prisma/enums";
import { builder } from "../../builder";
import { FeatureEnum } from "../accounts/feature";
import { PlanCodeEnum } from "../accounts/plan-code";

export const PlanRequiredRef = builder
  .objectRef<{ feature: Feature; minPlan: PlanCode }>("PlanRequired")
  .implement({
    description: "The plan does not include the feature the change needs.",
    fields: (t) => ({
      feature: t.field({ type: FeatureEnum, resolve: (r) => r.feature }),
      minPlan: t.field({
        type: PlanCodeEnum,
        description: "The cheapest plan that includes it.",
        resolve: (r) => r.minPlan,
      }),
    }),
  });
