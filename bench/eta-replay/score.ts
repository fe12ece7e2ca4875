/**
 * Scores the service's stored predictions against the world's true arrivals, by horizon bucket and by
 * `source`, and checks them against the targets of issue 34. Pure: rows in, figures out.
 */
import { HORIZON_BUCKETS, type HorizonBucket, horizonBucketOf } from "../../src/domain/eta/eta-model";

const HOUR = 3_600_000;
/** A prediction this far from the truth... */
export const FAR_OFF_HOURS = 48;
/** ...while the carrier's own ETA was this close is one the customer should never have been shown. */
export const CARRIER_CLOSE_HOURS = 12;
/** Coverage is judged only where a bucket has this many predictions. */
export const MIN_JUDGED = 100;

/** One stored prediction with the truth it is scored against. */
export interface ScoredSnapshot {
  voyage: string;
  scac: string;
  computedAt: number;
  p50: number;
  p80: number;
  source: string;
  confidence: string;
  /** The bucket the service stored (its own horizon: computation to the uncalibrated median). */
  horizonBucket: string;
  carrierEta: number | null;
  reason: string | null;
  /** The world's arrival at the port of discharge. */
  ata: number;
}

export interface CellScore {
  predictions: number;
  voyages: number;
  beforeP50: number | null;
  beforeP80: number | null;
  maeP50Hours: number | null;
  /** Predictions that carry the carrier's ETA: the two errors below are over these same rows. */
  paired: number;
  maeP50PairedHours: number | null;
  maeCarrierHours: number | null;
  /** MAE of p50 over MAE of the carrier's ETA on the same predictions. */
  maeRatio: number | null;
  /** More than FAR_OFF_HOURS from the truth while the carrier was within CARRIER_CLOSE_HOURS. */
  farOffWhileCarrierClose: number;
  byConfidence: Record<string, number>;
  /** Recorded reasons (why the model fell back), when the snapshots carry one. */
  byReason: Record<string, number>;
}

export type SourceName = "all" | "model" | "blend" | "carrier";
export const SOURCES: readonly SourceName[] = ["all", "model", "blend", "carrier"];

