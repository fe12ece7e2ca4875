/**
 * Reported stoppages (issue 36): a port the news reports closed or struck is congested from that
 * report, not from when its queue has grown long enough to move a daily median. The disruption
 * pipeline (src/domain/disruptions) already matches news to ports; this reads its published events.
 *
 * Why a floor on the score and not a sixth component: a closure is first visible in the AIS area as a
 * queue that fills by well under a ship an hour (the world's typhoon at Shanghai: 1 ship waiting at the
 * closure, 7 eighteen hours later), so no signal of the five tells its first hours from noise, while
 * the first report of it comes within hours. The floor lasts while the event is active; once a report
 * of its end resolves it (or the pipeline's silence rule does), the floor goes, and for 48 hours the
 * queue the closure left is judged by whether it clears, not by its length (`backlogClearing`): a
 * reopened port working off its backlog is not congested of its own, and one whose queue grows again is.
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
  /** The event's headline as published (disruptions.headline), named on the reading it raises. */
  headline: string;
  category: string;
  severity: number;
  status: string;
  ports: readonly string[];
  /** The event's signal families and how many reports carried each (its `state.signalCounts`). */
  signalCounts: Readonly<Record<string, number>>;
  /** When the event's first report was read (disruptions.first_seen). */
  firstSeen: Date;
  lastUpdated: Date;
  resolvedAt: Date | null;
}

/** The stoppage a port is under now: the event and its floor. */
export interface ReportedStoppage {
  disruptionId: string;
  headline: string;
  category: string;
  severity: number;
  floor: number;
}

/**
 * A disruption that raised a reading, as the reading names it (`raisedBy` on the wire): what a reader
 * needs to see why the score is above what the port's queue says, and to look the event up.
 */
export interface StoppageRaise {
  id: string;
  headline: string;
  category: string;
  severity: number;
}

/**
 * How long after the reported end of a stoppage its port's queue is read as the backlog it left while
 * that backlog clears: the world berths a closed port's queue over the 48 hours after it reopens
 * (simulator/world/anchorage.ts), as ports do after a typhoon or a strike.
 */
export const CLEARING_WINDOW_MS = 48 * 3_600_000;
/**
 * How long after a reported end the arrival bunching still holds the backlog's berthing: its window
 * (14 days of daily arrivals), during which the surge of the held ships berthing reads as bunching.
 */
export const BUNCHING_AFTER_END_MS = 14 * 24 * 3_600_000;
/** A queue grows anew past its size at the end by this many ships and this share of it (as a moved anchorage). */
const GROWTH_SHIPS = 3;
const GROWTH_SHARE = 0.25;

/**
 * The latest reported end of a stoppage at the port within CLEARING_WINDOW_MS before `now` (its
 * resolution: a report of the end, or the pipeline's silence rule), while no stoppage is active there;
 * null otherwise.
 */
export function reportedEndAt(
  locode: string,
  events: readonly ReportedDisruption[],
  now: number,
  withinMs: number = CLEARING_WINDOW_MS,
): number | null {
  if (stoppagesAt(locode, events).length > 0) return null;
  let latest: number | null = null;
  for (const event of events) {
    if (event.status !== "resolved" || !event.resolvedAt || !event.ports.includes(locode)) continue;
    if (!isStoppage(event) || STOPPAGE_FLOOR[event.severity] === undefined) continue;
    const end = event.resolvedAt.getTime();
    if (end > now || end < now - withinMs) continue;
    if (latest === null || end > latest) latest = end;
  }
  return latest;
}

/**
 * Whether the queue a stoppage left is clearing: it has not grown past its size when the end was
 * reported by GROWTH_SHIPS ships and GROWTH_SHARE of it (the same measure as a moved anchorage: a few
 * ships joining a queue of fifty while it is worked off are no new congestion). Then the queue's length
 * is the backlog being worked off; once it has grown past that, the port is congested anew and its
 * queue is read as usual.
 */
export function backlogClearing(waitingAtEnd: number, waitingNow: number): boolean {
  const growth = waitingNow - waitingAtEnd;
  return growth < GROWTH_SHIPS || growth < GROWTH_SHARE * Math.max(waitingAtEnd, waitingNow);
}

/**
 * A berthing the port's AIS showed: a wait at anchor that ended with its vessel seen alongside (the
 * sampler's `berthSeen`; a wait ended because its vessel was lost from view is no berthing).
 */
export interface Berthing {
  anchoredAt: number;
  berthedAt: number;
}

