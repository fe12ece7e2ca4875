import { builder } from "../../builder";

export const FeatureAccessEnum = builder.enumType("FeatureAccess", {
  values: {
    on: { description: "Included in the plan and switched on." },
    plan_required: { description: "The plan does not include it." },
    feature_disabled: { description: "Included, but switched off for the organisation." },
  } as const,
});
