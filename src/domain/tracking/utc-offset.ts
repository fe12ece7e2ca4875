/**
 * The clock a port-local reading is on (docs/decisions/times.md). Every wall-clock time the service
 * shows (`YYYY-MM-DD HH:MM:SS` at a port) is kept beside the instant it denotes, so the offset it was
 * written with is the difference of the two: no zone lookup, and it can never disagree with the pair
 * it describes. A reading whose port's zone was unknown was written in UTC, so its offset is +00:00.
 */

const WALL_CLOCK = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d))?$/;
const MINUTE_MS = 60_000;
/** The widest offsets in use (UTC-12:00, UTC+14:00): anything outside is a pair that disagrees. */
const WEST_MOST = -12 * 60;
const EAST_MOST = 14 * 60;

/**
 * `+01:00` for a reading of 14:00 that denotes 13:00 UTC; null when either is missing, the reading
 * is not a wall-clock time, or the two cannot be one moment (more than 14 hours apart).
 */
export function utcOffsetOf(
  localDateTime: string | null | undefined,
  instant: string | Date | null | undefined,
): string | null {
  if (!localDateTime || !instant) return null;
  const m = WALL_CLOCK.exec(localDateTime);
  if (!m) return null;
  const [, year, month, day, hour, minute, second] = m;
  const asIfUtc = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +(second ?? 0));
  const at = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(at)) return null;
  // Readings are kept to the second and instants to the millisecond: the offset is whole minutes.
  const minutes = Math.round((asIfUtc - at) / MINUTE_MS);
  if (minutes < WEST_MOST || minutes > EAST_MOST) return null;
  return formatUtcOffset(minutes);
}

/** `+05:45` for 345 minutes east of UTC, `-03:30` for 210 west, `+00:00` for UTC. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
