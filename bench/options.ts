import { parseArgs } from "node:util";
import { z } from "zod";

/**
 * The harness's only reader of the command line and the environment. Flags win over variables;
 * `--smoke` changes the defaults only, so `--smoke --rounds 2` still means two rounds.
 */
export type DatabaseMode = "pglite" | "postgres";

export interface BenchOptions {
  smoke: boolean;
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  /**
   * A target's warm-up for a scenario repeats (up to WARMUP_MAX_RUNS runs) until it has answered this
   * many requests: a few seconds warm a 20,000 req/s server, not a 200 req/s one.
   */
  warmupRequests: number;
  connections: number;
  /** Empty means every implemented scenario (the smoke run picks its own). */
  scenarioIds: string[];
  modes: DatabaseMode[];
  /** Set when the operator chose the modes; otherwise a smoke run skips PostgreSQL it cannot start. */
  modesExplicit: boolean;
  /** Keys the measured rounds rotate through; undefined means twice what the warm-up rate needs. */
  keys: number | undefined;
  /** An existing PostgreSQL database instead of a throw-away one (a bench organisation is added, then removed). */
  pgUrl: string | undefined;
  serverCpus: string;
  loadCpus: string;
  /** Where the results JSON goes; default bench/results/<date>-<commit>.json, or a temp file for a smoke run. */
  out: string | undefined;
  /** Regenerate docs/performance.md (never in a smoke run). */
  writeDocs: boolean;
  /** Bulk shipments seeded for the stored-data scenarios (100,000; 1,000 in a smoke run). */
  shipments: number;
  /** Shipment counts of the scale runner, ascending (PostgreSQL only). */
  scaleSizes: number[];
  /** Offered requests a second of the open-loop runner (and the node-versions runner's open loop). */
  rate: number;
  /** Node majors the node-versions runner runs the service under, beside the harness's own. */
  nodeMajors: string[];
  /** Set when --node was given: the node-versions runner joins whatever else was selected. */
  nodeExplicit: boolean;
  /** A folder for a V8 CPU profile of each measured service process (node --cpu-prof). */
  cpuProfDir: string | undefined;
  /** Voyages the eta-replay scenario follows through the service (300; a handful in a smoke run). */
  voyages: number;
  /** The eta-replay split: `validation` (judged, on the page) or `tuning` (what a model may be fitted on). */
  etaSplit: "validation" | "tuning";
  /** A held-out disruption corpus kept outside the project (a module exporting labelled items). */
  disruptionsHeldOut: string | undefined;
}

