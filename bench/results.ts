import type { MachineFacts, SourceFacts } from "./machine";
import type { DatabaseMode } from "./options";
import type { BaselineKind, PendingScenario, Scenario } from "./scenarios";
import type { WrkRun } from "./wrk";

/** The results file (bench/results/<date>-<commit>.json) and the arithmetic that fills it. */

export type TargetKind = "service" | BaselineKind;

export interface TargetInfo {
  id: string;
  kind: TargetKind;
  mode: DatabaseMode | undefined;
  label: string;
  description: string;
}

export interface TargetResult {
  targetId: string;
  /** Measured rounds, in order. */
  rounds: WrkRun[];
  /** Warm-up runs (repeated until the target answered settings.warmupRequests, at most warmupMaxRuns). */
  warmups: WrkRun[];
  medianRps: number;
  /** Medians over rounds of each round's p50 and p99. */
  p50Ms: number;
  p99Ms: number;
  /** Medians over rounds: the server process's CPU per request (µs) and its share of one core. */
  cpuUsPerRequest: number | undefined;
  cpuShare: number | undefined;
  /** Median over rounds of the share of all cores that other work on the machine used during the run. */
  otherLoad: number | undefined;
  /** (max - min) / median of req/s over rounds: how much the rounds disagree. */
  rpsSpread: number | undefined;
  /** Sums over the measured rounds. */
  requests: number;
  non2xx: number;
  socketErrors: number;
  warmupNon2xx: number;
  /** Median over rounds of this target's req/s divided by the baseline's in the same round. */
  ratios: Partial<Record<BaselineKind, number>>;
}

export interface CheckResult {
  scenarioId: string;
  mode: DatabaseMode;
  kind: "ratio" | "p99" | "statements";
  /** For a ratio check, the baseline; the threshold is the share (ratio) or the bound in ms (p99). */
  baseline: BaselineKind | undefined;
  threshold: number;
  description: string;
  source: string;
  value: number | undefined;
  display: string;
  status: "met" | "missed" | "not measured";
}

export interface ScenarioResult {
  id: string;
  name: string;
  what: string;
  method: string;
  path: string;
  /** Bytes of the service's answer body per service target; the baselines answer the first one's bytes. */
  answerBytes: Record<string, number>;
  baselineBodyBytes: number;
  targets: TargetResult[];
  checks: CheckResult[];
  /** SQL statements the service sent for one request, per database mode (scenarios that count them). */
  statementsPerRequest?: Record<string, number>;
}

export interface RateLimitFacts {
  plan: string;
  perKeyPerMinute: number;
  /** Keys seeded and used for the warm-up: sized for poolSizedForRps over poolLoadSeconds. */
  keysSeeded: number;
  poolSizedForRps: number;
  poolLoadSeconds: number;
  /** The fastest service warm-up, which sizes the keys of the rounds (roundKeysHeadroom times what it needs). */
  warmupPeakServiceRps: number;
  roundKeysHeadroom: number;
  minRoundKeys: number;
  /** Keys the measured rounds rotate through, and the seconds of load one service gets in a minute of them. */
  roundKeys: number;
  roundLoadSeconds: number;
  /** The highest req/s any service target reached in a measured run. */
  peakServiceRps: number;
  /**
   * Share of one key's per-minute window that roundLoadSeconds at that peak would spend, with the
   * load spread evenly over the round keys. Below 1 means no key can reach its limit.
   */
  peakShareOfKeyWindow: number;
}

