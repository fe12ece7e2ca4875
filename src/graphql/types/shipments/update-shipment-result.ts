import { z } from "zod";
import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { TRACK_RESULT_MEMBERS } from "../tracking/track-result";
import { CustomerLimitReachedRef } from "./customer-limit-reached";
import { FeatureDisabledRef } from "./feature-disabled";
import { PlanRequiredRef } from "./plan-required";
import { ShipmentNotFoundRef } from "./shipment-not-found";
import { ShipmentUpdatedRef } from "./shipment-updated";

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

// The members that are not tracking outcomes carry their member name, since a tracking outcome may
// have the same shape (a `kind` of not_found means a reference no carrier knows, not this).
const tag = <T extends object>(kind: string, value: T) => Object.assign(value, { __kind: kind });

builder.mutationFields((t) => ({
  updateShipment: t.withAuth(WRITE_SCOPES).field({
    type: UpdateShipmentResultRef,
    nullable: true,
    description:
      "Corrects a shipment the key's own user added: carrier or type re-track it; customer replaces the customer (null or empty clears).",
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
      const change = await ctx.services.shipments.update(ctx.principal, args.id, {
        carrier: args.carrier ?? undefined,
        type: args.type ?? undefined,
        customer: args.customer,
      });
      switch (change.kind) {
        case "not_found":
          return tag("not_found", { id: args.id });
        case "customers_plan_required":
          return tag("plan_required", { feature: "customers" as const, minPlan: change.minPlan });
        case "customers_disabled":
          return tag("feature_disabled", { feature: "customers" as const });
        case "customer_limit_reached":
          return tag("customer_limit", { limit: change.limit });
        case "tracking_refused":
          return change.outcome;
        default:
          return tag("updated", change);
      }
    },
  }),
}));
