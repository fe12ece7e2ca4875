import type { BillingCycle, PlanCode } from "../../generated/prisma/enums";

/**
 * Features a plan can include. An organisation's feature switch can turn an included feature off;
 * it can never turn on a feature the plan lacks (that answer is `plan_required`, not `feature_disabled`).
 */
export const FEATURES = [
  "webhooks",
  "share_pages",
  "mcp",
  "customers",
  "carrier_discovery",
  "predictive_eta",
  "port_congestion",
  "disruptions",
] as const;
export type Feature = (typeof FEATURES)[number];

export interface PlanDefinition {
  code: PlanCode;
  name: string;
  /** Requests per key per fixed one-minute window (spec v1 section 8). */
  ratePerMinute: number;
  /** Vessel and schedule lookups per key per day (spec v1 section 8). */
  lookupsPerDay: number;
  /** Carrier lookups (`/carriers/lookup`) per key per day (spec v1 section 8). */
  carrierLookupsPerDay: number;
  /** New distinct references per monthly cycle; a yearly cycle gets twelve times this as one pool. */
  shipmentSlotsPerMonth: number;
  /** Customers an organisation may hold (PATCH customer); 0 when the plan has no customers. */
  customerLimit: number;
  features: readonly Feature[];
}

// Slots, customer limits and feature sets are our decisions (docs/decisions/plans-and-limits.md);
// rate and lookup numbers are the spec's.
export const PLANS: Readonly<Record<PlanCode, PlanDefinition>> = {
  free: {
    code: "free",
    name: "Free",
    ratePerMinute: 30,
    lookupsPerDay: 100,
    carrierLookupsPerDay: 1_000,
    shipmentSlotsPerMonth: 25,
    customerLimit: 0,
    features: ["webhooks", "share_pages", "mcp"],
  },
  starter: {
    code: "starter",
    name: "Starter",
    ratePerMinute: 60,
    lookupsPerDay: 500,
    carrierLookupsPerDay: 1_000,
    shipmentSlotsPerMonth: 100,
    customerLimit: 25,
    features: ["webhooks", "share_pages", "mcp", "customers"],
  },
  professional: {
    code: "professional",
    name: "Professional",
    ratePerMinute: 120,
    lookupsPerDay: 1_500,
    carrierLookupsPerDay: 1_000,
    shipmentSlotsPerMonth: 500,
    customerLimit: 250,
    features: [
      "webhooks",
      "share_pages",
      "mcp",
      "customers",
      "carrier_discovery",
      "predictive_eta",
      "port_congestion",
    ],
  },
  business: {
    code: "business",
    name: "Business",
    ratePerMinute: 240,
    lookupsPerDay: 5_000,
    carrierLookupsPerDay: 1_000,
    shipmentSlotsPerMonth: 2_000,
    customerLimit: 2_500,
    features: [...FEATURES],
  },
  custom: {
    code: "custom",
    name: "Custom",
    ratePerMinute: 600,
    lookupsPerDay: 10_000,
    carrierLookupsPerDay: 1_000,
    shipmentSlotsPerMonth: 10_000,
    customerLimit: 25_000,
    features: [...FEATURES],
  },
};

/**
 * Organisation-level bounds (spec v1 section 5.4: limits are "per key and per organisation"). The spec
 * names no number; these are our decisions (docs/decisions/plans-and-limits.md). Without them one
 * request could mint fifty keys, each with its own minute window and daily allowances.
 */
export const ORGANIZATION_BOUNDS = {
  /** Live keys (neither revoked nor expired) a user may hold. */
  keysPerUser: 25,
  /** Live keys an organisation may hold, every user together. */
  keysPerOrganization: 100,
  /**
   * The organisation's keys together spend at most this many times the plan's per-key minute window
   * and daily lookup allowances: five keys can run flat out at once (production, staging, CI, the
   * dashboard, an agent); the twenty-sixth key buys nothing.
   */
  keyMultiple: 5,
} as const;

/** Requests per minute the organisation's keys may spend together. */
export function organizationRatePerMinute(plan: PlanDefinition): number {
  return plan.ratePerMinute * ORGANIZATION_BOUNDS.keyMultiple;
}

/** What `quayside orgs rate` accepts as a custom plan's per-key minute window. */
export const CUSTOM_RATE_BOUNDS = { min: 1, max: 1_000_000 } as const;

/**
 * The plan an organisation is on as its windows apply: on `custom`, a negotiated per-key minute window
 * (`organizations.rate_per_minute`, set by the operator) replaces the plan's own, and the
 * organisation's window follows from it. Every principal's plan comes from here.
 */
export function planOf(organization: { plan: PlanCode; ratePerMinute: number | null }): PlanDefinition {
  const plan = PLANS[organization.plan];
  return plan.code === "custom" && organization.ratePerMinute !== null
    ? { ...plan, ratePerMinute: organization.ratePerMinute }
    : plan;
}

export const PLAN_ORDER: readonly PlanCode[] = ["free", "starter", "professional", "business", "custom"];

/** The next plan that buys a bigger per-minute window; `custom` has none (talk to us instead). */
export function nextPlanForRate(code: PlanCode): PlanDefinition | undefined {
  const current = PLANS[code];
  return PLAN_ORDER.map((c) => PLANS[c])
    .filter((p) => p.code !== "custom")
    .find((p) => p.ratePerMinute > current.ratePerMinute);
}

/** The cheapest plan that includes a feature (for `plan_required` and `upgrade` bodies). */
export function minimumPlanFor(feature: Feature): PlanDefinition {
  const plan = PLAN_ORDER.map((c) => PLANS[c]).find((p) => p.features.includes(feature));
  return plan ?? PLANS.custom;
}

export function periodDays(cycle: BillingCycle): 30 | 365 {
  return cycle === "yearly" ? 365 : 30;
}

export function shipmentSlotsPerCycle(code: PlanCode, cycle: BillingCycle, addOns = 0): number {
  const perMonth = PLANS[code].shipmentSlotsPerMonth;
  return (cycle === "yearly" ? perMonth * 12 : perMonth) + addOns;
}
