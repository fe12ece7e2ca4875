import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshDataFolder, migratedDataFolder } from "../support/data-folder";
import { migratedDatabaseTarget } from "../support/database";

/**
 * Issue 26 item 7: on PGlite, the CLI and a running `quayside serve` share one data folder safely.
 * Real processes throughout: the server and every CLI command are `node bin/quayside.mjs`. These run
 * on a PGlite folder whatever database the rest of the suite uses: the folder is what is at stake.
 */
const run = promisify(execFile);
const BIN = path.resolve("bin/quayside.mjs");
const DEMO_KEY = "demo_key_for_cli_beside_server_01";
const temporary: string[] = [];
/** Set by the PostgreSQL case: every CLI command then runs on that database. */
let extraEnv: Record<string, string> = {};

function environment(dataDir: string): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: "",
    QUAYSIDE_DATA_DIR: dataDir,
    QUAYSIDE_LOG_LEVEL: "silent",
    QUAYSIDE_SIMULATOR: "off",
    QUAYSIDE_WORKERS: "off",
    // No load balancer probes readiness here: SIGTERM need not keep serving for a drain period.
    QUAYSIDE_SHUTDOWN_DRAIN_MS: "0",
    PORT: "0",
    QUAYSIDE_DEMO_KEY: DEMO_KEY,
    // On a data folder the sandbox world is built at start by default: seconds of CPU beside every
    // CLI command here, and a build to stop at each SIGTERM. Nothing here asks the sandbox.
    QUAYSIDE_SANDBOX_WORLD: "first-request",
  };
}

/** A new folder, for the cases whose subject is its first start (in memory, with the run's scratch). */
function newDataDir(): string {
  const dir = freshDataFolder();
  temporary.push(path.dirname(dir));
  return dir;
}

interface Serving {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn("node", [BIN, "serve"], { env: { ...environment(dataDir), ...env } });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m && output.includes("compat API")) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

