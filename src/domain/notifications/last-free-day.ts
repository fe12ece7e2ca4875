import { addDays } from "../demurrage/calendar";
import { findPortEntry } from "../ports/port-directory";
import type { FreeTimeFacts } from "../shipments/shipment-free-time";
import { instantOf, isTimeZone } from "./local-time";

/** One box's last free day as a terminal record tells it: a port-local date and the port. */
export interface BoxLastFreeDay {
  container: string;
  /** `YYYY-MM-DD`: the one last free day of the box (`src/domain/demurrage/last-free-day.ts`). */
  lastFreeDay: string | null;
  /** Where it comes from, in words ("given by the terminal", "computed from the tariff"). */
  source: string;
  /** UN/LOCODE of the terminal's port: its zone says when the day ends. */
  portLocode: string | null;
  /** A box already gated out owes no more demurrage: its last free day no longer matters. */
  gatedOut: boolean;
}

/**
 * The one seam last-free-day reminders read: the earliest deadline among a shipment's boxes still at
 * the terminal. A last free day is a whole day in the port's own calendar: charges start when it
 * ends, at midnight in the port's zone (UTC when the port or its zone is unknown). Null: no reminder.
 */
export function lastFreeDayDeadline(
  boxes: readonly BoxLastFreeDay[],
): { endsAt: Date; box: BoxLastFreeDay & { lastFreeDay: string } } | null {
  let earliest: { endsAt: Date; box: BoxLastFreeDay & { lastFreeDay: string } } | null = null;
  for (const box of boxes) {
    if (box.gatedOut || !box.lastFreeDay) continue;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(box.lastFreeDay);
    if (!m) continue;
    const zone = (box.portLocode && findPortEntry(box.portLocode)?.timeZone) || "UTC";
    const dayAfter = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
    const end = instantOf(
      {
        year: dayAfter.getUTCFullYear(),
        month: dayAfter.getUTCMonth() + 1,
        day: dayAfter.getUTCDate(),
        hour: 0,
        minute: 0,
      },
      isTimeZone(zone) ? zone : "UTC",
    );
    if (!earliest || end < earliest.endsAt)
      earliest = { endsAt: end, box: { ...box, lastFreeDay: box.lastFreeDay } };
  }
  return earliest;
}

/**
 * Whether a shipment's free time kept on its row (`shipments.free_time`, kept whenever a version,
 * terminal facts or contract terms change: src/domain/shipments/shipment-free-time.ts) leaves a
 * reminder possible now, so the scan assesses only those shipments instead of every followed one on
 * every pass. A reminder is due only while its deadline (the end of the last free day) is at most 72
 * hours away, so its day is between yesterday and three days on in the port's calendar; the window
 * kept here is wider (two days back, five on, in UTC dates) so no zone or boundary can hide one. A row
 * never computed (`free_time_at` null) is assessed.
 */
export function keptFreeTimeMayRemind(
  kept: { freeTime: unknown; freeTimeAt: Date | null },
  now: Date,
): boolean {
  if (kept.freeTimeAt === null) return true;
  const facts = kept.freeTime as FreeTimeFacts | null;
  const today = now.toISOString().slice(0, 10);
  const [from, to] = [addDays(today, -2), addDays(today, 5)];
  return (facts?.containers ?? []).some((box) =>
    [box.demurrageLastFreeDay, box.detentionLastFreeDay].some((d) => !!d && d >= from && d <= to),
  );
}