const USAGE = `Usage: npm run bench -- [options]

  --smoke               a few seconds: 1 round of 1 s, one scenario, results to a temp file (BENCH_SMOKE=1)
  --rounds N            measured rounds per target (BENCH_ROUNDS, default 5)
  --duration S          seconds per measured run (BENCH_DURATION, default 5)
  --warmup S            seconds of one warm-up run per target and scenario (BENCH_WARMUP, default 3)
  --warmup-requests N   repeat a target's warm-up runs (at most 5) until it answered N requests
                        (BENCH_WARMUP_REQUESTS, default 5000; 0 in a smoke run)
  --connections N       wrk connections (BENCH_CONNECTIONS, default 50)
  --scenarios a,b       scenario ids to run (BENCH_SCENARIOS, default all implemented)
  --modes pglite,postgres  database modes of the service (BENCH_MODES, default both)
  --keys N              API keys the measured rounds rotate through (BENCH_KEYS; default: twice what
                        the service's warm-up rate needs under its plan's per-key limit)
  --pg-url URL          use this PostgreSQL instead of starting one (BENCH_PG_URL)
  --server-cpus LIST    taskset CPU list for every server (BENCH_SERVER_CPUS, default 0)
  --load-cpus LIST      taskset CPU list for wrk (BENCH_LOAD_CPUS, default 1)
  --out FILE            results file (BENCH_OUT)
  --no-docs             do not regenerate docs/performance.md
  --shipments N         shipments seeded for the stored-data scenarios (BENCH_SHIPMENTS, default
                        100000; 1000 in a smoke run)
  --scale-sizes a,b     shipment counts of the scale runner (BENCH_SCALE_SIZES, default 100000,1000000;
                        1000,3000 in a smoke run); seeding 1,000,000 in bulk SQL takes about 90 s here
  --rate N              offered requests a second of the open-loop runner (BENCH_RATE, default 1000)
  --node a,b            Node majors for the node-versions runner, beside the harness's own (BENCH_NODE,
                        default 22,24; "none" for only the harness's own); the binaries come from the
                        npm registry (node-<platform>-<arch>) into ~/.cache/quayside/node. Giving
                        --node adds the node-versions runner to the selection

  --cpu-prof DIR        write a V8 CPU profile of each measured service process into DIR (node
                        --cpu-prof, written when the run stops it), to read where a scenario's time
                        goes; profiling costs CPU, so read the profile's shares, not the run's figures
                        (BENCH_CPU_PROF)

  --voyages N           voyages the eta-replay scenario tracks through the service (BENCH_VOYAGES,
                        default 300; 6 in a smoke run)
  --eta-split S         eta-replay split: validation (judged, written to docs/eta-calibration.md) or
                        tuning (another seed and months, the one to fit a model on; results file only)
                        (BENCH_ETA_SPLIT, default validation)

  Scenario ids: the HTTP scenarios of bench/scenarios.ts, and the runners bulk-track,
  webhook-fanout, refresh-scheduling, scale, open-loop and node-versions (PostgreSQL only; not in a
  smoke run unless named), and eta-calibration (the predictive ETA on 1,000 simulated voyages: no
  server, database or wrk; alone it is the whole run, writing docs/eta-calibration.md), and eta-replay
  (the predictive ETA on the service's own path: 300 voyages of the simulator's world tracked through the
  running service on a manual clock, every stored prediction scored against the true arrival; about 18
  minutes here; alone it is the whole run, writing the top of docs/eta-calibration.md; a smoke run
  follows a handful of voyages), and disruptions (the labelled news corpora served as RSS to a running
  service and read back through /api/v1/disruptions; under a minute, PGlite; alone it is the whole
  run, writing docs/disruptions-quality.md; --disruptions-heldout PATH (BENCH_DISRUPTIONS_HELDOUT) adds
  a held-out corpus kept outside the project, a module exporting its labelled items).
`;

export class OptionsError extends Error {}

const positiveInt = z.coerce.number().int().min(1);
const cpuList = z.string().regex(/^\d+([,-]\d+)*$/, "a CPU list looks like 0 or 0,2 or 0-3");
const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

