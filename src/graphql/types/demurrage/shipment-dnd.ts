import DataLoader from "dataloader";
import { minimumPlanFor } from "../../../domain/accounts/plans";
import { featureAccess } from "../../../domain/accounts/principal";
import type { ShipmentDnd } from "../../../domain/demurrage/dnd.service";
import { type ContainerDnd, demurrageRiskOf } from "../../../domain/demurrage/dnd-assessment";
import { keptDndInputs, keptDndOf } from "../../../domain/demurrage/kept-dnd";
import type { PredictiveEta } from "../../../domain/eta/eta.service";
import { nextLocalMidnight } from "../../../domain/ports/local-midnight";
import { shipmentName } from "../../../domain/shipments/shipment-id";
import type { TrackingDocument } from "../../../domain/tracking/model";
import { answerReads, answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { etaLoader } from "../eta/predictive-eta";
import { FeatureDisabledRef } from "../shipments/feature-disabled";
import { PlanRequiredRef } from "../shipments/plan-required";
import { ShipmentRef } from "../shipments/shipment";
import { ShipmentNotFoundRef } from "../shipments/shipment-not-found";
import { latestDocumentsOf } from "../tracking/latest-documents";
import { DemurrageRiskRef, DndClockRef } from "./dnd-clock";
import { EquipmentClassEnum } from "./dnd-enums";

const ContainerDndRef = builder.objectRef<ContainerDnd>("ContainerDnd").implement({
  description: "One box's clocks at the port of discharge.",
  fields: (t) => ({
    container: t.exposeString("container"),
    equipment: t.field({ type: EquipmentClassEnum, resolve: (b) => b.equipment }),
    demurrage: t.field({
      type: DndClockRef,
      description:
        "Discharge to gate-out; the combined clock (discharge to empty return) where the tariff combines them.",
      resolve: (b) => b.demurrage,
    }),
    detention: t.field({
      type: DndClockRef,
      nullable: true,
      description:
        "Gate-out to empty return: null while the box is at the port, and under a combined tariff.",
      resolve: (b) => b.detention,
    }),
  }),
});

type Assessed = ShipmentDnd & {
  kind: "assessed";
  shipmentId: string;
  reference: string;
  carrierScac: string | null;
};

const ShipmentDndRef = builder.objectRef<Assessed>("ShipmentDnd").implement({
  description:
    "Demurrage and detention of a shipment: every box's clocks (free days left, last free day, accrued and projected cost; detention once the box has left the port, null while at it) and the roll-up. Stored data only.",
  fields: (t) => ({
    shipmentId: t.exposeString("shipmentId", { description: "SHP-<digits>." }),
    reference: t.exposeString("reference"),
    carrierScac: t.exposeString("carrierScac", { nullable: true }),
    containers: t.field({ type: [ContainerDndRef], resolve: (d) => d.containers }),
    risk: t.field({ type: DemurrageRiskRef, resolve: (d) => d.risk }),
  }),
});

type Outcome =
  | Assessed
  | { kind: "not_found"; id: string }
  | { kind: "plan_required"; feature: "predictive_eta"; minPlan: ReturnType<typeof minimumPlanFor>["code"] }
  | { kind: "feature_disabled"; feature: "predictive_eta" };

const MEMBERS = {
  assessed: ShipmentDndRef,
  not_found: ShipmentNotFoundRef,
  plan_required: PlanRequiredRef,
  feature_disabled: FeatureDisabledRef,
} as const;

const ShipmentDndOutcomeRef = builder.unionType("ShipmentDndOutcome", {
  description:
    "A shipment's demurrage and detention, or why it is not shown: not tracked by the organisation (another organisation's included), or the plan lacks the predictive_eta feature.",
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as Outcome).kind],
});

interface Assessable {
  id: string;
  organizationId: string;
  documentId: string | null;
  /** The row's current prediction (see EtaShipment). */
  predictedEta?: unknown;
  /** The schedule kept on the row (kept-dnd.ts); absent or stale: assessed on read. */
  dndSchedule?: unknown;
}

