import DataLoader from "dataloader";
import { minimumPlanFor } from "../../../domain/accounts/plans";
import { featureAccess } from "../../../domain/accounts/principal";
import type { ShipmentDnd } from "../../../domain/demurrage/dnd.service";
import type { ContainerDnd } from "../../../domain/demurrage/dnd-assessment";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { FeatureDisabledRef } from "../shipments/feature-disabled";
import { PlanRequiredRef } from "../shipments/plan-required";
import { ShipmentRef } from "../shipments/shipment";
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

const ShipmentDndRef = builder.objectRef<ShipmentDnd & { kind: "assessed" }>("ShipmentDnd").implement({
  description: "Demurrage and detention of a shipment: every box's clocks and the roll-up.",
  fields: (t) => ({
    containers: t.field({ type: [ContainerDndRef], resolve: (d) => d.containers }),
    risk: t.field({ type: DemurrageRiskRef, resolve: (d) => d.risk }),
  }),
});

type Outcome =
  | (ShipmentDnd & { kind: "assessed" })
  | { kind: "plan_required"; feature: "predictive_eta"; minPlan: ReturnType<typeof minimumPlanFor>["code"] }
  | { kind: "feature_disabled"; feature: "predictive_eta" };

const MEMBERS = {
  assessed: ShipmentDndRef,
  plan_required: PlanRequiredRef,
  feature_disabled: FeatureDisabledRef,
} as const;

const ShipmentDndOutcomeRef = builder.unionType("ShipmentDndOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as Outcome).kind],
});

interface Assessable {
  id: string;
  organizationId: string;
  documentId: string | null;
}

const loaders = new WeakMap<GraphQLContext, DataLoader<Assessable, ShipmentDnd, string>>();

/**
 * The clocks of shipments, batched per request: a page of shipments reads its documents, its
 * organisation's contract terms and its ports' dwell once.
 */
function assessments(ctx: GraphQLContext): DataLoader<Assessable, ShipmentDnd, string> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (shipments: readonly Assessable[]) => {
        const { dnd, documents } = ctx.services;
        const ids = shipments.map((s) => s.documentId).filter((id): id is string => id !== null);
        const [latest, published, contracts] = await Promise.all([
          documents.latestOfMany(ids),
          dnd.publishedTariffs(),
          dnd.contractTermsOf([...new Set(shipments.map((s) => s.organizationId))]),
        ]);
        const docById = new Map(ids.map((id, i) => [id, latest[i]?.content ?? null]));
        const podLocodes = new Set<string>();
        for (const doc of docById.values()) {
          const pod = doc?.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode;
          if (pod) podLocodes.add(pod);
        }
        const dwell = await dnd.dwellDaysAt([...podLocodes]);
        return shipments.map((s) =>
          dnd.assess({
            organizationId: s.organizationId,
            doc: s.documentId ? (docById.get(s.documentId) ?? null) : null,
            tariffs: [...contracts.filter((c) => c.organizationId === s.organizationId), ...published],
            dwell,
          }),
        );
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

builder.objectFields(ShipmentRef, (t) => ({
  dnd: t.field({
    type: ShipmentDndOutcomeRef,
    description:
      "Demurrage and detention per box: free days left, last free day, accrued and projected cost, detention once the box has left the port (null while at it). Needs the predictive_eta feature (plan, then switch). Stored data only.",
    resolve: async (s, _a, ctx): Promise<Outcome> => {
      const granted = access(ctx);
      if (granted === "plan_required") {
        return {
          kind: "plan_required",
          feature: "predictive_eta",
          minPlan: minimumPlanFor("predictive_eta").code,
        };
      }
      if (granted === "feature_disabled") return { kind: "feature_disabled", feature: "predictive_eta" };
      return { kind: "assessed", ...(await assessments(ctx).load(s)) };
    },
  }),
  demurrageRisk: t.field({
    type: DemurrageRiskRef,
    nullable: true,
    description:
      "The shipment's demurrage and detention risk (the most urgent box's current clock); null unless the plan has predictive ETA switched on.",
    resolve: async (s, _a, ctx) => (access(ctx) === "on" ? (await assessments(ctx).load(s)).risk : null),
  }),
}));
