import { zoneParts } from "../../lib/time-zone";
import { localDate } from "../demurrage/calendar";

const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

function timeOfDayMs(instant: Date, zone: string): number | null {
  const p = zoneParts(instant, zone);
  if (!p) return null;
  return ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 + instant.getUTCMilliseconds();
}

/**
 * The first instant after `now` at which the calendar date in `zone` changes (UTC when the zone is
 * unknown): when a count of port-local days (D&D's free days left, a last free day passing) can next
 * change. On a day a daylight-saving change shortens, it is found by stepping back; on one it
 * lengthens, the answer is up to an hour early, which only costs a recomputation.
 */
export function nextLocalMidnight(now: Date, zone: string | null): Date {
  const tz = zone ?? "UTC";
  const wall = timeOfDayMs(now, tz) ?? now.getTime() % DAY_MS;
  const today = localDate(now, zone);
  let at = now.getTime() + (DAY_MS - wall);
  // Offsets are whole quarter hours: step back while the date has already changed before `at`.
  while (at - QUARTER_HOUR_MS > now.getTime() && localDate(new Date(at - QUARTER_HOUR_MS), zone) !== today) {
    at -= QUARTER_HOUR_MS;
  }
  return new Date(at);
}
