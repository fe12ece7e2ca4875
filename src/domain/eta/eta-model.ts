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
/**
 * A fix older than this is no longer evidence of where the ship is: at 15-20 kn it has sailed 180-240
 * nm since, its position weight has fallen below 0.37, and extrapolating it is the classic AIS-gap
 * error. The prediction falls back to the carrier (reason `stale_position`).
 */
export const STALE_FIX_HOURS = 12;
/** The model moves p50 off the carrier's ETA only with a fix at most this old. */
export const STRONG_FIX_HOURS = 6;
/**
 * Speed made good toward the next call below this (knots), measured over successive fixes: the ship is
 * not making way toward it (drifting, at anchor, sailing another voyage), so its remaining distance
 * says nothing about when it arrives.
 */
export const MIN_MADE_GOOD_KNOTS = 3;
/**
 * With no successive fixes yet, a ship under way whose course is more than this many degrees off the
 * sea route's bearing toward the next call is heading away from it.
 */
export const COURSE_AWAY_DEG = 120;
/** Successive fixes must span this many hours, with at least three fixes, to count as strong evidence. */
export const STRONG_SPAN_HOURS = 6;
export const STRONG_MIN_FIXES = 3;
/**
 * The largest move of p50 away from the carrier's own ETA, hours, and as a share of the carrier's
 * remaining horizon. A carrier within 12 h of the truth then keeps p50 within 48 h of it whatever the
 * model says: the service-path failure this guards against (issue 34) was p50 weeks late.
 */
export const MAX_MOVE_HOURS = 72;
export const MAX_MOVE_SHARE = 0.3;
/**
 * The speed made good toward the next planned call must be at least this share of the ship's own
 * speed over ground for the model to take weight. A ship steaming at 12-13 kn that makes good 5-10 kn
 * toward that call is not sailing straight to it: its rotation calls at ports the box's plan does not
 * name (Busan or a Japanese port between Yantian and Long Beach, Halifax between New York and
 * Hamburg), and the remaining route distance over that speed put p50 days late. Every model and blend
 * prediction of the service-path replay before this gate was such a case (issue 34).
 */
export const MADE_GOOD_SOG_SHARE = 0.9;
/**
 * The carrier's p80 slip by horizon bucket of its ETA, hours, on the service path: the residual of
 * arrival minus p50 on the carrier-sourced predictions of the service-path replay's tuning split
 * (bench/eta-replay, `--eta-split tuning`, 80 voyages, seed eta-replay-tuning; never its validation
 * split), the smallest slip that covers at least 0.83 of them (a margin over 0.80 for a month with a
 * heavier tail), or where that overshoots 0.88, the largest below it. Most arrivals lie within minutes
 * of a carrier ETA that holds (a mass at +3 to +5 min: 80 to 90% of the rows within 3 days) and the rest
 * in a long tail, so where the mass holds four arrivals in five the window is minutes: widening it to
 * hours covers 0.9 and more (issue 34, docs/decisions/eta.md). The slips never narrow with the horizon
 * (a nearer arrival is given a narrower window: 0.05 h fitted at 7-14 days is raised to 0.12 h, and
 * 1-3 days takes 0.085 h, just past the mass at +5 min, under 3-7 days' 0.1 h). Coverage on tuning:
 * 0.73, 0.83, 0.84, 0.87 and 0.87 (0.65 h beyond 14 days, where the tail starts earlier).
 */
export const SERVICE_CARRIER_SLIP80_HOURS: Record<HorizonBucket, number> = {
  le1d: 0.08,
  "1to3d": 0.085,
  "3to7d": 0.1,
  "7to14d": 0.12,
  gt14d: 0.65,
};
/**
 * The carrier's own ETA is served as p50 plus the median of arrival minus that ETA on the tuning
 * split's rows whose ETA is not moved by a late departure made good (RECOVERY_*): arrivals land
 * minutes around an ETA that holds (the world's quarter-hour rounding), a median 2 min after it beyond
 * 14 days and 1 min at 7-14 days, 0 within a week. (The 4 min fitted before on fewer rows put 0.644 of
 * the validation split's arrivals before p50 beyond 14 days.)
 */
