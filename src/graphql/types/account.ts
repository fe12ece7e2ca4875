import { z } from "zod";
import { AccountError } from "../../domain/accounts/accounts.service";
import {
  FEATURES,
  PLANS,
  type PlanDefinition,
  periodDays,
  shipmentSlotsPerCycle,
} from "../../domain/accounts/plans";
import { featureAccess } from "../../domain/accounts/principal";
import { peekRateWindows } from "../../domain/limits/rate-windows";
import { builder } from "../builder";
import type { GraphQLContext } from "../context";
import { publicError } from "../errors";

export const PlanRef = builder.objectRef<PlanDefinition>("Plan").implement({
  description: "What a plan includes. Rate and lookup numbers follow the API specification.",
  fields: (t) => ({
    code: t.exposeString("code"),
    name: t.exposeString("name"),
    ratePerMinute: t.exposeInt("ratePerMinute", {
      description: "Requests per key per fixed one-minute window.",
    }),
    lookupsPerDay: t.exposeInt("lookupsPerDay", {
      description: "Vessel and schedule lookups per key per day.",
    }),
    carrierLookupsPerDay: t.exposeInt("carrierLookupsPerDay", {
      description: "Carrier lookups per key per day.",
    }),
    shipmentSlotsPerMonth: t.exposeInt("shipmentSlotsPerMonth", {
      description: "New distinct references per monthly cycle (a yearly cycle pools twelve months).",
    }),
    customerLimit: t.exposeInt("customerLimit"),
    features: t.exposeStringList("features"),
  }),
});

const FeatureAccessEnum = builder.enumType("FeatureAccess", {
  values: {
    on: { description: "Included in the plan and switched on." },
    plan_required: { description: "The plan does not include it." },
    feature_disabled: { description: "Included, but switched off for the organisation." },
  } as const,
});

const FeatureStatus = builder.objectRef<{
  feature: string;
  access: "on" | "plan_required" | "feature_disabled";
}>("FeatureStatus");
FeatureStatus.implement({
  fields: (t) => ({
    feature: t.exposeString("feature"),
    access: t.field({ type: FeatureAccessEnum, resolve: (s) => s.access }),
  }),
});

interface RateWindow {
  limit: number;
  remaining: number;
  resetAt: number;
}
export const RateWindowRef = builder.objectRef<RateWindow>("RateWindow").implement({
  description:
    "The calling key's current per-minute window, as the X-RateLimit-* headers report it: the key's own, or its organisation's when that has fewer requests left.",
  fields: (t) => ({
    limit: t.exposeInt("limit"),
    remaining: t.exposeInt("remaining"),
    resetAt: t.exposeInt("resetAt", { description: "Unix seconds." }),
  }),
});

builder.prismaObject("Organization", {
  description: "A customer account: plan, billing state, feature switches and developer mode.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    plan: t.field({ type: PlanRef, resolve: (o) => PLANS[o.plan] }),
    billingState: t.exposeString("billingState", { description: "active or overdue." }),
    overdueDays: t.exposeInt("overdueDays"),
    graceDays: t.exposeInt("graceDays"),
    billingCycle: t.exposeString("billingCycle", { description: "monthly or yearly." }),
    periodDays: t.int({
      description: "30 for a monthly cycle, 365 for a yearly one.",
      resolve: (o) => periodDays(o.billingCycle),
    }),
    cycleStartedAt: t.expose("cycleStartedAt", { type: "DateTime" }),
    shipmentSlotsPerCycle: t.int({
      resolve: (o) => shipmentSlotsPerCycle(o.plan, o.billingCycle, o.slotAddOns),
    }),
    developerMode: t.exposeBoolean("developerMode"),
    features: t.field({
      type: [FeatureStatus],
      resolve: (o) => FEATURES.map((feature) => ({ feature, access: featureAccess(o, feature) })),
    }),
    users: t.relation("users", { query: { orderBy: { createdAt: "asc" } } }),
    apiKeys: t.relation("apiKeys", {
      description: "An owner sees every key of the organisation; a member sees their own.",
      query: (_args, ctx) => ({
        where: ctx.principal?.user.role === "owner" ? {} : { userId: ctx.principal?.user.id ?? "" },
        orderBy: { createdAt: "asc" },
      }),
    }),
  }),
});

