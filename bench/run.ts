import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DatabaseTarget } from "../src/config";
import { freePort, postgresBinDir } from "../test/support/servers";
import { type BaselineRoute, SCENARIO_HEADER } from "./baselines/config";
import { CONGESTION_ID, congestionConsoleLines, runCongestion, writeCongestion } from "./congestion/scenario";
import { DatabaseWorker } from "./databases";
import { DISRUPTIONS_ID, runDisruptions, writeDisruptions } from "./disruptions/scenario";
import { ETA_CALIBRATION_ID, runEtaCalibration, writeEtaCalibration } from "./eta-calibration/scenario";
import { consoleLines } from "./eta-replay/page";
import { ETA_REPLAY_ID, runEtaReplay, writeEtaReplay } from "./eta-replay/scenario";
import {
  machineFacts,
  otherCpuShare,
  otherProcessesCpuMs,
  ownProcessGroup,
  sampleBusyPercent,
  sourceFacts,
  userId,
} from "./machine";
import { resolveNodeBinary } from "./node-binaries";
import { type BenchOptions, type DatabaseMode, OptionsError, parseOptions } from "./options";
import { Supervisor } from "./processes";
import { consoleSummary, DOC_PATH, RESULTS_DIR, writePerformanceDoc } from "./report";
import { type BenchResults, median, type ScenarioResult, summariseScenario } from "./results";
import { type RunnerResults, runLatencyScenarios } from "./runners";
import { PENDING_SCENARIOS, RUNNER_IDS, SCENARIOS, type Scenario, withFacts } from "./scenarios";
import { BENCH_RATE_PER_MINUTE, generateKeys } from "./seed";
import { type ShipmentFacts, TEMPLATE_COUNT } from "./shipments-seed";
import { type RunningSimulatorProcess, serviceCarrierEnv, startSimulatorProcess } from "./simulator";
import { type StartedTarget, startBaseline, startService, TargetStartError } from "./targets";
import {
  processCpuMs,
  QUIET,
  runWrk,
  toolVersion,
  untilQuiet,
  type WrkRun,
  writeScenarioScript,
} from "./wrk";

/**
 * `npm run bench`: the service in each database mode and its baselines, all up at once, measured
 * round-robin with wrk; results to bench/results and docs/performance.md. `--smoke` is the few-second
 * version CI runs: it fails when the harness breaks, never because a figure is slow.
 */

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Rate limits are kept out of the measurement by spreading the load over keys, and the number of
 * keys is itself a cost: the service writes a key's `last_used_at` at most once a minute, so every
 * key in rotation adds one UPDATE a minute. Two numbers, then:
 * - the pool, seeded and used for the warm-up, is sized for POOL_SIZED_FOR_RPS held for all the load
 *   one service gets in a minute. That rate is twice the bare-Express ceiling measured on this kind
 *   of machine (~11,000 req/s, measured with wrk before this harness), which the service, built on
 *   Express, cannot pass;
 * - the measured rounds rotate through only as many keys as ROUND_KEYS_HEADROOM times the services'
 *   peak warm-up rate needs over the load one service gets in a minute of rounds, so the last-used
 *   writes stay a sliver of the requests, as for a real client with one key (one per up to 600).
 * A 429 still counts as non-2xx, and the run warns and says which --keys to use if one appears.
 */
const POOL_SIZED_FOR_RPS = 25_000;
/** Warm-up runs per target and scenario at most, however few requests a slow target answers. */
const WARMUP_MAX_RUNS = 5;
/** The warm-up of a scenario over every seeded shipment stops here even if it has not read them all. */
const WARMUP_COVER_MAX_RUNS = 60;
const ROUND_KEYS_HEADROOM = 3;
const MIN_ROUND_KEYS = 16;

/** Seconds of load one service gets within one 60 s window, at most. */
function loadSecondsPerWindow(scenarios: number, seconds: number): number {
  return Math.min(60, scenarios * seconds);
}

/**
 * The same bound for the measured rounds, from their schedule: a target's runs are at least
 * `targets - 1` runs apart (one per scenario block, and the order rotates by one between rounds), so
 * a 60 s window meets at most floor(ceil(60 / d) / (targets - 1)) + 1 of them.
 */
function roundLoadSecondsPerWindow(input: {
  scenarios: number;
  rounds: number;
  durationSeconds: number;
  targets: number;
}): number {
  const total = loadSecondsPerWindow(input.scenarios, input.rounds * input.durationSeconds);
  if (input.targets < 2) return total;
  const runs = Math.floor(Math.ceil(60 / input.durationSeconds) / (input.targets - 1)) + 1;
  return Math.min(total, runs * input.durationSeconds);
}

/** The plan of the bench organisation, the one whose per-key window is negotiated (seed.ts). */
const BENCH_PLAN = "custom" as const;

class HarnessError extends Error {}

/** Progress lines; quiet once interrupted, when the main flow may still be unwinding. */
const log = (message: string) => {
  if (!interrupted) process.stdout.write(`[bench] ${message}\n`);
};
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
/** A path as the user would type it from here, unless that means climbing out of the tree. */
const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") ? relative : file;
};

