import { CALIBRATION, type CalibrationCell, type CalibrationTable } from "./calibration-table";
import { hashSeed, seededStream } from "./seeded-random";

/**
 * Predictive ETA at the final port of discharge, as pure functions (docs/decisions/eta.md).
 *
 * A seeded Monte Carlo of what is left of the voyage (remaining sea-route distance over the vessel's
 * speed, a stay at every call still ahead, the wait the port of discharge's congestion reading implies)
 * is blended with the carrier's ETA corrected by that carrier's measured bias. The blend weight falls
 * with the age of the vessel's position: an old fix says little about where the ship is now, and
 * extrapolating it is the classic AIS-gap error. The blended median is then recalibrated by split
 * conformal residual quantiles per horizon bucket and source, measured offline on simulated voyages
 * (calibration-table.ts), so p50 and p80 mean what they say.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const SAMPLES = 1_000;
/** Lane prior when the vessel's own speed is not known (fleet average 14-15 kn, world.md). */
export const PRIOR_KNOTS = 15;
export const PRIOR_SIGMA = 0.08;
/** Underway fixes (SOG above this) count toward the vessel's own speed. */
export const UNDERWAY_KNOTS = 5;
export const MIN_SPEED_FIXES = 6;
/** Sea routes are longer than the network's shortest path (weather routing, pilotage). */
export const ROUTE_INEFFICIENCY = 1.03;
/** Median stay at an intermediate call, berth and usual anchorage wait (16-40 h in the world's figures). */
export const INTERMEDIATE_STAY_HOURS = 28;
/** The position's weight halves in about eight hours (w = exp(-age / 12 h)). */
export const POSITION_DECAY_HOURS = 12;
/** Without measured history, a late carrier ETA slips ~45% x 5 days at p80 (GLP figures, anchors 2.2). */
export const DEFAULT_CARRIER_SLIP80_HOURS = 0.45 * 5 * 24;
const MIN_SPREAD_MS = 2 * HOUR_MS;

export const HORIZON_BUCKETS = ["le1d", "1to3d", "3to7d", "7to14d", "gt14d"] as const;
export type HorizonBucket = (typeof HORIZON_BUCKETS)[number];
export type EtaSource = "model" | "blend" | "carrier";
export type EtaConfidence = "high" | "medium" | "low";
export type DataTier = "A" | "B" | "C";

export function horizonBucketOf(horizonMs: number): HorizonBucket {
  const days = horizonMs / DAY_MS;
  if (days <= 1) return "le1d";
  if (days <= 3) return "1to3d";
  if (days <= 7) return "3to7d";
  if (days <= 14) return "7to14d";
  return "gt14d";
}

/** What a port's congestion reading says about waiting there (null: no reading). */
export interface PortWaitReading {
  /** Median wait of the calls that anchored, hours. */
  medianWaitHours: number;
  /** Share of calls that anchor before berthing (0 to 1). */
  anchoredShare: number;
  tier: DataTier;
  /**
   * The reading is above the port's normal (bucket high or critical). Only then does its wait count:
   * a normal queue is already in the berth stays and the carriers' schedules, and the arrival event
   * (ARRI) is usually logged at the port limits, before the anchorage; a closed or slowed port holds
   * ships before their arrival is logged.
   */
  congested: boolean;
}

/** A call still ahead before the port of discharge. */
export interface CallAhead {
  /** The box changes vessel here: the connection, not a berth stay, sets the time. */
  transshipment: boolean;
  wait: PortWaitReading | null;
}

export interface VesselProgress {
  /** When the newest position was fixed. */
  fixedAt: number;
  /** Speed over ground of the fixes of the last 48 hours, knots. */
  recentSogKnots: readonly number[];
  /** Sea-route nautical miles from the position to the port of discharge, through the calls ahead. */
  remainingNm: number;
  callsAhead: readonly CallAhead[];
}

/** The carrier's measured optimism at one horizon: ATA minus its ETA, hours. */
export interface CarrierBias {
  medianHours: number;
  q80Hours: number;
  /** Arrivals it was measured on. */
  arrivals: number;
}

export interface EtaInput {
  /** The prediction's identity (shipment uid): with the hour, the seed of its samples. */
  seedKey: string;
  now: number;
  /** The carrier's current ETA at the port of discharge; null when it gave none. */
  carrierEta: number | null;
  /** Measured bias of this carrier by horizon bucket; missing buckets count as unmeasured. */
  carrierBias: Partial<Record<HorizonBucket, CarrierBias>>;
  /** Null when the box is not aboard a sailing vessel with a known position and route. */
  vessel: VesselProgress | null;
  pod: PortWaitReading | null;
}

