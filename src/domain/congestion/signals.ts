/**
 * A port's raw congestion signals on one day, each over its component's window ending that day (pure
 * functions; congestion.service.ts loads their inputs and stores the result):
 *
 * - anchorage wait: median hours of the waits over 3 h (Oceanbolt: only congested vessels count) that
 *   began in the last 24 hours (at least the 5 most recent of the week) or are still running, a running wait counted at its length so far; when
 *   10 or more ships are waiting at once and the median of their running waits is higher, that one (a
 *   closed port reads high while its queue forms, not only once ships berth); and when 10 or more ships
 *   lie at anchor and the queue's expected wait (ships at anchor over the week's hourly arrivals,
 *   Little's law) is higher still, that one (a closure shows within hours, before any wait is long);
 * - dwell: median days from discharge (DISC) to gate-out (GTOT) at the port of discharge of tracked
 *   boxes gated out in the last 7 days;
 * - ETA slip: median hours of the actual arrival (ATA) against the first ETA seen, tracked shipments
 *   that arrived in the last 14 days;
 * - schedule deviation: median hours of the actual arrival against the Commercial Schedules proforma
 *   arrival of the same vessel, voyage and port (positive = late), arrivals in the last 14 days;
 * - bunching: the index of dispersion (variance / mean) of daily arrivals in the port's area over 14
 *   days (1 = Poisson), over the days the port was watched (at least 7).
 */
import type { TrackingDocument } from "../tracking/model";
import { median } from "./scoring";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Oceanbolt's rule: a vessel counts as waiting after 3 hours at anchor. */
export const WAITING_AFTER_MS = 3 * HOUR_MS;
/** Completed waits count toward the anchorage wait for this long after they began (running ones always). */
export const WAIT_WINDOW_MS = DAY_MS;
/** Ships at anchor (however long) from which the queue's expected wait (Little's law) is read. */
export const LITTLE_QUEUE_SIZE = 6;
/** Completed waits read at the least (the most recent of the week) when the last day had fewer. */
export const MIN_WAITS = 5;
/** Ships waiting at once that make a queue whose running waits can set the anchorage-wait signal. */
export const QUEUE_SIZE = 10;

export interface WaitRecord {
  anchoredAt: Date;
  lastSeenAt: Date;
  berthedAt: Date | null;
}

export interface DaySignals {
  anchorageWaitH: number | null;
  anchorageN: number;
  dwellD: number | null;
  dwellN: number;
  etaSlipH: number | null;
  etaSlipN: number;
  scheduleDeviationH: number | null;
  scheduleDeviationN: number;
  bunching: number | null;
  /** Arrivals in the 7 days ending at the day's end. */
  arrivals: number;
  vesselsWaiting: number;
  longestWaitH: number | null;
  newestInputAt: Date | null;
}

export interface ShipmentObservation {
  /** When it was observed: gate-out for a dwell, the arrival for a slip. */
  at: number;
  value: number;
}