const supervisor = new Supervisor();
/** Steps still to run on the way out, last registered first; each runs at most once. */
const cleanups: { what: string; run: () => Promise<void> | void }[] = [];
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await supervisor.stopAll();
    for (let step = cleanups.pop(); step; step = cleanups.pop()) {
      try {
        await step.run();
      } catch (error) {
        process.stderr.write(`[bench] cleanup: ${step.what} failed: ${(error as Error).message}\n`);
      }
    }
  })();
  return cleaning;
}

/** Registers a step for the way out; if the way out has already begun, runs it now. */
function onExit(what: string, run: () => Promise<void> | void): void {
  if (cleaning) {
    void Promise.resolve()
      .then(run)
      .catch(() => undefined);
    return;
  }
  cleanups.push({ what, run });
}

/** From the synchronous `exit` event: kill what is left and start whatever steps remain. */
function cleanupNow(): void {
  supervisor.killAllNow();
  for (let step = cleanups.pop(); step; step = cleanups.pop()) {
    try {
      void Promise.resolve(step.run()).catch(() => undefined);
    } catch {
      // best effort
    }
  }
}

/**
 * One Ctrl-C may arrive as several signals (the terminal's SIGINT to the whole group, then npm and
 * tsx relaying theirs), so later signals do not cut the cleanup short; a deadline does, if it hangs.
 */
const CLEANUP_DEADLINE_MS = 30_000;
let interrupted = false;
function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  log(`${signal}: stopping every server, PostgreSQL and temp folder`);
  interrupted = true;
  setTimeout(() => process.exit(130), CLEANUP_DEADLINE_MS).unref();
  void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
}

/** "0", "0,2", "0-3" -> CPU numbers. */
function cpuList(list: string): number[] {
  return list.split(",").flatMap((part) => {
    const [from, to] = part.split("-").map(Number);
    return to === undefined ? [from!] : Array.from({ length: to - from! + 1 }, (_, i) => from! + i);
  });
}

function selectScenarios(options: BenchOptions): { scenarios: Scenario[]; runners: string[] } {
  if (options.scenarioIds.length === 0) {
    return {
      scenarios: SCENARIOS.filter((s) => !options.smoke || s.smoke),
      runners: options.smoke ? (options.nodeExplicit ? ["node-versions"] : []) : [...RUNNER_IDS],
    };
  }
  const known = [
    ...SCENARIOS.map((s) => s.id),
    ...RUNNER_IDS,
    ETA_CALIBRATION_ID,
    ETA_REPLAY_ID,
    DISRUPTIONS_ID,
    CONGESTION_ID,
  ];
  for (const id of options.scenarioIds) {
    if (!known.includes(id)) throw new OptionsError(`Unknown scenario ${id}; known: ${known.join(", ")}`);
  }
  return {
    scenarios: SCENARIOS.filter((s) => options.scenarioIds.includes(s.id)),
    runners: RUNNER_IDS.filter(
      (id) => options.scenarioIds.includes(id) || (id === "node-versions" && options.nodeExplicit),
    ),
  };
}

/**
 * How long the answer fetched once per scenario (the baselines' bytes) may take: the service's first
 * answer of a list compiles and reads cold, and on a machine shared with other sessions that took
 * over 10 s (runs of 2026-11-29 failed there after half an hour of seeding).
 */
const FIRST_ANSWER_TIMEOUT_MS = 120_000;

// The harness's own one-off requests (readiness polls, the answer fetched once, the status counts)
// each take a connection of their own (`Connection: close`). A kept-alive socket from the readiness
// polls sat idle while the other targets started; a baseline whose event loop PGlite had blocked
// (createServices' start-up backfill) ran its keep-alive timeout and the waiting request in the same
// turn, and closed the socket under the request: "fetch failed" (ECONNRESET), the stored-read
// scenario's failure in both modes on 2026-11-29.

async function fetchAnswer(
  url: string,
  scenario: Scenario,
  key: string,
): Promise<{ status: number; body: Buffer }> {
  const { method, path: requestPath, body, headers } = scenario.request;
  const response = await fetch(url + requestPath, {
    method,
    headers: {
      ...headers,
      Authorization: `Bearer ${key}`,
      [SCENARIO_HEADER]: scenario.id,
      Connection: "close",
    },
    body,
    signal: AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS),
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** Answers by status from the service's own counter, leaving out the harness's probes. */
async function statusCounts(url: string): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { Connection: "close" }, signal: AbortSignal.timeout(10_000) })
  ).text();
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("quayside_http_requests_total{")) continue;
    const route = /route="([^"]*)"/.exec(line)?.[1];
    const status = /status="([^"]*)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (!status || ["/readyz", "/metrics", "/healthz"].includes(route ?? "")) continue;
    counts[status] = (counts[status] ?? 0) + value;
  }
  return counts;
}

