import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { graphql } from "../support/app";
import { migratedServiceDatabase } from "../support/data-folder";
import { databaseEnvironment } from "../support/database";

const KEY = "read_path_count_key_0123456789";
const USAGE = "{ apiUsage(surface: compat) { calls } }";

async function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn("node", ["bin/quayside.mjs", "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  child.kill("SIGTERM");
  return exited;
}

describe("compat calls are counted off the request path", () => {
  it("a count a client was shown survives SIGTERM and carries on after a restart", async () => {
    // Already migrated: the first start is not this test's subject, the restart is.
    const target = await migratedServiceDatabase();
    const env = {
      ...(process.env as Record<string, string>),
      ...databaseEnvironment(target),
      PORT: "0",
      QUAYSIDE_SIMULATOR: "off",
      QUAYSIDE_LOG_LEVEL: "silent",
      QUAYSIDE_DEMO_KEY: KEY,
      QUAYSIDE_WORKERS: "off",
      // A data folder builds the sandbox world at start by default: seconds of CPU beside the counted
      // calls, and a build to stop at each SIGTERM. Nothing here asks the sandbox.
      QUAYSIDE_SANDBOX_WORLD: "first-request",
    };
    try {
      const first = await serve(env);
      const calls = 37;
      for (let i = 0; i < calls; i++) {
        const res = await fetch(`${first.url}/compat/info/sealines`, { headers: { "X-API-KEY": KEY } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      expect((await graphql(first, KEY, USAGE)).body.data).toEqual({ apiUsage: { calls } });
      // Straight to SIGTERM: well within the second between two flushes.
      expect(await stop(first.child)).toBe(0);

      const second = await serve(env);
      try {
        expect((await graphql(second, KEY, USAGE)).body.data).toEqual({ apiUsage: { calls } });
        await (
          await fetch(`${second.url}/compat/info/sealines`, { headers: { "X-API-KEY": KEY } })
        ).arrayBuffer();
        expect((await graphql(second, KEY, USAGE)).body.data).toEqual({ apiUsage: { calls: calls + 1 } });
      } finally {
        await stop(second.child);
      }
    } finally {
      if (target.kind === "pglite") rmSync(target.dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
