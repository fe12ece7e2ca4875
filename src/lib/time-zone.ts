/**
 * The one reading of an instant in an IANA zone (issue 40): every formatter that renders a time in a
 * port's or a user's zone goes through `zoneParts`, so a mail, a lookup answer, a D&D date and a
 * carrier's offset agree to the second. Built on the runtime's own zone data (Intl), read as numbered
 * parts rather than a locale's phrase: the phrase ("Monday 30 November" or "Monday, 30 November",
 * "at" or a comma) changes between ICU versions, the numbers do not.
 */

export interface ZoneParts {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
  second: number;
  /** 0 (Sunday) to 6, of the zone's calendar date. */
  weekday: number;
  /** The zone's offset from UTC at the instant, in minutes (east positive). */
  offsetMinutes: number;
}

// One formatter per zone: building one costs far more than using it. `null` remembers an unknown zone.
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      formatter = null;
    }
    // Bounded by the zones the runtime knows; names it refuses are few (typos, validated elsewhere).
    if (formatters.size < 1_000) formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows the zone (`Europe/Amsterdam`, `UTC`); a typo is refused, never guessed. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  return formatterFor(zone) !== null;
}

/** The wall clock in `zone` at `instant`, or null for a zone the runtime does not know. */
export function zoneParts(instant: Date | number, zone: string): ZoneParts | null {
  const at = typeof instant === "number" ? instant : instant.getTime();
  if (!Number.isFinite(at)) return null;
  const formatter = formatterFor(zone);
  if (!formatter) return null;
  const parts: Record<string, number> = {};
  for (const p of formatter.formatToParts(at)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const year = parts.year!;
  const month = parts.month!;
  const day = parts.day!;
  // Some ICU versions write midnight as 24 even in the h23 cycle.
  const hour = parts.hour! % 24;
  const minute = parts.minute!;
  const second = parts.second!;
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    offsetMinutes: Math.round((wallAsUtc - Math.floor(at / 1000) * 1000) / 60_000),
  };
}

/** The parts of an instant in UTC: what every reader falls back to when a zone is missing or unknown. */
function utcParts(at: number): ZoneParts {
  const d = new Date(at);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
    offsetMinutes: 0,
  };
}

/** `zoneParts`, in UTC when the zone is null or unknown to the runtime. */
export function zonePartsOrUtc(instant: Date | number, zone: string | null | undefined): ZoneParts {
  const at = typeof instant === "number" ? instant : instant.getTime();
  return (zone ? zoneParts(at, zone) : null) ?? utcParts(at);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DD` of the calendar date in the zone (UTC when the zone is null or unknown). */
export function localDate(instant: Date | number, zone: string | null | undefined): string {
  const p = zonePartsOrUtc(instant, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/**
 * `YYYY-MM-DD HH:MM:SS` in the zone (UTC when the zone is null or unknown); `separator` between date
 * and time ("T" for the ISO-like form), `seconds: false` for `YYYY-MM-DD HH:MM`.
 */
export function localDateTime(
  instant: Date | number,
  zone: string | null | undefined,
  options: { separator?: string; seconds?: boolean } = {},
): string {
  const p = zonePartsOrUtc(instant, zone);
  const time = `${pad(p.hour)}:${pad(p.minute)}${options.seconds === false ? "" : `:${pad(p.second)}`}`;
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}${options.separator ?? " "}${time}`;
}

/** `+01:00`, `-03:30`, `+00:00`: an offset in minutes as RFC 3339 writes it. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "Monday, 30 November 2026, 14:00" in the zone (UTC when null or unknown): a date a person reads. */
export function dateTimeWords(instant: Date | number, zone: string | null | undefined): string {
  const p = zonePartsOrUtc(instant, zone);
  return `${WEEKDAYS[p.weekday]}, ${p.day} ${MONTHS[p.month - 1]} ${p.year}, ${pad(p.hour)}:${pad(p.minute)}`;
}

/** "Monday, 30 November 2026" for a calendar date `YYYY-MM-DD` (no zone: it is already a date). */
export function dateWords(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const p = utcParts(Date.UTC(y, m - 1, d));
  return `${WEEKDAYS[p.weekday]}, ${p.day} ${MONTHS[p.month - 1]} ${p.year}`;
}