async function quayside(dataDir: string, ...args: string[]) {
  return run("node", [BIN, ...args], { env: { ...environment(dataDir), ...extraEnv } }).catch(
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

async function json<T>(dataDir: string, ...args: string[]): Promise<T> {
  const result = await quayside(dataDir, ...args, "--json");
  if ("code" in result && result.code) throw new Error(`quayside ${args.join(" ")}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

async function carriers(url: string, key: string) {
  const res = await fetch(`${url}/api/v1/carriers`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { data?: { error?: string } } };
}

interface Lock {
  pid: number;
  command: string;
  operator: { socketPath: string } | { host: string; port: number } | null;
  token: string;
}
const readLock = (dataDir: string) =>
  JSON.parse(readFileSync(path.join(dataDir, "quayside.lock"), "utf8")) as Lock;

/** A raw request to the operator endpoint, as any local process could send one. */
function operatorRequest(lock: Lock, authorization: string | undefined, body: unknown) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      {
        ...(lock.operator && "socketPath" in lock.operator
          ? { socketPath: lock.operator.socketPath }
          : lock.operator),
        path: "/operator/v1/commands",
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

// The PGlite cases ignore the suite's database, so they run once, in the PGlite pass.
const onPGlitePass = !inject("postgresUrl");

describe.runIf(onPGlitePass)(
  "the CLI beside a running server on the same PGlite folder",
  { timeout: 180_000 },
  () => {
    let dataDir: string;
    let server: Serving;

    beforeAll(async () => {
      // Already migrated: what is at stake is the folder shared with the CLI, not its first start.
      dataDir = await migratedDataFolder();
      server = await serve(dataDir);
    }, 180_000);
    afterAll(async () => {
      expect(await server.stop()).toBe(0);
    }, 60_000);

    it("keys revoke takes effect on the server's very next request", async () => {
      const created = await json<{ id: string; key: string }>(
        dataDir,
        "keys",
        "create",
        "--user",
        "demo@quayside.local",
        "--name",
        "to revoke",
      );
      // The key is used, so the server holds it in its key cache (5 s by default).
      expect((await carriers(server.url, created.key)).status).toBe(200);
      expect((await carriers(server.url, created.key)).status).toBe(200);

      const revoked = await quayside(dataDir, "keys", "revoke", created.id);
      expect(revoked.stdout).toContain(`Revoked key ${created.id}; the running server refuses it`);

      const next = await carriers(server.url, created.key);
      expect(next.status).toBe(401);
      expect(next.body.data?.error).toBe("api_key_revoked");
      // Other keys are untouched.
      expect((await carriers(server.url, DEMO_KEY)).status).toBe(200);
    });

    it("lists, creates and refuses through the server, with the CLI's exit codes", async () => {
      const org = await json<{ id: string }>(
        dataDir,
        "orgs",
        "create",
        "--name",
        "Beside Ltd",
        "--plan",
        "starter",
      );
      expect((await json<{ name: string }[]>(dataDir, "orgs", "list")).map((o) => o.name)).toEqual([
        "Demo",
        "Beside Ltd",
      ]);
      await json(dataDir, "users", "create", "--org", org.id, "--email", "ops@beside.example");
      expect(
        (await json<{ email: string }[]>(dataDir, "users", "list", "--org", "Beside Ltd")).map(
          (u) => u.email,
        ),
      ).toEqual(["ops@beside.example"]);
      expect(await json(dataDir, "migrate")).toMatchObject({ applied: [] });

      const missing = await quayside(
        dataDir,
        "users",
        "create",
        "--org",
        "No Such Org",
        "--email",
        "a@b.example",
      );
      expect(missing).toMatchObject({ code: 2 });
      expect(missing.stderr).toMatch(/^No organisation No Such Org\n$/);
      const badPlan = await quayside(dataDir, "orgs", "create", "--name", "X", "--plan", "gold");
      expect(badPlan).toMatchObject({ code: 2 });
      expect(badPlan.stderr).toContain("--plan is one of free, starter");

      const ports = await quayside(dataDir, "ports", "import", "/nonexistent");
      expect(ports).toMatchObject({ code: 2 });
      expect(ports.stderr).toContain("stop the server, import, start it again");
    });

    it("a second serve on the same folder refuses, says why, and leaves the first one serving", async () => {
      const second = await quayside(dataDir, "serve");
      expect(second).toMatchObject({ code: 2 });
      expect(second.stderr).toContain(`is in use by quayside serve (process ${server.child.pid}`);
      expect(second.stderr).toContain("Stop that server first, or give this one another QUAYSIDE_DATA_DIR");
      expect(second.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect((await carriers(server.url, DEMO_KEY)).status).toBe(200);
      expect(readLock(dataDir).pid).toBe(server.child.pid);
    });

    it("the operator endpoint answers only its token, only on this machine, and is no public route", async () => {
      const lock = readLock(dataDir);
      expect(lock.operator).toEqual({ socketPath: path.join(dataDir, "operator.sock") });
      expect(statSync(path.join(dataDir, "quayside.lock")).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dataDir, "operator.sock")).mode & 0o777).toBe(0o600);

      const create = { command: "orgs create", name: "Intruder" };
      expect(await operatorRequest(lock, undefined, create)).toMatchObject({
        status: 401,
        body: { error: "missing_api_key" },
      });
      expect(await operatorRequest(lock, `Bearer ${DEMO_KEY}`, create)).toMatchObject({
        status: 401,
        body: { error: "invalid_api_key" },
      });
      expect(await operatorRequest(lock, `Bearer ${lock.token}`, { command: "orgs drop" })).toMatchObject({
        status: 400,
        body: { error: "invalid_parameter" },
      });
      const orgs = await json<{ name: string }[]>(dataDir, "orgs", "list");
      expect(orgs.map((o) => o.name)).not.toContain("Intruder");

      const publicRoute = await fetch(`${server.url}/operator/v1/commands`, {
        method: "POST",
        headers: { authorization: `Bearer ${lock.token}`, "content-type": "application/json" },
        body: JSON.stringify(create),
      });
      expect(publicRoute.status).toBe(404);
      const openapi = await (await fetch(`${server.url}/api/v1/openapi.json`)).text();
      expect(openapi).not.toContain("operator");
    });
  },
);

describe.runIf(onPGlitePass)(
  "the data folder after a CLI command and after a crash",
  { timeout: 240_000 },
  () => {
    it("keys list beside the server, then a restart on the same folder opens and serves", async () => {
      const dataDir = await migratedDataFolder();
      const first = await serve(dataDir);
      const keys = await json<{ name: string }[]>(dataDir, "keys", "list");
      expect(keys.map((k) => k.name)).toEqual(["Demo key"]);
      expect(await first.stop()).toBe(0);
      expect(existsSync(path.join(dataDir, "quayside.lock"))).toBe(false);
      expect(existsSync(path.join(dataDir, "operator.sock"))).toBe(false);

      // With no server, the CLI opens the folder itself and leaves it as it found it.
      expect((await json<{ name: string }[]>(dataDir, "keys", "list")).map((k) => k.name)).toEqual([
        "Demo key",
      ]);

      const again = await serve(dataDir);
      try {
        expect((await carriers(again.url, DEMO_KEY)).status).toBe(200);
      } finally {
        expect(await again.stop()).toBe(0);
      }
    });

    it("a lock left by a process that is gone is taken over", async () => {
      const dataDir = newDataDir();
      const gone = spawn("node", ["-e", ""]);
      const deadPid = gone.pid!;
      await new Promise((resolve) => gone.once("exit", resolve));
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(
        path.join(dataDir, "quayside.lock"),
        JSON.stringify({
          pid: deadPid,
          hostname: os.hostname(),
          command: "quayside serve",
          startedAt: "2026-01-01T00:00:00.000Z",
          operator: { socketPath: path.join(dataDir, "operator.sock") },
          token: "x".repeat(43),
        }),
      );
      // A new folder with a stale lock: taken over and initialised.
      const server = await serve(dataDir);
      try {
        expect(readLock(dataDir).pid).toBe(server.child.pid);
        expect((await carriers(server.url, DEMO_KEY)).status).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  },
);

// Several processes may open one PostgreSQL: the CLI writes directly, and servers see the revocation
// when their cached row ages out. This runs in the suite's PostgreSQL pass (QUAYSIDE_TEST_DB=postgres).
describe.runIf(inject("postgresUrl"))("the CLI beside a server on PostgreSQL", { timeout: 120_000 }, () => {
  it("a revocation is refused by the running server within QUAYSIDE_KEY_CACHE_SECONDS", async () => {
    const { target } = await migratedDatabaseTarget();
    if (target.kind !== "postgres") throw new Error("expected PostgreSQL");
    extraEnv = { DATABASE_URL: target.url, QUAYSIDE_KEY_CACHE_SECONDS: "1" };
    const dataDir = newDataDir();
    const server = await serve(dataDir, extraEnv);
    try {
      const created = await json<{ id: string; key: string }>(
        dataDir,
        "keys",
        "create",
        "--user",
        "demo@quayside.local",
      );
      expect((await carriers(server.url, created.key)).status).toBe(200);
      const revoked = await quayside(dataDir, "keys", "revoke", created.id);
      expect(revoked.stdout).toContain(
        "servers on this database refuse it within 1 s (QUAYSIDE_KEY_CACHE_SECONDS)",
      );
      // The documented bound, plus a margin for a loaded machine.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const next = await carriers(server.url, created.key);
      expect(next).toMatchObject({ status: 401, body: { data: { error: "api_key_revoked" } } });
      // No PGlite folder was created or locked on the way.
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      extraEnv = {};
      expect(await server.stop()).toBe(0);
    }
  });
});
