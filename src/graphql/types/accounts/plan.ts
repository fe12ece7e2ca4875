import { PLANS, type PlanDefinition } from "../../../domain/accounts/plans";
import { builder } from "../../builder";
import { FeatureEnum } from "./feature";
import { PlanCodeEnum } from "./plan-code";

export const PlanRef = builder.objectRef<PlanDefinition>("Plan").implement({
  description: "What a plan includes. Rate and lookup numbers follow the API specification.",
  fields: (t) => ({
    code: t.field({ type: PlanCodeEnum, resolve: (p) => p.code }),
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
    features: t.field({ type: [FeatureEnum], resolve: (p) => [...p.features] }),
  }),
});

builder.queryFields((t) => ({
  plans: t.field({
    type: [PlanRef],
    // Nullable at the root so a refusal of this field leaves the rest of the answer intact.
    nullable: true,
    description: "Every plan and what it includes.",
    authScopes: { developerMode: true },
    resolve: () => Object.values(PLANS),
  }),
}));