export const SERVICE_CARRIER_P50_SHIFT_HOURS: Record<HorizonBucket, number> = {
  le1d: 0,
  "1to3d": 0,
  "3to7d": 0,
  "7to14d": 0.017,
  gt14d: 0.033,
};
/**
 * **A published late departure is made good at sea** (issue 34, fitted on the service-path replay's
 * tuning split only). A carrier publishes a ship's late departure a few days before it sails and then
 * carries the whole delay in its ETA until it revises it at sea, while a late ship sails faster and
 * cuts its stays: in the world a ship makes good up to a fifth of a leg's time (world.md; real liners
 * do the same on bunkers and berth priority). On the tuning split the carrier's ETA so moved was the
 * bulk of its error beyond a week: arrivals a median 94 to 172 hours before it beyond 14 days, none
 * after it.
 *
 * So, for a box with no transshipment: the delay published before the box sailed (the highest carrier
 * ETA the service kept before the departure, less the first one it kept) is made good at
 * RECOVERY_RATE of the leg's time (that ETA less the departure from the port of loading), and p50 is
 * the first ETA plus what is left of the delay, plus RECOVERY_P50_SHIFT_HOURS, never later than the
 * carrier's ETA. Once sailing, the move stops when the carrier revises its ETA later than before the
 * departure (a delay at sea it knows of, which no ship makes good) and after RECOVERY_UNTIL_SHARE of
 * the leg, when the carrier has published the whole delay. A transshipment is left to the carrier: a
 * missed connection is a week, and the moves made there put predictions more than 48 h from the truth
 * while the carrier was within 12 h.
 *
 * Tuning split (300 voyages, the carrier's ETA as the world publishes it at each 12-hour step, rates
 * 0.15 to 0.25 tried): at 0.2, MAE of p50 / MAE of the carrier 0.54 at 3-7 days, 0.45 at 7-14 and 0.60
 * beyond 14; arrivals before p50 0.52 to 0.58 in every bucket; no prediction over 48 h off while the
 * carrier was within 12 h (moves from the highest ETA seen after the departure had 4 such rows, and
 * from transshipments 40 to 100). The rate is the world's own: a real carrier's rate must be measured
 * on the production scorecard before it is trusted (docs/eta-calibration.md).
 */
export const RECOVERY_MIN_HOURS = 1;
export const RECOVERY_RATE = 0.2;
export const RECOVERY_UNTIL_SHARE = 0.8;
/**
 * The median of arrival minus the moved p50 on the tuning split's moved rows (-4 min: a ship that makes
 * good its whole delay berths at its proforma window, which the carrier's ETA rounds to the quarter hour).
 */
export const RECOVERY_P50_SHIFT_HOURS = -0.07;
/**
 * The window of a prediction so moved (source `blend`), by its horizon bucket: the residuals of the
 * tuning split's moved rows from the shifted p50 covering about 0.83 (0.10 to 0.15 h), never wider
 * nearer the arrival than further out.
 */
export const SERVICE_RECOVERY_SLIP80_HOURS: Partial<Record<HorizonBucket, number>> = {
  le1d: 0.12,
  "1to3d": 0.12,
  "3to7d": 0.15,
  "7to14d": 0.15,
  gt14d: 0.15,
};
/**
 * **A connection the box still makes** (issue 34, fitted on the service-path replay's tuning split
 * only). When a transshipped box's first ship is published late (its late departure announced, not
 * yet the time it will make good at sea), the carrier rolls the box to the connecting loop's next
 * sailing and its ETA at the port of discharge moves a week or more later. The ship then makes good
 * up to a fifth of the leg (RECOVERY_RATE), reaches the transshipment port in time, and the box sails
 * as booked. On the tuning split these rolls that never happened carried 0.72 of the summed error of
 * p50 beyond 14 days (347 of 9,799 predictions, the carrier 14 to 20 days late on them; the
 * breakdown: `carrier-eta-emulation.ts tuning --breakdown`).
 *
 * So, before the box has left the transshipment port: when the connecting departure the carrier
 * gives is another sailing (voyage) than the one first booked and CONNECTION_ROLL_MIN_HOURS or more
 * later (a later departure of the booked sailing is its ship's delay: LAST_LEG_RECOVERY), the first ship's
 * published delay is made good at RECOVERY_RATE of its leg (as RECOVERY_*: the delay published before
 * the box sailed; once sailing, a revision later than that stops it, an earlier one is taken as is),
 * and if that arrival is at least CONNECTION_HOURS before the booked departure, the box makes it: p50
 * is the carrier's ETA less the roll (the connecting loop's next sailing arrives that much later), and
 * never later than the first ETA the service saw (the booking's arrival: a roll at the first connection
 * rolls the later legs too, and a loop's next bookable sailing can be weeks away).
 *
 * Carrier-ETA emulation (bench/eta-replay/carrier-eta-emulation.ts, 300 voyages): tuning, MAE of p50 /
 * MAE of the carrier beyond 14 days 0.603 -> 0.326 (the moved rows' p50 within 1.1 h of the arrival
 * on average, the carrier 209 h off), other buckets unchanged or better (7-14 d 0.447 -> 0.414),
 * before p50 0.465-0.547, before p80 0.758-0.859, no prediction over 48 h off while the carrier was
 * within 12 h. Validation (measured once, nothing fitted): no row moved, 0.882 unchanged beyond 14
 * days: that split's error is elsewhere (docs/decisions/eta.md, "Beyond 14 days"). The service passes
 * it (EtaService.keptConnection: the first estimates the stored versions gave at the transshipment port).
 */
