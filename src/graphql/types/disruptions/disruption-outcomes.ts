import { disruptionAccess } from "../../../domain/disruptions/access";
import { checkDisruptionFilter } from "../../../domain/disruptions/disruption-filter";
import { shipmentIdWhere, shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { FeatureDisabledRef } from "../shipments/feature-disabled";
import { PlanRequiredRef } from "../shipments/plan-required";
import { ShipmentNotFoundRef } from "../shipments/shipment-not-found";
import { DisruptionRef } from "./disruption";
import { DisruptionFilterInvalidRef } from "./disruption-filter-invalid";
import { DisruptionNotFoundRef } from "./disruption-not-found";
import { DisruptionPageRef } from "./disruption-page";
import { ShipmentDisruptionsRef } from "./shipment-disruptions";

type Tagged<K extends string, T> = T & { __kind: K };
const tag = <K extends string, T extends object>(kind: K, value: T): Tagged<K, T> => ({
  ...value,
  __kind: kind,
});
const kindOf = (value: unknown) => (value as { __kind: string }).__kind;

const DisruptionsOutcomeRef = builder.unionType("DisruptionsOutcome", {
  types: [DisruptionPageRef, DisruptionFilterInvalidRef, PlanRequiredRef, FeatureDisabledRef],
  resolveType: (value) =>
    ({
      page: DisruptionPageRef,
      invalid: DisruptionFilterInvalidRef,
      plan_required: PlanRequiredRef,
      feature_disabled: FeatureDisabledRef,
    })[kindOf(value)] ?? DisruptionFilterInvalidRef,
});

const DisruptionOutcomeRef = builder.unionType("DisruptionOutcome", {
  types: [DisruptionRef, DisruptionNotFoundRef, PlanRequiredRef, FeatureDisabledRef],
  resolveType: (value) =>
    ({
      found: DisruptionRef,
      not_found: DisruptionNotFoundRef,
      plan_required: PlanRequiredRef,
      feature_disabled: FeatureDisabledRef,
    })[kindOf(value)] ?? DisruptionNotFoundRef,
});

const ShipmentDisruptionsOutcomeRef = builder.unionType("ShipmentDisruptionsOutcome", {
  types: [ShipmentDisruptionsRef, ShipmentNotFoundRef, PlanRequiredRef, FeatureDisabledRef],
  resolveType: (value) =>
    ({
      found: ShipmentDisruptionsRef,
      not_found: ShipmentNotFoundRef,
      plan_required: PlanRequiredRef,
      feature_disabled: FeatureDisabledRef,
    })[kindOf(value)] ?? ShipmentNotFoundRef,
});

builder.queryFields((t) => ({
  disruptions: t.withAuth({ developerMode: true }).field({
    type: DisruptionsOutcomeRef,
    description:
      "Published disruptions, most severe first; filters combine with AND. A bad filter value is answered before the plan is checked; a plan without disruptions gets PlanRequired, never a partial list.",
    args: {
      severity: t.arg.int({ required: false, description: "Minimum severity, 1 to 4 (default 1)." }),
      category: t.arg.string({ required: false, description: "One of the nine DisruptionCategory values." }),
      port: t.arg.string({ required: false, description: "UN/LOCODE." }),
      carrier: t.arg.string({ required: false, description: "4-letter SCAC." }),
      country: t.arg.string({ required: false, description: "ISO 3166 alpha-2." }),
      status: t.arg.string({ required: false, description: "active (default) or resolved." }),
      since: t.arg.string({ required: false, description: "ISO 8601: updated at or after." }),
      page: t.arg.int({ required: false, description: "From 1 (default 1)." }),
      pageSize: t.arg.int({ required: false, description: "1 to 100 (default 25)." }),
      touchingMyShipments: t.arg.boolean({
        required: false,
        description: "Only disruptions touching at least one active shipment of the organisation.",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const checked = checkDisruptionFilter(args);
      if (!checked.ok) return tag("invalid", { param: checked.param, message: checked.message });
      const access = disruptionAccess(ctx.principal);
      if (access.kind !== "on") return tag(access.kind, access);
      const filter = {
        ...checked.filter,
        touchingOrganizationId: args.touchingMyShipments ? ctx.principal.organization.id : null,
      };
      const { total, items } = await ctx.services.disruptions.list(filter);
      return tag("page", { filter, total, items });
    },
  }),
  disruption: t.withAuth({ developerMode: true }).field({
    type: DisruptionOutcomeRef,
    description:
      "One disruption by id (the same shape as a list item). The id of a disruption later merged into another (two first reports of one event) answers that other one, under its own id.",
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const access = disruptionAccess(ctx.principal);
      if (access.kind !== "on") return tag(access.kind, access);
      const found = await ctx.services.disruptions.get(id);
      return found ? tag("found", found) : tag("not_found", { id });
    },
  }),
  shipmentDisruptions: t.withAuth({ developerMode: true }).field({
    type: ShipmentDisruptionsOutcomeRef,
    description:
      "The active disruptions touching one shipment of the organisation (at most ten, most severe first), each with how it touches it. Another organisation's shipment is not found.",
    args: { id: t.arg.string({ required: true, description: "Container or B/L number, or SHP-<digits>." }) },
    resolve: async (_root, { id }, ctx) => {
      const organizationId = ctx.principal.organization.id;
      const shipment = await ctx.services.db.prisma.shipment.findFirst({
        where: shipmentIdWhere(organizationId, id),
        orderBy: { createdAt: "desc" },
        select: { id: true, number: true, reference: true },
      });
      // Visibility before the plan: whether a number is tracked is not the plan's to reveal.
      if (!shipment) return tag("not_found", { id });
      const access = disruptionAccess(ctx.principal);
      if (access.kind !== "on") return tag(access.kind, access);
      const items = await ctx.services.disruptions.forShipment(shipment.id);
      return tag("found", {
        shipmentId: shipmentName(shipment.number),
        reference: shipment.reference,
        items,
      });
    },
  }),
}));
