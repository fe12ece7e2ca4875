import { addDays, type HolidayRegion, isWorkingDay } from "./calendar";
import type { ClockStartRule, DayBasis, RateSlab } from "./model";

/** How free time is counted at one port under one tariff. */
export interface FreeTimeRule {
  freeDays: number;
  freeDayBasis: DayBasis;
  clockStartRule: ClockStartRule;
}

function counts(date: string, basis: DayBasis, region: HolidayRegion): boolean {
  return basis === "calendar" || isWorkingDay(date, region);
}

/**
 * The last free day of a clock started on `startDate` (port-local): the `freeDays`-th day counted in
 * the basis, from the start day itself (`same_day`) or from the day after (`next_day`, the US
 * "DOD + n working days"). With no free days it is the day before counting starts, so the first
 * counted day is already chargeable.
 */
export function lastFreeDay(startDate: string, rule: FreeTimeRule, region: HolidayRegion): string {
  let day = rule.clockStartRule === "same_day" ? startDate : addDays(startDate, 1);
  if (rule.freeDays <= 0) return addDays(day, -1);
  let counted = 0;
  // A year of days is far beyond any tariff's free time; the bound only guards a broken calendar.
  for (let guard = 0; guard < 366; guard++, day = addDays(day, 1)) {
    if (counts(day, rule.freeDayBasis, region) && ++counted === rule.freeDays) return day;
  }
  throw new Error(`no last free day within a year of ${startDate}`);
}

/**
 * Chargeable days after the last free day up to and including `endDate` (the end day is charged, as
 * carriers count the gate-out or empty gate-in day), in the charge basis: US carriers charge calendar
 * days even where free time is in working days.
 */
export function overrunDays(
  lastFree: string,
  endDate: string,
  chargeDayBasis: DayBasis,
  region: HolidayRegion,
): number {
  let days = 0;
  for (let day = addDays(lastFree, 1); day <= endDate; day = addDays(day, 1)) {
    if (counts(day, chargeDayBasis, region)) days++;
  }
  return days;
}

/** The rate of overrun day `k` (1-based); null when no slab covers it. */
export function rateOfDay(slabs: readonly RateSlab[], k: number): number | null {
  const slab = slabs.find((s) => k >= s.fromDay && (s.toDay === null || k <= s.toDay));
  return slab ? slab.rate : null;
}

/**
 * The cost of `days` overrun days under progressive slabs: each day at the rate of the slab that holds
 * it. Null when a day falls outside every slab (a tariff whose rates were not captured): the overrun
 * is then known but not costed, never priced at zero.
 */
export function slabCost(slabs: readonly RateSlab[], days: number): number | null {
  let total = 0;
  for (let k = 1; k <= days; k++) {
    const rate = rateOfDay(slabs, k);
    if (rate === null) return null;
    total += rate;
  }
  // Rates such as RMB 41.5 and 116.2 add up in binary fractions; money is shown to the cent.
  return Math.round(total * 100) / 100;
}
