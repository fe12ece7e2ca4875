import type { PlanCode } from "../../generated/prisma/enums";
import { type Feature, minimumPlanFor, PLAN_ORDER, PLANS } from "../accounts/plans";
import { type FeatureAccess, featureAccess, type Principal } from "../accounts/principal";

export const DISRUPTIONS_FEATURE: Feature = "disruptions";

export type DisruptionAccess =
  | { kind: "on"; includesAffected: boolean }
  | { kind: "plan_required"; feature: Feature; minPlan: PlanCode }
  | { kind: "feature_disabled"; feature: Feature };

/** The lowest plan anyone pays for (free is not paid). */
const LOWEST_PAID_PLAN: PlanCode = PLAN_ORDER.find((code) => code !== "free") ?? "starter";

/**
 * Whether a plan shows `affected` (v1 section 2.12: "on plans that include it; the key is absent, not
 * zero, on the lowest paid plan"). Every plan that includes disruptions except the lowest paid one;
 * today the lowest paid plan (starter) has no disruptions at all, so every caller who sees a
 * disruption sees `affected`. Kept as a rule so moving disruptions down a plan keeps the contract.
 */
export function planIncludesAffected(plan: PlanCode): boolean {
  return PLANS[plan].features.includes(DISRUPTIONS_FEATURE) && plan !== LOWEST_PAID_PLAN;
}

/** Plan first (never a partial list), then the organisation's switch. */
export function disruptionAccess(principal: Principal): DisruptionAccess {
  const access: FeatureAccess = featureAccess(principal.organization, DISRUPTIONS_FEATURE);
  if (access === "plan_required")
    return {
      kind: "plan_required",
      feature: DISRUPTIONS_FEATURE,
      minPlan: minimumPlanFor(DISRUPTIONS_FEATURE).code,
    };
  if (access === "feature_disabled") return { kind: "feature_disabled", feature: DISRUPTIONS_FEATURE };
  return { kind: "on", includesAffected: planIncludesAffected(principal.organization.plan) };
}
