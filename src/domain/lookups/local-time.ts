/** Wall-clock renderings for lookup answers: "YYYY-MM-DD HH:MM:SS" and its ISO-like "T" form. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      return null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The wall-clock time of an instant in a zone, "YYYY-MM-DD HH:MM:SS"; in UTC when the zone is unknown.
 */
export function wallClock(instant: Date, timeZone: string | null | undefined, separator = " "): string {
  const formatter = timeZone ? formatterFor(timeZone) : null;
  if (!formatter) return instant.toISOString().slice(0, 19).replace("T", separator);
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}${separator}${parts.hour}:${parts.minute}:${parts.second}`;
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
