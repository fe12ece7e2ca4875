import { writeFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "../src/config";
import type { BaselineConfig, BaselineRoute } from "./baselines/config";
import type { DatabaseMode } from "./options";
import type { ManagedProcess, Supervisor } from "./processes";
import type { TargetInfo } from "./results";

/**
 * The servers under load. Each is its own process pinned with taskset to the server CPUs; the
 * environment is built from nothing (PATH, HOME) so a DATABASE_URL or REDIS_URL in the caller's
 * shell cannot change what is measured. NODE_ENV=production for every one of them alike.
 */
export interface StartedTarget {
  info: TargetInfo;
  url: string;
  process: ManagedProcess;
}

export class TargetStartError extends Error {}

function baseEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: "production",
    // An operator's sizing of the answer cache, passed on when the harness runs with it set (a run
    // that sets it says so where its results are quoted).
    ...(process.env.QUAYSIDE_ANSWER_CACHE_ENTRIES && {
      QUAYSIDE_ANSWER_CACHE_ENTRIES: process.env.QUAYSIDE_ANSWER_CACHE_ENTRIES,
    }),
  };
}

export const SERVICE_DESCRIPTION =
  "`bin/quayside.mjs serve` as shipped (through bench/service-under-test.mjs, which only sets the command line): request id, pino (level silent), metrics, key lookup, rate window (memory), facades over persisted GraphQL operations, Yoga on /graphql";

