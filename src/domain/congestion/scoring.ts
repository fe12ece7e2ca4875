import type { ReportedStoppage } from "./reported-stoppages";
import type { DaySignals } from "./signals";
/**
 * The congestion score of one port on one day, from its components' raw values and their daily history:
 * pure arithmetic (docs/decisions/congestion.md, reference: wave2-anchors section 1.2).
 *
 * - Each component's raw value is compared with the 90 days before the last 7 (so an episode does not
 *   become its own normal) by a robust z-score: median and MAD, the MAD floored per component so a quiet
 *   port with a MAD of 0 does not read "critical" after one late ship, clipped to [-3, +5].
 * - The weighted mean of the present components' z (each counted at -2 at the least, so one signal
 *   better than usual cannot hide another that is worse) maps to 0-100 with a wide calm band: the
 *   port's own normal reads 40, a composite z of +2 (a signal two robust standard deviations above the
 *   port's normal) is where `moderate` starts, +3 `high`, +4 `critical` (calibrated on the world's
 *   calm ports and episodes: docs/congestion-quality.md).
 * - The score says how a port compares with its own normal, so a port whose ships always wait days
 *   (Colombo, Tanger Med) reads `normal` in a normal week; its wait in hours is shown beside the
 *   score. One guardrail stays: a wait that doubled from 1 h to 2 h does not read "high".
 * - The tier says how much data stands behind it; a tier-C score is shrunk toward the normal score.
 * - A closure or strike the news reports at the port sets a floor (reported-stoppages.ts): the report
 *   comes hours before the queue it makes can move any component.
 */

export const COMPONENTS = ["anchorage_wait", "dwell", "eta_slip", "schedule_deviation", "bunching"] as const;
export type ComponentName = (typeof COMPONENTS)[number];

export const COMPONENT_SPECS: Readonly<
  Record<ComponentName, { weight: number; madFloor: number; unit: string; windowDays: number }>
> = {
  anchorage_wait: { weight: 0.35, madFloor: 2, unit: "h", windowDays: 1 },
  dwell: { weight: 0.25, madFloor: 0.25, unit: "d", windowDays: 7 },
  eta_slip: { weight: 0.15, madFloor: 6, unit: "h", windowDays: 14 },
  schedule_deviation: { weight: 0.15, madFloor: 6, unit: "h", windowDays: 14 },
  bunching: { weight: 0.1, madFloor: 0.25, unit: "ratio", windowDays: 14 },
};

/** MAD to standard deviation for normally distributed data. */
const MAD_SCALE = 1.4826;
export const Z_MIN = -3;
export const Z_MAX = 5;
export const BASELINE_DAYS = 90;
/** The most recent days left out of the baseline. */
export const BASELINE_GAP_DAYS = 7;

export type Bucket = "fluid" | "normal" | "moderate" | "high" | "critical";
export type Tier = "A" | "B" | "C";

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median absolute deviation from the median. */
export function mad(values: readonly number[]): number | null {
  const m = median(values);
  if (m === null) return null;
  return median(values.map((value) => Math.abs(value - m)));
}

/** Robust z of a raw value against a baseline's median and MAD, the MAD floored, clipped to [-3, +5]. */
export function robustZ(raw: number, baselineMedian: number, baselineMad: number, madFloor: number): number {
  const z = (raw - baselineMedian) / (MAD_SCALE * Math.max(baselineMad, madFloor));
  return Math.min(Z_MAX, Math.max(Z_MIN, z));
}

export function bucketOf(score: number): Bucket {
  if (score >= 90) return "critical";
  if (score >= 75) return "high";
  if (score >= 60) return "moderate";
  if (score >= 30) return "normal";
  return "fluid";
}

export interface ComponentInput {
  name: ComponentName;
  /** Today's raw value over the component's window; null when nothing was observed in it. */
  raw: number | null;
  /** Observations behind today's raw value. */
  n: number;
  /** The component's daily raw values over the baseline period (days with no observation left out). */
  baseline: readonly number[];
}

export interface ComponentReading {
  name: ComponentName;
  raw: number;
  unit: string;
  baseline_median: number;
  baseline_mad: number;
  z: number;
  weight: number;
  n: number;
  window_days: number;
}

