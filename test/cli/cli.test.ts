import { execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDataFolder } from "../support/data-folder";
import { databaseEnvironment, freshDatabaseTarget } from "../support/database";

const run = promisify(execFile);
const BIN = path.resolve("bin/quayside.mjs");
let env: Record<string, string>;
let dataDir: string;

beforeAll(async () => {
  // A new folder: the first test migrates it (in memory with the run's scratch, not on disk).
  dataDir = freshDataFolder();
  const target = await freshDatabaseTarget();
  env = {
    ...(process.env as Record<string, string>),
    QUAYSIDE_LOG_LEVEL: "silent",
    QUAYSIDE_SIMULATOR: "off",
    ...(target.kind === "postgres" ? databaseEnvironment(target) : { QUAYSIDE_DATA_DIR: dataDir }),
  };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function quayside(...args: string[]) {
  const { stdout } = await run("node", [BIN, ...args], { env });
  return stdout;
}
const json = async <T>(...args: string[]) => JSON.parse(await quayside(...args, "--json")) as T;

describe("quayside CLI", () => {
  it("migrates, creates an organisation, a user and a key, lists and revokes keys", async () => {
    expect((await json<{ applied: string[] }>("migrate")).applied.length).toBeGreaterThan(0);
    expect(await json("migrate")).toMatchObject({ applied: [] });

    const org = await json<{ id: string; plan: string; developerMode: boolean }>(
      "orgs",
      "create",
      "--name",
      "Acme Logistics",
      "--plan",
      "starter",
    );
    expect(org).toMatchObject({ plan: "starter", developerMode: true, operator: false });
    const orgs = await json<{ name: string }[]>("orgs", "list");
    expect(orgs.map((o) => o.name)).toContain("Acme Logistics");
    // The organisation that runs the deployment is marked by the CLI, and unmarked the same way.
    expect(await json("orgs", "operator", "--org", "Acme Logistics")).toMatchObject({ operator: true });
    expect(await quayside("orgs", "list")).toMatch(/Acme Logistics .*operator/);
    expect(await json("orgs", "operator", "--org", "Acme Logistics", "--off")).toMatchObject({
      operator: false,
    });
    const ops = await json<{ operator: boolean }>("orgs", "create", "--name", "Ops", "--operator");
    expect(ops.operator).toBe(true);

    const user = await json<{ id: string; role: string }>(
      "users",
      "create",
      "--org",
      "Acme Logistics",
      "--email",
      "Ops@Acme.example",
      "--role",
      "owner",
    );
    expect(user.role).toBe("owner");

    const created = await json<{ id: string; key: string; viewOnly: boolean }>(
      "keys",
      "create",
      "--user",
      "ops@acme.example",
      "--name",
      "ci",
      "--view-only",
    );
    expect(created.key).toMatch(/^qs_/);
    expect(created.viewOnly).toBe(true);
    expect(created).not.toHaveProperty("keyHash");

    const listed = await json<{ id: string; revokedAt: string | null }[]>("keys", "list", "--org", org.id);
    expect(listed.map((k) => k.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    await json("keys", "revoke", created.id);
    const after = await json<{ revokedAt: string | null }[]>("keys", "list", "--user", "ops@acme.example");
    expect(after[0]!.revokedAt).not.toBeNull();

    const human = await quayside("keys", "create", "--user", "ops@acme.example");
    expect(human.split("\n")[0]).toMatch(/^qs_[A-Za-z0-9_-]{43}$/);
  }, 120_000); // ten process starts, each opening the database

  it("negotiates a custom plan's rate with orgs create --per-minute and orgs rate, and refuses it on any other plan", async () => {
    const big = await json<{ ratePerMinute: number | null }>(
      "orgs",
      "create",
      "--name",
      "Big Forwarder",
      "--plan",
      "custom",
      "--per-minute",
      "5000",
    );
    expect(big.ratePerMinute).toBe(5000);
    expect(await quayside("orgs", "rate", "--org", "Big Forwarder", "--per-minute", "12000")).toMatch(
      /Big Forwarder .*: 12000 requests per key per minute, 60000 for its keys together\./,
    );
    expect(await json("orgs", "rate", "--org", "Big Forwarder", "--per-minute", "plan")).toMatchObject({
      ratePerMinute: null,
    });
    await json("orgs", "create", "--name", "Small Forwarder", "--plan", "starter");
    const refused = await run(
      "node",
      [BIN, "orgs", "rate", "--org", "Small Forwarder", "--per-minute", "900"],
      {
        env,
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((refused as { code: number }).code).toBe(2);
    expect((refused as { stderr: string }).stderr).toMatch(/Only the custom plan has a negotiated rate/);
  }, 60_000);

  it("explains a mistake with exit code 2 and no stack trace", async () => {
    const failed = await run(
      "node",
      [BIN, "users", "create", "--org", "No Such Org", "--email", "a@b.example"],
      {
        env,
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toMatch(/No organisation No Such Org/);
    expect((failed as { stderr: string }).stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it("serve prints the demo key and URLs, honours QUAYSIDE_DEMO_KEY, and exits cleanly on SIGTERM", {
    timeout: 60_000,
  }, async () => {
    const demoKey = "demo_key_for_scripts_0123456789";
    const target = await freshDatabaseTarget();
    // A new folder too: this is a first start (the demo key printed, the demo organisation operator).
    const serveDir = freshDataFolder();
    const child = spawn("node", [BIN, "serve"], {
      env: {
        ...env,
        ...(target.kind === "postgres" ? databaseEnvironment(target) : { QUAYSIDE_DATA_DIR: serveDir }),
        PORT: "0",
        QUAYSIDE_DEMO_KEY: demoKey,
        // The drain period is test/reliability/shutdown.test.ts's subject; here only the clean exit.
        QUAYSIDE_SHUTDOWN_DRAIN_MS: "0",
        // A data folder builds the sandbox world at start by default: seconds of CPU, and a build for
        // SIGTERM to stop (test/integration/sandbox-build-stop.test.ts's subject). Nothing here asks it.
        QUAYSIDE_SANDBOX_WORLD: "first-request",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const m = /listening on (http:\/\/\S+)/.exec(output);
          if (m && output.includes("compat API")) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`serve exited early with ${code}: ${output}`)));
      });
      expect(output).toContain(`Demo API key (organisation "Demo", plan business): ${demoKey}`);
      expect(output).toMatch(/GraphQL\s+http:\/\/127\.0\.0\.1:\d+\/graphql/);

      const res = await fetch(`${url}/api/v1/carriers`, { headers: { authorization: `Bearer ${demoKey}` } });
      expect(res.status).toBe(200);
      // The demo organisation is on business (issue 36): 240 requests per key per minute.
      expect(res.headers.get("x-ratelimit-limit")).toBe("240");
      // Whoever started a fresh install operates it: the demo organisation is marked operator.
      const viewer = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${demoKey}`, "content-type": "application/json" },
        body: JSON.stringify({ query: "{ viewer { organization { operator } } }" }),
      });
      expect(await viewer.json()).toEqual({ data: { viewer: { organization: { operator: true } } } });

      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      rmSync(serveDir, { recursive: true, force: true });
    }
  });

  it("simulator --clock runs the carrier simulator on a manual clock the admin API moves", {
    timeout: 60_000,
  }, async () => {
    const child = spawn("node", [BIN, "simulator", "--port", "0", "--clock", "2026-11-20T12:00:00Z"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const m = /listening on (http:\/\/\S+)/.exec(output);
          if (m) resolve(m[1]!);
        });
        child.stderr.on("data", (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.once("exit", (code) => reject(new Error(`simulator exited early with ${code}: ${output}`)));
      });
      const state = async () => (await (await fetch(`${url}/_admin/state`)).json()) as { clock: unknown };
      expect(JSON.stringify((await state()).clock)).toContain("2026-11-20T12:00:00");
      const moved = await fetch(`${url}/_admin/clock`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceMs: 3_600_000 }),
      });
      expect(moved.status).toBe(200);
      expect(JSON.stringify((await state()).clock)).toContain("2026-11-20T13:00:00");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
