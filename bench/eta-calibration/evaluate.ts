/**
 * Scores predictions of simulated voyages against their true arrivals, per horizon bucket (the bucket
 * the prediction was made in, as the service stores it): share of arrivals before p50 and before p80,
 * mean absolute error of p50 and of the carrier's own ETA at the same moments.
 */
import type { CalibrationTable, CarrierBiasTable } from "../../src/domain/eta/calibration-table";
import {
  type EtaPrediction,
  HORIZON_BUCKETS,
  type HorizonBucket,
  predictEta,
} from "../../src/domain/eta/eta-model";
import { observeVoyage, type SimulatedVoyage } from "./voyages";

const HOUR = 3_600_000;

export interface BucketScore {
  bucket: HorizonBucket;
  predictions: number;
  voyages: number;
  beforeP50: number;
  beforeP80: number;
  maeP50Hours: number;
  maeCarrierHours: number;
  bySource: Record<string, number>;
  byConfidence: Record<string, number>;
}

export interface ScoredPrediction {
  bucket: HorizonBucket;
  voyageId: string;
  ata: number;
  carrierEta: number;
  prediction: EtaPrediction;
}

export function scoredPredictions(
  voyages: readonly SimulatedVoyage[],
  bias: CarrierBiasTable,
  table?: CalibrationTable,
): ScoredPrediction[] {
  const scored: ScoredPrediction[] = [];
  for (const voyage of voyages) {
    for (const observation of observeVoyage(voyage, bias)) {
      const prediction = predictEta(observation.input, table);
      if (!prediction || observation.input.carrierEta === null) continue;
      scored.push({
        bucket: prediction.horizonBucket,
        voyageId: voyage.id,
        ata: voyage.ata,
        carrierEta: observation.input.carrierEta,
        prediction,
      });
    }
  }
  return scored;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function scoreByBucket(scored: readonly ScoredPrediction[]): BucketScore[] {
  return HORIZON_BUCKETS.map((bucket) => {
    const rows = scored.filter((s) => s.bucket === bucket);
    const n = rows.length || 1;
    const count = <K extends string>(key: (s: ScoredPrediction) => K) =>
      rows.reduce<Record<string, number>>((acc, s) => {
        acc[key(s)] = (acc[key(s)] ?? 0) + 1;
        return acc;
      }, {});
    return {
      bucket,
      predictions: rows.length,
      voyages: new Set(rows.map((s) => s.voyageId)).size,
      beforeP50: round(rows.filter((s) => s.ata <= s.prediction.p50).length / n, 3),
      beforeP80: round(rows.filter((s) => s.ata <= s.prediction.p80).length / n, 3),
      maeP50Hours: round(rows.reduce((a, s) => a + Math.abs(s.ata - s.prediction.p50), 0) / n / HOUR, 1),
      maeCarrierHours: round(rows.reduce((a, s) => a + Math.abs(s.ata - s.carrierEta), 0) / n / HOUR, 1),
      bySource: count((s) => s.prediction.source),
      byConfidence: count((s) => s.prediction.confidence),
    };
  });
}

export interface TargetCheck {
  bucket: HorizonBucket;
  failures: string[];
}

/** The targets of issue 21: coverage bands where a bucket has >= 100 voyages, p50 beating the carrier beyond 3 days. */
export function checkTargets(scores: readonly BucketScore[]): TargetCheck[] {
  return scores.map((s) => {
    const failures: string[] = [];
    if (s.voyages >= 100) {
      if (s.beforeP80 < 0.72 || s.beforeP80 > 0.88)
        failures.push(`before-p80 ${s.beforeP80} outside 0.72-0.88`);
      if (s.beforeP50 < 0.4 || s.beforeP50 > 0.6)
        failures.push(`before-p50 ${s.beforeP50} outside 0.40-0.60`);
    }
    if ((s.bucket === "3to7d" || s.bucket === "7to14d" || s.bucket === "gt14d") && s.predictions > 0) {
      if (s.maeP50Hours >= s.maeCarrierHours) {
        failures.push(`p50 MAE ${s.maeP50Hours} h not below the carrier's ${s.maeCarrierHours} h`);
      }
    }
    return { bucket: s.bucket, failures };
  });
}
