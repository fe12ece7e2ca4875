import { localDateTime } from "../../lib/time-zone";

/** Wall-clock renderings for lookup answers: "YYYY-MM-DD HH:MM:SS" and its ISO-like "T" form. */

/**
 * The wall-clock time of an instant in a zone, "YYYY-MM-DD HH:MM:SS"; in UTC when the zone is unknown.
 */
export function wallClock(instant: Date, timeZone: string | null | undefined, separator = " "): string {
  return localDateTime(instant, timeZone, { separator });
}

/**
 * The wall-clock part of an ISO 8601 date-time with an offset ("2025-01-14T09:21:00+01:00" gives
 * "2025-01-14 09:21:00"): carriers give local times, and that is what a schedule shows. Null when the
 * text is not a date-time.
 */
export function wallClockOf(isoWithOffset: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?/.exec(isoWithOffset);
  if (!match || Number.isNaN(Date.parse(isoWithOffset))) return null;
  return `${match[1]} ${match[2]}${match[3] ?? ":00"}`;
}