export interface ScoreInput {
  components: readonly ComponentInput[];
  /** Median anchorage wait (h) of the last 7 days, for the guardrails; null when nobody waited. */
  medianWaitHours: number | null;
  /** Median import dwell (days) of the last 7 days, for the cap; null when none. */
  dwellDays: number | null;
  /** Days of the 90-day baseline with at least one observation of any component. */
  baselineDaysWithData: number;
  /** Arrivals and anchorage observations in the last 7 days. */
  observations7d: number;
  /** Age of the newest input in hours. */
  newestInputAgeHours: number;
  /** A closure or strike the news reports at the port now (reported-stoppages.ts); none by default. */
  stoppage?: ReportedStoppage | null;
  /**
   * The queue at the port is the backlog of a stoppage whose end was reported, and it is clearing
   * (reported-stoppages.ts `backlogClearing`): the queue's components are left out of the composite.
   */
  clearingBacklog?: boolean;
  /**
   * A stoppage's end was reported within the bunching's window (reported-stoppages.ts
   * BUNCHING_AFTER_END_MS): the held ships' berthing is in its arrivals, so bunching is left out.
   */
  bunchingHoldsBacklog?: boolean;
}

/**
 * The components a closed port's queue drives (its waits, and the bunched berthing of the ships it
 * held): while that queue clears after the reported end, they say how big the backlog was, not whether
 * the port is congested now.
 */
export const QUEUE_COMPONENTS: readonly ComponentName[] = ["anchorage_wait", "bunching"];

export interface Score {
  score: number;
  /** The score before a reported stoppage's floor (the queue's own); equal to `score` without one. */
  queueScore: number;
  bucket: Bucket;
  tier: Tier;
  components: ComponentReading[];
}

/** Reads one component against its baseline; null when it has no raw value or no baseline. */
export function readComponent(input: ComponentInput): ComponentReading | null {
  const spec = COMPONENT_SPECS[input.name];
  const m = median(input.baseline);
  const s = mad(input.baseline);
  if (input.raw === null || m === null || s === null) return null;
  return {
    name: input.name,
    raw: input.raw,
    unit: spec.unit,
    baseline_median: m,
    baseline_mad: s,
    // Four decimals: the stored reading (jsonb) gives back exactly what was scored, and no reader
    // needs a z finer than that.
    z: Math.round(robustZ(input.raw, m, s, spec.madFloor) * 10_000) / 10_000,
    weight: spec.weight,
    n: input.n,
    window_days: spec.windowDays,
  };
}

/** The score of a port exactly at its own normal (composite z = 0). */
export const NORMAL_SCORE = 40;

/** The least a component counts in the composite: a quiet signal cannot cancel a congested one. */
export const COMPOSITE_Z_FLOOR = -2;

/**
 * Weighted mean of the present components' z, each counted at COMPOSITE_Z_FLOOR at the least, weights
 * renormalised over them; null when none.
 */
export function compositeZ(components: readonly ComponentReading[]): number | null {
  const weight = components.reduce((sum, c) => sum + c.weight, 0);
  if (weight === 0) return null;
  return components.reduce((sum, c) => sum + c.weight * Math.max(COMPOSITE_Z_FLOOR, c.z), 0) / weight;
}

/**
 * Composite z to 0-100: 40 + 10·Z up to Z = +2 (60, where `moderate` starts), then 15 points per unit
 * (Z = +3 is 75, `high`; Z = +4 is 90, `critical`). The calm band is wide on purpose: with five
 * noisy signals at 60 ports scored every few hours, a composite of +1.5 happens at calm ports every
 * day, and it must not read as congestion; an episode drives the anchorage wait to the clip at +5.
 */
export function rawScore(z: number): number {
  const score = z <= 2 ? NORMAL_SCORE + 10 * z : 60 + 15 * (z - 2);
  return Math.round(Math.min(100, Math.max(0, score)));
}

/**
 * A cap on short waits with short dwell. (Absolute floors on long waits were dropped: they kept
 * chronically queued ports above `normal` in every normal week, which says nothing a customer can act
 * on; the wait itself is on the reading.)
 */
export function applyGuardrails(
  score: number,
  medianWaitHours: number | null,
  dwellDays: number | null,
): number {
  let guarded = score;
  // A port where the wait doubled from 1 h to 2 h is not congested: nobody waits 6 h.
  if ((medianWaitHours ?? 0) < 6 && (dwellDays ?? 0) < 3) guarded = Math.min(guarded, 74);
  return guarded;
}

export function tierOf(input: ScoreInput, present: readonly ComponentReading[]): Tier {
  const names = new Set(present.map((c) => c.name));
  const core = names.has("anchorage_wait") || names.has("dwell");
  if (
    input.baselineDaysWithData >= 60 &&
    present.length >= 3 &&
    core &&
    input.observations7d >= 10 &&
    input.newestInputAgeHours <= 24
  ) {
    return "A";
  }
  if (
    input.baselineDaysWithData >= 30 &&
    present.length >= 2 &&
    core &&
    input.observations7d >= 3 &&
    input.newestInputAgeHours <= 72
  ) {
    return "B";
  }
  return "C";
}

