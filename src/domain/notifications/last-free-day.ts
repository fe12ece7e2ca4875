/**
 * The one seam last-free-day reminders read. Terminal records and demurrage (another part of the
 * project) will supply the date; until they do, the answer is the date only where a shipment already
 * carries one (`lastFreeDay`, ISO 8601, in its stored summary), else null, and null means no reminder.
 * Replace the body here, and nothing else, when terminal data lands.
 */
export function lastFreeDayOf(shipment: { summary: unknown }): Date | null {
  const summary = shipment.summary;
  if (!summary || typeof summary !== "object" || Array.isArray(summary)) return null;
  const value = (summary as { lastFreeDay?: unknown }).lastFreeDay;
  if (typeof value !== "string") return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at);
}
