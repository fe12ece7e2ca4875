import type { ApiKey, Organization, User } from "../../generated/prisma/client";
import { type Feature, PLANS, type PlanDefinition, planOf } from "./plans";

/**
 * Who a request acts for. The key (or a person's dashboard session) decides: no surface takes an
 * account or user id from a client.
 */
export interface Principal {
  /** The key making the request; null for a person signed in to the dashboard. */
  apiKey: ApiKey | null;
  /** The dashboard session's id (its hash) when a person, not a key, is asking. */
  sessionId?: string;
  user: User;
  organization: Organization;
  plan: PlanDefinition;
}

export function principalOf(apiKey: ApiKey & { user: User; organization: Organization }): Principal {
  const { user, organization, ...key } = apiKey;
  return { apiKey: key, user, organization, plan: planOf(organization) };
}

export type FeatureAccess = "on" | "plan_required" | "feature_disabled";

/** Plan first (a plan that lacks the feature cannot switch it on), then the organisation's switch. */
export function featureAccess(organization: Organization, feature: Feature): FeatureAccess {
  if (!PLANS[organization.plan].features.includes(feature)) return "plan_required";
  const switches = (organization.featureSwitches ?? {}) as Record<string, unknown>;
  return switches[feature] === false ? "feature_disabled" : "on";
}
