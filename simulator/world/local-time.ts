/**
 * DCSA event times are local wall time at the location with its UTC offset
 * ("2025-03-04T14:12:56+08:00"). Offsets come from the IANA zone of each place, so daylight saving time
 * in Rotterdam or Savannah shows up as it does in carrier feeds.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
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
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

const QUARTER_HOUR = 15 * 60_000;
const DAY = 24 * 60 * 60_000;
const dayOffsets = new Map<string, number | null>();
const quarterOffsets = new Map<string, number>();

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  // Keys are zones times days of the simulated years; the bound only guards a long-running process.
  if (map.size > 200_000) map.clear();
  map.set(key, value);
  return value;
}

/** UTC offset of a zone at an instant, in minutes east of Greenwich. */
export function utcOffsetMinutes(timeZone: string, epochMs: number): number {
  // Zones change offset at most once a day: when a UTC day starts and ends on the same offset, that
  // offset holds all day and one lookup serves every event of that day.
  const day = Math.floor(epochMs / DAY);
  const dayKey = `${timeZone}|${day}`;
  let whole = dayOffsets.get(dayKey);
  if (whole === undefined) {
    const start = computeOffsetMinutes(timeZone, day * DAY);
    const end = computeOffsetMinutes(timeZone, (day + 1) * DAY - QUARTER_HOUR);
    whole = remember(dayOffsets, dayKey, start === end ? start : null);
  }
  if (whole !== null) return whole;
  // A day with a change: offsets only change on quarter-hour boundaries.
  const quarter = Math.floor(epochMs / QUARTER_HOUR);
  const quarterKey = `${timeZone}|${quarter}`;
  return (
    quarterOffsets.get(quarterKey) ??
    remember(quarterOffsets, quarterKey, computeOffsetMinutes(timeZone, quarter * QUARTER_HOUR))
  );
}

function computeOffsetMinutes(timeZone: string, epochMs: number): number {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(wholeSecond))) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  const wallClockAsUtc = Date.UTC(
    fields.year ?? 1970,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
  );
  return Math.round((wallClockAsUtc - wholeSecond) / 60000);
}

/** ISO 8601 local time with offset, to the second. */
export function toLocalIso(epochMs: number, timeZone: string): string {
  const offset = utcOffsetMinutes(timeZone, epochMs);
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + offset * 60000);
  const sign = offset < 0 ? "-" : "+";
  const absolute = Math.abs(offset);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`
  );
}

/** ISO 8601 UTC to the second ("2021-01-23T12:34:56Z"), the form the DCSA examples use for metadata. */
export function toUtcIso(epochMs: number): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
