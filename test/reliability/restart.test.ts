import { afterAll, describe, expect, it, vi } from "vitest";
import { freshDatabaseTarget } from "../support/database";
import {
  DEMO_KEY,
  type ServiceProcess,
  serviceEnvironment,
  startService,
  temporaryFolder,
} from "./service-process";

/**
 * Issue 27 item 5: a restart after `kill -9` answers again, with what the first request does not
 * need loaded after it answers. Real processes: `quayside serve`, killed with SIGKILL, started again
 * on the same data (a PGlite folder, or the same PostgreSQL database).
 */
const folder = temporaryFolder();
const running: ServiceProcess[] = [];
afterAll(() => {
  for (const service of running) service.child.kill("SIGKILL");
  folder.remove();
});

const auth = { authorization: `Bearer ${DEMO_KEY}` };

describe("restart after kill -9", () => {
  it("answers on every surface again, says where start-up time went, and loads GraphQL and MCP after it answers", async () => {
    const target = await freshDatabaseTarget();
    const env = { ...serviceEnvironment(target, folder.dir), QUAYSIDE_SIMULATOR: "off" };
    const first = await startService(env);
    running.push(first);
    expect((await fetch(`${first.url}/api/v1/carriers`, { headers: auth })).status).toBe(200);
    first.child.kill("SIGKILL");
    await first.exited;

    const again = await startService(env);
    running.push(again);
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${again.url}/api/v1/carriers`, { headers: auth })).status).toBe(200);

    // The logger writes through its own stream, the banner the start waits for through the process's:
    // on a loaded machine the line was read after the banner (a CI run found no "Started" line).
    const started = await vi.waitFor(
      () => {
        const line = again.logs().find((l) => l.msg === "Started");
        if (!line) throw new Error("no Started log line yet");
        return line as unknown as { totalMs: number; beforeStartMs: number; phases: Record<string, number> };
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(Object.keys(started?.phases ?? {})).toEqual([
      "database",
      "migrations",
      "simulator",
      "services",
      "operator",
      "lookups",
      "demo",
      "listen",
      "app",
    ]);
    const phaseSum = Object.values(started!.phases).reduce((a, b) => a + b, 0);
    expect(started!.beforeStartMs + phaseSum).toBeLessThanOrEqual(started!.totalMs + 10);

    // The deferred surfaces answer, and their modules were loaded after the instance answered.
    const graphql = await fetch(`${again.url}/graphql`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { organization { name } } }" }),
    });
    expect(await graphql.json()).toEqual({ data: { viewer: { organization: { name: "Demo" } } } });
    const mcp = await fetch(`${again.url}/api/mcp`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(200);
    expect(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(5);
    const postman = await fetch(`${again.url}/api/v1/postman.json`);
    expect(postman.status).toBe(200);
    const messages = again.logs().map((line) => line.msg);
    expect(messages.indexOf("Deferred handlers loaded")).toBeGreaterThan(messages.indexOf("Started"));
  }, 120_000);
});