export interface EtaPrediction {
  p50: number;
  p80: number;
  source: EtaSource;
  confidence: EtaConfidence;
  /** Hours from `computedAt` to the uncalibrated median: the bucket the prediction is scored in. */
  horizonHours: number;
  horizonBucket: HorizonBucket;
  computedAt: number;
}

/** The uncalibrated prediction: what the split-conformal step shifts. */
export interface RawEta {
  p50: number;
  p80: number;
  source: EtaSource;
  weight: number;
  positionAgeHours: number | null;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The q-quantile of sorted values (nearest rank, the conformal convention). */
export function quantileOf(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** The vessel's speed distribution: its own median SOG when it has enough underway fixes, else the prior. */
export function speedModel(recentSogKnots: readonly number[]): { medianKnots: number; sigma: number } {
  const underway = recentSogKnots.filter((v) => v > UNDERWAY_KNOTS);
  if (underway.length < MIN_SPEED_FIXES) return { medianKnots: PRIOR_KNOTS, sigma: PRIOR_SIGMA };
  const m = median(underway);
  const spread = median(underway.map((v) => Math.abs(v - m))) * 1.4826;
  return { medianKnots: m, sigma: Math.max(0.05, spread / m) };
}

function drawWait(reading: PortWaitReading | null, rng: ReturnType<typeof seededStream>): number {
  if (!reading?.congested || rng.next() >= reading.anchoredShare) return 0;
  return reading.medianWaitHours * Math.exp(0.55 * rng.normal()) * HOUR_MS;
}

/** p50 and p80 of the Monte Carlo arrival samples (model-only, before any blend). */
export function simulateArrival(
  vessel: VesselProgress,
  pod: PortWaitReading | null,
  now: number,
  seedKey: string,
): { p50: number; p80: number } {
  const rng = seededStream(hashSeed(`${seedKey}|${Math.floor(now / HOUR_MS)}`));
  const { medianKnots, sigma } = speedModel(vessel.recentSogKnots);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const knots = medianKnots * Math.exp(sigma * rng.normal());
    let ms = ((vessel.remainingNm * ROUTE_INEFFICIENCY) / knots) * HOUR_MS;
    for (const call of vessel.callsAhead) {
      // A call's stay (berth and the usual anchorage), a transshipment a connection of 3-10 days.
      ms += call.transshipment
        ? (3 + 7 * rng.next()) * DAY_MS
        : INTERMEDIATE_STAY_HOURS * HOUR_MS * Math.exp(0.25 * rng.normal()) + drawWait(call.wait, rng);
    }
    ms += drawWait(pod, rng);
    // Sailed from where the ship was at its fix: an old fix is never extrapolated past now.
    samples.push(Math.max(now, vessel.fixedAt + ms));
  }
  samples.sort((a, b) => a - b);
  return { p50: quantileOf(samples, 0.5), p80: quantileOf(samples, 0.8) };
}

/** Freshness weight of the position: 0 without one, falling with its age. */
export function positionWeight(vessel: VesselProgress | null, now: number): number {
  if (!vessel) return 0;
  const ageHours = Math.max(0, now - vessel.fixedAt) / HOUR_MS;
  return Math.exp(-ageHours / POSITION_DECAY_HOURS);
}

/**
 * How far the model should move the carrier's corrected ETA: 0 while the ship's progress says it is at
 * most the model's own noise later than the carrier says, rising to 1 when it is twice that later.
 * FleetMon's rule: a vessel behind the carrier's ETA has slowed, so trust the progress; one ahead of it
 * more often meets a schedule it waits for (a berth window, a connection), which the carrier knows.
 * Measured on the simulated voyages, the symmetric rule raised the error of p50 in the 3-7 day bucket.
 */
export function disagreementWeight(model: { p50: number; p80: number }, corrected: number): number {
  const noise = Math.max(24 * HOUR_MS, 2 * (model.p80 - model.p50));
  const gap = model.p50 - corrected;
  return Math.min(1, Math.max(0, (gap - noise) / noise));
}

export function sourceOf(weight: number): EtaSource {
  if (weight >= 0.8) return "model";
  if (weight >= 0.2) return "blend";
  return "carrier";
}

/** The uncalibrated blend; null when neither a position nor a carrier ETA gives anything to predict from. */
export function rawEta(input: EtaInput, table: CalibrationTable = CALIBRATION): RawEta | null {
  const { now, vessel, carrierEta } = input;
  const model = vessel ? simulateArrival(vessel, input.pod, now, input.seedKey) : null;
  if (carrierEta === null && !model) return null;
  const positionAgeHours = vessel ? Math.max(0, now - vessel.fixedAt) / HOUR_MS : null;
  const carrierBucket = carrierEta === null ? "le1d" : horizonBucketOf(Math.max(0, carrierEta - now));
  const bias = input.carrierBias[carrierBucket];
  const corrected = carrierEta === null ? 0 : carrierEta + (bias?.medianHours ?? 0) * HOUR_MS;
  const slip80 = (bias ? bias.q80Hours - bias.medianHours : DEFAULT_CARRIER_SLIP80_HOURS) * HOUR_MS;
  // A connection ahead is the carrier's schedule, which it knows and the model can only guess (3-10
  // days): the model then leaves the carrier's ETA alone.
  const connectionAhead = vessel?.callsAhead.some((call) => call.transshipment) ?? false;
  const weight =
    carrierEta === null
      ? 1
      : model && !connectionAhead
        ? positionWeight(vessel, now) *
          disagreementWeight(model, corrected) *
          (table.modelWeight[carrierBucket] ?? 1)
        : 0;
  const m50 = model?.p50 ?? 0;
  const m80 = model?.p80 ?? 0;
  const p50 = Math.max(now, weight * m50 + (1 - weight) * corrected);
  const spread = Math.max(weight * (m80 - m50) + (1 - weight) * slip80, MIN_SPREAD_MS);
  return { p50, p80: p50 + spread, source: sourceOf(weight), weight, positionAgeHours };
}

/** The conformal cell a raw prediction is recalibrated with. */
export function calibrationCell(
  source: EtaSource,
  bucket: HorizonBucket,
  table: CalibrationTable = CALIBRATION,
): CalibrationCell | undefined {
  return table.cells.find((c) => c.source === source && c.bucket === bucket);
}

/** Split-conformal step: p50 and p80 are the raw median plus the residual quantiles of its cell. */
export function recalibrate(
  raw: RawEta,
  now: number,
  cell: CalibrationCell | undefined,
): { p50: number; p80: number; calibrated: boolean } {
  if (!cell || cell.n < 30) return { p50: raw.p50, p80: raw.p80, calibrated: false };
  const p50 = Math.max(now, raw.p50 + cell.residualQ50Hours * HOUR_MS);
  const p80 = Math.max(p50, raw.p50 + cell.residualQ80Hours * HOUR_MS);
  return { p50, p80, calibrated: true };
}

export function confidenceOf(args: {
  source: EtaSource;
  positionAgeHours: number | null;
  podTier: DataTier | null;
  horizonMs: number;
  spreadMs: number;
  calibrated: boolean;
  calibrationWithinTarget: boolean;
  carrierArrivalsMeasured: number;
}): EtaConfidence {
  const h = Math.max(0, args.horizonMs);
  if (
    args.source === "model" &&
    args.positionAgeHours !== null &&
    args.positionAgeHours <= 6 &&
    (args.podTier === "A" || args.podTier === "B") &&
    args.spreadMs <= Math.max(6 * HOUR_MS, 0.1 * h) &&
    args.calibrated &&
    args.calibrationWithinTarget
  ) {
    return "high";
  }
  if (
    args.spreadMs <= Math.max(24 * HOUR_MS, 0.2 * h) &&
    (args.source !== "carrier" || args.carrierArrivalsMeasured >= 30)
  ) {
    return "medium";
  }
  return "low";
}

/** The published prediction: raw blend, conformal recalibration, confidence. Null when nothing to go on. */
export function predictEta(input: EtaInput, table: CalibrationTable = CALIBRATION): EtaPrediction | null {
  const raw = rawEta(input, table);
  if (!raw) return null;
  const horizonMs = raw.p50 - input.now;
  const bucket = horizonBucketOf(horizonMs);
  const cell = calibrationCell(raw.source, bucket, table);
  const { p50, p80, calibrated } = recalibrate(raw, input.now, cell);
  const carrierBucket =
    input.carrierEta === null ? undefined : input.carrierBias[horizonBucketOf(input.carrierEta - input.now)];
  const confidence = confidenceOf({
    source: raw.source,
    positionAgeHours: raw.positionAgeHours,
    podTier: input.pod?.tier ?? null,
    horizonMs: p50 - input.now,
    spreadMs: p80 - p50,
    calibrated,
    calibrationWithinTarget: cell?.withinTarget ?? false,
    carrierArrivalsMeasured: carrierBucket?.arrivals ?? 0,
  });
  return {
    p50,
    p80,
    source: raw.source,
    confidence,
    horizonHours: Math.round((horizonMs / HOUR_MS) * 10) / 10,
    horizonBucket: bucket,
    computedAt: input.now,
  };
}
