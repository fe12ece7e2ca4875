import { ContractTermsInput, describeIssues } from "../../../domain/demurrage/contract-terms";
import type { RateSlab, Tariff } from "../../../domain/demurrage/model";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";
import { DayBasisEnum, DndChargeTypeEnum, EquipmentClassEnum } from "./dnd-enums";

const RateSlabRef = builder.objectRef<RateSlab>("DndRateSlab").implement({
  description:
    "A progressive step of a tariff, numbered in days after the free time (day 1 is the first chargeable day).",
  fields: (t) => ({
    fromDay: t.exposeInt("fromDay"),
    toDay: t.exposeInt("toDay", { nullable: true, description: "Inclusive; null for the open last step." }),
    rate: t.exposeFloat("rate", { description: "Per day, in the terms' currency." }),
  }),
});

export const DndTermsRef = builder.objectRef<Tariff>("DndTerms").implement({
  description:
    "Demurrage and detention terms: an organisation's contract, or a published tariff or benchmark (each citing its source).",
  fields: (t) => ({
    id: t.exposeID("id"),
    carrierScac: t.exposeString("carrierScac", { nullable: true, description: "Null: every carrier." }),
    portLocode: t.exposeString("portLocode", { nullable: true }),
    countryCode: t.exposeString("countryCode", { nullable: true }),
    direction: t.exposeString("direction", { description: "import or export." }),
    chargeType: t.field({ type: DndChargeTypeEnum, resolve: (r) => r.chargeType }),
    equipment: t.field({ type: EquipmentClassEnum, resolve: (r) => r.equipment }),
    freeDays: t.exposeInt("freeDays"),
    freeDayBasis: t.field({ type: DayBasisEnum, resolve: (r) => r.freeDayBasis }),
    chargeDayBasis: t.field({ type: DayBasisEnum, resolve: (r) => r.chargeDayBasis }),
    clockStart: t.exposeString("clockStart", { description: "DISC, GTOT or GTIN_FULL." }),
    clockStartRule: t.exposeString("clockStartRule", {
      description: "same_day: the start day is free day 1; next_day: counting starts the day after.",
    }),
    clockEnd: t.exposeString("clockEnd", { description: "GTOT, EMPTY_RETURN or LOAD." }),
    slabs: t.field({ type: [RateSlabRef], resolve: (r) => r.slabs }),
    currency: t.exposeString("currency"),
    effectiveFrom: t.exposeString("effectiveFrom", { description: "YYYY-MM-DD, inclusive." }),
    effectiveTo: t.exposeString("effectiveTo", { nullable: true }),
    sourceUrl: t.exposeString("sourceUrl", { nullable: true }),
    sourceNote: t.exposeString("sourceNote"),
    isEstimate: t.exposeBoolean("isEstimate"),
  }),
});

const RateSlabInput = builder.inputType("DndRateSlabInput", {
  fields: (t) => ({
    fromDay: t.int({ required: true }),
    toDay: t.int({ description: "Inclusive; omit or null for the open last step." }),
    rate: t.float({ required: true }),
  }),
});

const ContractTermsInputRef = builder.inputType("DndContractTermsInput", {
  description:
    "Your contract's free time and rates. The clock events follow from chargeType (import demurrage: discharge to gate-out; detention: gate-out to empty return; combined: discharge to empty return).",
  fields: (t) => ({
    carrierScac: t.string({ description: "Omit for every carrier." }),
    portLocode: t.string({
      description: "UN/LOCODE; omit with countryCode for a whole country, omit both for everywhere.",
    }),
    countryCode: t.string(),
    direction: t.string({ description: "import (default) or export." }),
    chargeType: t.field({ type: DndChargeTypeEnum, required: true }),
    equipment: t.field({ type: EquipmentClassEnum, description: "Default any." }),
    freeDays: t.int({ required: true }),
    freeDayBasis: t.field({ type: DayBasisEnum, required: true }),
    chargeDayBasis: t.field({ type: DayBasisEnum, description: "Default calendar." }),
    clockStartRule: t.string({ description: "next_day (default) or same_day." }),
    slabs: t.field({ type: [RateSlabInput], required: true }),
    currency: t.string({ required: true }),
    effectiveFrom: t.string({ required: true, description: "YYYY-MM-DD." }),
    effectiveTo: t.string(),
    note: t.string(),
  }),
});

/** GraphQL gives absent optional input fields as undefined or null; the domain's defaults apply to both. */
function withoutNulls(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [
        k,
        k === "slabs" && Array.isArray(v)
          ? v.map((s: Record<string, unknown>) => ({ ...s, toDay: s.toDay ?? null }))
          : v,
      ]),
  );
}

builder.queryFields((t) => ({
  dndContractTerms: t.withAuth({ developerMode: true }).field({
    type: [DndTermsRef],
    description: "The organisation's own demurrage and detention contract terms, oldest first.",
    extensions: { listSize: 50 },
    resolve: (_r, _a, ctx) => ctx.services.dnd.contractTermsOf([ctx.principal.organization.id]),
  }),
  dndPublishedTariffs: t.field({
    type: [DndTermsRef],
    description:
      "The published tariffs and benchmarks the service resolves to when no contract applies, each with its source.",
    authScopes: { developerMode: true },
    extensions: { listSize: 50 },
    resolve: (_r, _a, ctx) => ctx.services.dnd.publishedTariffs(),
  }),
}));

builder.mutationFields((t) => ({
  addDndContractTerms: t.withAuth(WRITE_SCOPES).field({
    type: DndTermsRef,
    description:
      "Stores contract terms for the organisation; they win over every published tariff for the boxes they cover (the most specific contract first: port, then country, then everywhere; a carrier's over every carrier's).",
    args: { input: t.arg({ type: ContractTermsInputRef, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const parsed = ContractTermsInput.safeParse(withoutNulls(input as Record<string, unknown>));
      if (!parsed.success) throw publicError("BAD_USER_INPUT", describeIssues(parsed.error));
      return ctx.services.dnd.addContractTerms(ctx.principal.organization.id, parsed.data);
    },
  }),
  removeDndContractTerms: t.withAuth(WRITE_SCOPES).boolean({
    description: "Removes one of the organisation's contract terms; NOT_FOUND when it has none with that id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const removed = await ctx.services.dnd.removeContractTerms(ctx.principal.organization.id, String(id));
      if (!removed) throw publicError("NOT_FOUND", "No such contract terms.");
      return true;
    },
  }),
}));