export interface BenchResults {
  schemaVersion: 1;
  generatedAt: string;
  smoke: boolean;
  source: SourceFacts;
  machine: MachineFacts;
  settings: {
    rounds: number;
    durationSeconds: number;
    warmupSeconds: number;
    warmupRequests: number;
    warmupMaxRuns: number;
    /** Warm-up runs at most of a scenario that reads every seeded shipment once first (absent before). */
    warmupCoverMaxRuns?: number;
    /** Before each run, wait (at most maxMs) until all targets together use under quietShare of a core. */
    settle?: {
      windowMs: number;
      quietShare: number;
      maxMs: number;
      /** Set when a warm-up run that goes on from the one before did not wait (absent before). */
      notBeforeContinuedWarmups?: true;
    };
    connections: number;
    threads: number;
    serverCpus: string;
    loadCpus: string;
    modes: DatabaseMode[];
    postgres: "started by the harness" | "BENCH_PG_URL" | "not used";
  };
  rateLimits: RateLimitFacts;
  targets: TargetInfo[];
  scenarios: ScenarioResult[];
  /** Bulk latency, webhook fan-out, refresh scheduling and scale (bench/runners.ts), when run. */
  runners?: import("./runners").RunnerResults;
  /** Answers by HTTP status, from each service's /metrics after the run (warm-up included). */
  statusCounts: Record<string, Record<string, number>>;
  pending: readonly PendingScenario[];
  warnings: string[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The baseline a target is compared with: Express + Prisma only within the same database mode. */
export function baselineTargetId(target: TargetInfo, baseline: BaselineKind): string | undefined {
  if (baseline === "express-prisma") {
    if (!target.mode) return undefined;
    return `express-prisma-${target.mode}`;
  }
  return baseline;
}

export function summariseScenario(input: {
  scenario: Scenario;
  targets: readonly TargetInfo[];
  runs: ReadonlyMap<string, { rounds: WrkRun[]; warmups: WrkRun[] }>;
  answerBytes: Record<string, number>;
  baselineBodyBytes: number;
  modes: readonly DatabaseMode[];
  statementsPerRequest?: Record<string, number>;
}): ScenarioResult {
  const { scenario, targets, runs } = input;
  const results: TargetResult[] = targets.map((target) => {
    const run = runs.get(target.id) ?? { rounds: [], warmups: [] };
    const ratios: Partial<Record<BaselineKind, number>> = {};
    for (const baseline of ["node-http", "express-static", "express-prisma"] as const) {
      const baselineId = baselineTargetId(target, baseline);
      if (!baselineId || baselineId === target.id) continue;
      const other = runs.get(baselineId);
      if (!other) continue;
      const perRound = run.rounds
        .map((r, i) => {
          const b = other.rounds[i];
          return b && b.rps > 0 ? r.rps / b.rps : Number.NaN;
        })
        .filter((v) => Number.isFinite(v));
      if (perRound.length > 0) ratios[baseline] = median(perRound);
    }
    return {
      targetId: target.id,
      rounds: run.rounds,
      warmups: run.warmups,
      medianRps: median(run.rounds.map((r) => r.rps)),
      p50Ms: median(run.rounds.map((r) => r.p50Ms)),
      p99Ms: median(run.rounds.map((r) => r.p99Ms)),
      cpuUsPerRequest: medianOf(run.rounds.map((r) => r.serverCpuUsPerRequest)),
      cpuShare: medianOf(run.rounds.map((r) => r.serverCpuShare)),
      otherLoad: medianOf(run.rounds.map((r) => r.otherCpuShare)),
      rpsSpread: spread(run.rounds.map((r) => r.rps)),
      requests: sum(run.rounds.map((r) => r.requests)),
      non2xx: sum(run.rounds.map((r) => r.non2xx)),
      socketErrors: sum(
        run.rounds.map(
          (r) => r.socketErrors.connect + r.socketErrors.read + r.socketErrors.write + r.socketErrors.timeout,
        ),
      ),
      warmupNon2xx: sum(run.warmups.map((r) => r.non2xx)),
      ratios,
    };
  });

  const checks: CheckResult[] = [];
  for (const check of scenario.targets) {
    if (check.kind === "ratio") {
      for (const mode of ["pglite", "postgres"] as const) {
        const description = `quayside (${mode}) >= ${pct(check.atLeast)} of ${BASELINE_LABELS[check.baseline]}`;
        const service = results.find((r) => r.targetId === `quayside-${mode}`);
        const value = service?.ratios[check.baseline];
        checks.push({
          scenarioId: scenario.id,
          mode,
          kind: "ratio",
          baseline: check.baseline,
          threshold: check.atLeast,
          description,
          source: check.source,
          value,
          display: value === undefined ? "-" : pct(value),
          status: value === undefined ? "not measured" : value >= check.atLeast ? "met" : "missed",
        });
      }
    } else if (check.kind === "statements") {
      for (const mode of input.modes) {
        const value = input.statementsPerRequest?.[mode];
        checks.push({
          scenarioId: scenario.id,
          mode,
          kind: "statements",
          baseline: undefined,
          threshold: check.atMost,
          description: `quayside (${mode}) <= ${check.atMost} SQL statements per request`,
          source: check.source,
          value,
          display: value === undefined ? "-" : String(value),
          status: value === undefined ? "not measured" : value <= check.atMost ? "met" : "missed",
        });
      }
    } else {
      const service = input.modes.includes(check.mode)
        ? results.find((r) => r.targetId === `quayside-${check.mode}`)
        : undefined;
      const value = service && service.rounds.length > 0 ? service.p99Ms : undefined;
      checks.push({
        scenarioId: scenario.id,
        mode: check.mode,
        kind: "p99",
        baseline: undefined,
        threshold: check.belowMs,
        description: `p99 < ${check.belowMs} ms on ${check.mode}`,
        source: check.source,
        value,
        display: value === undefined ? "-" : `${value.toFixed(2)} ms`,
        status: value === undefined ? "not measured" : value < check.belowMs ? "met" : "missed",
      });
    }
  }

  return {
    id: scenario.id,
    name: scenario.name,
    what: scenario.what,
    method: scenario.request.method,
    path: scenario.request.path,
    answerBytes: input.answerBytes,
    baselineBodyBytes: input.baselineBodyBytes,
    targets: results,
    checks,
    statementsPerRequest: input.statementsPerRequest,
  };
}

export const BASELINE_LABELS: Readonly<Record<BaselineKind, string>> = {
  "node-http": "bare node:http (static)",
  "express-static": "bare Express (static)",
  "express-prisma": "bare Express + Prisma",
};

export function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}

function medianOf(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return known.length > 0 ? median(known) : undefined;
}

function spread(values: readonly number[]): number | undefined {
  if (values.length < 2) return undefined;
  const m = median(values);
  return m > 0 ? (Math.max(...values) - Math.min(...values)) / m : undefined;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * One page from two runs of one commit: the HTTP scenarios of the first and the runners of the second.
 * A full run (seed, warm-up, five rounds of every scenario on both databases, then the runners with
 * their own seeds) takes longer than one sitting on the 2-core machine; its two halves can run apart
 * (`--scenarios` naming the HTTP scenarios, then the runners) and be rendered together. Runs of two
 * commits would put figures of two codes side by side as one, so they are refused.
 */
export function mergeRuns(scenarioRun: BenchResults, runnerRun: BenchResults): BenchResults {
  if (scenarioRun.source.commit !== runnerRun.source.commit) {
    throw new Error(
      `the two runs measured different commits (${scenarioRun.source.commit} and ${runnerRun.source.commit})`,
    );
  }
  if (scenarioRun.smoke || runnerRun.smoke) throw new Error("a smoke run is not a measurement to render");
  if (scenarioRun.runners && Object.keys(scenarioRun.runners).some((k) => k !== "warnings")) {
    throw new Error("the first run has runner results of its own: render it alone");
  }
  if (!runnerRun.runners) throw new Error("the second run has no runner results");
  const statusCounts = { ...scenarioRun.statusCounts };
  for (const [target, counts] of Object.entries(runnerRun.statusCounts)) {
    const merged = { ...statusCounts[target] };
    for (const [status, n] of Object.entries(counts)) merged[status] = (merged[status] ?? 0) + n;
    statusCounts[target] = merged;
  }
  return {
    ...scenarioRun,
    source: {
      ...scenarioRun.source,
      uncommittedFiles: Math.max(scenarioRun.source.uncommittedFiles, runnerRun.source.uncommittedFiles),
    },
    runners: runnerRun.runners,
    statusCounts,
    warnings: [...scenarioRun.warnings, ...runnerRun.warnings],
  };
}