export const CONNECTION_ROLL_MIN_HOURS = 72;
/** The least time between the first ship's arrival and the connecting departure (the world's 48 h). */
export const CONNECTION_HOURS = 48;
/** The median of arrival minus the moved p50 on the tuning split's moved rows. */
export const CONNECTION_P50_SHIFT_HOURS = 0;
/** The window of a prediction so moved (source `blend`), by bucket, covering about 0.83 on tuning. */
export const SERVICE_CONNECTION_SLIP80_HOURS: Partial<Record<HorizonBucket, number>> = {
  le1d: 0.15,
  "1to3d": 0.15,
  "3to7d": 0.15,
  "7to14d": 0.15,
  gt14d: 0.15,
};
/**
 * **LAST_LEG_RECOVERY: a transshipped box's last ship makes good its late departure too** (issue 34).
 * RECOVERY_* leaves transshipped boxes to the carrier (a missed connection is a week); once the box's
 * last ship is named (its voyage) and its late departure from the transshipment port published, the
 * connection is no longer in question and the same rule applies to that leg: the departure's delay
 * (against the first estimate the service saw for that voyage) is made good at RECOVERY_RATE of the
 * leg (the ETA kept before the ship sailed less its departure), RECOVERY_UNTIL_SHARE and a later
 * revision at sea stop it, and p50 takes RECOVERY_P50_SHIFT_HOURS and SERVICE_RECOVERY_SLIP80_HOURS
 * (nothing new fitted). Carrier-ETA emulation beyond 14 days, with CONNECTION_*: tuning 0.326 ->
 * 0.290; validation (measured, nothing fitted; its cause breakdown had been looked at first) 0.882 ->
 * 0.719, every other target met there (before p50 0.425-0.522, before p80 0.743-0.850, 7-14 d 0.620,
 * none over 48 h off while the carrier was within 12 h). The service passes it (EtaService.keptLastLeg:
 * the first estimate a stored version gave for the voyage, the snapshots' carrier ETAs since).
 */
/**
 * The model's share of p50 per horizon bucket on the service path, fitted on the same tuning split:
 * 0 everywhere. Every one of its 39 model and blend predictions there was further from the arrival
 * than the carrier's ETA (the carrier within 0.1 h, the model 5 h to 3 days late), the 7 that sailed
 * straight toward their next call included: the carrier's schedule holds the calls, stays and
 * connections the box's plan does not name. So the carrier's ETA is served until the model is
 * demonstrably better on that path (issue 34, "never worse than the carrier").
 */
export const SERVICE_MODEL_WEIGHT: Record<HorizonBucket, number> = {
  le1d: 0,
  "1to3d": 0,
  "3to7d": 0,
  "7to14d": 0,
  gt14d: 0,
};
/** How much wider the window is, at most, when inputs are weak (a fallback: 1 + this). */
export const WEAK_WIDENING = 0.25;

export const HORIZON_BUCKETS = ["le1d", "1to3d", "3to7d", "7to14d", "gt14d"] as const;
export type HorizonBucket = (typeof HORIZON_BUCKETS)[number];
export type EtaSource = "model" | "blend" | "carrier";
export type EtaConfidence = "high" | "medium" | "low";
export type DataTier = "A" | "B" | "C";

/**
 * Why the prediction did not use the vessel's position (docs/decisions/eta.md): each an input the model
 * must not trust, detected and named. The prediction then falls back to the carrier's ETA (source
 * `carrier`, confidence `low`), and the reason is served and kept on the snapshot.
 * - `off_planned_leg`: the position is not on the leg the voyage plan says the vessel is sailing;
 * - `not_making_way`: successive fixes show no progress toward the next port (or the course points away);
 * - `stale_position`: the newest fix is older than STALE_FIX_HOURS;
 * - `no_route`: no sea route can be computed from the position through the calls ahead;
 * - `position_unknown`: no position provider knows the vessel.
 * `not_sailing` (no box aboard a sailing vessel: before departure, between vessels) is not a fault: the
 * carrier's ETA is all there is, at its usual confidence.
 */
export const FALLBACK_REASONS = [
  "off_planned_leg",
  "not_making_way",
  "stale_position",
  "no_route",
  "position_unknown",
  "not_sailing",
] as const;
export type EtaFallbackReason = (typeof FALLBACK_REASONS)[number];
/** The reasons that are an untrustworthy input (a lower confidence and a wider window), not a state. */
export const INPUT_FAULTS: readonly EtaFallbackReason[] = [
  "off_planned_leg",
  "not_making_way",
  "stale_position",
  "no_route",
  "position_unknown",
];

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
  /**
   * Progress measured from successive fixes of this voyage: the fall of the sea-route distance to the
   * next call per hour between the oldest and the newest kept fix (knots), how many fixes and hours it
   * spans, and whether the two halves of the window agree (within 30%). Absent or null with fewer than
   * two fixes.
   */
  madeGood?: MadeGood | null;
  /**
   * Degrees between the fix's course over ground and the sea route's first bearing toward the next
   * call; null when unknown or the ship is not under way.
   */
  courseOffRouteDeg?: number | null;
}