/** Empirical-Bayes shrinkage of a tier-C score toward the port's normal (NORMAL_SCORE) by n/(n+5). */
export function shrink(score: number, observations7d: number): number {
  const n = Math.max(0, observations7d);
  return Math.round(NORMAL_SCORE + ((score - NORMAL_SCORE) * n) / (n + 5));
}

/** The day's score, or null when no component can be read (the port is not scored). */
export function scorePort(input: ScoreInput): Score | null {
  const components = input.components.map(readComponent).filter((c): c is ComponentReading => c !== null);
  if (components.length === 0) return null;
  // A clearing backlog reads as the port's normal (Z 0) unless another signal says otherwise; its
  // components stay on the wire as measured.
  const judged = components.filter(
    (c) =>
      !(input.clearingBacklog && QUEUE_COMPONENTS.includes(c.name)) &&
      !(input.bunchingHoldsBacklog && c.name === "bunching"),
  );
  const z = judged.length === 0 ? 0 : compositeZ(judged);
  if (z === null) return null;
  const tier = tierOf(input, components);
  let score = rawScore(z);
  if (tier === "C") score = shrink(score, input.observations7d);
  // Guardrails are absolute facts about waits, so they hold whatever the tier.
  score = applyGuardrails(score, input.medianWaitHours, input.dwellDays);
  // A reported closure or strike is a fact too, and it comes hours before the queue it makes is long
  // enough to move any component (the short-wait cap above would otherwise hold it at 74).
  const queueScore = score;
  if (input.stoppage) score = Math.max(score, input.stoppage.floor);
  return { score, queueScore, bucket: bucketOf(score), tier, components };
}

/**
 * Points the score moved in 7 days (positive: worse): against the reading 7 days before, else the
 * oldest reading within the last 7 days, else 0.
 */
export function trend7d(
  today: number,
  history: readonly { day: string; score: number }[],
  day: string,
): number {
  const weekAgo = shiftDay(day, -7);
  const exact = history.find((h) => h.day === weekAgo);
  if (exact) return today - exact.score;
  const within = history
    .filter((h) => h.day > weekAgo && h.day < day)
    .sort((a, b) => a.day.localeCompare(b.day));
  return within[0] ? today - within[0].score : 0;
}

/** `YYYY-MM-DD` plus `days`. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** What scoring reads of one port-day's stored signals (`port_congestion_signal`, `DaySignals`). */
export type ScoredDaySignals = Pick<
  DaySignals,
  | "anchorageWaitH"
  | "anchorageN"
  | "dwellD"
  | "dwellN"
  | "etaSlipH"
  | "etaSlipN"
  | "scheduleDeviationH"
  | "scheduleDeviationN"
  | "bunching"
  | "arrivals"
  | "newestInputAt"
>;

/**
 * A port-day's score from its signals and the baseline days before it: the five components, each
 * read against the same component's baseline. One function for the service's scoring and for day
 * one's sampling of the recent past, so a reading of the past is scored exactly as a live one.
 */
export function scoreDaySignals(
  today: ScoredDaySignals,
  baseline: readonly ScoredDaySignals[],
  nowMs: number,
  stoppage: ReportedStoppage | null = null,
  clearingBacklog = false,
  bunchingHoldsBacklog = false,
): Score | null {
  const values = (pick: (r: ScoredDaySignals) => number | null) =>
    baseline.map(pick).filter((v): v is number => v !== null);
  const components: ComponentInput[] = [
    {
      name: "anchorage_wait",
      raw: today.anchorageWaitH,
      n: today.anchorageN,
      baseline: values((r) => r.anchorageWaitH),
    },
    { name: "dwell", raw: today.dwellD, n: today.dwellN, baseline: values((r) => r.dwellD) },
    { name: "eta_slip", raw: today.etaSlipH, n: today.etaSlipN, baseline: values((r) => r.etaSlipH) },
    {
      name: "schedule_deviation",
      raw: today.scheduleDeviationH,
      n: today.scheduleDeviationN,
      baseline: values((r) => r.scheduleDeviationH),
    },
    { name: "bunching", raw: today.bunching, n: today.arrivals, baseline: values((r) => r.bunching) },
  ];
  const hasData = (r: ScoredDaySignals) =>
    [r.anchorageWaitH, r.dwellD, r.etaSlipH, r.scheduleDeviationH, r.bunching].some((v) => v !== null);
  return scorePort({
    components,
    medianWaitHours: today.anchorageWaitH,
    dwellDays: today.dwellD,
    baselineDaysWithData: baseline.filter(hasData).length,
    observations7d: Math.max(today.arrivals, today.anchorageN),
    newestInputAgeHours: today.newestInputAt ? (nowMs - today.newestInputAt.getTime()) / 3_600_000 : Infinity,
    stoppage,
    clearingBacklog,
    bunchingHoldsBacklog,
  });
}
