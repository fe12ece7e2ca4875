import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/database";
import { applyMigrations } from "../../src/db/migrate";
import { writeSandboxWorldImage } from "./sandbox-world";
import { redisServerPath, type StartedServer, startPostgres, startRedis } from "./servers";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of the PostgreSQL server when the suite runs on PostgreSQL; "" on PGlite. */
    postgresUrl: string;
    /** A Redis server for the shared-store tests; "" when redis-server is not installed. */
    redisUrl: string;
    /** On PostgreSQL: a database with every migration applied, to `CREATE DATABASE ... TEMPLATE` from. */
    postgresTemplate: string;
    /**
     * A dump of a PGlite database with every migration applied (a file): each test app's database on
     * the PGlite pass, and each test app's sandbox world on both passes.
     */
    pgliteTemplate: string;
    /**
     * The run's sandbox world, built once (test/support/sandbox-world.ts): a JSON file naming its
     * database's dump. Each test app whose configuration matches loads it instead of building one.
     */
    sandboxWorld: string;
  }
}

interface SharedContext {
  postgresUrl: string;
  redisUrl: string;
  postgresTemplate: string;
  pgliteTemplate: string;
  sandboxWorld: string;
}

/**
 * Every project that touches a database (graphql, api, e2e) names this file, and vitest calls it once
 * per project: the servers and the migrated templates are made once per run all the same, shared
 * through the main process, and stopped after the last project is done. The unit lane names none of
 * it and starts in a second.
 */
