import DataLoader from "dataloader";
import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import { discoveryStatusOf } from "../../../domain/shipments/carrier-discovery";
import { shipmentName } from "../../../domain/shipments/shipment-id";
import type { ShipmentRow } from "../../../domain/shipments/shipment-reads";
import {
  isActive,
  type RefreshSchedule,
  refreshGapChangesAt,
  refreshGapMs,
  refreshSchedule,
  refreshScheduleChangesAt,
} from "../../../domain/tracking/shipment-facts";
import { storedSummary, summaryFactsOf, withArrivalInstants } from "../../../domain/tracking/summary-facts";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { CarrierRef } from "../carriers/carrier";
import { latestDocuments } from "../tracking/latest-documents";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { ShipmentStatusEnum } from "../tracking/shipment-status";
import { TrackingDocumentRef } from "../tracking/tracking-document";
import { DiscoveryStatusEnum } from "./discovery-status";
import { ShipmentSummaryRef } from "./shipment-summary";

const HOUR_MS = 3_600_000;

/** The refresh schedule at this request's instant; a kept answer holds it until it next changes. */
function refreshScheduleNow(
  s: { status: string; lastSyncedAt: Date | null; eta: Date | null; deletedAt: Date | null },
  ctx: GraphQLContext,
): RefreshSchedule {
  const at = { ...s, now: ctx.services.clock.now() };
  answerValidUntil(refreshScheduleChangesAt(at));
  return refreshSchedule(at);
}

function isShipmentRow(s: object): s is ShipmentRow {
  return "customerName" in s;
}

const customerLoaders = new WeakMap<GraphQLContext, DataLoader<string, string | null>>();

/** Customer names by id, batched per request: a page of shipments asks once. */
function customerNames(ctx: GraphQLContext): DataLoader<string, string | null> {
  let loader = customerLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly string[]) => {
      const rows = await ctx.services.db.prisma.customer.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, name: true },
      });
      const byId = new Map(rows.map((r) => [r.id, r.name]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    customerLoaders.set(ctx, loader);
  }
  return loader;
}

/**
 * Every Shipment this type resolves carries all of the row's columns: Pothos's own queries load them
 * (the type selects no subset), and the hot reads' SQL (`shipment-reads.ts`) names each one. So no
 * field of Shipment declares a `select` of columns: on a row the hot reads returned, Pothos cannot see
 * that the columns are there and reads the row again through Prisma (one more statement per read).
 */
export const ShipmentRef = builder.prismaObject("Shipment", {
  description: "A reference tracked by the organisation.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.string({
      description:
        "The shipment id shaped SHP-<digits>, numbered per organisation: its first shipment is SHP-1.",
      resolve: (s) => shipmentName(s.number),
    }),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (s) => s.referenceType }),
    reference: t.exposeString("reference", {
      description: "As given (trimmed; containers in canonical form).",
    }),
    carrierScac: t.exposeString("carrierScac", { nullable: true }),
    carrier: t.field({
      type: CarrierRef,
      nullable: true,
      resolve: (s, _a, ctx) =>
        s.carrierScac ? (findCarrierByScac(s.carrierScac, ctx.services.carriers) ?? null) : null,
    }),
    carrierProvided: t.exposeBoolean("carrierProvided", {
      description: "Whether the caller named the carrier.",
    }),
    status: t.field({ type: ShipmentStatusEnum, resolve: (s) => s.status }),
    eta: t.expose("eta", { type: "DateTime", nullable: true }),
    ata: t.expose("ata", {
      type: "DateTime",
      nullable: true,
      description: "Vessel arrival at the final port of discharge only.",
    }),
    failed: t.boolean({
      description: "True while no carrier has found the reference.",
      resolve: (s) => s.failedAt !== null,
    }),
    failedAt: t.expose("failedAt", { type: "DateTime", nullable: true }),
    failureReason: t.exposeString("failureReason", { nullable: true }),
    triedCarriers: t.exposeStringList("triedCarriers"),
    discoveryStatus: t.field({
      type: DiscoveryStatusEnum,
      nullable: true,
      description: "Carrier discovery for a failed shipment; null when none was queued.",
      resolve: (s) => discoveryStatusOf(s.discoveryStatus),
    }),
    customer: t.relation("customer", { nullable: true }),
    customers: t.stringList({
      description: "Customer names of the shipment (empty when none).",
      resolve: async (s, _a, ctx) => {
        if (!s.customerId) return [];
        // The hot reads bring the name with the row; a row from elsewhere asks once per request.
        const name = isShipmentRow(s) ? s.customerName : await customerNames(ctx).load(s.customerId);
        return name === null ? [] : [name];
      },
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    lastSyncedAt: t.expose("lastSyncedAt", { type: "DateTime", nullable: true }),
    addedBy: t.relation("addedBy"),
    isActive: t.boolean({
      description: "Still moving: not delivered, cancelled or untracked.",
      resolve: (s) => isActive(s.status, s.deletedAt),
    }),
    nextRefreshEligibleAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "last_synced_at plus the refresh gap (12 hours; 4 hours from 48 hours before the ETA until 7 days after); null when never synced or no longer active.",
      resolve: (s, _a, ctx) => refreshScheduleNow(s, ctx).nextRefreshEligibleAt,
    }),
    refreshEligibleNow: t.boolean({
      description: "True when the gap has elapsed and the shipment is still moving.",
      resolve: (s, _a, ctx) => refreshScheduleNow(s, ctx).refreshEligibleNow,
    }),
    refreshGapHours: t.int({
      description:
        "The refresh gap that applies now: 4 hours from 48 hours before the ETA until 7 days after it, else 12.",
      resolve: (s, _a, ctx) => {
        const now = ctx.services.clock.now();
        answerValidUntil(refreshGapChangesAt(s.eta, now));
        return Math.round(refreshGapMs(s.eta, now) / HOUR_MS);
      },
    }),
    scheduledRefreshAt: t.expose("nextRefreshAt", {
      type: "DateTime",
      nullable: true,
      description:
        "When the service's own refresh job will next ask the carrier (the gap plus up to 10% spread); null when not scheduled (delivered, cancelled, failed or untracked).",
    }),
    summary: t.field({
      type: ShipmentSummaryRef,
      nullable: true,
      description:
        "The newest document's facts in brief, kept with the shipment when the document was stored; null before the carrier answered.",
      resolve: async (s, _a, ctx) => {
        const kept = storedSummary(s.summary);
        if (kept) return withArrivalInstants(kept, s);
        if (!s.documentId) return null;
        // A shipment written before summaries were kept: computed from its document once per read.
        const latest = await latestDocuments(ctx).load(s.documentId);
        return latest ? summaryFactsOf(latest.content) : null;
      },
    }),
    document: t.field({
      type: TrackingDocumentRef,
      nullable: true,
      description: "The newest stored carrier document (no carrier call).",
      resolve: (s, _a, ctx) => (s.documentId ? latestDocuments(ctx).load(s.documentId) : null),
    }),
  }),
});

builder.queryFields((t) => ({
  shipment: t.withAuth({ developerMode: true }).field({
    type: ShipmentRef,
    nullable: true,
    description:
      "A shipment of the organisation (teammates' included) by container number, bill-of-lading number, booking or shipment id (SHP-<digits>); case, spaces and hyphens ignored. Stored data only: no carrier call, no slot. Null when the organisation does not track it.",
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.shipments.read(ctx.principal, id),
  }),
}));