export function parseOptions(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): BenchOptions | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        smoke: { type: "boolean" },
        rounds: { type: "string" },
        duration: { type: "string" },
        warmup: { type: "string" },
        "warmup-requests": { type: "string" },
        connections: { type: "string" },
        scenarios: { type: "string" },
        modes: { type: "string" },
        keys: { type: "string" },
        "pg-url": { type: "string" },
        "server-cpus": { type: "string" },
        "load-cpus": { type: "string" },
        out: { type: "string" },
        "no-docs": { type: "boolean" },
        shipments: { type: "string" },
        "scale-sizes": { type: "string" },
        rate: { type: "string" },
        node: { type: "string" },
        "cpu-prof": { type: "string" },
        voyages: { type: "string" },
        "eta-split": { type: "string" },
        "disruptions-heldout": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new OptionsError(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return "help";
  }
  const pick = (flag: string, variable: string): string | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === "string") return fromFlag;
    const fromEnv = env[variable];
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
  };
  const smoke = values.smoke === true || ["1", "true", "yes"].includes(env.BENCH_SMOKE ?? "");

  const parse = <T>(schema: z.ZodType<T>, raw: string | undefined, fallback: T, name: string): T => {
    if (raw === undefined) return fallback;
    const result = schema.safeParse(raw);
    if (!result.success) throw new OptionsError(`${name}: ${result.error.issues[0]?.message ?? "invalid"}`);
    return result.data;
  };

  const modesRaw = pick("modes", "BENCH_MODES");
  const modes = parse(list, modesRaw, ["pglite", "postgres"], "--modes");
  for (const mode of modes) {
    if (mode !== "pglite" && mode !== "postgres") throw new OptionsError(`--modes: unknown mode ${mode}`);
  }
  if (modes.length === 0) throw new OptionsError("--modes: name at least one of pglite, postgres");

  const options: BenchOptions = {
    smoke,
    rounds: parse(positiveInt, pick("rounds", "BENCH_ROUNDS"), smoke ? 1 : 5, "--rounds"),
    durationSeconds: parse(positiveInt, pick("duration", "BENCH_DURATION"), smoke ? 1 : 5, "--duration"),
    warmupSeconds: parse(positiveInt, pick("warmup", "BENCH_WARMUP"), smoke ? 1 : 3, "--warmup"),
    warmupRequests: parse(
      z.coerce.number().int().min(0),
      pick("warmup-requests", "BENCH_WARMUP_REQUESTS"),
      smoke ? 0 : 5_000,
      "--warmup-requests",
    ),
    connections: parse(positiveInt, pick("connections", "BENCH_CONNECTIONS"), 50, "--connections"),
    scenarioIds: parse(list, pick("scenarios", "BENCH_SCENARIOS"), [], "--scenarios"),
    modes: modes as DatabaseMode[],
    modesExplicit: modesRaw !== undefined,
    keys: parse(positiveInt.optional(), pick("keys", "BENCH_KEYS"), undefined, "--keys"),
    pgUrl: parse(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
        .optional(),
      pick("pg-url", "BENCH_PG_URL"),
      undefined,
      "--pg-url",
    ),
    serverCpus: parse(cpuList, pick("server-cpus", "BENCH_SERVER_CPUS"), "0", "--server-cpus"),
    loadCpus: parse(cpuList, pick("load-cpus", "BENCH_LOAD_CPUS"), "1", "--load-cpus"),
    out: pick("out", "BENCH_OUT"),
    writeDocs: !smoke && values["no-docs"] !== true,
    shipments: parse(
      positiveInt,
      pick("shipments", "BENCH_SHIPMENTS"),
      smoke ? 1_000 : 100_000,
      "--shipments",
    ),
    scaleSizes: [],
    rate: parse(positiveInt, pick("rate", "BENCH_RATE"), 1_000, "--rate"),
    nodeMajors: [],
    nodeExplicit: pick("node", "BENCH_NODE") !== undefined,
    cpuProfDir: pick("cpu-prof", "BENCH_CPU_PROF"),
    voyages: parse(positiveInt, pick("voyages", "BENCH_VOYAGES"), smoke ? 6 : 300, "--voyages"),
    etaSplit: parse(
      z.enum(["validation", "tuning"]),
      pick("eta-split", "BENCH_ETA_SPLIT"),
      "validation",
      "--eta-split",
    ),
    disruptionsHeldOut: pick("disruptions-heldout", "BENCH_DISRUPTIONS_HELDOUT"),
  };
  const majors = parse(list, pick("node", "BENCH_NODE"), ["22", "24"], "--node");
  if (majors.some((m) => m !== "none" && !/^\d+$/.test(m)))
    throw new OptionsError("--node: major versions such as 22,24, or none");
  options.nodeMajors = majors.filter((m) => m !== "none");
  const sizes = parse(list, pick("scale-sizes", "BENCH_SCALE_SIZES"), [], "--scale-sizes").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1))
    throw new OptionsError("--scale-sizes: positive integers");
  options.scaleSizes =
    sizes.length > 0 ? [...sizes].sort((a, b) => a - b) : smoke ? [1_000, 3_000] : [100_000, 1_000_000];
  return options;
}