const SHARED = Symbol.for("quayside.test.globalSetup");
interface SharedState {
  context: Promise<SharedContext>;
  users: number;
  stop: () => Promise<void>;
}
type WithShared = typeof globalThis & { [SHARED]?: SharedState };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as WithShared;
  if (!holder[SHARED]) {
    const started: StartedServer[] = [];
    const folders: string[] = [];
    holder[SHARED] = {
      context: prepare(started, folders),
      users: 0,
      stop: async () => {
        await Promise.all(started.map((s) => s.stop()));
        for (const folder of folders) rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const shared = holder[SHARED];
  shared.users++;
  const context = await shared.context;
  project.provide("postgresUrl", context.postgresUrl);
  project.provide("redisUrl", context.redisUrl);
  project.provide("postgresTemplate", context.postgresTemplate);
  project.provide("pgliteTemplate", context.pgliteTemplate);
  project.provide("sandboxWorld", context.sandboxWorld);
  return async () => {
    shared.users--;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await shared.stop();
  };
}

/**
 * `QUAYSIDE_TEST_DB=postgres` runs every database test on a real PostgreSQL: the one named by
 * `QUAYSIDE_TEST_PG_URL` (CI starts it), or one started here from Debian's binaries.
 */
async function prepare(started: StartedServer[], folders: string[]): Promise<SharedContext> {
  let postgresUrl = "";
  let postgresTemplate = "";
  let pgliteTemplate = "";
  if (process.env.QUAYSIDE_TEST_DB === "postgres") {
    postgresUrl = process.env.QUAYSIDE_TEST_PG_URL ?? "";
    if (!postgresUrl) {
      const server = await startPostgres();
      started.push(server);
      postgresUrl = server.url;
    }
    postgresTemplate = await postgresTemplateDatabase(postgresUrl);
  }
  // On both passes: the sandbox world is an in-memory PGlite whatever the live database is, and a
  // test app's world starts from this dump instead of making its own (migrated-template.ts).
  removeAbandonedScratch();
  const root = mkdtempSync(path.join(scratchRoot(), `quayside-tests-${process.pid}-`));
  folders.push(root);
  const kept = process.env.QUAYSIDE_TEST_RUN_CACHE || undefined;
  pgliteTemplate = path.join(root, "template.tar");
  await madeOnce(kept, root, ["template.tar"], () => pgliteTemplateDump(pgliteTemplate));
  // Also on both passes, for the same reason: the world is deterministic at its frozen moment, so one
  // build serves every app that reads it (a build is 16 to 18 s of CPU on a quiet machine, 36 s on a
  // loaded one).
  const built = { wall: performance.now(), cpu: process.cpuUsage() };
  const sandboxWorld = path.join(root, "sandbox-world.json");
  const madeHere = await madeOnce(kept, root, ["sandbox-world.tar", "sandbox-world.json"], () =>
    writeSandboxWorldImage(root, pgliteTemplate),
  );
  // The JSON names its dump by an absolute path: the copy's, in this run's folder.
  const world = JSON.parse(readFileSync(sandboxWorld, "utf8")) as { databaseFile: string };
  world.databaseFile = path.join(root, "sandbox-world.tar");
  writeFileSync(sandboxWorld, JSON.stringify(world));
  if (process.env.QUAYSIDE_TEST_TIMINGS && madeHere) {
    const cpu = process.cpuUsage(built.cpu);
    console.info(
      `sandbox world built for the run in ${Math.round(performance.now() - built.wall)} ms (CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms)`,
    );
  }
  let redisUrl = process.env.QUAYSIDE_TEST_REDIS_URL ?? "";
  if (!redisUrl && redisServerPath()) {
    const redis = await startRedis();
    started.push(redis);
    redisUrl = redis.url;
  }
  return { postgresUrl, redisUrl, postgresTemplate, pgliteTemplate, sandboxWorld };
}

/**
 * The migrated dump and the sandbox world depend on the source tree only, not on the pass (the world
 * is an in-memory PGlite on both) nor on Node's version. `npm test` (scripts/test.sh) and CI name a
 * folder of their own in QUAYSIDE_TEST_RUN_CACHE for one tree's runs and remove it after: the first
 * run makes the files and leaves a copy there, every later run (the PostgreSQL pass, the Node 22 and
 * 24 subsets) copies them into its own folder instead of migrating and building again. Without the
 * variable each run makes its own, as a developer's edited tree needs. Answers whether it made them.
 */
async function madeOnce(
  kept: string | undefined,
  root: string,
  names: string[],
  make: () => Promise<unknown>,
): Promise<boolean> {
  if (kept && names.every((name) => existsSync(path.join(kept, name)))) {
    for (const name of names) copyFileSync(path.join(kept, name), path.join(root, name));
    return false;
  }
  await make();
  if (kept) {
    // Each file copied under a name of its own, then renamed: a run reading the folder meanwhile
    // sees a whole file or none.
    for (const name of names) {
      const own = path.join(kept, `${name}.${process.pid}`);
      copyFileSync(path.join(root, name), own);
      renameSync(own, path.join(kept, name));
    }
  }
  return true;
}

/**
 * A run stopped by a signal never tears down: its folder (named after its process) is removed by the
 * next run, once that process is gone. /dev/shm is memory.
 */
function removeAbandonedScratch(): void {
  for (const name of readdirSync(scratchRoot())) {
    const pid = Number(/^quayside-tests-(\d+)-/.exec(name)?.[1]);
    if (pid && !processAlive(pid)) rmSync(path.join(scratchRoot(), name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Memory-backed where the system has it: every test file reads the dump from there. */
function scratchRoot(): string {
  return existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
}

/**
 * Migrating a fresh database took longer than most test files' tests (PGlite: initdb then 23
 * migrations, 2 to 4 s a start). Done once here; each test app loads the dump into its own in-memory
 * PGlite. In memory rather than a copied folder: a folder's inserts took twice as long (PGlite runs on
 * the test's event loop), and test/api/shipments.test.ts, whose embedded simulator shares that loop,
 * saw its connections reset on a loaded machine with folders and not in memory.
 */
async function pgliteTemplateDump(file: string): Promise<void> {
  const db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  try {
    await applyMigrations(db);
    const dump = await db.pglite!.dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** A migrated database on the test server; `CREATE DATABASE ... TEMPLATE` copies it in a blink. */
async function postgresTemplateDatabase(adminUrl: string): Promise<string> {
  const name = `quayside_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: "postgres", url: url.toString() });
  try {
    await applyMigrations(db);
  } finally {
    // A template takes no connection of its own: CREATE DATABASE refuses one that is in use.
    await db.close();
  }
  return name;
}