function pgliteVersion(): string {
  const pkg = JSON.parse(
    readFileSync(path.join(REPO_ROOT, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

/**
 * The eta-replay scenario: PostgreSQL when it can be started (the database then works on the second
 * core), PGlite otherwise or when `--modes` names it first; a smoke run uses PGlite unless told.
 */
async function runReplayScenario(options: BenchOptions): Promise<void> {
  const mode: DatabaseMode = options.modesExplicit
    ? options.modes[0]!
    : !options.smoke && (options.pgUrl || postgresBinDir())
      ? "postgres"
      : "pglite";
  let database: DatabaseTarget = { kind: "pglite", dataDir: "memory://" };
  let worker: DatabaseWorker | undefined;
  if (mode === "postgres") {
    if (options.pgUrl) database = { kind: "postgres", url: options.pgUrl };
    else {
      if (!postgresBinDir())
        throw new HarnessError("PostgreSQL server binaries not found (apt-get install -y postgresql)");
      worker = new DatabaseWorker(REPO_ROOT);
      const started = worker;
      onExit("stop the eta-replay database", () => started.close());
      database = { kind: "postgres", url: await worker.startPostgres() };
    }
  }
  try {
    const result = await runEtaReplay({
      split: options.etaSplit,
      voyages: options.voyages,
      smoke: options.smoke,
      database,
      log,
    });
    const stamp = `${result.generatedAt.slice(0, 10)}-${result.source.commit}`;
    const suffix = options.etaSplit === "tuning" ? "eta-replay-tuning" : "eta-replay";
    const file = options.smoke
      ? path.join(os.tmpdir(), `quayside-bench-smoke-${stamp}-${suffix}.json`)
      : path.join(RESULTS_DIR, `${stamp}-${suffix}.json`);
    const page = options.writeDocs && options.etaSplit === "validation";
    writeEtaReplay(result, file, { page });
    for (const line of consoleLines(result)) console.log(line);
    log(`eta-replay results: ${shown(file)}${page ? " and docs/eta-calibration.md" : ""}`);
    // The harness is broken, not the model, when the service stored nothing to score.
    if (result.service.scored === 0)
      throw new HarnessError("eta-replay: the service stored no prediction to score");
  } finally {
    if (worker) await worker.stopPostgres().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed === "help") return 0;
  const options = parsed;
  const started = Date.now();

  // The ETA calibration is computation only (no server, database or wrk): named alone, it is the run;
  // in a full run it comes first. Never in a smoke run unless named.
  const calibrationNamed = options.scenarioIds.includes(ETA_CALIBRATION_ID);
  if (calibrationNamed || (options.scenarioIds.length === 0 && !options.smoke)) {
    const result = runEtaCalibration();
    const stamp = `${new Date().toISOString().slice(0, 10)}-${sourceFacts(REPO_ROOT).commit.slice(0, 7)}`;
    const file = options.writeDocs ? writeEtaCalibration(result, RESULTS_DIR, stamp) : null;
    console.log(
      `ETA calibration: ${result.predictions} predictions of ${result.voyages} voyages in ${result.seconds} s`,
    );
    for (const b of result.buckets) {
      console.log(
        `  ${b.bucket.padEnd(7)} n=${String(b.predictions).padStart(5)} before-p50 ${b.beforeP50.toFixed(3)} before-p80 ${b.beforeP80.toFixed(3)} MAE p50 ${b.maeP50Hours} h carrier ${b.maeCarrierHours} h`,
      );
    }
    for (const c of result.checks)
      for (const f of c.failures) console.log(`  target missed (${c.bucket}): ${f}`);
    if (file) console.log(`  ${path.relative(REPO_ROOT, file)} and docs/eta-calibration.md written`);
    if (calibrationNamed && options.scenarioIds.length === 1) return 0;
  }

  // Disruption news quality (issue 35): each labelled corpus served as RSS to a service of its own
  // (PGlite), read back through /api/v1/disruptions. In a full run, and alone when named.
  const disruptionsNamed = options.scenarioIds.includes(DISRUPTIONS_ID);
  if (disruptionsNamed || (options.scenarioIds.length === 0 && !options.smoke)) {
    const commit = sourceFacts(REPO_ROOT).commit;
    const result = await runDisruptions(commit, options.disruptionsHeldOut);
    const stamp = `${new Date().toISOString().slice(0, 10)}-${commit.slice(0, 7)}`;
    const file = options.writeDocs ? writeDisruptions(result, RESULTS_DIR, stamp) : null;
    for (const c of result.corpora)
      for (const check of c.checks)
        if (!check.met) console.log(`  disruptions target missed (${c.name}): ${check.target}`);
    if (file) console.log(`  ${path.relative(REPO_ROOT, file)} and docs/disruptions-quality.md written`);
    if (disruptionsNamed && options.scenarioIds.length === 1) return 0;
  }

  // Port congestion quality (issue 36): the world's episodes and calm ports followed in 3-hour steps
  // (the replay of the service's arithmetic; BENCH_CONGESTION_PATH=service drives a running service).
  const congestionNamed = options.scenarioIds.includes(CONGESTION_ID);
  if (congestionNamed || (options.scenarioIds.length === 0 && !options.smoke)) {
    const commit = sourceFacts(REPO_ROOT).commit;
    const result = await runCongestion(commit, {
      path: process.env.BENCH_CONGESTION_PATH === "service" ? "service" : "replay",
      log,
    });
    const stamp = `${new Date().toISOString().slice(0, 10)}-${commit.slice(0, 7)}`;
    const file = options.writeDocs ? writeCongestion(result, RESULTS_DIR, stamp) : null;
    for (const line of congestionConsoleLines(result)) console.log(line);
    if (file) console.log(`  ${path.relative(REPO_ROOT, file)} and docs/congestion-quality.md written`);
    if (congestionNamed && options.scenarioIds.length === 1) return 0;
  }

  // The ETA on the service's own path: its own service instance and database, before anything else
  // starts. In every run unless other scenarios are named (a smoke run follows a handful of voyages).
  const replayNamed = options.scenarioIds.includes(ETA_REPLAY_ID);
  if (replayNamed || options.scenarioIds.length === 0) {
    await runReplayScenario(options);
    const others = options.scenarioIds.filter((id) => id !== ETA_REPLAY_ID && id !== ETA_CALIBRATION_ID);
    if (replayNamed && others.length === 0) return 0;
  }

  const wrkVersion = toolVersion("wrk", ["-v"])?.replace(/\s+Copyright.*$/, "");
  if (!wrkVersion) throw new HarnessError("wrk is not installed (apt-get install -y wrk)");
  if (!toolVersion("taskset", ["-V"]))
    throw new HarnessError("taskset is not installed (apt-get install -y util-linux)");

  const warnings: string[] = [];
  const busy = await sampleBusyPercent();
  const machine = machineFacts({ busyBeforeStartPercent: busy, wrk: wrkVersion });
  const source = sourceFacts(REPO_ROOT);
  const allowedCpus = new Set(Array.from({ length: machine.cores }, (_, i) => i));
  if (machine.cores < 2 && options.loadCpus === "1") {
    options.loadCpus = "0";
    warnings.push(
      `Only ${machine.cores} core: servers and wrk share it, so every figure includes wrk's own cost.`,
    );
  }
  for (const [flag, list] of [
    ["--server-cpus", options.serverCpus],
    ["--load-cpus", options.loadCpus],
  ] as const) {
    const missing = cpuList(list).filter((cpu) => !allowedCpus.has(cpu));
    if (missing.length > 0)
      throw new OptionsError(`${flag} ${list}: this machine has CPUs 0-${machine.cores - 1}`);
  }
  if (busy > 10) {
    warnings.push(
      `Other work kept ${busy}% of all cores busy in the second before start; absolute figures suffer, per-round ratios much less.`,
    );
  }

  const selected = selectScenarios(options);
  let scenarios = selected.scenarios;
  const runners = selected.runners;
  let modes = [...options.modes];
  if (modes.includes("postgres") && !options.pgUrl && !postgresBinDir()) {
    if (options.smoke && !options.modesExplicit) {
      modes = modes.filter((m) => m !== "postgres");
      warnings.push("PostgreSQL server binaries not found: the smoke run measured PGlite only.");
    } else {
      throw new HarnessError(
        "PostgreSQL server binaries not found (apt-get install -y postgresql), or set BENCH_PG_URL, or --modes pglite",
      );
    }
  }
  if (runners.length > 0 && !modes.includes("postgres")) {
    warnings.push(`${runners.join(", ")} run on PostgreSQL only; skipped with --modes ${modes.join(",")}.`);
    runners.length = 0;
  }
  const perKeyPerMinute = BENCH_RATE_PER_MINUTE;
  const poolSeconds = loadSecondsPerWindow(
    scenarios.length,
    options.warmupSeconds * WARMUP_MAX_RUNS + options.rounds * options.durationSeconds,
  );
  const keyCount = Math.max(
    options.keys ?? 0,
    MIN_ROUND_KEYS,
    Math.ceil((POOL_SIZED_FOR_RPS * poolSeconds) / perKeyPerMinute),
  );
  // Other Node binaries first: an install from the registry fails before anything is measured.
  const nodeBinaries = runners.includes("node-versions")
    ? options.nodeMajors.map((major) => resolveNodeBinary(major, log))
    : [];
  const runTag = `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}-${process.pid}`;
  log(
    `${options.smoke ? "smoke run" : "full run"}: ${[...scenarios.map((s) => s.id), ...runners].join(", ")} on ${modes.join(" + ")}; ` +
      `${options.rounds} round(s) x ${options.durationSeconds} s, warm-up ${options.warmupSeconds} s, ${keyCount} keys in the pool`,
  );

  const tempDir = mkdtempSync(path.join(os.tmpdir(), "quayside-bench-"));
  onExit("remove temp folder", () => rmSync(tempDir, { recursive: true, force: true }));
  const keys = generateKeys(keyCount);
  const keysFile = path.join(tempDir, "keys.txt");
  writeFileSync(keysFile, `${keys.join("\n")}\n`);
  mkdirSync(path.join(tempDir, "warmup"));
  mkdirSync(path.join(tempDir, "rounds"));

  // Databases: one PGlite folder per process that opens it (a folder has one opener), one PostgreSQL
  // database shared by the service and its Express + Prisma baseline. The work runs in a child process.
  const worker = new DatabaseWorker(REPO_ROOT);
  onExit("stop the database worker", () => worker.close());
  const databases = new Map<string, DatabaseTarget>();
  let phase = Date.now();
  if (modes.includes("postgres")) {
    if (options.pgUrl) {
      const target: DatabaseTarget = { kind: "postgres", url: options.pgUrl };
      databases.set("postgres", target);
      // Someone else's database: this run's organisation goes again, even if seeding fails halfway.
      onExit("remove the bench organisation", () => worker.removeAccount(target, runTag));
    } else {
      log("starting PostgreSQL");
      // Registered first: a Ctrl-C during initdb still stops the server once it is up.
      onExit("stop PostgreSQL", () => worker.stopPostgres());
      databases.set("postgres", { kind: "postgres", url: await worker.startPostgres() });
    }
  }
  if (modes.includes("pglite")) {
    databases.set("pglite-service", { kind: "pglite", dataDir: path.join(tempDir, "pglite-service") });
    databases.set("pglite-baseline", { kind: "pglite", dataDir: path.join(tempDir, "pglite-baseline") });
  }
  // The carrier simulator, a process of its own: seeding tracks real containers through it, the live
  // track scenario and the latency runners call it.
  let simulator: RunningSimulatorProcess | undefined;
  const needsShipments = scenarios.some((s) => s.needsShipments);
  if (needsShipments || scenarios.some((s) => s.needsSimulator) || runners.length > 0) {
    simulator = await startSimulatorProcess(supervisor, {
      port: await freePort(),
      cpus: options.loadCpus,
      repoRoot: REPO_ROOT,
      tempDir,
    });
  }
  const carrierEnv = simulator ? serviceCarrierEnv(simulator) : {};
  const shipmentCount = options.shipments;
  log(
    `seeding ${databases.size} database(s) with the bench organisation and ${keyCount} keys${needsShipments ? `, ${shipmentCount.toLocaleString("en-GB")} shipments` : ""}`,
  );
  let facts: ShipmentFacts | undefined;
  const statementsByScenario = new Map<string, Record<string, number>>();
  // The baseline's PGlite folder is a copy of the service's, made once that is seeded and closed.
  // One database at a time: the seeds share the database process, where PGlite's bulk work blocks the
  // thread for seconds, and a tracking instance seeding the other database in the same seconds had its
  // interactive transactions expire (a 500 after 16 s against Prisma's 5 s).
  for (const [name, target] of databases.entries()) {
    await (async () => {
      if (name === "pglite-baseline") return;
      const mode: DatabaseMode = target.kind === "postgres" ? "postgres" : "pglite";
      const outcome = await worker.seed({
        target,
        mode,
        rawKeys: keys,
        runTag,
        scenarioIds: scenarios.map((s) => s.id),
        shipments:
          needsShipments && simulator
            ? {
                count: shipmentCount,
                templates: options.smoke ? 2 : TEMPLATE_COUNT,
                simulatorUrl: simulator.url,
                registryFile: simulator.registryFile,
              }
            : undefined,
      });
      log(
        `seeded ${name}: ${Object.entries(outcome.steps)
          .map(([step, s]) => `${step} ${s} s`)
          .join(", ")}`,
      );
      // The simulator's world is deterministic: every database tracked the same containers.
      facts ??= outcome.shipments;
      for (const [id, count] of Object.entries(outcome.statements ?? {})) {
        statementsByScenario.set(id, { ...statementsByScenario.get(id), [mode]: count });
      }
      if (target.kind === "pglite") {
        const copy = databases.get("pglite-baseline");
        if (copy?.kind === "pglite") cpSync(target.dataDir, copy.dataDir, { recursive: true });
      }
      if (mode === "postgres") machine.postgres = outcome.serverVersion;
      else machine.pglite = `@electric-sql/pglite ${pgliteVersion()} (${outcome.serverVersion})`;
    })();
  }

  scenarios = scenarios.map((s) => withFacts(s, facts));

  // The services first: their real answers are what the baselines serve.
  log(
    `databases ready in ${seconds(phase)}; starting the service (${modes.join(", ")}) pinned to CPU ${options.serverCpus}`,
  );
  phase = Date.now();
  const services = await Promise.all(
    modes.map(async (mode) =>
      startService(supervisor, {
        mode,
        port: await freePort(),
        database: databases.get(mode === "postgres" ? "postgres" : "pglite-service")!,
        cpus: options.serverCpus,
        repoRoot: REPO_ROOT,
        env: carrierEnv,
        // A smoke run checks the harness on the stored read: on the slower CI machine the world's
        // build and the wait for it were 75 s of the run's 335 s.
        withoutSandboxWorld: options.smoke,
        cpuProfDir: options.cpuProfDir && path.join(path.resolve(options.cpuProfDir), mode),
      }),
    ),
  );

  const bodiesDir = path.join(tempDir, "bodies");
  mkdirSync(bodiesDir);
  const routes: BaselineRoute[] = [];
  const answerBytes = new Map<string, Record<string, number>>();
  for (const scenario of scenarios) {
    const sizes: Record<string, number> = {};
    let reference: Buffer | undefined;
    for (const service of services) {
      const answer = await fetchAnswer(service.url, scenario, keys[0]!);
      const problem = scenario.checkAnswer(answer.status, answer.body.toString("utf8"));
      if (problem) {
        throw new HarnessError(
          `${service.info.label} gave no real answer to ${scenario.name}: ${problem}\n${answer.body.toString("utf8").slice(0, 500)}`,
        );
      }
      sizes[service.info.id] = answer.body.length;
      reference ??= answer.body;
      if (answer.body.length !== reference.length) {
        warnings.push(
          `${scenario.name}: answers differ in size between modes (${JSON.stringify(sizes)}); baselines serve the first.`,
        );
      }
    }
    const bodyFile = path.join(bodiesDir, `${scenario.id}.json`);
    writeFileSync(bodyFile, reference!);
    answerBytes.set(scenario.id, sizes);
    routes.push({
      scenario: scenario.id,
      method: scenario.request.method,
      path: scenario.request.path,
      route: scenario.route ?? scenario.request.path.split("?")[0]!,
      bodyFile,
      prismaWork: scenario.prismaWork,
    });
  }

  log(`service ready in ${seconds(phase)}; starting the baselines`);
  phase = Date.now();
  const configDir = path.join(tempDir, "baselines");
  mkdirSync(configDir);
  const common = { routes, cpus: options.serverCpus, repoRoot: REPO_ROOT, configDir, env: carrierEnv };
  const baselines = await Promise.all([
    startBaseline(supervisor, { ...common, kind: "node-http", port: await freePort() }),
    startBaseline(supervisor, { ...common, kind: "express-static", port: await freePort() }),
    ...modes.map(async (mode) =>
      startBaseline(supervisor, {
        ...common,
        kind: "express-prisma",
        mode,
        database: databases.get(mode === "postgres" ? "postgres" : "pglite-baseline"),
        port: await freePort(),
      }),
    ),
  ]);
  const targets: StartedTarget[] = [...services, ...baselines];

  // Every target must answer every scenario with a 2xx and the same bytes before any load.
  for (const scenario of scenarios) {
    const expected = readFileSync(path.join(bodiesDir, `${scenario.id}.json`)).length;
    for (const target of baselines) {
      const asked = Date.now();
      const answer = await fetchAnswer(target.url, scenario, keys[keys.length - 1]!).catch(
        (error: unknown) => {
          throw new HarnessError(
            `${target.info.label} did not answer ${scenario.name} after ${Date.now() - asked} ms (${String(error)}${error instanceof Error && error.cause ? `: ${String(error.cause)}` : ""}); ${target.process.exit ?? "still running"}:\n${target.process.output().slice(-3_000)}`,
          );
        },
      );
      if (answer.status < 200 || answer.status > 299 || answer.body.length !== expected) {
        throw new HarnessError(
          `${target.info.label} answered ${scenario.name} with HTTP ${answer.status}, ${answer.body.length} B (expected ${expected} B)`,
        );
      }
    }
  }

  const warmupScripts = new Map(
    scenarios.map((s) => [
      s.id,
      writeScenarioScript(path.join(tempDir, "warmup"), s, keysFile, { warmup: true }),
    ]),
  );
  let roundScripts = warmupScripts;
  const runs = new Map<string, Map<string, { rounds: WrkRun[]; warmups: WrkRun[] }>>(
    scenarios.map((s) => [s.id, new Map(targets.map((t) => [t.info.id, { rounds: [], warmups: [] }]))]),
  );
  // PostgreSQL backends serve this run (and possibly another session's tests): not counted as others.
  const postgresUid = userId("postgres");
  const notOthers = new Set(postgresUid === undefined ? [] : [postgresUid]);
  /**
   * Waits until every target is idle: since all servers share one core, the tail of one target's load
   * would otherwise be charged to whichever target runs next.
   */
  // Before each run, at most QUIET.maxMs, until all targets together use under 5 % of a core.
  const settle = () => untilQuiet(targets.map((t) => t.process.pid));
  const load = async (
    scripts: Map<string, string>,
    scenario: Scenario,
    target: StartedTarget,
    seconds: number,
    /** False for a warm-up run that goes on from the one before: load follows load, nothing is measured. */
    settleFirst = true,
  ): Promise<WrkRun> => {
    if (supervisor.unexpectedExits.length > 0) {
      throw new HarnessError(`a target stopped during the run: ${supervisor.unexpectedExits.join("; ")}`);
    }
    const settledMs = settleFirst ? await settle() : 0;
    const ours = new Set([ownProcessGroup(), ...supervisor.groups(), ...(worker.pid ? [worker.pid] : [])]);
    const idle = targets.filter((t) => t !== target);
    const idleBefore = idle.map((t) => processCpuMs(t.process.pid) ?? 0);
    const before = otherProcessesCpuMs(ours, notOthers);
    const run = await runWrk(supervisor, {
      url: target.url,
      script: scripts.get(scenario.id)!,
      seconds,
      connections: options.connections,
      cpus: options.loadCpus,
      serverPid: target.process.pid,
    });
    const after = otherProcessesCpuMs(ours, notOthers);
    const idleMs = idle.reduce((ms, t, i) => ms + (processCpuMs(t.process.pid) ?? 0) - idleBefore[i]!, 0);
    return {
      ...run,
      settledMs,
      otherCpuShare: otherCpuShare(before, after, run.durationSeconds, machine.cores),
      idleTargetsCpuShare: run.durationSeconds > 0 ? idleMs / 1000 / run.durationSeconds : undefined,
    };
  };

  const slots = scenarios.length * targets.length;
  // Slow targets repeat their warm-up, so this is a lower bound.
  const estimate = slots * (options.warmupSeconds + options.rounds * options.durationSeconds);
  log(
    `baselines ready in ${seconds(phase)}; ${targets.length} targets up; warm-up and ${options.rounds} round(s), at least ${estimate < 120 ? `${estimate} s` : `${Math.ceil(estimate / 60)} min`}`,
  );
  for (const scenario of scenarios) {
    for (const target of targets) {
      const warmups = runs.get(scenario.id)!.get(target.info.id)!.warmups;
      const answered = () => warmups.reduce((n, r) => n + r.requests, 0);
      // A scenario that reads the seeded shipments at random warms up until each was read once; a
      // smoke run measures nothing, so it does not.
      const toCover = scenario.warmupLua && !options.smoke ? (facts?.bulkCount ?? 0) : 0;
      do {
        // Each run goes on where the last stopped, so the walk over the seeded shipments covers them.
        if (scenario.warmupLua) {
          warmupScripts.set(
            scenario.id,
            writeScenarioScript(path.join(tempDir, "warmup"), scenario, keysFile, {
              warmup: true,
              warmupStart: answered(),
            }),
          );
        }
        // Only the first warm-up run of a target waits for the targets to be quiet: the runs that go on
        // over the seeded shipments follow each other as one load (waiting up to 15 s before each of
        // up to 60 runs per target made the warm-up of a full run 40 minutes).
        warmups.push(
          await load(warmupScripts, scenario, target, options.warmupSeconds, warmups.length === 0),
        );
      } while (
        (warmups.length < WARMUP_MAX_RUNS && answered() < options.warmupRequests) ||
        (warmups.length < WARMUP_COVER_MAX_RUNS && answered() < toCover)
      );
    }
  }
  const serviceRuns = (pick: (r: { rounds: WrkRun[]; warmups: WrkRun[] }) => WrkRun[]) =>
    [...runs.values()].flatMap((byTarget) =>
      services.flatMap((service) => pick(byTarget.get(service.info.id)!).map((r) => r.rps)),
    );
  const warmupPeakRps = Math.max(0, ...serviceRuns((r) => r.warmups));
  const roundSeconds = roundLoadSecondsPerWindow({
    scenarios: scenarios.length,
    rounds: options.rounds,
    durationSeconds: options.durationSeconds,
    targets: targets.length,
  });
  const roundKeyCount = Math.min(
    keyCount,
    options.keys ??
      Math.max(
        MIN_ROUND_KEYS,
        Math.ceil((ROUND_KEYS_HEADROOM * warmupPeakRps * roundSeconds) / perKeyPerMinute),
      ),
  );
  const roundKeysFile = path.join(tempDir, "rounds", "keys.txt");
  writeFileSync(roundKeysFile, `${keys.slice(0, roundKeyCount).join("\n")}\n`);
  roundScripts = new Map(
    scenarios.map((s) => [s.id, writeScenarioScript(path.join(tempDir, "rounds"), s, roundKeysFile)]),
  );
  log(
    `warm-up peak of the service ${Math.round(warmupPeakRps)} req/s: the rounds rotate through ${roundKeyCount} keys`,
  );
  for (let round = 0; round < options.rounds; round++) {
    // The order rotates so that no target always follows the same neighbour.
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const scenario of scenarios) {
      for (const target of order) {
        const run = await load(roundScripts, scenario, target, options.durationSeconds);
        runs.get(scenario.id)!.get(target.info.id)!.rounds.push(run);
      }
    }
    log(`round ${round + 1}/${options.rounds} done`);
  }

  const counts: BenchResults["statusCounts"] = {};
  for (const service of services) counts[service.info.id] = await statusCounts(service.url).catch(() => ({}));

  const scenarioResults: ScenarioResult[] = scenarios.map((scenario) =>
    summariseScenario({
      scenario,
      targets: targets.map((t) => t.info),
      runs: runs.get(scenario.id)!,
      answerBytes: answerBytes.get(scenario.id)!,
      baselineBodyBytes: readFileSync(path.join(bodiesDir, `${scenario.id}.json`)).length,
      modes,
      statementsPerRequest: statementsByScenario.get(scenario.id),
    }),
  );

  // The scenarios that are not HTTP throughput (bulk latency, fan-out, refresh, scale): after the
  // rounds, with the measured targets stopped so that they do not share the core.
  let runnerResults: RunnerResults | undefined;
  if (runners.length > 0 && simulator) {
    log("stopping the measured targets; latency runners next");
    await Promise.all(targets.map((t) => supervisor.stop(t.process)));
    runnerResults = await runLatencyScenarios({
      runners,
      supervisor,
      simulator,
      postgresUrl: (databases.get("postgres") as { url: string }).url,
      serverCpus: options.serverCpus,
      loadCpus: options.loadCpus,
      repoRoot: REPO_ROOT,
      tempDir,
      smoke: options.smoke,
      scaleSizes: options.scaleSizes,
      shipments: options.shipments,
      openLoopRate: options.rate,
      connections: options.connections,
      nodeBinaries,
      log,
      cpuProfDir: options.cpuProfDir && path.join(path.resolve(options.cpuProfDir), "runners"),
    });
    warnings.push(...runnerResults.warnings);
  }
  const peakServiceRps = Math.max(0, ...serviceRuns((r) => r.rounds));
  machine.loadAverageAtEnd = os.loadavg().map((v) => Math.round(v * 100) / 100);
  const otherLoads = [...runs.values()].flatMap((byTarget) =>
    [...byTarget.values()].flatMap((r) => r.rounds.map((run) => run.otherCpuShare ?? 0)),
  );
  const idleLoads = [...runs.values()].flatMap((byTarget) =>
    [...byTarget.values()].flatMap((r) => r.rounds.map((run) => run.idleTargetsCpuShare ?? 0)),
  );
  if (idleLoads.length > 0) {
    machine.idleTargetsDuringRuns = { median: median(idleLoads), max: Math.max(...idleLoads) };
    if (machine.idleTargetsDuringRuns.median > 0.05) {
      warnings.push(
        `The targets not under load used ${Math.round(machine.idleTargetsDuringRuns.median * 100)}% of a core during a median run (background work of an idle server), taken from the target under load.`,
      );
    }
  }
  if (otherLoads.length > 0) {
    machine.otherLoadDuringRuns = { median: median(otherLoads), max: Math.max(...otherLoads) };
    if (machine.otherLoadDuringRuns.median > 0.1) {
      warnings.push(
        `Other work used ${Math.round(machine.otherLoadDuringRuns.median * 100)}% of the machine during a median run: absolute figures are low and noisy; read the per-round ratios and the spread.`,
      );
    }
  }
  const results: BenchResults = {
    schemaVersion: 1,
    generatedAt: new Date().toISOString(),
    smoke: options.smoke,
    source,
    machine,
    settings: {
      rounds: options.rounds,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      warmupRequests: options.warmupRequests,
      warmupMaxRuns: WARMUP_MAX_RUNS,
      warmupCoverMaxRuns: WARMUP_COVER_MAX_RUNS,
      settle: { ...QUIET, notBeforeContinuedWarmups: true },
      connections: options.connections,
      threads: 1,
      serverCpus: options.serverCpus,
      loadCpus: options.loadCpus,
      modes,
      postgres: !modes.includes("postgres")
        ? "not used"
        : options.pgUrl
          ? "BENCH_PG_URL"
          : "started by the harness",
    },
    rateLimits: {
      plan: BENCH_PLAN,
      perKeyPerMinute,
      keysSeeded: keyCount,
      poolSizedForRps: POOL_SIZED_FOR_RPS,
      poolLoadSeconds: poolSeconds,
      warmupPeakServiceRps: warmupPeakRps,
      roundKeysHeadroom: ROUND_KEYS_HEADROOM,
      minRoundKeys: MIN_ROUND_KEYS,
      roundKeys: roundKeyCount,
      roundLoadSeconds: roundSeconds,
      peakServiceRps,
      peakShareOfKeyWindow: (peakServiceRps * roundSeconds) / roundKeyCount / perKeyPerMinute,
    },
    targets: targets.map((t) => t.info),
    scenarios: scenarioResults,
    runners: runnerResults,
    statusCounts: counts,
    pending: PENDING_SCENARIOS,
    warnings,
  };
  if (results.rateLimits.peakShareOfKeyWindow >= 1) {
    warnings.push(
      `The service peaked at ${Math.round(peakServiceRps)} req/s: ${roundSeconds} s at that rate would exceed the windows of the ${roundKeyCount} keys of the rounds; run with --keys ${Math.ceil((peakServiceRps * roundSeconds * 2) / perKeyPerMinute)}.`,
    );
  }
  for (const [id, byStatus] of Object.entries(counts)) {
    if (byStatus["429"])
      warnings.push(`${id} answered 429 ${byStatus["429"]} times: rate limits were hit, raise --keys.`);
  }

  // The harness is broken (not slow) when a target served nothing successfully.
  const broken = scenarioResults.flatMap((s) =>
    s.targets
      .filter((t) => t.requests - t.non2xx <= 0)
      .map(
        (t) =>
          `${s.name} / ${t.targetId}: no successful requests (${t.requests} answered, ${t.non2xx} non-2xx, ${t.socketErrors} socket errors)`,
      ),
  );

  const date = results.generatedAt.slice(0, 10);
  const resultsFile = options.out
    ? path.resolve(options.out)
    : options.smoke
      ? path.join(os.tmpdir(), `quayside-bench-smoke-${date}-${source.commit}.json`)
      : path.join(RESULTS_DIR, `${date}-${source.commit}.json`);
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${consoleSummary(results)}\n\n`);
  for (const warning of warnings) log(`warning: ${warning}`);
  log(`results: ${shown(resultsFile)}`);
  if (options.writeDocs && broken.length === 0) {
    writePerformanceDoc(results, resultsFile);
    log(`summary: ${shown(DOC_PATH)}`);
  }
  log(`took ${Math.round((Date.now() - started) / 1000)} s`);
  if (broken.length > 0) throw new HarnessError(broken.join("\n"));
  return 0;
}

process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);
process.on("exit", cleanupNow);

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  const known =
    error instanceof HarnessError || error instanceof OptionsError || error instanceof TargetStartError;
  if (!interrupted)
    process.stderr.write(
      `[bench] FAILED: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`,
    );
  exitCode = error instanceof OptionsError ? 2 : 1;
} finally {
  if (!interrupted) await cleanup();
}
if (!interrupted) process.exit(exitCode);