export async function startService(
  supervisor: Supervisor,
  input: {
    mode: DatabaseMode;
    port: number;
    database: DatabaseTarget;
    cpus: string;
    repoRoot: string;
    /** More configuration (the carrier registry of the simulator process, worker settings). */
    env?: Record<string, string>;
    /** Another id than quayside-<mode> (the latency and scale runners start services of their own). */
    id?: string;
    /** Another Node binary than the harness's own (the node-versions runner). */
    nodeBinary?: string;
    /** Where the process writes a V8 CPU profile when it stops (--cpu-prof). */
    cpuProfDir?: string;
    /**
     * No sandbox world at start and no wait for one (a smoke run: it reads no sandbox and measures
     * nothing). Otherwise a data folder's service builds its world at start and is measured after.
     */
    withoutSandboxWorld?: boolean;
  },
): Promise<StartedTarget> {
  const info: TargetInfo = {
    id: input.id ?? `quayside-${input.mode}`,
    kind: "service",
    mode: input.mode,
    label: `quayside (${input.mode})`,
    description: SERVICE_DESCRIPTION,
  };
  const database =
    input.database.kind === "postgres"
      ? { DATABASE_URL: input.database.url }
      : { QUAYSIDE_DATA_DIR: input.database.dataDir };
  const child = supervisor.spawn(
    info.id,
    "taskset",
    [
      "-c",
      input.cpus,
      input.nodeBinary ?? process.execPath,
      ...(input.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${input.cpuProfDir}`] : []),
      "bench/service-under-test.mjs",
    ],
    {
      cwd: input.repoRoot,
      longLived: true,
      env: {
        ...baseEnvironment(),
        ...database,
        PORT: String(input.port),
        HOST: "127.0.0.1",
        QUAYSIDE_DEMO: "false",
        QUAYSIDE_SIMULATOR: "off",
        QUAYSIDE_LOG_LEVEL: "silent",
        QUAYSIDE_SHUTDOWN_GRACE_MS: "1000",
        QUAYSIDE_SHUTDOWN_DRAIN_MS: "0",
        ...input.env,
        ...(input.withoutSandboxWorld ? { QUAYSIDE_SANDBOX_WORLD: "first-request" } : {}),
      },
    },
  );
  const url = `http://127.0.0.1:${input.port}`;
  await waitReady(child, url);
  // On a data folder the service builds its sandbox world at start (QUAYSIDE_SANDBOX_WORLD=auto), tens
  // of seconds of arithmetic and PGlite on the one thread: measured rounds wait for it, as the steady
  // state of `npm start` is a built world, not one being built under the load.
  if (input.database.kind !== "postgres" && !input.withoutSandboxWorld) await waitSandboxBuilt(child, url);
  return { info, url, process: child };
}

/** Polls a sandbox read until it no longer answers 503 `building`. */
async function waitSandboxBuilt(child: ManagedProcess, url: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exit !== undefined) {
      throw new TargetStartError(`${child.name} ${child.exit} while its sandbox world was built`);
    }
    const response = await fetch(`${url}/api/v1/sandbox/carriers`, {
      headers: { Connection: "close" },
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    if (response.status !== 503) return;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  throw new TargetStartError(`${child.name}'s sandbox world was not built within ${timeoutMs / 1000} s`);
}

const BASELINE_FILES = {
  "node-http": "bench/baselines/node-http.ts",
  "express-static": "bench/baselines/express-static.ts",
  "express-prisma": "bench/baselines/express-prisma.ts",
} as const;

export const BASELINE_DESCRIPTIONS = {
  "node-http": "bare `node:http`, the service's answer bytes pre-serialised (the machine's ceiling)",
  "express-static": "bare Express 5 route, the same bytes (the framework's ceiling)",
  "express-prisma":
    "bare Express 5 route doing the scenario's database work directly: the service's own key lookup (`AccountsService.authenticate` with the service's key cache of QUAYSIDE_KEY_CACHE_SECONDS, default 5 s: the key by hash joined with its user and organisation, one Prisma query, only when the key is not cached, and its last-used write at most once a minute per key), plus what the scenario reads or writes (graphql viewer: the organisation again; compat sealines: the call count upsert and the slot counts, through the service's own ApiCallsService and SlotsService); then the same bytes. The cost of our core (gate, rate window, middleware, GraphQL, envelope) is the gap between this and the service",
} as const;

export async function startBaseline(
  supervisor: Supervisor,
  input: {
    kind: keyof typeof BASELINE_FILES;
    mode?: DatabaseMode;
    database?: DatabaseTarget;
    port: number;
    routes: BaselineRoute[];
    cpus: string;
    repoRoot: string;
    configDir: string;
    env?: Record<string, string>;
  },
): Promise<StartedTarget> {
  const id = input.mode ? `${input.kind}-${input.mode}` : input.kind;
  const labels = {
    "node-http": "node:http static",
    "express-static": "Express static",
    "express-prisma": "Express + Prisma",
  } as const;
  const info: TargetInfo = {
    id,
    kind: input.kind,
    mode: input.mode,
    label: input.mode ? `${labels[input.kind]} (${input.mode})` : labels[input.kind],
    description: BASELINE_DESCRIPTIONS[input.kind],
  };
  const config: BaselineConfig = {
    host: "127.0.0.1",
    port: input.port,
    routes: input.routes,
    database: input.database,
    env: input.env,
  };
  const configFile = path.join(input.configDir, `${id}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const child = supervisor.spawn(
    id,
    "taskset",
    ["-c", input.cpus, process.execPath, "--import", "tsx", BASELINE_FILES[input.kind], configFile],
    { cwd: input.repoRoot, longLived: true, env: baseEnvironment() },
  );
  const url = `http://127.0.0.1:${input.port}`;
  await waitReady(child, url);
  return { info, url, process: child };
}

/** Polls GET /readyz until 200; fails at once if the process exits, with what it printed. */
async function waitReady(child: ManagedProcess, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exit !== undefined) {
      throw new TargetStartError(
        `${child.name} ${child.exit} before it was ready:\n${child.output().slice(-3_000)}`,
      );
    }
    try {
      // A connection of its own: no idle kept-alive socket left for the next request (bench/run.ts).
      const response = await fetch(`${url}/readyz`, {
        headers: { Connection: "close" },
        signal: AbortSignal.timeout(2_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new TargetStartError(
    `${child.name} was not ready within ${timeoutMs / 1000} s:\n${child.output().slice(-3_000)}`,
  );
}
