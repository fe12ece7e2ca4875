/**
 * Demurrage and detention terms and clocks (docs/decisions/demurrage.md). Dates are port-local
 * calendar dates `YYYY-MM-DD`: free time is counted in the port's own days, as carriers bill it.
 */

export const DIRECTIONS = ["import", "export"] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const CHARGE_TYPES = ["demurrage", "detention", "combined"] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

/** Sized classes first; `dry`, `reefer`, `special` cover every size of their kind, `any` every box. */
export const EQUIPMENT_CLASSES = [
  "dry20",
  "dry40",
  "hc40",
  "reefer20",
  "reefer40",
  "special20",
  "special40",
  "dry",
  "reefer",
  "special",
  "any",
] as const;
export type EquipmentClass = (typeof EQUIPMENT_CLASSES)[number];

export const DAY_BASES = ["calendar", "working"] as const;
export type DayBasis = (typeof DAY_BASES)[number];

/** Events a clock starts on: discharge, gate-out (laden), gate-in full (export). */
export const CLOCK_STARTS = ["DISC", "GTOT", "GTIN_FULL"] as const;
export type ClockStart = (typeof CLOCK_STARTS)[number];
/** `same_day`: the start day is free day 1 (Maersk Singapore); `next_day`: counting starts the day after (US "DOD + n"). */
export const CLOCK_START_RULES = ["same_day", "next_day"] as const;
export type ClockStartRule = (typeof CLOCK_START_RULES)[number];
export const CLOCK_ENDS = ["GTOT", "EMPTY_RETURN", "LOAD"] as const;
export type ClockEnd = (typeof CLOCK_ENDS)[number];

/** A progressive step, numbered in days AFTER the free time (day 1 is the first chargeable day). */
export interface RateSlab {
  fromDay: number;
  /** Inclusive; null for the open last step. */
  toDay: number | null;
  rate: number;
}

export interface Tariff {
  id: string;
  /** Set for an organisation's contract terms. */
  organizationId: string | null;
  carrierScac: string | null;
  portLocode: string | null;
  countryCode: string | null;
  direction: Direction;
  chargeType: ChargeType;
  equipment: EquipmentClass;
  freeDays: number;
  freeDayBasis: DayBasis;
  chargeDayBasis: DayBasis;
  clockStart: ClockStart;
  clockStartRule: ClockStartRule;
  clockEnd: ClockEnd;
  slabs: RateSlab[];
  currency: string;
  /** `YYYY-MM-DD`, inclusive. */
  effectiveFrom: string;
  effectiveTo: string | null;
  sourceUrl: string | null;
  sourceNote: string;
  isEstimate: boolean;
}

/** Where the terms came from, most trusted first (the resolution order). */
export const TERMS_SOURCES = [
  "contract",
  "carrier_port_tariff",
  "carrier_country_tariff",
  "benchmark",
] as const;
export type TermsSource = (typeof TERMS_SOURCES)[number];

export type Confidence = "high" | "medium" | "low";

export const DND_STATUSES = ["within_free_time", "at_risk", "overdue", "closed", "unknown"] as const;
export type DndStatus = (typeof DND_STATUSES)[number];

/** Why a clock says `unknown`. */
export const UNKNOWN_REASONS = [
  "no_tracking_facts",
  "stale_tracking_facts",
  "no_port_of_discharge",
  "no_expected_discharge",
  "no_terms",
] as const;
export type UnknownReason = (typeof UNKNOWN_REASONS)[number];
