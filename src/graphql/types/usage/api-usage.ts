import type { ApiCallMonth, ApiSurface } from "../../../domain/usage/api-calls.service";
import type { Organization } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { INTERNAL } from "../../schema-visibility";
import { ApiSurfaceEnum } from "./api-surface";

interface ApiUsageView {
  organization: Organization;
  calls: ApiCallMonth;
}

const ApiUsageRef = builder.objectRef<ApiUsageView>("ApiUsage").implement({
  description:
    "The calling organisation's calls on one surface this calendar month (UTC) and its shipment slots. Calls are counted, never limited: there is no monthly call allowance.",
  fields: (t) => ({
    month: t.string({ description: "The calendar month, YYYY-MM (UTC).", resolve: (u) => u.calls.month }),
    calls: t.int({
      description: "Calls of the organisation (every key) on the surface this month.",
      resolve: (u) => u.calls.calls,
    }),
    slotLimit: t.int({
      description: "Shipment slots of the current billing cycle, add-ons included.",
      resolve: async (u, _a, ctx) => (await slotsOf(ctx, u.organization)).limit,
    }),
    slotsHeld: t.int({
      description: "Slots held now: distinct references tracked this cycle, minus those untracked.",
      resolve: async (u, _a, ctx) => (await slotsOf(ctx, u.organization)).held,
    }),
    slotsRemaining: t.int({
      description: "Slots still free this cycle.",
      resolve: async (u, _a, ctx) => (await slotsOf(ctx, u.organization)).remaining,
    }),
  }),
});

// One slot count per request, however many of the fields above are asked for.
const slotUsageCache = new WeakMap<
  GraphQLContext,
  ReturnType<GraphQLContext["services"]["slots"]["usage"]>
>();
function slotsOf(ctx: GraphQLContext, organization: Organization) {
  let usage = slotUsageCache.get(ctx);
  if (!usage) {
    usage = ctx.services.slots.usage(organization);
    slotUsageCache.set(ctx, usage);
  }
  return usage;
}

builder.queryFields((t) => ({
  apiUsage: t.withAuth({ developerMode: true }).field({
    type: ApiUsageRef,
    nullable: true,
    description: "Calls this month on a surface, and shipment slots, of the calling organisation.",
    args: { surface: t.arg({ type: ApiSurfaceEnum, required: true }) },
    resolve: async (_root, { surface }, ctx) => {
      const organization = ctx.principal.organization;
      return {
        organization,
        calls: await ctx.services.apiCalls.count(organization.id, surface as ApiSurface),
      };
    },
  }),
}));

builder.mutationFields((t) => ({
  recordApiCall: t.withAuth({ developerMode: true }).field({
    type: ApiUsageRef,
    nullable: true,
    description:
      "Counts one call on a surface for the calling organisation and returns the month's usage, this call included. The compat facade calls it once for every request it admits (compat `api_calls.used`).",
    // A counter of the facades, not a client's operation: absent from the schema `/graphql` serves.
    extensions: INTERNAL,
    args: { surface: t.arg({ type: ApiSurfaceEnum, required: true }) },
    resolve: async (_root, { surface }, ctx) => {
      const organization = ctx.principal.organization;
      return {
        organization,
        calls: await ctx.services.apiCalls.record(organization.id, surface as ApiSurface),
      };
    },
  }),
}));
