import {
  CHARGE_TYPES,
  DAY_BASES,
  DND_STATUSES,
  EQUIPMENT_CLASSES,
  TERMS_SOURCES,
  UNKNOWN_REASONS,
} from "../../../domain/demurrage/model";
import { builder } from "../../builder";

export const DndStatusEnum = builder.enumType("DndStatus", {
  description:
    "within_free_time; at_risk (3 days or fewer to the last free day, or the projected pickup falls after it); overdue (past the last free day, charges accruing); closed (the clock stopped); unknown (see unknownReason).",
  values: DND_STATUSES,
});

export const DndUnknownReasonEnum = builder.enumType("DndUnknownReason", {
  description:
    "Why a clock is unknown: no_tracking_facts (no carrier document yet), stale_tracking_facts (carrier facts older than 72 hours while the clock runs), no_port_of_discharge, no_expected_discharge (not discharged and no arrival estimate), no_terms (no contract, tariff or benchmark applies).",
  values: UNKNOWN_REASONS,
});

export const DndChargeTypeEnum = builder.enumType("DndChargeType", {
  description:
    "demurrage: discharge to gate-out; detention: gate-out to empty return; combined: discharge to empty return under one free time.",
  values: CHARGE_TYPES,
});

export const DndTermsSourceEnum = builder.enumType("DndTermsSource", {
  description:
    "Where the terms came from, in resolution order: the organisation's contract, the carrier's tariff for the port, the carrier's tariff for the country, a benchmark.",
  values: TERMS_SOURCES,
});

export const DndConfidenceEnum = builder.enumType("DndConfidence", {
  description:
    "high for a contract, medium for a published carrier tariff, low for a benchmark or an estimate.",
  values: ["high", "medium", "low"] as const,
});

export const DayBasisEnum = builder.enumType("DayBasis", {
  description: "calendar: every day counts; working: weekends and the port region's public holidays do not.",
  values: DAY_BASES,
});

export const EquipmentClassEnum = builder.enumType("EquipmentClass", {
  description:
    "A tariff's equipment class; dry, reefer and special cover every size of their kind, any every box.",
  values: EQUIPMENT_CLASSES,
});