/**
 * Each assessment reads the clock once per shipment with a document and counts port-local days: a
 * kept answer holds them until the next midnight at the port of discharge (src/lib/answer-scope.ts).
 * A schedule served from the row reads no clock of its own (`keptNow` covers them all), but holds
 * only until that midnight too.
 */
function keepUntilPortMidnight(
  ctx: GraphQLContext,
  docs: readonly (TrackingDocument | null | undefined)[],
  served: readonly boolean[],
): void {
  const now = ctx.services.clock.now();
  // The read just above, and the per-process caches' own (dwell always, contract terms when kept):
  // they decide when to read again, not what the answer says.
  answerValidUntil(null, ctx.services.config.contractTermsCacheSeconds > 0 ? 3 : 2);
  docs.forEach((doc, i) => {
    if (!doc) return;
    const pod = doc.locations.find((l) => l.key === doc.route.pod.locationKey);
    answerValidUntil(nextLocalMidnight(now, pod?.timeZone ?? null), served[i] ? 0 : 1);
  });
}

/**
 * The kept schedules that still hold now: one clock read for the batch (none when no row has one),
 * covered until the earliest of their boundaries.
 */
function keptNow<T extends { assessedAt: string; validUntil: string }>(
  ctx: GraphQLContext,
  candidates: readonly (T | null)[],
): (T | null)[] {
  if (candidates.every((k) => k === null)) return candidates.map(() => null);
  const now = ctx.services.clock.now().getTime();
  const served = candidates.map((k) =>
    k && Date.parse(k.assessedAt) <= now && now < Date.parse(k.validUntil) ? k : null,
  );
  const until = Math.min(...served.map((k) => (k ? Date.parse(k.validUntil) : Number.POSITIVE_INFINITY)));
  answerValidUntil(Number.isFinite(until) ? until : null);
  return served;
}

const loaders = new WeakMap<GraphQLContext, DataLoader<Assessable, ShipmentDnd, string>>();

/** A loaded prediction's p50; a failed load projects from the carrier's estimate instead. */
const arrivalOf = (prediction: PredictiveEta | null | Error | undefined): string | null =>
  prediction && !(prediction instanceof Error) ? prediction.p50.toISOString() : null;

/**
 * The clocks of shipments, batched per request: a page of shipments reads its documents, its
 * organisation's contract terms and its ports' dwell once.
 */
