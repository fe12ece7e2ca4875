import {
  isTimeZone as isKnownZone,
  localDate as zoneLocalDate,
  localDateTime as zoneLocalDateTime,
  zoneParts,
} from "../../lib/time-zone";

/**
 * Wall-clock time in a user's IANA zone, with the runtime's own time-zone data (Intl): no library,
 * and the same answers on every process of a deployment that runs one Node version.
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** Whether the runtime knows the zone (`Europe/Amsterdam`, `UTC`); a typo is refused, never guessed. */
export const isTimeZone = isKnownZone;

/** The wall clock in the zone (src/lib/time-zone.ts); a zone the runtime does not know is an error. */
export function wallClockAt(instant: Date, zone: string): WallClock {
  const p = zoneParts(instant, zone);
  if (!p) throw new RangeError(`Invalid time zone specified: ${zone}`);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute };
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(instant: Date, zone: string): number {
  const w = wallClockAt(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return asUtc - Math.floor(instant.getTime() / 60_000) * 60_000;
}

/**
 * The instant a wall-clock time happens in a zone. A time the clocks skip (spring forward) is taken
 * an offset-change later; a time that happens twice (fall back) is its first occurrence.
 */
export function instantOf(wall: WallClock, zone: string): Date {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // The zone's offsets a day either side: at most one change of clocks lies between them.
  const before = naive - offsetAt(new Date(naive - 86_400_000), zone);
  const after = naive - offsetAt(new Date(naive + 86_400_000), zone);
  const reads = (t: number) => {
    const w = wallClockAt(new Date(t), zone);
    return (
      w.year === wall.year &&
      w.month === wall.month &&
      w.day === wall.day &&
      w.hour === wall.hour &&
      w.minute === wall.minute
    );
  };
  const matching = [before, after].filter(reads);
  // Both: the time happens twice (first occurrence); neither: it is skipped (the old offset, so later).
  return new Date(matching.length > 0 ? Math.min(...matching) : before);
}

/** `HH:MM` (00:00 to 23:59) as minutes after midnight, or null when it is not one. */
export function minutesOf(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The wall clock `days` calendar days after `wall`'s date, at `minutes` after midnight. */
function dayAt(wall: WallClock, days: number, minutes: number): WallClock {
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: Math.floor(minutes / 60),
    minute: minutes % 60,
  };
}

export interface QuietHours {
  start: string;
  end: string;
}

/**
 * When quiet hours that hold at `now` end, or null when `now` is outside them. Quiet hours are a
 * daily wall-clock window in the zone, start included and end excluded; an end earlier than the start
 * runs overnight (22:00 to 07:00), and equal times mean none.
 */
export function quietHoursEnd(now: Date, zone: string, quiet: QuietHours | null): Date | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === null || end === null || start === end) return null;
  const wall = wallClockAt(now, zone);
  const minute = wall.hour * 60 + wall.minute;
  const overnight = end < start;
  const inside = overnight ? minute >= start || minute < end : minute >= start && minute < end;
  if (!inside) return null;
  // The end falls today unless the window runs overnight and began today.
  const endsTomorrow = overnight && minute >= start;
  return instantOf(dayAt(wall, endsTomorrow ? 1 : 0, end), zone);
}

/** The most recent instant at or before `now` when the zone's clock read `minutes` after midnight. */
export function lastWallTime(now: Date, zone: string, minutes: number): Date {
  const wall = wallClockAt(now, zone);
  const today = instantOf(dayAt(wall, 0, minutes), zone);
  return today.getTime() <= now.getTime() ? today : instantOf(dayAt(wall, -1, minutes), zone);
}

/** `YYYY-MM-DD` of the zone's calendar date at an instant. */
export function localDate(instant: Date, zone: string): string {
  return zoneLocalDate(instant, zone);
}

/** `YYYY-MM-DD HH:MM` in the zone, for e-mail text. */
export function localDateTime(instant: Date, zone: string): string {
  return zoneLocalDateTime(instant, zone, { seconds: false });
}
