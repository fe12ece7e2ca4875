import type { ContainerDnd } from "./dnd-assessment";
import { STALE_FACTS_MS } from "./dnd-clock";

/**
 * A shipment's D&D schedule as kept on its row (`shipments.dnd_schedule`, issue 37 item 2): every
 * box's clocks exactly as the read would assess them, the inputs they were assessed from, and until
 * when they hold. Between two of the port's midnights a clock only moves when an input moves (a
 * version, the carrier's confirmation, terminal facts, contract terms, the predicted arrival, the
 * port's dwell) or when the carrier facts grow stale or a terminal fact grows older than 24 hours;
 * `validUntil` is the earliest of those instants, and the inputs a read loads anyway are compared
 * with the ones kept, so a kept schedule is served only where assessing again would give the same.
 */
export interface KeptDnd {
  containers: ContainerDnd[];
  /** `keptDndInputs` of what it was assessed from. */
  inputs: string;
  /**
   * ISO instant it was assessed at: served from then on only (a process whose clock is behind the
   * writer's assesses on the spot instead).
   */
  assessedAt: string;
  /** ISO instant: the first at which an assessment could differ (the port's next midnight, or sooner). */
  validUntil: string;
}

/**
 * What an assessment reads besides the clock and the terminal's last free days (those are covered by
 * `validUntil` and by recomputation when terminal facts change), as one comparable text.
 */
export function keptDndInputs(input: {
  /** The newest version of the document (its row id). */
  versionId: string;
  /** The carrier's newest confirmation (`last_synced_at`). */
  factsConfirmedAt: Date | null;
  /** The predicted arrival the assessment projected discharge from (ISO), null when none. */
  predictedArrival: string | null;
  /** The dwell used at the port of discharge; null when the port's own is not measured. */
  dwellDays: number | null;
  /** The organisation's contract terms (their ids, in the order read); published ones never change. */
  contractTermIds: readonly string[];
}): string {
  return JSON.stringify([
    input.versionId,
    input.factsConfirmedAt?.toISOString() ?? null,
    input.predictedArrival,
    input.dwellDays,
    input.contractTermIds,
  ]);
}

/**
 * Until when an assessment made at `now` holds: the port's next midnight (today at the port decides
 * days remaining, overrun and costs), the instant the carrier facts become stale (an open clock turns
 * `unknown` then), and the instant a terminal fact it used grows too old (the terminal's last free day
 * stops counting).
 */
export function keptDndValidUntil(input: {
  now: Date;
  portMidnight: Date;
  /** The later of the version's fetch and the carrier's last confirmation (ISO or Date). */
  factsConfirmedAt: Date;
  terminalFactsChangeAt: Date | null;
}): Date {
  const now = input.now.getTime();
  let until = input.portMidnight.getTime();
  // runClock: stale once now - confirmed > STALE_FACTS_MS, so the first stale millisecond is this one.
  const stale = input.factsConfirmedAt.getTime() + STALE_FACTS_MS + 1;
  if (stale > now && stale < until) until = stale;
  const terminal = input.terminalFactsChangeAt?.getTime();
  if (terminal !== undefined && terminal > now && terminal < until) until = terminal;
  return new Date(until);
}

/** The kept schedule of a row, when it is one (anything else: assess). */
export function keptDndOf(value: unknown): KeptDnd | null {
  if (value === null || typeof value !== "object") return null;
  const kept = value as Partial<KeptDnd>;
  return Array.isArray(kept.containers) &&
    typeof kept.inputs === "string" &&
    typeof kept.assessedAt === "string" &&
    typeof kept.validUntil === "string"
    ? (kept as KeptDnd)
    : null;
}