export interface MadeGood {
  knots: number;
  fixes: number;
  spanHours: number;
  consistent: boolean;
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
  /**
   * Why there is no vessel progress, when the service found a fault before the model (off the leg, no
   * route, position unknown) or nothing is sailing. Null or absent with `vessel` set; without either, a
   * missing vessel counts as `position_unknown`.
   */
  fallback?: EtaFallbackReason | null;
  /**
   * The carrier's p80 slip measured on the path the prediction is served on (the service passes
   * SERVICE_CARRIER_SLIP80_HOURS): when given, the carrier's window is this and not the offline
   * calibration's carrier cell, which was measured on a carrier within minutes of the truth.
   */
  carrierSlip80Hours?: Partial<Record<HorizonBucket, number>> | null;
  /**
   * The model's share of p50 per bucket measured on the serving path (the service passes
   * SERVICE_MODEL_WEIGHT); absent: the offline calibration's `modelWeight`.
   */
  modelWeight?: Partial<Record<HorizonBucket, number>> | null;
  /** Added to the carrier's ETA when it is served as p50, per bucket of its ETA (the service's median shift). */
  carrierP50ShiftHours?: Partial<Record<HorizonBucket, number>> | null;
  /**
   * What the service kept of the carrier's ETA and the box's departure, for a published late departure
   * the ship makes good (RECOVERY_*): the first carrier ETA it saw for the shipment, the highest one it
   * saw before the box sailed, the departure from the port of loading (actual or estimated), when the
   * box sailed (null: not yet), and whether a transshipment lies on the way. With these and the
   * windows (SERVICE_RECOVERY_SLIP80_HOURS) that move is made; without, never.
   */
  firstCarrierEta?: number | null;
  departure?: {
    highestCarrierEtaBeforeSailing: number | null;
    polDepartureAt: number | null;
    sailedAt: number | null;
    transshipment: boolean;
  } | null;
  recoverySlip80Hours?: Partial<Record<HorizonBucket, number>> | null;
  /**
   * The box's first connection as the service kept it (CONNECTION_*): the first ship's arrival at the
   * transshipment port (first estimate seen, highest estimate kept before the box sailed, current
   * estimate or actual), and the connecting departure (first estimate seen: the booking; current; left
   * already). With it and `connectionSlip80Hours`, a roll that will not happen is undone.
   */
  connection?: {
    firstArrivalAt: number;
    arrivalBeforeSailing: number | null;
    arrivalAt: number;
    arrived: boolean;
    bookedDepartureAt: number;
    departureAt: number;
    /** The connecting departure named now is another sailing (voyage) than the one first booked. */
    rolled: boolean;
    connected: boolean;
  } | null;
  connectionSlip80Hours?: Partial<Record<HorizonBucket, number>> | null;
  /**
   * A transshipped box's last vessel leg as the service kept it (LAST_LEG_RECOVERY): the first
   * departure estimate it saw for the sailing now named (its voyage), the current estimate or actual
   * departure, when the box sailed on it (null: not yet), and the highest carrier ETA kept for that
   * sailing before it left.
   */
  lastLeg?: {
    firstDepartureAt: number;
    departureAt: number;
    sailedAt: number | null;
    highestCarrierEtaBeforeSailing: number | null;
  } | null;
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
  /** Why the vessel's position was not used; null when it was weighed (whatever its weight). */
  fallbackReason: EtaFallbackReason | null;
}

