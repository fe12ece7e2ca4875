import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { PlanCodeEnum } from "../accounts/plan-code";
import { DiscoveryIneligibilityEnum } from "../shipments/discovery-ineligibility";
import { ReferenceTypeEnum } from "./reference-type";

type NotFound = Extract<TrackOutcome, { kind: "not_found" }>;
export const ReferenceNotFoundRef = builder.objectRef<NotFound>("ReferenceNotFound").implement({
  description: "No carrier asked has a record of the reference (yet).",
  fields: (t) => ({
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
    reference: t.exposeString("reference"),
    tried: t.exposeStringList("tried", {
      description: "Carriers asked; `(auto)` marks an attempt the caller did not name.",
    }),
    carrierProvided: t.exposeBoolean("carrierProvided"),
    shipment: t.prismaField({
      type: "Shipment",
      description: "The failed shipment kept for reading back and recovery.",
      resolve: (query, o, _a, ctx) =>
        ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...query, where: { id: o.shipment.id } }),
    }),
    discoveryEligible: t.boolean({ resolve: (o) => o.discovery.eligible }),
    discoveryQueued: t.boolean({
      description:
        "A background search of the other likely carriers was queued: read the shipment back for its outcome, and do not write the reference off meanwhile.",
      resolve: (o) => o.discoveryQueued,
    }),
    discoveryReason: t.field({
      type: DiscoveryIneligibilityEnum,
      nullable: true,
      description: "Why no discovery runs; null when it is eligible.",
      resolve: (o) => (o.discovery.eligible ? null : o.discovery.reason),
    }),
    upgradeMinPlan: t.field({
      type: PlanCodeEnum,
      nullable: true,
      description:
        "Only for discoveryReason plan on the free plan: the cheapest plan with carrier discovery.",
      resolve: (o) => o.upgrade?.minPlan ?? null,
    }),
    lookupId: t.exposeInt("lookupId"),
  }),
});
