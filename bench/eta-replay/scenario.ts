/**
 * The benchmark's `eta-replay` scenario (issue 34, item 3): the predictive ETA measured on the service's
 * own path. Voyages of the simulator's world (voyages.ts) are tracked through the running service on one
 * manual clock shared with the simulator (replay.ts), and every prediction the eta worker stored is
 * scored against the world's true arrival (score.ts). Writes `bench/results/<date>-<commit>-eta-replay.json`
 * and the top section of docs/eta-calibration.md; `npm run bench -- --scenarios eta-replay` runs it alone.
 *
 * Two splits, never mixed: `validation` is what the page reports and the targets are judged on;
 * `tuning` (other seed, other months) is the one a model change may be fitted on.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeReference } from "../../simulator/world/references";
import type { DatabaseTarget } from "../../src/config";
import { composeEtaPage, etaReplaySection } from "./page";
import { type ReplayRun, replayThroughService } from "./replay";
import {
  type BucketScores,
  checkTargets,
  type ScoredSnapshot,
  scoreByBucket,
  type TargetCheck,
  trueHorizonBucket,
} from "./score";
import { type ReplayVoyage, selectVoyages } from "./voyages";

export const ETA_REPLAY_ID = "eta-replay";
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ETA_DOC_PATH = path.join(REPO_ROOT, "docs/eta-calibration.md");

export type ReplaySplit = "validation" | "tuning";
/** Each split: its own seed and its own months, so no voyage (nor the episodes it met) is in both. */
// Five weeks: the world books a carrier's shipments in the first part of its 18-week cycle, so a shorter
// window may fall in the gap between two of its cycles and miss the carrier (MSC, Maersk and ONE did in three weeks).
export const SPLITS: Record<ReplaySplit, { seed: string; from: string; days: number }> = {
  validation: { seed: "eta-replay-validation", from: "2026-09-07T00:00:00Z", days: 35 },
  tuning: { seed: "eta-replay-tuning", from: "2026-05-04T00:00:00Z", days: 35 },
};
export const REPLAY_VOYAGES = 300;
export const STEP_HOURS = 12;
/** The smoke run: a handful of short voyages, so CI learns the harness broke within a minute or two. */
export const SMOKE = { voyages: 6, days: 2, maxJourneyDays: 14 };

export interface EtaReplayResult {
  schemaVersion: 1;
  generatedAt: string;
  smoke: boolean;
  source: { commit: string; dirtyPaths: string[] };
  split: ReplaySplit;
  seed: string;
  window: { from: string; days: number };
  /** The other split, named so that a reader knows what the model may have been fitted on. */
  heldOutFrom: { split: ReplaySplit; seed: string; window: { from: string; days: number } };
  voyages: {
    count: number;
    carriers: Record<string, number>;
    byVesselLegs: Record<string, number>;
    /** Voyages that met an episode of the world, and the episodes the replay's clock crossed. */
    episodeVoyages: number;
    episodes: string[];
  };
  service: Omit<ReplayRun, "snapshots"> & { snapshots: number; scored: number; unmatched: number };
  /** Buckets as the service stored them (the judged table). */
  buckets: BucketScores[];
  /** The same predictions by the time truly left to the arrival when each was made. */
  bucketsByTrueHorizon: BucketScores[];
  fallbackReasons: Record<string, number>;
  targets: TargetCheck[];
  perVoyage: (Pick<ReplayVoyage, "scac" | "reference" | "pol" | "pod" | "vesselLegs" | "episodes"> & {
    ata: string;
    predictions: number;
    bySource: Record<string, number>;
  })[];
  seconds: number;
}

function sourceOf(): EtaReplayResult["source"] {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  try {
    // What the run measured beyond the commit: uncommitted edits to the model, the simulator or this replay.
    const dirty = git("status", "--porcelain", "--", "src/domain/eta", "simulator", "bench/eta-replay");
    return {
      commit: git("rev-parse", "--short", "HEAD"),
      dirtyPaths: dirty ? dirty.split("\n").map((l) => l.slice(3)) : [],
    };
  } catch {
    return { commit: "nogit", dirtyPaths: [] };
  }
}

const key = (scac: string, reference: string) => `${scac}|${normalizeReference(reference)}`;