export interface PortShipmentObservations {
  dwellDays: ShipmentObservation[];
  etaSlipHours: ShipmentObservation[];
  /** Actual arrival minus the proforma arrival, hours (positive = late), one per ship call. */
  scheduleDeviationHours?: ShipmentObservation[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The signals as of `end` (the day's end, or now for today). `stillOpenAfter`: a wait not closed
 * whose vessel was last seen after it is still running at `end`.
 */
export function daySignals(input: {
  end: number;
  waits: readonly WaitRecord[];
  arrivals: readonly Date[];
  shipments: PortShipmentObservations | undefined;
  stillOpenAfter: number;
  /** When the port's area was first sampled (its first arrival seen). */
  watchedSince?: number;
}): DaySignals {
  const { end } = input;
  const weekStart = end - 7 * DAY_MS;
  const lengths: number[] = [];
  const ongoing: number[] = [];
  const completed: { anchoredAt: number; hours: number }[] = [];
  let newest: number | null = null;
  let atAnchor = 0;
  for (const wait of input.waits) {
    const anchoredAt = wait.anchoredAt.getTime();
    if (anchoredAt >= end) continue;
    const closedAt = wait.berthedAt?.getTime() ?? null;
    const running =
      (closedAt === null && wait.lastSeenAt.getTime() >= input.stillOpenAfter) || (closedAt ?? 0) > end;
    if (running) atAnchor++;
    const until = running ? end : Math.min(closedAt ?? wait.lastSeenAt.getTime(), end);
    if (!running && anchoredAt < weekStart) continue;
    const length = until - anchoredAt;
    newest = Math.max(newest ?? 0, Math.min(wait.lastSeenAt.getTime(), end));
    if (length <= WAITING_AFTER_MS) continue;
    if (running) ongoing.push(length / HOUR_MS);
    else completed.push({ anchoredAt, hours: length / HOUR_MS });
  }
  // The waits read (issue 36): any still running, and the completed ones that began in the last day,
  // or the MIN_WAITS most recent of the week when the day had fewer. A queue stops counting once it
  // has cleared, not a week after the ships joined it (a 7-day window kept a typhoon on the board four
  // days after its queue was gone), and a quiet port's median still rests on a few waits.
  completed.sort((a, b) => b.anchoredAt - a.anchoredAt);
  const recent = completed.filter(
    (w, i) => w.anchoredAt >= end - WAIT_WINDOW_MS || ongoing.length + i < MIN_WAITS,
  );
  lengths.push(...ongoing, ...recent.map((w) => w.hours));
  // Days before the port was first watched are unknown, not quiet: dispersion only over watched days.
  const watchedDays = Math.min(14, Math.floor((end - (input.watchedSince ?? end)) / DAY_MS));
  const perDay = Array.from({ length: Math.max(0, watchedDays) }, () => 0);
  let arrivals7d = 0;
  for (const arrival of input.arrivals) {
    const at = arrival.getTime();
    if (at >= end || at < end - 14 * DAY_MS) continue;
    const bin = Math.floor((end - 1 - at) / DAY_MS);
    if (bin < perDay.length) perDay[bin]! += 1;
    if (at >= weekStart) arrivals7d++;
    newest = Math.max(newest ?? 0, at);
  }
  const mean = perDay.length >= 7 ? perDay.reduce((a, b) => a + b, 0) / perDay.length : 0;
  const variance = mean > 0 ? perDay.reduce((sum, n) => sum + (n - mean) ** 2, 0) / perDay.length : 0;
  // A queue that is forming shows through the waits still running before anyone berths: when their
  // median is higher than the week's, it is the wait a ship arriving now faces.
  const weekMedian = median(lengths);
  // Only a real queue counts this way (10 ships or more): one ship held at a quiet port is not one.
  const runningMedian = ongoing.length >= QUEUE_SIZE ? median(ongoing) : null;
  // A port that stopped berthing shows first as a queue, before any wait in it is long: by Little's
  // law a ship joining a queue of L ships at a port that berths its usual λ a hour (the week's
  // arrivals) waits about L / λ. Only a real queue counts (6 ships or more at anchor, however long),
  // and in normal times it reads below the week's median, so it moves the signal only when the
  // anchorage fills faster than the port works it (a typhoon closure within hours of its start).
  const hourlyArrivals = arrivals7dIn(input.arrivals, end) / (7 * 24);
  const queueWait = atAnchor >= LITTLE_QUEUE_SIZE && hourlyArrivals > 0 ? atAnchor / hourlyArrivals : null;
  const candidates = [weekMedian, runningMedian, queueWait].filter((v): v is number => v !== null);
  const waitMedian = candidates.length > 0 ? Math.max(...candidates) : null;
  const inWindow = (observations: readonly ShipmentObservation[] | undefined, days: number) =>
    (observations ?? []).filter((o) => o.at < end && o.at >= end - days * DAY_MS);
  const dwells = inWindow(input.shipments?.dwellDays, 7);
  const slips = inWindow(input.shipments?.etaSlipHours, 14);
  const deviations = inWindow(input.shipments?.scheduleDeviationHours, 14);
  for (const o of [...dwells, ...slips, ...deviations]) newest = Math.max(newest ?? 0, o.at);
  const dwellMedian = median(dwells.map((o) => o.value));
  const slipMedian = median(slips.map((o) => o.value));
  // Median signed lateness, not mean absolute deviation: early arrivals do not read as congestion, and
  // one ship days late on a quiet port moves the median less than it would a mean.
  const deviationMedian = median(deviations.map((o) => o.value));
  const longest =
    ongoing.length > 0
      ? Math.max(...ongoing)
      : recent.length > 0
        ? Math.max(...recent.map((w) => w.hours))
        : null;
  return {
    anchorageWaitH: waitMedian === null ? null : round1(waitMedian),
    anchorageN: lengths.length,
    dwellD: dwellMedian === null ? null : Math.round(dwellMedian * 100) / 100,
    dwellN: dwells.length,
    etaSlipH: slipMedian === null ? null : round1(slipMedian),
    etaSlipN: slips.length,
    scheduleDeviationH: deviationMedian === null ? null : round1(deviationMedian),
    scheduleDeviationN: deviations.length,
    bunching: mean > 0 ? Math.round((variance / mean) * 1000) / 1000 : null,
    arrivals: arrivals7d,
    vesselsWaiting: ongoing.length,
    longestWaitH: longest === null ? null : round1(longest),
    newestInputAt: newest === null ? null : new Date(newest),
  };
}

/** Arrivals in the 7 days before `end`. */
function arrivals7dIn(arrivals: readonly Date[], end: number): number {
  let count = 0;
  for (const arrival of arrivals) {
    const at = arrival.getTime();
    if (at < end && at >= end - 7 * DAY_MS) count++;
  }
  return count;
}

/**
 * What one tracked shipment's latest document says about its port of discharge: the boxes' dwell
 * (discharge to gate-out there) and the arrival against the first ETA seen. Null without a POD code.
 */
export function shipmentObservations(
  document: TrackingDocument,
): { locode: string; dwellDays: ShipmentObservation[]; etaSlipHours: ShipmentObservation[] } | null {
  const podKey = document.route.pod.locationKey;
  const pod = document.locations.find((location) => location.key === podKey);
  if (!podKey || !pod?.unLocode) return null;
  const dwellDays: ShipmentObservation[] = [];
  for (const container of document.containers) {
    const at = (code: string) =>
      container.events.find((e) => e.eventCode === code && e.actual && e.locationKey === podKey && e.instant)
        ?.instant;
    const discharged = at("DISC");
    const gatedOut = at("GTOT");
    if (!discharged || !gatedOut) continue;
    const days = (Date.parse(gatedOut) - Date.parse(discharged)) / DAY_MS;
    if (days >= 0) dwellDays.push({ at: Date.parse(gatedOut), value: days });
  }
  const etaSlipHours: ShipmentObservation[] = [];
  const first = document.etaHistory.find((revision) => !revision.actual);
  if (document.ata && first) {
    etaSlipHours.push({
      at: Date.parse(document.ata),
      value: (Date.parse(document.ata) - Date.parse(first.eta)) / HOUR_MS,
    });
  }
  return { locode: pod.unLocode, dwellDays, etaSlipHours };
}

/** A vessel's actual arrival at a port, as a tracked shipment's carrier reported it. */
export interface VesselArrival {
  locode: string;
  scac: string;
  vesselImo: string;
  voyage: string;
  /** The actual arrival (ms). */
  at: number;
}

/**
 * Every actual vessel arrival (ARRI, VESSEL) at a port in a tracked shipment's latest document, the
 * port of discharge and the transshipment ports alike, once per vessel, voyage and port (the boxes of
 * one shipment all repeat their ship's arrival). Arrivals without an IMO number or a voyage cannot be
 * matched with a schedule and are left out.
 */
export function vesselArrivals(document: TrackingDocument): VesselArrival[] {
  const arrivals = new Map<string, VesselArrival>();
  for (const container of document.containers) {
    for (const event of container.events) {
      if (event.eventCode !== "ARRI" || !event.actual || event.modeOfTransport !== "VESSEL") continue;
      if (!event.instant || !event.voyage || !event.vesselKey) continue;
      const vessel = document.vessels.find((v) => v.key === event.vesselKey);
      const location = document.locations.find((l) => l.key === event.locationKey);
      if (vessel?.imo == null || !location?.unLocode) continue;
      const arrival: VesselArrival = {
        locode: location.unLocode,
        scac: document.carrierScac,
        vesselImo: String(vessel.imo),
        voyage: event.voyage,
        at: Date.parse(event.instant),
      };
      arrivals.set(`${arrival.vesselImo}|${arrival.voyage}|${arrival.locode}`, arrival);
    }
  }
  return [...arrivals.values()];
}

/** How late a ship may arrive against its proforma and still be matched with it. */
export const PROFORMA_LOOKBACK_DAYS = 15;

/**
 * The UTC dates whose port schedules may hold an arrival's proforma: from 15 days before the arrival
 * (a ship can be that late) to the day after it (or a little early). Local dates at the port differ from
 * UTC ones by at most a day, which the day on either side covers.
 */
export function proformaDates(arrivalMs: number): string[] {
  const dates: string[] = [];
  for (let d = -PROFORMA_LOOKBACK_DAYS; d <= 1; d++) {
    dates.push(new Date(arrivalMs + d * DAY_MS).toISOString().slice(0, 10));
  }
  return dates;
}

/**
 * Hours from the proforma arrival to the actual one (positive = late), against the scheduled call of
 * the same vessel and voyage nearest to the arrival; null when the schedules hold no such call.
 */
export function scheduleDeviationHours(
  arrival: Pick<VesselArrival, "vesselImo" | "voyage" | "at">,
  calls: readonly { vesselImo: string | null; voyages: readonly string[]; plannedArrival: string | null }[],
): number | null {
  let best: number | null = null;
  for (const call of calls) {
    if (call.vesselImo !== arrival.vesselImo || !call.voyages.includes(arrival.voyage)) continue;
    if (!call.plannedArrival) continue;
    const deviation = arrival.at - Date.parse(call.plannedArrival);
    if (best === null || Math.abs(deviation) < Math.abs(best)) best = deviation;
  }
  return best === null ? null : best / HOUR_MS;
}