export interface BucketScores {
  bucket: HorizonBucket;
  bySource: Record<SourceName, CellScore>;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function tally(rows: readonly ScoredSnapshot[], key: (r: ScoredSnapshot) => string | null) {
  const counts: Record<string, number> = {};
  for (const r of rows) {
    const k = key(r);
    if (k !== null) counts[k] = (counts[k] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

export function scoreCell(rows: readonly ScoredSnapshot[]): CellScore {
  const n = rows.length;
  const mean = (values: number[]) =>
    values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length / HOUR, 1);
  const paired = rows.filter((r) => r.carrierEta !== null);
  const maeP50Paired = mean(paired.map((r) => Math.abs(r.ata - r.p50)));
  const maeCarrier = mean(paired.map((r) => Math.abs(r.ata - r.carrierEta!)));
  return {
    predictions: n,
    voyages: new Set(rows.map((r) => r.voyage)).size,
    beforeP50: n === 0 ? null : round(rows.filter((r) => r.ata <= r.p50).length / n, 3),
    beforeP80: n === 0 ? null : round(rows.filter((r) => r.ata <= r.p80).length / n, 3),
    maeP50Hours: mean(rows.map((r) => Math.abs(r.ata - r.p50))),
    paired: paired.length,
    maeP50PairedHours: maeP50Paired,
    maeCarrierHours: maeCarrier,
    // From the unrounded sums, so a ratio of two small errors is not an artefact of rounding.
    maeRatio:
      paired.length === 0
        ? null
        : ratio(
            paired.reduce((a, r) => a + Math.abs(r.ata - r.p50), 0),
            paired.reduce((a, r) => a + Math.abs(r.ata - r.carrierEta!), 0),
          ),
    farOffWhileCarrierClose: rows.filter(
      (r) =>
        r.carrierEta !== null &&
        Math.abs(r.p50 - r.ata) > FAR_OFF_HOURS * HOUR &&
        Math.abs(r.carrierEta - r.ata) <= CARRIER_CLOSE_HOURS * HOUR,
    ).length,
    byConfidence: tally(rows, (r) => r.confidence),
    byReason: tally(rows, (r) => r.reason),
  };
}

function ratio(a: number, b: number): number | null {
  if (b === 0) return a === 0 ? 1 : null;
  return round(a / b, 3);
}

/** Scores by bucket (`bucketOf`, default the stored one) and source. */
export function scoreByBucket(
  rows: readonly ScoredSnapshot[],
  bucketOf: (r: ScoredSnapshot) => string = (r) => r.horizonBucket,
): BucketScores[] {
  return HORIZON_BUCKETS.map((bucket) => {
    const inBucket = rows.filter((r) => bucketOf(r) === bucket);
    const bySource = Object.fromEntries(
      SOURCES.map((source) => [
        source,
        scoreCell(source === "all" ? inBucket : inBucket.filter((r) => r.source === source)),
      ]),
    ) as Record<SourceName, CellScore>;
    return { bucket, bySource };
  });
}

/** The bucket of the time truly left to the arrival when the prediction was made (after it: `le1d`). */
export function trueHorizonBucket(r: ScoredSnapshot): HorizonBucket {
  return horizonBucketOf(Math.max(0, r.ata - r.computedAt));
}

export type TargetStatus = "met" | "not met" | "not judged";

export interface TargetCheck {
  figure: string;
  /** The issue's target, as written there. */
  target: string;
  /** What this run measured, per bucket where the figure is per bucket. */
  measured: string;
  status: TargetStatus;
}

const LABELS: Record<HorizonBucket, string> = {
  le1d: "<= 1 d",
  "1to3d": "1-3 d",
  "3to7d": "3-7 d",
  "7to14d": "7-14 d",
  gt14d: "> 14 d",
};
export const bucketLabel = (bucket: string) => LABELS[bucket as HorizonBucket] ?? bucket;

function overall(statuses: TargetStatus[]): TargetStatus {
  if (statuses.includes("not met")) return "not met";
  return statuses.includes("met") ? "met" : "not judged";
}

/**
 * Issue 34's targets over every prediction the customer was shown (all sources), in the buckets the
 * service stored. The last row of the issue's table (a position contradicting its voyage plan falls back
 * with its reason) is a behaviour the tests prove; here only the recorded reasons are counted.
 */
export function checkTargets(buckets: readonly BucketScores[], reasonColumn: boolean): TargetCheck[] {
  const all = buckets.map((b) => ({ bucket: b.bucket, s: b.bySource.all }));
  const judged = all.filter((b) => b.s.predictions >= MIN_JUDGED);
  const band = (value: number | null, lo: number, hi: number): TargetStatus =>
    value === null ? "not judged" : value >= lo && value <= hi ? "met" : "not met";
  const coverage = (pick: (s: CellScore) => number | null, lo: number, hi: number) => ({
    measured:
      judged.length === 0
        ? `no bucket with >= ${MIN_JUDGED} predictions`
        : judged.map((b) => `${bucketLabel(b.bucket)} ${pick(b.s)?.toFixed(3)}`).join(", "),
    status: overall(judged.map((b) => band(pick(b.s), lo, hi))),
  });
  const ratioCheck = (wanted: HorizonBucket[], limit: number) => {
    const cells = all.filter((b) => wanted.includes(b.bucket));
    return {
      measured: cells
        .map((b) => `${bucketLabel(b.bucket)} ${b.s.maeRatio === null ? "n/a" : `${b.s.maeRatio}x`}`)
        .join(", "),
      status: overall(
        cells.map((b) => (b.s.maeRatio === null ? "not judged" : b.s.maeRatio <= limit ? "met" : "not met")),
      ),
    };
  };
  const far = all.reduce((n, b) => n + b.s.farOffWhileCarrierClose, 0);
  const modelRows = buckets.reduce(
    (n, b) => n + b.bySource.model.predictions + b.bySource.blend.predictions,
    0,
  );
  const reasons = buckets.reduce(
    (n, b) => n + Object.values(b.bySource.all.byReason).reduce((a, c) => a + c, 0),
    0,
  );
  return [
    {
      figure: `share of arrivals before p50, per bucket with >= ${MIN_JUDGED} predictions`,
      target: "0.40-0.60",
      ...coverage((s) => s.beforeP50, 0.4, 0.6),
    },
    {
      figure: "share of arrivals before p80, same",
      target: "0.72-0.88",
      ...coverage((s) => s.beforeP80, 0.72, 0.88),
    },
    {
      figure: "MAE of p50 / MAE of the carrier's ETA on the same predictions, 1-3 d and 3-7 d",
      target: "<= 1.0",
      ...ratioCheck(["1to3d", "3to7d"], 1.0),
    },
    {
      figure: "the same, 7-14 d and > 14 d",
      target: "<= 0.85",
      ...ratioCheck(["7to14d", "gt14d"], 0.85),
    },
    {
      figure: `predictions more than ${FAR_OFF_HOURS} h from the truth while the carrier was within ${CARRIER_CLOSE_HOURS} h`,
      target: "0",
      measured: `${far} (of ${modelRows} model/blend rows)`,
      status: far === 0 ? "met" : "not met",
    },
    {
      figure: "a prediction whose position contradicts its voyage plan",
      target: "falls back, reason recorded",
      measured: reasonColumn
        ? `${reasons} predictions carry a recorded reason (by reason below); the fall-back itself is proven by tests, not by this replay`
        : "snapshots carry no reason column yet; the fall-back itself is proven by tests, not by this replay",
      status: "not judged",
    },
  ];
}
