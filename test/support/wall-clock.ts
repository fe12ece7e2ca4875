/**
 * The wall clock of an instant in an IANA zone, as the contracts write port-local times
 * (`YYYY-MM-DD HH:MM:SS`): what a test compares a port-local field with, computed independently of
 * the service's own formatters.
 */
export function wallClockIn(instant: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
