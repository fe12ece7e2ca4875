/**
 * Offline calibration of the predictive ETA (docs/eta-calibration.md), written into
 * src/domain/eta/calibration-table.ts:
 * 1. each carrier's bias by horizon bucket: median and 80th percentile of ATA minus its published ETA
 *    over the calibration voyages' observations;
 * 2. split-conformal residual quantiles per (source, horizon bucket): ATA minus the raw blended median,
 *    with the finite-sample rank ceil((n + 1) q);
 * 3. a check on held-out voyages of another seed: a cell is `withinTarget` when its coverage there is
 *    inside the bands (it feeds the `high` confidence grade).
 *
 * Run: `npx tsx bench/eta-calibration/calibrate.ts` (about a minute); deterministic.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type {
  CalibrationCell,
  CalibrationTable,
  CarrierBiasTable,
} from "../../src/domain/eta/calibration-table";
import {
  type CarrierBias,
  type EtaSource,
  HORIZON_BUCKETS,
  type HorizonBucket,
  horizonBucketOf,
  rawEta,
} from "../../src/domain/eta/eta-model";
import { scoredPredictions } from "./evaluate";
import { observeVoyage, simulatedVoyages } from "./voyages";

const HOUR = 3_600_000;
export const CALIBRATION_SEED = "eta-calibration";
export const CALIBRATION_VOYAGES = 3_000;
export const CHECK_SEED = "eta-calibration-check";
export const CHECK_VOYAGES = 1_000;
const SOURCES: readonly EtaSource[] = ["model", "blend", "carrier"];
const EMPTY_TABLE: CalibrationTable = {
  seed: "",
  voyages: 0,
  checkSeed: "",
  checkVoyages: 0,
  modelWeight: {},
  cells: [],
  carrierBias: {},
};

/** Conformal quantile: the ceil((n + 1) q)-th smallest residual. */
function conformalQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.ceil((sorted.length + 1) * q));
  return sorted[Math.max(0, rank - 1)] ?? 0;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

export function calibrate(): CalibrationTable {
  const voyages = simulatedVoyages(CALIBRATION_SEED, CALIBRATION_VOYAGES);

  const carrierResiduals = new Map<string, number[]>();
  for (const voyage of voyages) {
    for (const { input, now } of observeVoyage(voyage, {})) {
      if (input.carrierEta === null) continue;
      const key = `${voyage.scac}|${horizonBucketOf(Math.max(0, input.carrierEta - now))}`;
      const list = carrierResiduals.get(key) ?? [];
      list.push((voyage.ata - input.carrierEta) / HOUR);
      carrierResiduals.set(key, list);
    }
  }
  const carrierBias: Record<string, Partial<Record<HorizonBucket, CarrierBias>>> = {};
  for (const [key, residuals] of [...carrierResiduals].sort(([a], [b]) => a.localeCompare(b))) {
    const [scac, bucket] = key.split("|") as [string, HorizonBucket];
    carrierBias[scac] ??= {};
    carrierBias[scac][bucket] = {
      medianHours: round2(conformalQuantile(residuals, 0.5)),
      q80Hours: round2(conformalQuantile(residuals, 0.8)),
      arrivals: residuals.length,
    };
  }

  // The model's share per horizon of the carrier's ETA: the one with the lowest error of the raw median.
  const observations = voyages.flatMap((voyage) =>
    observeVoyage(voyage, carrierBias as CarrierBiasTable).map((o) => ({ ...o, ata: voyage.ata })),
  );
  const modelWeight: Partial<Record<HorizonBucket, number>> = {};
  for (const bucket of HORIZON_BUCKETS) {
    const inBucket = observations.filter(
      (o) =>
        o.input.carrierEta !== null && horizonBucketOf(Math.max(0, o.input.carrierEta - o.now)) === bucket,
    );
    let best = { share: 1, error: Number.POSITIVE_INFINITY };
    for (const share of [0, 0.25, 0.5, 0.75, 1]) {
      const table = { ...EMPTY_TABLE, modelWeight: { [bucket]: share } };
      let error = 0;
      for (const o of inBucket) error += Math.abs(o.ata - (rawEta(o.input, table)?.p50 ?? o.ata));
      if (error < best.error) best = { share, error };
    }
    modelWeight[bucket] = best.share;
  }
  const weighted: CalibrationTable = { ...EMPTY_TABLE, modelWeight };

  const residuals = new Map<string, number[]>();
  for (const voyage of voyages) {
    for (const { input, now } of observeVoyage(voyage, carrierBias as CarrierBiasTable)) {
      const raw = rawEta(input, weighted);
      if (!raw) continue;
      const key = `${raw.source}|${horizonBucketOf(raw.p50 - now)}`;
      const list = residuals.get(key) ?? [];
      list.push((voyage.ata - raw.p50) / HOUR);
      residuals.set(key, list);
    }
  }
  const cells: CalibrationCell[] = [];
  for (const source of SOURCES) {
    for (const bucket of HORIZON_BUCKETS) {
      const list = residuals.get(`${source}|${bucket}`);
      if (!list || list.length === 0) continue;
      cells.push({
        source,
        bucket,
        n: list.length,
        residualQ50Hours: round2(conformalQuantile(list, 0.5)),
        residualQ80Hours: round2(conformalQuantile(list, 0.8)),
        withinTarget: false,
      });
    }
  }
  const draft: CalibrationTable = {
    seed: CALIBRATION_SEED,
    voyages: voyages.length,
    checkSeed: CHECK_SEED,
    checkVoyages: CHECK_VOYAGES,
    modelWeight,
    cells,
    carrierBias,
  };

  const check = scoredPredictions(simulatedVoyages(CHECK_SEED, CHECK_VOYAGES), carrierBias, draft);
  const checked = cells.map((cell) => {
    const rows = check.filter((s) => s.prediction.source === cell.source && s.bucket === cell.bucket);
    if (rows.length < 30) return cell;
    const before50 = rows.filter((s) => s.ata <= s.prediction.p50).length / rows.length;
    const before80 = rows.filter((s) => s.ata <= s.prediction.p80).length / rows.length;
    return {
      ...cell,
      withinTarget: before50 >= 0.4 && before50 <= 0.6 && before80 >= 0.72 && before80 <= 0.88,
    };
  });
  return { ...draft, cells: checked };
}

function render(table: CalibrationTable): string {
  const source = fileURLToPath(new URL("../../src/domain/eta/calibration-table.ts", import.meta.url));
  const text = readFileSync(source, "utf8");
  const head = text.slice(0, text.indexOf("export const CALIBRATION"));
  return `${head}export const CALIBRATION: CalibrationTable = ${JSON.stringify(table, null, 2)};\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const table = calibrate();
  const target = fileURLToPath(new URL("../../src/domain/eta/calibration-table.ts", import.meta.url));
  writeFileSync(target, render(table));
  // The table is code the linter checks: written in the formatter's style, or CI's lint step fails.
  execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  console.log(`wrote ${target}: ${table.cells.length} cells from ${table.voyages} voyages`);
}
