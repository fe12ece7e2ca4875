import { z } from "zod";
import { PLANS, periodDays } from "../../domain/accounts/plans";
import type { Principal } from "../../domain/accounts/principal";
import { peekRateWindows } from "../../domain/limits/rate-windows";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type ShipmentChange,
} from "../../domain/shipments/shipments.service";
import type { SlotUsage } from "../../domain/tracking/slots.service";
import type { TrackOutcome } from "../../domain/tracking/tracking.service";
import { builder } from "../builder";
import { publicError } from "../errors";
import { UPSTREAM_CALL_PER_ITEM } from "../limits";
import { PlanRef, RateWindowRef } from "./account";
import { ReferenceTypeEnum, TRACK_RESULT_MEMBERS, TrackResultRef } from "./tracking";

builder.prismaObject("Customer", {
  description: "A customer of the organisation, named on shipments.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObjectFields("Shipment", (t) => ({
  customer: t.relation("customer", { nullable: true }),
  customers: t.stringList({
    description: "Customer names of the shipment (empty when none).",
    select: { customer: { select: { name: true } } },
    resolve: (s) => (s.customer ? [s.customer.name] : []),
  }),
  discoveryStatus: t.exposeString("discoveryStatus", {
    nullable: true,
    description: "Carrier discovery for a failed shipment: queued, running, recovered or exhausted.",
  }),
}));

const SlotUsageRef = builder.objectRef<SlotUsage>("SlotUsage").implement({
  description: "Shipment slots of the current billing cycle.",
  fields: (t) => ({
    limit: t.exposeInt("limit", { description: "The cycle's allowance, add-ons included." }),
    used: t.exposeInt("used", { description: "Distinct references tracked this cycle (never goes down)." }),
    held: t.exposeInt("held", { description: "Slots held now: used minus those freed by untracking." }),
    remaining: t.exposeInt("remaining"),
    cycleStart: t.expose("cycleStart", { type: "DateTime" }),
    cycleEnd: t.expose("cycleEnd", { type: "DateTime" }),
  }),
});

const ShipmentPageRef = builder
  .objectRef<{ total: number; page: number; pageSize: number; items: { id: string }[] }>("ShipmentPage")
  .implement({
    fields: (t) => ({
      total: t.exposeInt("total"),
      page: t.exposeInt("page"),
      pageSize: t.exposeInt("pageSize"),
      items: t.prismaField({
        type: ["Shipment"],
        extensions: { listSize: MAX_PAGE_SIZE },
        resolve: (query, p, _a, ctx) =>
          orderedShipments(
            ctx.services.db.prisma,
            query,
            p.items.map((i) => i.id),
          ),
      }),
    }),
  });

const ShipmentDeltaRef = builder
  .objectRef<{ since: Date; items: { id: string }[] }>("ShipmentDelta")
  .implement({
    fields: (t) => ({
      updatedSince: t.field({ type: "DateTime", resolve: (d) => d.since }),
      count: t.int({ resolve: (d) => d.items.length }),
      items: t.prismaField({
        type: ["Shipment"],
        extensions: { listSize: 200 },
        resolve: (query, d, _a, ctx) =>
          orderedShipments(
            ctx.services.db.prisma,
            query,
            d.items.map((i) => i.id),
          ),
      }),
    }),
  });

