import type { DemurrageRisk } from "../../../domain/demurrage/dnd-assessment";
import type { DndClock } from "../../../domain/demurrage/dnd-clock";
import { builder } from "../../builder";
import {
  DayBasisEnum,
  DndChargeTypeEnum,
  DndConfidenceEnum,
  DndStatusEnum,
  DndTermsSourceEnum,
  DndUnknownReasonEnum,
} from "./dnd-enums";

/** The fields every demurrage or detention clock shows (one box's, or a shipment's roll-up). */
export const DndClockFieldsRef = builder.interfaceRef<DndClock>("DndClockFields").implement({
  description: "A demurrage, detention or combined clock at the port of discharge.",
  resolveType: (clock) => ("containers" in clock ? "DemurrageRisk" : "DndClock"),
  fields: (t) => ({
    chargeType: t.field({ type: DndChargeTypeEnum, resolve: (c) => c.chargeType }),
    status: t.field({ type: DndStatusEnum, resolve: (c) => c.status }),
    unknownReason: t.field({
      type: DndUnknownReasonEnum,
      nullable: true,
      description: "Why the status is unknown; null otherwise.",
      resolve: (c) => c.unknownReason,
    }),
    freeDays: t.exposeInt("freeDays", { nullable: true }),
    freeDayBasis: t.field({ type: DayBasisEnum, nullable: true, resolve: (c) => c.freeDayBasis }),
    chargeDayBasis: t.field({
      type: DayBasisEnum,
      nullable: true,
      description:
        "How overrun days are charged (US carriers charge calendar days after working-day free time).",
      resolve: (c) => c.chargeDayBasis,
    }),
    clockStartedAt: t.string({
      nullable: true,
      description:
        "ISO 8601 instant of the actual start event (discharge, or gate-out for detention); null before it.",
      resolve: (c) => c.clockStartedAt,
    }),
    clockStoppedAt: t.string({
      nullable: true,
      description:
        "ISO 8601 instant of the actual end event (gate-out, or empty return); null while running.",
      resolve: (c) => c.clockStoppedAt,
    }),
    lastFreeDay: t.exposeString("lastFreeDay", {
      nullable: true,
      description:
        "YYYY-MM-DD at the port (its time zone, weekends and regional public holidays). Before discharge, counted from the expected discharge.",
    }),
    lastFreeDaySource: t.string({
      nullable: true,
      description:
        "Where lastFreeDay comes from: terminal (the box's terminal record gives it: the line's day, else the terminal's) or tariff (counted from the resolved terms). One last free day per box on every surface; null when there is none.",
      resolve: (c) => c.lastFreeDaySource,
    }),
    daysRemaining: t.exposeInt("daysRemaining", {
      nullable: true,
      description:
        "Calendar days from today at the port to the last free day: 0 on it, negative once past; null when closed.",
    }),
    overrunDays: t.exposeInt("overrunDays", {
      nullable: true,
      description: "Chargeable days so far after the last free day (to the stop day once closed).",
    }),
    accruedCost: t.exposeFloat("accruedCost", {
      nullable: true,
      description:
        "Cost of the overrun days so far, in currency; null when the tariff's rates are not known.",
    }),
    nextDailyRate: t.exposeFloat("nextDailyRate", {
      nullable: true,
      description: "Rate of the next chargeable day; null once closed.",
    }),
    currency: t.exposeString("currency", {
      nullable: true,
      description: "ISO 4217; costs are never summed across currencies.",
    }),
    projectedPickup: t.exposeString("projectedPickup", {
      nullable: true,
      description:
        "Demurrage only, while the box waits at the port: the expected discharge plus the port's measured dwell (3 days when unmeasured), never before today; YYYY-MM-DD.",
    }),
    projectedOverrunDays: t.exposeInt("projectedOverrunDays", { nullable: true }),
    projectedCost: t.exposeFloat("projectedCost", {
      nullable: true,
      description: "Cost if the box is picked up on projectedPickup.",
    }),
    termsSource: t.field({ type: DndTermsSourceEnum, nullable: true, resolve: (c) => c.termsSource }),
    confidence: t.field({ type: DndConfidenceEnum, nullable: true, resolve: (c) => c.confidence }),
    isEstimate: t.exposeBoolean("isEstimate", {
      nullable: true,
      description: "True when the terms are an estimate derived from the nearest published figures.",
    }),
    tariffId: t.exposeString("tariffId", { nullable: true }),
    sourceUrl: t.exposeString("sourceUrl", {
      nullable: true,
      description: "Where the published figures come from.",
    }),
    sourceNote: t.exposeString("sourceNote", { nullable: true }),
  }),
});

export const DndClockRef = builder.objectRef<DndClock>("DndClock").implement({
  description: "One box's demurrage, detention or combined clock.",
  interfaces: [DndClockFieldsRef],
});

export const DemurrageRiskRef = builder.objectRef<DemurrageRisk>("DemurrageRisk").implement({
  description:
    "A shipment's demurrage and detention risk in one clock: the most urgent box's current clock (detention once it has left the port), with accrued and projected costs summed over the boxes charged in that currency.",
  interfaces: [DndClockFieldsRef],
  fields: (t) => ({
    containers: t.exposeInt("containers", { description: "Boxes assessed." }),
    container: t.exposeString("container", { nullable: true, description: "The box whose clock leads." }),
  }),
});
