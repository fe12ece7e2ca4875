import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxConfigFingerprint } from "../../src/app/sandbox-world";
import { loadConfig } from "../../src/config";
import { startTestApp, type TestApp } from "../support/app";
import { TEST_APP_ENVIRONMENT } from "../support/sandbox-world";

/**
 * The run builds the sandbox world once (test/support/global-setup.ts) and a test app whose settings
 * match loads it: 16 to 18 s of CPU a file no longer spends. What the loaded world answers is checked
 * where the built one's was (test/mcp/sandbox-golden.test.ts, test/integration/wire-golden.test.ts,
 * test/api/sandbox*.test.ts); this file checks that the loading happens, and which settings keep it.
 */
let app: TestApp;

beforeAll(async () => {
  // Settings the build never reads, as the files that read the sandbox set them.
  app = await startTestApp({ env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_TRUST_PROXY: "true" } });
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

describe("the run's sandbox world", () => {
  it("is loaded by a test app, not built again, and answers", async () => {
    const res = await fetch(`${app.url}/api/v1/sandbox/shipments`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; data: { name: string }[] };
    expect(body.total).toBe(8);
    expect(body.data.map((s) => s.name)).toContain("SHP-1000");
    const ready = app.logs.find((line) => line.msg === "Sandbox world ready");
    expect(ready).toMatchObject({ loaded: true });
  });

  it("is the same world for settings a build never reads, another for one it does", () => {
    const base = { ...TEST_APP_ENVIRONMENT, QUAYSIDE_DATA_DIR: "memory://" };
    const fingerprint = (env: Record<string, string>) =>
      sandboxConfigFingerprint(loadConfig({ ...base, ...env }));
    expect(
      fingerprint({
        QUAYSIDE_SIMULATOR: "embedded",
        QUAYSIDE_SIMULATOR_PORT: "0",
        QUAYSIDE_CARRIER_ATTEMPTS: "1",
        QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        QUAYSIDE_SANDBOX_WORLD: "start",
      }),
    ).toBe(fingerprint({}));
    // A carrier under maintenance is tracked differently while the world is built.
    expect(fingerprint({ QUAYSIDE_CARRIER_STATUS: "ZIMU=maintenance" })).not.toBe(fingerprint({}));
  });
});