/** One statement for the page's rows (with what the selection needs), in the page's order. */
async function orderedShipments(
  prisma: import("../../generated/prisma/client").PrismaClient,
  query: object,
  ids: string[],
) {
  const rows = await prisma.shipment.findMany({ ...query, where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

const AccountUsageRef = builder
  .objectRef<{
    slots: SlotUsage;
    organization: import("../../generated/prisma/client").Organization;
    principal: Principal;
  }>("AccountUsage")
  .implement({
    description: "Plan, slots of the billing cycle and the calling key's rate window.",
    fields: (t) => ({
      plan: t.field({ type: PlanRef, resolve: (u) => PLANS[u.organization.plan] }),
      cycle: t.string({ description: "monthly or yearly.", resolve: (u) => u.organization.billingCycle }),
      periodDays: t.int({ resolve: (u) => periodDays(u.organization.billingCycle) }),
      slots: t.field({ type: SlotUsageRef, resolve: (u) => u.slots }),
      billingState: t.string({ resolve: (u) => u.organization.billingState }),
      overdueDays: t.int({ resolve: (u) => u.organization.overdueDays }),
      graceDays: t.int({ resolve: (u) => u.organization.graceDays }),
      rateLimit: t.field({
        type: RateWindowRef,
        resolve: (u, _a, ctx) => peekRateWindows(ctx.services.limiter, u.principal),
      }),
    }),
  });

builder.queryFields((t) => ({
  shipments: t.field({
    type: ShipmentPageRef,
    nullable: true,
    description: "The organisation's tracked shipments (teammates' included), newest first.",
    authScopes: { developerMode: true },
    args: {
      page: t.arg.int({
        required: false,
        defaultValue: 1,
        validate: z.number().int().min(1, "page starts at 1"),
      }),
      pageSize: t.arg.int({
        required: false,
        defaultValue: DEFAULT_PAGE_SIZE,
        validate: z.number().int().min(1).max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`),
      }),
    },
    resolve: async (_r, { page, pageSize }, ctx) => {
      const p = page ?? 1;
      const size = pageSize ?? DEFAULT_PAGE_SIZE;
      const { total, items } = await ctx.services.shipments.page(ctx.principal!, p, size);
      return { total, page: p, pageSize: size, items };
    },
  }),
  shipmentsUpdatedSince: t.field({
    type: ShipmentDeltaRef,
    nullable: true,
    description:
      "Delta sync: shipments whose last_synced_at is at or after `since`, oldest first, at most 200.",
    authScopes: { developerMode: true },
    args: { since: t.arg({ type: "DateTime", required: true }) },
    resolve: async (_r, { since }, ctx) => ({
      since,
      items: await ctx.services.shipments.updatedSince(ctx.principal!, since),
    }),
  }),
  accountUsage: t.field({
    type: AccountUsageRef,
    nullable: true,
    authScopes: { developerMode: true },
    resolve: async (_r, _a, ctx) => {
      const p = ctx.principal!;
      return {
        slots: await ctx.services.slots.usage(p.organization),
        organization: p.organization,
        principal: p,
      };
    },
  }),
}));

// ---------------------------------------------------------------------------------------------
// Bulk tracking

const TrackItemInput = builder.inputType("TrackItemInput", {
  fields: (t) => ({
    type: t.field({ type: ReferenceTypeEnum, required: true }),
    number: t.string({ required: true }),
    sealine: t.string({
      required: false,
      description: "SCAC, e.g. MAEU. Without it the carrier is resolved locally only.",
    }),
  }),
});

const TrackBatchItemRef = builder
  .objectRef<{ index: number; outcome: TrackOutcome }>("TrackBatchItem")
  .implement({
    fields: (t) => ({
      index: t.exposeInt("index"),
      result: t.field({ type: TrackResultRef, resolve: (i) => i.outcome }),
    }),
  });

const TrackBatchRef = builder
  .objectRef<{ outcomes: TrackOutcome[]; slots: SlotUsage }>("TrackBatch")
  .implement({
    fields: (t) => ({
      results: t.field({
        type: [TrackBatchItemRef],
        extensions: { listSize: 50 },
        resolve: (b) => b.outcomes.map((outcome, index) => ({ index, outcome })),
      }),
      slots: t.field({ type: SlotUsageRef, resolve: (b) => b.slots }),
    }),
  });

const TrackBatchResultRef = builder.unionType("TrackBatchResult", {
  types: [TrackBatchRef, TRACK_RESULT_MEMBERS.payment_overdue],
  resolveType: (v) => ("outcomes" in (v as object) ? TrackBatchRef : TRACK_RESULT_MEMBERS.payment_overdue),
});

builder.mutationFields((t) => ({
  trackBatch: t.field({
    extensions: UPSTREAM_CALL_PER_ITEM("items"),
    type: TrackBatchResultRef,
    nullable: true,
    description: "Tracks 1 to 50 references in parallel; each item has its own outcome.",
    authScopes: { $all: { developerMode: true, writableKey: true } },
    args: {
      items: t.arg({
        type: [TrackItemInput],
        required: true,
        validate: z.array(z.unknown()).min(1, "at least one item").max(50, "at most 50 items"),
      }),
    },
    resolve: async (_r, { items }, ctx) => {
      const p = ctx.principal!;
      const result = await ctx.services.tracking.trackBatch(
        p,
        items.map((i) => ({ reference: i.number, type: i.type, carrier: i.sealine ?? undefined })),
      );
      if (result.kind === "payment_overdue") return result;
      return { outcomes: result.outcomes, slots: await ctx.services.slots.usage(p.organization) };
    },
  }),
}));

// ---------------------------------------------------------------------------------------------
// Correcting, untracking and sharing

const ShipmentNotFoundRef = builder.objectRef<{ id: string }>("ShipmentNotFound").implement({
  description: "Not a shipment of this organisation (or, for changes, not one the key's own user added).",
  fields: (t) => ({ id: t.exposeString("id") }),
});

const PlanRequiredRef = builder.objectRef<{ feature: string; minPlan: string }>("PlanRequired").implement({
  fields: (t) => ({ feature: t.exposeString("feature"), minPlan: t.exposeString("minPlan") }),
});

const FeatureDisabledRef = builder.objectRef<{ feature: string }>("FeatureDisabled").implement({
  fields: (t) => ({ feature: t.exposeString("feature") }),
});

const CustomerLimitReachedRef = builder.objectRef<{ limit: number }>("CustomerLimitReached").implement({
  fields: (t) => ({ limit: t.exposeInt("limit") }),
});

const ShipmentUpdatedRef = builder
  .objectRef<Extract<ShipmentChange, { kind: "updated" }>>("ShipmentUpdated")
  .implement({
    fields: (t) => ({
      shipment: t.prismaField({
        type: "Shipment",
        resolve: (q, u, _a, ctx) =>
          ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...q, where: { id: u.shipment.id } }),
      }),
      unchanged: t.exposeBoolean("unchanged", {
        description: "The values sent were the ones it already had.",
      }),
      stillFailed: t.exposeBoolean("stillFailed", {
        description: "Re-tracked, and the carrier still finds nothing.",
      }),
    }),
  });

const UpdateShipmentResultRef = builder.unionType("UpdateShipmentResult", {
  types: [
    ShipmentUpdatedRef,
    ShipmentNotFoundRef,
    PlanRequiredRef,
    FeatureDisabledRef,
    CustomerLimitReachedRef,
    ...Object.values(TRACK_RESULT_MEMBERS),
  ],
  resolveType: (v) => {
    const value = v as { __kind?: string; kind?: string };
    switch (value.__kind) {
      case "not_found":
        return ShipmentNotFoundRef;
      case "plan_required":
        return PlanRequiredRef;
      case "feature_disabled":
        return FeatureDisabledRef;
      case "customer_limit":
        return CustomerLimitReachedRef;
      case "updated":
        return ShipmentUpdatedRef;
      default:
        return TRACK_RESULT_MEMBERS[(v as TrackOutcome).kind];
    }
  },
});

const tag = <T extends object>(kind: string, value: T) => Object.assign(value, { __kind: kind });

const ShipmentUntrackedRef = builder.objectRef<{ id: string; name: string }>("ShipmentUntracked").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    shipmentId: t.exposeString("name", { description: "The real SHP id of the row, whatever was sent." }),
  }),
});

const SharedShipmentRef = builder
  .objectRef<{ token: string; createdAt: Date; created: boolean; shipmentName: string }>("ShareLink")
  .implement({
    description: "A public, sanitised, revocable page of one shipment.",
    fields: (t) => ({
      token: t.exposeString("token"),
      path: t.string({
        description: "The page's path on this service.",
        resolve: (l) => `/share/${l.token}`,
      }),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
      created: t.exposeBoolean("created", {
        description: "False when the shipment already had a live link.",
      }),
      shipmentId: t.exposeString("shipmentName"),
    }),
  });

const ShareUnsharedRef = builder
  .objectRef<{ revoked: number; shipmentName: string }>("ShareRevoked")
  .implement({
    fields: (t) => ({ revoked: t.exposeInt("revoked"), shipmentId: t.exposeString("shipmentName") }),
  });

const changeScopes = { $all: { developerMode: true, writableKey: true } } as const;

builder.mutationFields((t) => ({
  updateShipment: t.field({
    type: UpdateShipmentResultRef,
    nullable: true,
    description:
      "Corrects a shipment the key's own user added: carrier or type re-track it; customer replaces the customer (null or empty clears).",
    authScopes: changeScopes,
    args: {
      id: t.arg.string({ required: true }),
      carrier: t.arg.string({
        required: false,
        validate: z.string().regex(/^[A-Za-z0-9]{4}$/, "carrier is a 4-character SCAC"),
      }),
      type: t.arg({ type: ReferenceTypeEnum, required: false }),
      customer: t.arg.string({ required: false, validate: z.string().max(200).nullable() }),
    },
    resolve: async (_r, args, ctx) => {
      if (args.carrier === undefined && args.type === undefined && args.customer === undefined) {
        throw publicError("BAD_USER_INPUT", "Send at least one of carrier, type, customer.");
      }
      if (args.type === "booking") throw publicError("BAD_USER_INPUT", "type is container or bl.");
      const change = await ctx.services.shipments.update(ctx.principal!, args.id, {
        carrier: args.carrier ?? undefined,
        type: (args.type ?? undefined) as "container" | "bl" | undefined,
        customer: args.customer,
      });
      switch (change.kind) {
        case "not_found":
          return tag("not_found", { id: args.id });
        case "customers_plan_required":
          return tag("plan_required", { feature: "customers", minPlan: change.minPlan });
        case "customers_disabled":
          return tag("feature_disabled", { feature: "customers" });
        case "customer_limit_reached":
          return tag("customer_limit", { limit: change.limit });
        case "tracking_refused":
          return change.outcome;
        default:
          return tag("updated", change);
      }
    },
  }),
  untrackShipment: t.field({
    type: builder.unionType("UntrackShipmentResult", {
      types: [ShipmentUntrackedRef, ShipmentNotFoundRef],
      resolveType: (v) => ("name" in (v as object) ? ShipmentUntrackedRef : ShipmentNotFoundRef),
    }),
    nullable: true,
    description: "Stops tracking a shipment the key's own user added (soft delete; the slot is freed).",
    authScopes: changeScopes,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const deleted = await ctx.services.shipments.untrack(ctx.principal!, id);
      return deleted ? { id: deleted.id, name: `SHP-${deleted.number}` } : { id };
    },
  }),
  shareShipment: t.field({
    type: builder.unionType("ShareShipmentResult", {
      types: [SharedShipmentRef, ShipmentNotFoundRef],
      resolveType: (v) => ("token" in (v as object) ? SharedShipmentRef : ShipmentNotFoundRef),
    }),
    nullable: true,
    description: "Creates (or returns) the public page of a shipment of the organisation.",
    authScopes: changeScopes,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const shared = await ctx.services.shipments.share(ctx.principal!, id);
      if (!shared) return { id };
      return {
        token: shared.link.token,
        createdAt: shared.link.createdAt,
        created: shared.created,
        shipmentName: `SHP-${shared.shipment.number}`,
      };
    },
  }),
  unshareShipment: t.field({
    type: builder.unionType("UnshareShipmentResult", {
      types: [ShareUnsharedRef, ShipmentNotFoundRef],
      resolveType: (v) => ("revoked" in (v as object) ? ShareUnsharedRef : ShipmentNotFoundRef),
    }),
    nullable: true,
    description: "Revokes the public page: the link stops resolving at once.",
    authScopes: changeScopes,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const result = await ctx.services.shipments.revokeShare(ctx.principal!, id);
      return result ? { revoked: result.revoked, shipmentName: `SHP-${result.shipment.number}` } : { id };
    },
  }),
}));
