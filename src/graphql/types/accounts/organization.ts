import { FEATURES, periodDays, planOf, shipmentSlotsPerCycle } from "../../../domain/accounts/plans";
import { featureAccess } from "../../../domain/accounts/principal";
import { builder } from "../../builder";
import { BillingCycleEnum } from "./billing-cycle";
import { BillingStateEnum } from "./billing-state";
import { FeatureStatusRef } from "./feature-status";
import { PlanRef } from "./plan";

builder.prismaObject("Organization", {
  description: "A customer account: plan, billing state, feature switches and developer mode.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    plan: t.field({ type: PlanRef, resolve: (o) => planOf(o) }),
    billingState: t.field({ type: BillingStateEnum, resolve: (o) => o.billingState }),
    overdueDays: t.exposeInt("overdueDays"),
    graceDays: t.exposeInt("graceDays"),
    billingCycle: t.field({ type: BillingCycleEnum, resolve: (o) => o.billingCycle }),
    periodDays: t.int({
      description: "30 for a monthly cycle, 365 for a yearly one.",
      resolve: (o) => periodDays(o.billingCycle),
    }),
    cycleStartedAt: t.expose("cycleStartedAt", { type: "DateTime" }),
    shipmentSlotsPerCycle: t.int({
      resolve: (o) => shipmentSlotsPerCycle(o.plan, o.billingCycle, o.slotAddOns),
    }),
    developerMode: t.exposeBoolean("developerMode"),
    operator: t.exposeBoolean("operator", {
      description:
        "Whether this organisation operates the deployment (set by the CLI, `quayside orgs operator`): its keys may read `disruptionSources`.",
    }),
    features: t.field({
      type: [FeatureStatusRef],
      resolve: (o) => FEATURES.map((feature) => ({ feature, access: featureAccess(o, feature) })),
    }),
    users: t.relation("users", {
      description: "The team: people of the organisation, oldest first (removed teammates are not listed).",
      query: { where: { removedAt: null }, orderBy: { createdAt: "asc" } },
    }),
    apiKeys: t.relation("apiKeys", {
      description: "An owner sees every key of the organisation; a member sees their own.",
      query: (_args, ctx) => ({
        where: ctx.principal?.user.role === "owner" ? {} : { userId: ctx.principal?.user.id ?? "" },
        orderBy: { createdAt: "asc" },
      }),
    }),
  }),
});

builder.mutationFields((t) => ({
  setDeveloperMode: t.withAuth({ $all: { writableKey: true, owner: true } }).prismaField({
    type: "Organization",
    description: "Switches developer mode; with it off, every API surface refuses the organisation's keys.",
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: async (query, _root, { enabled }, ctx) => {
      const orgId = ctx.principal.organization.id;
      await ctx.services.accounts.setDeveloperMode(orgId, enabled);
      return ctx.services.db.prisma.organization.findUniqueOrThrow({ ...query, where: { id: orgId } });
    },
  }),
}));
