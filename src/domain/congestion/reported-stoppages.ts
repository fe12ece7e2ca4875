/**
 * Reported stoppages (issue 36): a port the news reports closed or struck is congested from that
 * report, not from when its queue has grown long enough to move a daily median. The disruption
 * pipeline (src/domain/disruptions) already matches news to ports; this reads its published events.
 *
 * Why a floor on the score and not a sixth component: a closure is first visible in the AIS area as a
 * queue that fills by well under a ship an hour (the world's typhoon at Shanghai: 1 ship waiting at the
 * closure, 7 eighteen hours later), so no signal of the five tells its first hours from noise, while
 * the first report of it comes within hours. The floor lasts while the event is active; once a report
 * of its end resolves it (or the pipeline's silence rule does), the score is the queue's own again, so
 * the backlog the closure left reads for as long as ships still wait in it.
 *
 * Pure functions; congestion.service.ts loads the events and bench/congestion/replay.ts feeds the
 * simulator's news through the same pipeline in memory.
 */

/** The disruption categories whose events can stop a port working its ships. */
export const STOPPAGE_CATEGORIES: readonly string[] = ["port_disruption", "weather", "labor"];
/**
 * What one of the event's reports must have said happened: a closure or halt, or a strike. A storm
 * forecast, a yard congestion or an outage that slows cargo release names the port too, and is no
 * stoppage of berthing (Colombo's and Singapore's terminal outages in the world's news read calm).
 */
export const STOPPAGE_SIGNALS: readonly string[] = ["closure", "strike"];

/**
 * The least score of a port under a reported stoppage, by the event's published severity (1 to 4):
 * 4 (a closure or halt at a major port, or corroborated by three publishers) reads `critical`, 3 `high`;
 * lower severities move nothing.
 */
export const STOPPAGE_FLOOR: Readonly<Record<number, number>> = { 4: 90, 3: 75 };

/** What this reads of a published disruption event (the `disruptions` row). */
export interface ReportedDisruption {
  id: string;
  category: string;
  severity: number;
  status: string;
  ports: readonly string[];
  /** The event's signal families and how many reports carried each (its `state.signalCounts`). */
  signalCounts: Readonly<Record<string, number>>;
  lastUpdated: Date;
  resolvedAt: Date | null;
}

/** The stoppage a port is under now: the event and its floor. */
export interface ReportedStoppage {
  disruptionId: string;
  severity: number;
  floor: number;
}

/** Whether an event is a stoppage report of a port at all (its status aside). */
export function isStoppage(event: ReportedDisruption): boolean {
  return (
    STOPPAGE_CATEGORIES.includes(event.category) &&
    event.ports.length > 0 &&
    STOPPAGE_SIGNALS.some((signal) => (event.signalCounts[signal] ?? 0) > 0)
  );
}

/** The active stoppage of the highest floor naming the port; null when none. */
export function stoppageAt(locode: string, events: readonly ReportedDisruption[]): ReportedStoppage | null {
  let best: ReportedStoppage | null = null;
  for (const event of events) {
    if (event.status !== "active" || !event.ports.includes(locode) || !isStoppage(event)) continue;
    const floor = STOPPAGE_FLOOR[event.severity];
    if (floor === undefined) continue;
    if (!best || floor > best.floor) best = { disruptionId: event.id, severity: event.severity, floor };
  }
  return best;
}

/** The event's signal counts from its stored clustering state; none when the state holds none. */
export function signalCountsOf(state: unknown): Record<string, number> {
  if (typeof state !== "object" || state === null) return {};
  const counts = (state as { signalCounts?: unknown }).signalCounts;
  if (typeof counts !== "object" || counts === null) return {};
  return Object.fromEntries(
    Object.entries(counts).filter((entry): entry is [string, number] => typeof entry[1] === "number"),
  );
}

/**
 * What a stoppage event says each time it changes (status and last report): a port named by an event
 * whose mark differs from the one seen before is scored at once, not at its interval.
 */
export function stoppageMark(event: ReportedDisruption): string {
  return `${event.status}|${event.severity}|${event.lastUpdated.getTime()}|${event.resolvedAt?.getTime() ?? ""}`;
}
