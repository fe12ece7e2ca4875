/**
 * DCSA date-times are RFC 3339 with the offset of the place where the event happened. The compat
 * surface shows that wall-clock time, so we keep the digits as sent instead of converting to UTC and
 * back (which would need a time-zone database and could shift the date).
 */

import { formatOffset, localDateTime, zoneParts } from "../../lib/time-zone";

export interface ParsedDateTime {
  /** `YYYY-MM-DD HH:MM:SS`, the wall clock at the location. */
  local: string;
  /** `+08:00`; `Z` becomes `+00:00`. */
  offset: string;
  /** The value said `Z`: UTC, so the wall clock at the location is not known from the value itself. */
  utcDesignator: boolean;
  instantMs: number;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function parseDcsaDateTime(value: string): ParsedDateTime | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[8] ?? "Z";
  let offsetMinutes = 0;
  const utcDesignator = zone === "Z" || zone === "z";
  if (!utcDesignator) {
    const digits = zone.replace(":", "");
    const sign = digits.startsWith("-") ? -1 : 1;
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 14 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 31 February over into March; a rolled date is not the date the carrier meant.
  if (new Date(wallAsUtc).getUTCDate() !== day) return null;
  return {
    local: `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`,
    offset: formatOffset(offsetMinutes),
    utcDesignator,
    instantMs: wallAsUtc - offsetMinutes * 60_000,
  };
}

export { formatOffset };

/**
 * The wall clock in an IANA zone at an instant, for values a carrier sent in UTC (`Z`). Returns null
 * for a zone name the runtime does not know.
 */
export function wallClockInZone(
  instantMs: number,
  timeZone: string,
): { local: string; offset: string } | null {
  const p = zoneParts(instantMs, timeZone);
  if (!p) return null;
  return { local: localDateTime(instantMs, timeZone), offset: formatOffset(p.offsetMinutes) };
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?$/;

/** A date-time without an offset (`2026-01-02T08:00:00`), which RFC 3339 does not allow. */
export function isLocalDateTime(value: string): boolean {
  return LOCAL_DATE_TIME.test(value.trim());
}

/**
 * An offset-less date-time read as the wall clock in `timeZone` (or UTC when null): the value with the
 * zone's offset at that wall time appended, as the carrier should have sent it. Null when the value is
 * not an offset-less date-time or the zone is unknown to the runtime. In the hour a clock goes back,
 * the first of the two instants is taken.
 */
export function withOffsetIn(value: string, timeZone: string | null): string | null {
  const trimmed = value.trim();
  const m = LOCAL_DATE_TIME.exec(trimmed);
  if (!m) return null;
  if (timeZone === null) return `${trimmed}Z`;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, m[6] === undefined ? 0 : Number(m[6]));
  let offsetMinutes = 0;
  // The offset at the instant the wall time names depends on that instant: two rounds settle it.
  for (let round = 0; round < 2; round++) {
    const wall = wallClockInZone(wallAsUtc - offsetMinutes * 60_000, timeZone);
    if (wall === null) return null;
    const sign = wall.offset.startsWith("-") ? -1 : 1;
    offsetMinutes = sign * (Number(wall.offset.slice(1, 3)) * 60 + Number(wall.offset.slice(4, 6)));
  }
  return `${trimmed}${formatOffset(offsetMinutes)}`;
}