builder.prismaObject("User", {
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    name: t.exposeString("name"),
    role: t.exposeString("role", { description: "owner or member." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("ApiKey", {
  description: "An API key. The raw key is shown once, when created; only its hash is stored.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    displayPrefix: t.exposeString("displayPrefix", { description: "The first characters of the key." }),
    viewOnly: t.exposeBoolean("viewOnly"),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    user: t.relation("user"),
  }),
});

const Viewer = builder.objectRef<{ ctx: GraphQLContext }>("Viewer").implement({
  description: "Who the calling key acts for.",
  fields: (t) => ({
    organization: t.prismaField({
      type: "Organization",
      resolve: (query, { ctx }) =>
        ctx.services.db.prisma.organization.findUniqueOrThrow({
          ...query,
          where: { id: ctx.principal!.organization.id },
        }),
    }),
    user: t.prismaField({
      type: "User",
      resolve: (query, { ctx }) =>
        ctx.services.db.prisma.user.findUniqueOrThrow({ ...query, where: { id: ctx.principal!.user.id } }),
    }),
    apiKey: t.prismaField({
      type: "ApiKey",
      description: "The key making this request.",
      resolve: (query, { ctx }) =>
        ctx.services.db.prisma.apiKey.findUniqueOrThrow({
          ...query,
          where: { id: ctx.principal!.apiKey.id },
        }),
    }),
    rateLimit: t.field({
      type: RateWindowRef,
      resolve: async ({ ctx }) => {
        return peekRateWindows(ctx.services.limiter, ctx.principal!);
      },
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    description: "The organisation, user and key behind the calling API key. Works with developer mode off.",
    authScopes: (_p, _a, ctx) => ctx.principal !== null,
    resolve: (_root, _args, ctx) => ({ ctx }),
  }),
  plans: t.field({
    type: [PlanRef],
    // Nullable at the root so a refusal of this field leaves the rest of the answer intact.
    nullable: true,
    description: "Every plan and what it includes.",
    authScopes: { developerMode: true },
    resolve: () => Object.values(PLANS),
  }),
}));

const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  fields: (t) => ({
    name: t.string({ required: true, validate: z.string().trim().min(1).max(100) }),
    viewOnly: t.boolean({
      required: false,
      description: "A view-only key can read but not change anything.",
    }),
    expiresAt: t.field({ type: "DateTime", required: false }),
  }),
});

const CreateApiKeyPayload = builder
  .objectRef<{ apiKey: { id: string }; rawKey: string }>("CreateApiKeyPayload")
  .implement({
    fields: (t) => ({
      apiKey: t.prismaField({
        type: "ApiKey",
        resolve: (query, payload, _a, ctx) =>
          ctx.services.db.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: payload.apiKey.id } }),
      }),
      key: t.string({
        description: "The raw key. Shown this once: store it now, it cannot be read again.",
        resolve: (p) => p.rawKey,
      }),
    }),
  });

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreateApiKeyPayload,
    // Nullable so that a refused alias does not null its siblings: their raw keys exist only in this answer.
    nullable: true,
    description:
      "Creates a key for the calling key's user. A user holds at most 25 live keys (neither revoked nor expired) and an organisation 100; one more is refused with API_KEY_LIMIT_REACHED (extensions `scope`: user or organization, and `limit`).",
    authScopes: { writableKey: true },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      mapAccountErrors(() =>
        ctx.services.accounts.createApiKey({
          userId: ctx.principal!.user.id,
          name: input.name,
          viewOnly: input.viewOnly ?? false,
          expiresAt: input.expiresAt ?? null,
        }),
      ),
  }),
  revokeApiKey: t.prismaField({
    type: "ApiKey",
    description: "Revokes a key at once. Members revoke their own keys; owners any key of the organisation.",
    authScopes: { writableKey: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const p = ctx.principal!;
      const key = await ctx.services.db.prisma.apiKey.findFirst({
        where: {
          id: String(id),
          organizationId: p.organization.id,
          ...(p.user.role === "owner" ? {} : { userId: p.user.id }),
        },
      });
      if (!key) throw publicError("NOT_FOUND", "No such API key.");
      await ctx.services.accounts.revokeApiKey({ keyId: key.id, organizationId: p.organization.id });
      return ctx.services.db.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
    },
  }),
  setDeveloperMode: t.prismaField({
    type: "Organization",
    description: "Switches developer mode; with it off, every API surface refuses the organisation's keys.",
    authScopes: { $all: { writableKey: true, owner: true } },
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: async (query, _root, { enabled }, ctx) => {
      const orgId = ctx.principal!.organization.id;
      await ctx.services.accounts.setDeveloperMode(orgId, enabled);
      return ctx.services.db.prisma.organization.findUniqueOrThrow({ ...query, where: { id: orgId } });
    },
  }),
}));

async function mapAccountErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AccountError) {
      if (error.code === "limit_reached") {
        throw publicError("API_KEY_LIMIT_REACHED", error.message, { ...error.bound });
      }
      throw publicError(error.code === "not_found" ? "NOT_FOUND" : "BAD_USER_INPUT", error.message);
    }
    throw error;
  }
}