export async function runEtaReplay(input: {
  split: ReplaySplit;
  voyages: number;
  smoke: boolean;
  database: DatabaseTarget;
  log: (message: string) => void;
}): Promise<EtaReplayResult> {
  const started = Date.now();
  const split = SPLITS[input.split];
  const other: ReplaySplit = input.split === "validation" ? "tuning" : "validation";
  const selection = selectVoyages({
    seed: split.seed,
    count: input.voyages,
    from: new Date(split.from),
    days: input.smoke ? SMOKE.days : split.days,
    ...(input.smoke ? { maxJourneyDays: SMOKE.maxJourneyDays } : {}),
  });
  input.log(
    `eta-replay: ${selection.voyages.length} voyages of ${Object.keys(selection.carriers).length} carriers (${input.split}, seed ${split.seed}) on ${input.database.kind}, ${STEP_HOURS} h steps`,
  );
  const run = await replayThroughService({
    voyages: selection.voyages,
    database: input.database,
    stepHours: STEP_HOURS,
    log: input.log,
  });
  const truth = new Map(selection.voyages.map((v) => [key(v.scac, v.reference), v]));
  const scored: ScoredSnapshot[] = [];
  let unmatched = 0;
  for (const s of run.snapshots) {
    const voyage = truth.get(key(s.scac, s.reference));
    if (!voyage) {
      unmatched++;
      continue;
    }
    scored.push({ ...s, voyage: key(voyage.scac, voyage.reference), ata: voyage.ata });
  }
  // Every scored prediction as a line of JSON, for fitting on the tuning split (bench/eta-replay/fit.ts).
  const dump = process.env.BENCH_ETA_DUMP;
  if (dump) {
    mkdirSync(path.dirname(dump), { recursive: true });
    writeFileSync(dump, `${scored.map((s) => JSON.stringify(s)).join("\n")}\n`);
    input.log(`eta-replay: ${scored.length} scored predictions written to ${dump}`);
  }
  const buckets = scoreByBucket(scored);
  const fallbackReasons: Record<string, number> = {};
  for (const s of scored) if (s.reason) fallbackReasons[s.reason] = (fallbackReasons[s.reason] ?? 0) + 1;
  const byLegs: Record<string, number> = {};
  for (const v of selection.voyages) byLegs[String(v.vesselLegs)] = (byLegs[String(v.vesselLegs)] ?? 0) + 1;
  const { snapshots, ...service } = run;
  return {
    schemaVersion: 1,
    generatedAt: new Date().toISOString(),
    smoke: input.smoke,
    source: sourceOf(),
    split: input.split,
    seed: split.seed,
    window: selection.window,
    heldOutFrom: {
      split: other,
      seed: SPLITS[other].seed,
      window: { from: SPLITS[other].from, days: SPLITS[other].days },
    },
    voyages: {
      count: selection.voyages.length,
      carriers: selection.carriers,
      byVesselLegs: byLegs,
      episodeVoyages: selection.voyages.filter((v) => v.episodes.length > 0).length,
      episodes: selection.episodes,
    },
    service: { ...service, snapshots: snapshots.length, scored: scored.length, unmatched },
    buckets,
    bucketsByTrueHorizon: scoreByBucket(scored, trueHorizonBucket),
    fallbackReasons,
    targets: checkTargets(buckets, run.reasonColumn),
    perVoyage: selection.voyages.map((v) => {
      const rows = scored.filter((s) => s.voyage === key(v.scac, v.reference));
      const bySource: Record<string, number> = {};
      for (const r of rows) bySource[r.source] = (bySource[r.source] ?? 0) + 1;
      return {
        scac: v.scac,
        reference: v.reference,
        pol: v.pol,
        pod: v.pod,
        vesselLegs: v.vesselLegs,
        episodes: v.episodes,
        ata: new Date(v.ata).toISOString(),
        predictions: rows.length,
        bySource,
      };
    }),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

export function writeEtaReplay(result: EtaReplayResult, file: string, options: { page: boolean }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  if (!options.page) return;
  const current = existsSync(ETA_DOC_PATH) ? readFileSync(ETA_DOC_PATH, "utf8") : "";
  writeFileSync(ETA_DOC_PATH, composeEtaPage(current, { replay: etaReplaySection(result, file) }));
}