function assessments(ctx: GraphQLContext): DataLoader<Assessable, ShipmentDnd, string> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (shipments: readonly Assessable[]) => {
        const { dnd } = ctx.services;
        const ids = shipments.map((s) => s.documentId).filter((id): id is string => id !== null);
        // Only shipments whose plan has predictive ETA get here (access below), so its p50 is theirs.
        const [latest, published, contracts, predictions] = await Promise.all([
          latestDocumentsOf(ctx, ids),
          dnd.publishedTariffs(),
          dnd.contractTermsOf([...new Set(shipments.map((s) => s.organizationId))]),
          etaLoader(ctx).loadMany(shipments),
        ]);
        const docById = new Map(ids.map((id, i) => [id, latest[i]?.content ?? null]));
        const confirmedById = new Map(ids.map((id, i) => [id, latest[i]?.document.lastSyncedAt ?? null]));
        const versionById = new Map(ids.map((id, i) => [id, latest[i]?.version.id ?? null]));
        const podOf = (doc: TrackingDocument | null | undefined) =>
          doc?.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode ?? null;
        const podLocodes = new Set<string>();
        for (const doc of docById.values()) {
          const pod = podOf(doc);
          if (pod) podLocodes.add(pod);
        }
        const dwell = await dnd.dwellDaysAt([...podLocodes]);
        const docs = shipments.map((s) => (s.documentId ? (docById.get(s.documentId) ?? null) : null));
        const termsOf = (s: Assessable) => contracts.filter((c) => c.organizationId === s.organizationId);
        // The schedule kept on the row when it was assessed from what this read loaded: the same
        // version, confirmation, predicted arrival, dwell and contract terms (terminal facts and the
        // clock are covered by its `validUntil`, kept-dnd.ts).
        const candidates = shipments.map((s, i) => {
          const kept = keptDndOf(s.dndSchedule);
          const doc = docs[i];
          if (!kept || !doc || !s.documentId) return null;
          const pod = podOf(doc);
          const inputs = keptDndInputs({
            versionId: versionById.get(s.documentId) ?? "",
            factsConfirmedAt: confirmedById.get(s.documentId) ?? null,
            predictedArrival: arrivalOf(predictions[i]),
            dwellDays: (pod ? dwell.get(pod) : undefined) ?? null,
            contractTermIds: termsOf(s).map((t) => t.id),
          });
          return inputs === kept.inputs ? kept : null;
        });
        const served = keptNow(ctx, candidates);
        // One last free day per box: the terminal's when its record gives one (issue 43 item 4).
        const boxes = docs.flatMap((doc, i) =>
          served[i] ? [] : (doc?.containers.map((c) => c.number) ?? []),
        );
        const given = await dnd.terminalLastFreeDays(boxes);
        keepUntilPortMidnight(
          ctx,
          docs,
          served.map((k) => k !== null),
        );
        return shipments.map((s, i) => {
          const kept = served[i];
          if (kept) {
            // What assessing again would have read: the answer is dropped when any of it changes.
            answerReads("Shipment", s.id);
            for (const box of kept.containers) answerReads("TerminalBox", box.container);
            return { containers: kept.containers, risk: demurrageRiskOf(kept.containers, null) };
          }
          return dnd.assess({
            organizationId: s.organizationId,
            doc: docs[i] ?? null,
            tariffs: [...termsOf(s), ...published],
            dwell,
            predictedArrival: arrivalOf(predictions[i]),
            factsConfirmedAt: s.documentId ? (confirmedById.get(s.documentId) ?? null) : null,
            terminalLastFreeDays: given,
          });
        });
      },
      { cacheKeyFn: (s) => s.id },
    );
    loaders.set(ctx, loader);
  }
  return loader;
}

/** Demurrage and detention go with predictive ETA (docs/decisions/plans-and-limits.md). */
function access(ctx: GraphQLContext) {
  const organization = ctx.principal?.organization;
  return organization ? featureAccess(organization, "predictive_eta") : "plan_required";
}

builder.queryFields((t) => ({
  shipmentDnd: t.withAuth({ developerMode: true }).field({
    type: ShipmentDndOutcomeRef,
    description:
      "Demurrage and detention of one shipment of the organisation, per box: free days left, the last free day, accrued and projected cost, and detention once the box has left the port (null while at it). Same identifiers as shipment(id). Needs the predictive_eta feature (plan, then switch). Stored data only.",
    args: {
      id: t.arg.string({ required: true, description: "Container, B/L or booking number, or SHP-<digits>." }),
    },
    resolve: async (_root, { id }, ctx): Promise<Outcome> => {
      const shipment = await ctx.services.shipments.read(ctx.principal, id);
      // Visibility before the plan: whether a number is tracked is not the plan's to reveal.
      if (!shipment) return { kind: "not_found", id };
      const granted = access(ctx);
      if (granted === "plan_required") {
        return {
          kind: "plan_required",
          feature: "predictive_eta",
          minPlan: minimumPlanFor("predictive_eta").code,
        };
      }
      if (granted === "feature_disabled") return { kind: "feature_disabled", feature: "predictive_eta" };
      return {
        kind: "assessed",
        shipmentId: shipmentName(shipment.number),
        reference: shipment.reference,
        carrierScac: shipment.carrierScac,
        ...(await assessments(ctx).load(shipment)),
      };
    },
  }),
}));

builder.objectFields(ShipmentRef, (t) => ({
  demurrageRisk: t.field({
    type: DemurrageRiskRef,
    nullable: true,
    resolve: async (s, _a, ctx) => (access(ctx) === "on" ? (await assessments(ctx).load(s)).risk : null),
  }),
}));