/**
 * Whether an event reports a closure: a closure or halt among its reports and no strike. A closed port
 * berths nobody, so its berthing resuming is its reopening; a strike works its berths at a fraction of
 * their capacity (the world's at a third), so ships still berth during it and berthing tells nothing of
 * its end: a strike's end is the news's alone.
 */
export function isClosure(event: ReportedDisruption): boolean {
  return isStoppage(event) && (event.signalCounts.closure ?? 0) > 0 && (event.signalCounts.strike ?? 0) === 0;
}

/**
 * When the port's own AIS showed a reported closure over (issue 36): the first berthing, after the
 * closure was first reported and before the news reported its end, of a ship that anchored after that
 * first report. Null when there is none, or the event is no closure naming the port.
 *
 * Why that ship: during a closure nobody who joined the queue after it began berths (the world holds
 * them to the reopening, as terminals that suspend berthing do), while ships that anchored before it
 * may still be worked in its first hours (the world's typhoons: one or two of them up to 19 hours in);
 * so one ship of the closure's queue moving alongside is the port berthing again. The news of the
 * reopening comes hours later (the world's: 3 hours after the end) and is read between readings, so
 * waiting for it kept a reopened port on the board up to a sampling interval past its end.
 */
export function berthingResumedAt(
  locode: string,
  event: ReportedDisruption,
  berthings: readonly Berthing[],
  now: number,
): number | null {
  if (!event.ports.includes(locode) || !isClosure(event)) return null;
  const reported = event.firstSeen.getTime();
  const until = Math.min(now, event.resolvedAt?.getTime() ?? now);
  let first: number | null = null;
  for (const b of berthings) {
    if (b.anchoredAt < reported || b.berthedAt < reported || b.berthedAt > until) continue;
    if (first === null || b.berthedAt < first) first = b.berthedAt;
  }
  return first;
}

/**
 * The events as the port's reading sees them once its AIS has shown a closure over: a closure naming
 * the port whose berthing resumed (`berthingResumedAt`) reads as resolved at that berthing, so its floor
 * lifts and its backlog is judged by whether it clears from then (`reportedEndAt`, `backlogClearing`),
 * as after a reported end; a news end reported later does not move that instant. Other events, and
 * every event as other ports read it, are unchanged: one port reopening says nothing of another the
 * same closure named.
 */
export function withReopenings(
  locode: string,
  events: readonly ReportedDisruption[],
  berthings: readonly Berthing[],
  now: number,
): ReportedDisruption[] {
  return events.map((event) => {
    const resumed = berthingResumedAt(locode, event, berthings, now);
    if (resumed === null) return event;
    return { ...event, status: "resolved", resolvedAt: new Date(resumed) };
  });
}

/** Whether an event is a stoppage report of a port at all (its status aside). */
export function isStoppage(event: ReportedDisruption): boolean {
  return (
    STOPPAGE_CATEGORIES.includes(event.category) &&
    event.ports.length > 0 &&
    STOPPAGE_SIGNALS.some((signal) => (event.signalCounts[signal] ?? 0) > 0)
  );
}

/** Every active stoppage naming the port that sets a floor, highest floor first. */
export function stoppagesAt(locode: string, events: readonly ReportedDisruption[]): ReportedStoppage[] {
  const found: ReportedStoppage[] = [];
  for (const event of events) {
    if (event.status !== "active" || !event.ports.includes(locode) || !isStoppage(event)) continue;
    const floor = STOPPAGE_FLOOR[event.severity];
    if (floor === undefined) continue;
    found.push({
      disruptionId: event.id,
      headline: event.headline,
      category: event.category,
      severity: event.severity,
      floor,
    });
  }
  // Stable among equal floors: the events' own order (the query's), so a reading names them alike.
  return found.sort((a, b) => b.floor - a.floor);
}

/** The active stoppage of the highest floor naming the port; null when none. */
export function stoppageAt(locode: string, events: readonly ReportedDisruption[]): ReportedStoppage | null {
  return stoppagesAt(locode, events)[0] ?? null;
}

/**
 * The stoppages that raised a score: those whose floor is the score when the queue's own score was
 * below it. None when the queue alone reads as high (the news then explains nothing the queue does not
 * show) or when no floor applied; several when two events at the port set the same floor.
 */
export function stoppagesRaising(
  stoppages: readonly ReportedStoppage[],
  queueScore: number,
  score: number,
): StoppageRaise[] {
  if (score <= queueScore) return [];
  return stoppages
    .filter((s) => s.floor === score)
    .map((s) => ({ id: s.disruptionId, headline: s.headline, category: s.category, severity: s.severity }));
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
