import Holidays from "date-holidays";
import { localDate as zoneLocalDate } from "../../lib/time-zone";

/**
 * Port-local calendar days for free-time counting. A day is `YYYY-MM-DD` in the port's IANA zone;
 * a working day is Monday to Friday and not a public holiday of the port's country and region
 * (date-holidays, `public` type only: Thanksgiving and the day after in California, for example).
 */

const DAY_MS = 86_400_000;

/** The calendar date of an instant in a zone; in UTC when the zone is unknown or invalid. */
export function localDate(instant: Date, timeZone: string | null): string {
  return zoneLocalDate(instant, timeZone);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

/** The country and region whose public holidays apply at a port. */
export interface HolidayRegion {
  countryCode: string | null;
  /** A subdivision code (`CA`) or name (`California`), as port records carry either. */
  state: string | null;
}

const holidayCache = new Map<string, ReadonlySet<string>>();

const regionCache = new Map<string, { country: string; state: string | null }>();

/** The date-holidays region of a port, resolved once per country and state (listing states is slow). */
function regionKey(countryCode: string, state: string | null): { country: string; state: string | null } {
  const cacheKey = `${countryCode}|${state ?? ""}`;
  let region = regionCache.get(cacheKey);
  if (!region) {
    region = resolveRegion(countryCode, state);
    regionCache.set(cacheKey, region);
  }
  return region;
}

function resolveRegion(countryCode: string, state: string | null): { country: string; state: string | null } {
  const country = countryCode.toUpperCase();
  if (!state) return { country, state: null };
  const states = new Holidays().getStates(country) as Record<string, string> | undefined;
  if (!states) return { country, state: null };
  const wanted = state.trim().toLowerCase();
  const code = Object.entries(states).find(
    ([c, name]) => c.toLowerCase() === wanted || name.toLowerCase() === wanted,
  )?.[0];
  return { country, state: code ?? null };
}

/** Public holidays (`YYYY-MM-DD`) of a region in a year; empty for a country date-holidays lacks. */
export function publicHolidays(region: HolidayRegion, year: number): ReadonlySet<string> {
  if (!region.countryCode) return new Set();
  const { country, state } = regionKey(region.countryCode, region.state);
  const key = `${country}/${state ?? ""}/${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    const calendar = state ? new Holidays(country, state) : new Holidays(country);
    const list = calendar.getHolidays?.(year) ?? [];
    days = new Set(
      (Array.isArray(list) ? list : []).filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)),
    );
    holidayCache.set(key, days);
  }
  return days;
}

export function isWorkingDay(date: string, region: HolidayRegion): boolean {
  if (isWeekend(date)) return false;
  return !publicHolidays(region, Number(date.slice(0, 4))).has(date);
}