/** The uncalibrated prediction: what the split-conformal step shifts. */
export interface RawEta {
  p50: number;
  p80: number;
  source: EtaSource;
  weight: number;
  positionAgeHours: number | null;
  fallbackReason: EtaFallbackReason | null;
  /** 1 for a fresh position with consistent progress over many hours, falling to 0 for a fallback. */
  strength: number;
  /** The Monte Carlo's own p80 - p50 when it ran. */
  modelSpreadMs: number;
  /** The horizon bucket of the Monte Carlo's median when it ran (a stale fix still runs it). */
  modelBucket: HorizonBucket | null;
  /** The carrier's p80 slip (p80 - p50 of its corrected ETA), 0 without a carrier ETA. */
  carrierSlipMs: number;
  /** The slip was measured on the serving path: the carrier's window is it, not its offline cell. */
  carrierSlipMeasured?: boolean;
  /** The largest weight the model could have taken in this horizon (its share): bounds the fallback floor. */
  maxWeight?: number;
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

/**
 * The speed the remaining distance is sailed at: the speed made good toward the port over successive
 * fixes when it is strong evidence (it already holds the route's detours, so no inefficiency factor,
 * and its spread is wider when the window's halves disagree), else the SOG model.
 */
export function voyageSpeed(vessel: VesselProgress): {
  medianKnots: number;
  sigma: number;
  inefficiency: number;
} {
  const made = vessel.madeGood;
  if (made && strongProgress(made)) {
    return { medianKnots: Math.min(26, made.knots), sigma: 0.06, inefficiency: 1 };
  }
  return { ...speedModel(vessel.recentSogKnots), inefficiency: ROUTE_INEFFICIENCY };
}

/**
 * The speed made good toward the next call is close to the ship's own speed over ground: it is sailing
 * straight there. Without enough underway fixes to know its speed, it is not known to be.
 */
export function sailingStraight(vessel: VesselProgress): boolean {
  const made = vessel.madeGood;
  const underway = vessel.recentSogKnots.filter((v) => v > UNDERWAY_KNOTS);
  if (!made || underway.length < STRONG_MIN_FIXES) return false;
  return made.knots >= MADE_GOOD_SOG_SHARE * median(underway);
}

/** Successive fixes over enough hours, agreeing with each other, and a ship making way. */
export function strongProgress(made: MadeGood): boolean {
  return (
    made.fixes >= STRONG_MIN_FIXES &&
    made.spanHours >= STRONG_SPAN_HOURS &&
    made.consistent &&
    made.knots >= MIN_MADE_GOOD_KNOTS
  );
}

/**
 * The fault in the model's inputs, if any, in the order they are checked: the service's own findings
 * (off the leg, no route, unknown position, nothing sailing), then a stale fix, then a ship not making
 * way toward its next call (successive fixes, or one fix whose course points away from the route).
 */
export function inputFault(input: EtaInput): EtaFallbackReason | null {
  if (input.fallback) return input.fallback;
  const vessel = input.vessel;
  if (!vessel) return "position_unknown";
  if (input.now - vessel.fixedAt > STALE_FIX_HOURS * HOUR_MS) return "stale_position";
  const made = vessel.madeGood;
  if (made && made.spanHours >= 2 && made.knots < MIN_MADE_GOOD_KNOTS) return "not_making_way";
  if ((!made || made.spanHours < 2) && (vessel.courseOffRouteDeg ?? 0) > COURSE_AWAY_DEG)
    return "not_making_way";
  return null;
}

/**
 * How far the inputs can be trusted, 0 to 1: a fresh fix (age) and progress measured over successive
 * fixes (count, span, agreement). A fallback is 0. It sets how much the window widens, never narrows.
 */
export function inputStrength(
  vessel: VesselProgress | null,
  now: number,
  fault: EtaFallbackReason | null,
): number {
  if (fault || !vessel) return 0;
  const ageHours = Math.max(0, now - vessel.fixedAt) / HOUR_MS;
  const fresh = Math.max(0, 1 - ageHours / STALE_FIX_HOURS);
  const made = vessel.madeGood;
  const progress = !made ? 0.4 : strongProgress(made) ? 1 : made.consistent ? 0.7 : 0.5;
  return fresh * progress;
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
  // The same draws every hour (common random numbers): an hour's new fix moves p50 by what the fix
  // says, not by another set of samples (a new seed each hour moved p50 back and forth by hours).
  const rng = seededStream(hashSeed(seedKey));
  const { medianKnots, sigma, inefficiency } = voyageSpeed(vessel);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const knots = medianKnots * Math.exp(sigma * rng.normal());
    let ms = ((vessel.remainingNm * inefficiency) / knots) * HOUR_MS;
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
  const { now, carrierEta } = input;
  const fault = inputFault(input);
  // A fault in the inputs: the position is not used at all (not even at a small weight), except that a
  // stale fix or a ship not making way still widens the fallback's window by the model's own spread.
  const widenOnly = fault === "stale_position" || fault === "not_making_way";
  const vessel = fault === null || widenOnly ? input.vessel : null;
  const model = vessel ? simulateArrival(vessel, input.pod, now, input.seedKey) : null;
  if (carrierEta === null) {
    // Nothing to fall back to: the model alone, and only on trustworthy inputs.
    if (fault !== null || !model) return null;
    const strength = inputStrength(vessel, now, null);
    return {
      p50: Math.max(now, model.p50),
      p80: Math.max(now, model.p50) + Math.max(model.p80 - model.p50, MIN_SPREAD_MS),
      source: "model",
      weight: 1,
      positionAgeHours: Math.max(0, now - vessel!.fixedAt) / HOUR_MS,
      fallbackReason: null,
      strength,
      modelSpreadMs: model.p80 - model.p50,
      modelBucket: horizonBucketOf(model.p50 - now),
      carrierSlipMs: 0,
    };
  }
  const positionAgeHours = input.vessel ? Math.max(0, now - input.vessel.fixedAt) / HOUR_MS : null;
  const carrierBucket = horizonBucketOf(Math.max(0, carrierEta - now));
  const bias = input.carrierBias[carrierBucket];
  const corrected = carrierEta + (bias?.medianHours ?? 0) * HOUR_MS;
  // The carrier's own ETA is served as p50 unless the model moves it: its measured bias (minutes on
  // the offline calibration) did not lower the error on the service path, so it only decides when
  // the model disagrees. Its window is the service path's measured slip.
  const measured = input.carrierSlip80Hours?.[carrierBucket];
  const slip80 =
    (measured ?? (bias ? bias.q80Hours - bias.medianHours : DEFAULT_CARRIER_SLIP80_HOURS)) * HOUR_MS;
  // A connection ahead is the carrier's schedule, which it knows and the model can only guess (3-10
  // days): the model then leaves the carrier's ETA alone.
  const connectionAhead = vessel?.callsAhead.some((call) => call.transshipment) ?? false;
  // The model moves p50 only on strong, consistent evidence: no fault, a fix at most six hours old and
  // progress measured over successive fixes. One fix, however fresh, is not enough (issue 34: single
  // fixes of another voyage moved p50 by weeks).
  const strong =
    fault === null &&
    vessel !== null &&
    positionAgeHours !== null &&
    positionAgeHours <= STRONG_FIX_HOURS &&
    (vessel.madeGood ? strongProgress(vessel.madeGood) : false) &&
    sailingStraight(vessel);
  const modelShare = input.modelWeight?.[carrierBucket] ?? table.modelWeight[carrierBucket] ?? 1;
  const weight =
    model && strong && !connectionAhead
      ? positionWeight(vessel, now) * disagreementWeight(model, corrected) * modelShare
      : 0;
  const m50 = model?.p50 ?? 0;
  const m80 = model?.p80 ?? 0;
  const p50 = weight > 0 ? Math.max(now, weight * m50 + (1 - weight) * carrierEta) : carrierEta;
  const modelSpreadMs = model ? m80 - m50 : 0;
  // A slip measured on the serving path is its own floor (minutes near a carrier that keeps its
  // schedule); the offline prior keeps two hours.
  const spread = Math.max(
    weight * (m80 - m50) + (1 - weight) * slip80,
    measured !== undefined && weight === 0 ? 0 : MIN_SPREAD_MS,
  );
  return {
    p50,
    p80: p50 + spread,
    source: sourceOf(weight),
    weight,
    positionAgeHours,
    fallbackReason: fault,
    strength: inputStrength(vessel, now, fault),
    modelSpreadMs,
    modelBucket: model ? horizonBucketOf(model.p50 - now) : null,
    carrierSlipMs: slip80,
    carrierSlipMeasured: measured !== undefined,
    maxWeight: modelShare,
  };
}

/**
 * Bounds p50's move away from the carrier's own ETA (MAX_MOVE_HOURS, and MAX_MOVE_SHARE of the time
 * left until the carrier's ETA), whatever moved it: the model, the bias correction, the conformal shift.
 */
export function boundedMove(p50: number, carrierEta: number | null, now: number): number {
  if (carrierEta === null) return p50;
  const limit = Math.min(MAX_MOVE_HOURS * HOUR_MS, MAX_MOVE_SHARE * Math.max(0, carrierEta - now));
  const bounded = Math.min(carrierEta + limit, Math.max(carrierEta - limit, p50));
  return Math.max(now, bounded);
}

/**
 * The window's width after recalibration, widened when inputs are weak (times 1 + WEAK_WIDENING x (1 -
 * strength)) and never narrower than what a stronger input would have given: a fallback for a fault
 * is at least as wide as the calibrated model and blend windows of its horizon and, when the model ran
 * (a stale fix, a ship not making way), of the model's own horizon: what a trusted position there is
 * served with. A carrier-only prediction with nothing sailing (no input to doubt) keeps its
 * calibrated width. The floor is the calibrated windows, not the Monte Carlo's own spread: close to
 * arrival the carrier is within minutes and a raw spread of hours would cover every arrival.
 */
export function widenedSpread(
  calibratedMs: number,
  raw: RawEta,
  bucket: HorizonBucket,
  table: CalibrationTable = CALIBRATION,
): number {
  if (raw.fallbackReason === "not_sailing") return calibratedMs;
  let base = calibratedMs;
  if (raw.fallbackReason !== null) {
    // What a trusted position could have been served with in these horizons, at any weight: the
    // recalibrated window of a raw one as wide as the model's or the carrier's, whichever is wider.
    const buckets = raw.modelBucket ? [bucket, raw.modelBucket] : [bucket];
    const rawSpread =
      (raw.maxWeight ?? 1) > 0 ? Math.max(raw.modelSpreadMs, raw.carrierSlipMs) : raw.carrierSlipMs;
    for (const b of buckets) {
      // Only the weights the model could have taken here: with no share, a trusted position is served
      // the carrier's window too.
      for (const weight of [0, 0.25, 0.5, 0.75, 1].filter((w) => w <= (raw.maxWeight ?? 1))) {
        const twin = recalibrateByWeight({ ...raw, weight, p80: raw.p50 + rawSpread }, 0, b, table);
        base = Math.max(base, twin.p80 - twin.p50);
      }
    }
  }
  return base * (1 + WEAK_WIDENING * (1 - raw.strength));
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

/**
 * The conformal step as a continuous function of the model's weight: the residual quantiles of the
 * carrier (w = 0), blend (w = 0.5) and model (w = 1) cells of the bucket, interpolated linearly
 * between them. Taking the cell of the source alone made p50 jump by the difference of two cells
 * (up to 20 hours) when the weight crossed 0.2 or 0.8, so an approaching ship's p50 moved back and
 * forth from one hour to the next. A cell with fewer than 30 residuals counts as no shift.
 */
export function recalibrateByWeight(
  raw: RawEta,
  now: number,
  bucket: HorizonBucket,
  table: CalibrationTable = CALIBRATION,
): { p50: number; p80: number; calibrated: boolean } {
  const anchors = (["carrier", "blend", "model"] as const).map((source, i) => {
    const rawSpreadHours = (raw.p80 - raw.p50) / HOUR_MS;
    // The carrier's anchor never shifts p50 (its own ETA is served); its window is the slip measured
    // on the serving path when there is one (the raw window), else its calibrated cell.
    if (source === "carrier" && raw.carrierSlipMeasured)
      return { at: 0, usable: true, q50: 0, q80: rawSpreadHours };
    const cell = calibrationCell(source, bucket, table);
    const usable = cell !== undefined && cell.n >= 30;
    if (source === "carrier")
      return { at: 0, usable, q50: 0, q80: usable ? cell.residualQ80Hours : rawSpreadHours };
    return {
      at: i / 2,
      usable,
      q50: usable ? cell.residualQ50Hours : 0,
      q80: usable ? cell.residualQ80Hours : rawSpreadHours,
    };
  });
  const w = Math.min(1, Math.max(0, raw.weight));
  const [lo, hi] = w <= 0.5 ? [anchors[0]!, anchors[1]!] : [anchors[1]!, anchors[2]!];
  const t = (w - lo.at) / (hi.at - lo.at);
  const q50 = lo.q50 + t * (hi.q50 - lo.q50);
  const q80 = lo.q80 + t * (hi.q80 - lo.q80);
  const p50 = Math.max(now, raw.p50 + q50 * HOUR_MS);
  const p80 = Math.max(p50, raw.p50 + q80 * HOUR_MS);
  const own = calibrationCell(raw.source, bucket, table);
  return { p50, p80, calibrated: own !== undefined && own.n >= 30 };
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
  const horizonMs = Math.max(0, raw.p50 - input.now);
  const bucket = horizonBucketOf(horizonMs);
  const cell = calibrationCell(raw.source, bucket, table);
  const recalibrated = recalibrateByWeight(raw, input.now, bucket, table);
  const faulty = raw.fallbackReason !== null && INPUT_FAULTS.includes(raw.fallbackReason);
  if (raw.weight === 0 && !faulty) {
    const made = connectionMadeEta(input);
    if (made) return made;
    const lastLeg = lastLegRecoveredEta(input);
    if (lastLeg) return lastLeg;
    const recovered = recoveredEta(input);
    if (recovered) return recovered;
  }
  // The model took no weight: the carrier's own ETA is served (even one already past: the ship has
  // most often arrived and the document not yet said so), shifted by its measured median if any.
  const shift =
    input.carrierEta === null
      ? 0
      : (input.carrierP50ShiftHours?.[horizonBucketOf(Math.max(0, input.carrierEta - input.now))] ?? 0);
  const p50 =
    raw.weight === 0 && input.carrierEta !== null
      ? input.carrierEta + shift * HOUR_MS
      : boundedMove(recalibrated.p50, input.carrierEta, input.now);
  const p80 = p50 + widenedSpread(recalibrated.p80 - recalibrated.p50, raw, bucket, table);
  const carrierBucket =
    input.carrierEta === null ? undefined : input.carrierBias[horizonBucketOf(input.carrierEta - input.now)];
  const confidence = faulty
    ? "low"
    : confidenceOf({
        source: raw.source,
        positionAgeHours: raw.positionAgeHours,
        podTier: input.pod?.tier ?? null,
        horizonMs: p50 - input.now,
        spreadMs: p80 - p50,
        calibrated: recalibrated.calibrated,
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
    fallbackReason: raw.fallbackReason,
  };
}

/**
 * The ETA published for a leg (the highest before its ship sailed; before that the current one
 * counts too, as the service keeps it after this prediction) and the leg's time (that ETA less the
 * leg's delayed departure, both carrying the late departure). Null when the delay can no longer be
 * made good: no leg time, past RECOVERY_UNTIL_SHARE of the leg, or an ETA revised later at sea.
 */
function legStillRecovering(
  input: EtaInput,
  carrierEta: number,
  leg: { highestCarrierEtaBeforeSailing?: number | null; sailedAt: number | null; departureAt: number },
): { published: number; legMs: number } | null {
  const kept = leg.highestCarrierEtaBeforeSailing ?? carrierEta;
  const published = leg.sailedAt === null ? Math.max(kept, carrierEta) : kept;
  const legMs = published - leg.departureAt;
  if (legMs <= 0) return null;
  if (leg.sailedAt !== null) {
    if ((input.now - leg.sailedAt) / legMs >= RECOVERY_UNTIL_SHARE) return null;
    if (carrierEta > published) return null;
  }
  return { published, legMs };
}

/** A `blend` prediction at p50 with its horizon bucket's calibrated p80 slip; null when the bucket has none. */
function blendAt(
  input: EtaInput,
  p50: number,
  slip80Hours: Partial<Record<HorizonBucket, number>>,
): EtaPrediction | null {
  const { now } = input;
  const bucket = horizonBucketOf(p50 - now);
  const slip = slip80Hours[bucket];
  if (slip === undefined) return null;
  const p80 = p50 + slip * HOUR_MS;
  return {
    p50,
    p80,
    source: "blend",
    confidence: confidenceOf({
      source: "blend",
      positionAgeHours: null,
      podTier: input.pod?.tier ?? null,
      horizonMs: p50 - now,
      spreadMs: p80 - p50,
      calibrated: true,
      calibrationWithinTarget: false,
      carrierArrivalsMeasured: 0,
    }),
    horizonHours: Math.round(((p50 - now) / HOUR_MS) * 10) / 10,
    horizonBucket: bucket,
    computedAt: now,
    fallbackReason: input.fallback === "not_sailing" ? "not_sailing" : null,
  };
}

/**
 * The first carrier ETA plus what is left of the delay published before the box sailed once the ship
 * has made good RECOVERY_RATE of the leg's time (RECOVERY_*, above), source `blend`; null when it does
 * not apply: a transshipment on the way, no first ETA, departure or windows, a delay under an hour, a
 * carrier ETA revised later at sea, or past RECOVERY_UNTIL_SHARE of the leg.
 */
export function recoveredEta(input: EtaInput): EtaPrediction | null {
  const { carrierEta, firstCarrierEta, departure, now } = input;
  if (carrierEta === null || firstCarrierEta == null || !departure || !input.recoverySlip80Hours) return null;
  if (departure.transshipment || departure.polDepartureAt === null) return null;
  const leg = legStillRecovering(input, carrierEta, {
    highestCarrierEtaBeforeSailing: departure.highestCarrierEtaBeforeSailing,
    sailedAt: departure.sailedAt,
    departureAt: departure.polDepartureAt,
  });
  if (!leg) return null;
  const { published, legMs } = leg;
  const delayMs = published - firstCarrierEta;
  if (delayMs < RECOVERY_MIN_HOURS * HOUR_MS) return null;
  const left = Math.max(0, delayMs - RECOVERY_RATE * legMs);
  const p50 = Math.max(
    now,
    Math.min(carrierEta, firstCarrierEta + left + RECOVERY_P50_SHIFT_HOURS * HOUR_MS),
  );
  return blendAt(input, p50, input.recoverySlip80Hours);
}

/**
 * The carrier's ETA less a roll to a later connecting sailing that the first ship's recovery makes
 * unnecessary (CONNECTION_*, above), source `blend`; null when it does not apply: no connection kept,
 * the box already on the connecting ship or the first ship arrived (the carrier then knows), a roll
 * under CONNECTION_ROLL_MIN_HOURS, a delay revised later at sea, or an arrival that still misses the
 * booked departure.
 */
export function connectionMadeEta(input: EtaInput): EtaPrediction | null {
  const { carrierEta, connection, departure, now } = input;
  if (carrierEta === null || !connection || !input.connectionSlip80Hours) return null;
  // A later departure of the booked sailing itself is that ship's delay (LAST_LEG_RECOVERY), not a roll.
  if (connection.connected || connection.arrived || !connection.rolled) return null;
  const roll = connection.departureAt - connection.bookedDepartureAt;
  if (roll < CONNECTION_ROLL_MIN_HOURS * HOUR_MS) return null;
  const sailed = departure?.sailedAt != null;
  const kept = connection.arrivalBeforeSailing ?? connection.arrivalAt;
  const published = sailed ? kept : Math.max(kept, connection.arrivalAt);
  // A delay at sea the carrier knows of after the departure is not made good.
  if (sailed && connection.arrivalAt > published) return null;
  const delayMs = Math.max(0, published - connection.firstArrivalAt);
  const legMs = departure?.polDepartureAt != null ? published - departure.polDepartureAt : 0;
  const recovered = Math.min(
    connection.arrivalAt,
    connection.firstArrivalAt + Math.max(0, delayMs - RECOVERY_RATE * Math.max(0, legMs)),
  );
  if (recovered + CONNECTION_HOURS * HOUR_MS > connection.bookedDepartureAt) return null;
  // The roll moves the later legs' sailings too (a loop's next bookable sailing can be weeks later),
  // so the ETA less the first roll may still be late: the booked arrival is the earlier bound.
  const undone =
    input.firstCarrierEta != null ? Math.min(carrierEta - roll, input.firstCarrierEta) : carrierEta - roll;
  const p50 = Math.max(now, undone + CONNECTION_P50_SHIFT_HOURS * HOUR_MS);
  return blendAt(input, p50, input.connectionSlip80Hours);
}

/**
 * A transshipped box's last ship published late at its departure from the transshipment port makes
 * good RECOVERY_RATE of its leg, as a direct box's does (RECOVERY_*): p50 is the ETA published before
 * it sailed less what it makes good, never later than the carrier's ETA; null when the departure did
 * not move, the carrier revised its ETA later at sea, or past RECOVERY_UNTIL_SHARE of the leg.
 */
export function lastLegRecoveredEta(input: EtaInput): EtaPrediction | null {
  const { carrierEta, lastLeg, now } = input;
  if (carrierEta === null || !lastLeg || !input.recoverySlip80Hours) return null;
  const delayMs = lastLeg.departureAt - lastLeg.firstDepartureAt;
  if (delayMs < RECOVERY_MIN_HOURS * HOUR_MS) return null;
  const leg = legStillRecovering(input, carrierEta, lastLeg);
  if (!leg) return null;
  const { published, legMs } = leg;
  const madeGood = Math.min(delayMs, RECOVERY_RATE * legMs);
  const p50 = Math.max(now, Math.min(carrierEta, published - madeGood + RECOVERY_P50_SHIFT_HOURS * HOUR_MS));
  if (p50 >= carrierEta) return null;
  return blendAt(input, p50, input.recoverySlip80Hours);
}
