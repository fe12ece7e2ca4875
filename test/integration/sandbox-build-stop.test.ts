/**
 * A server stopping while its sandbox world is still being built does not wait for the build (seconds
 * of work nobody will read; CI once saw a stop held 8 s by it): the build stops at its next step,
 * closes the database, simulator and documents folder it opened, and says so.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SandboxBuildStopped, SandboxWorld } from "../../src/app/sandbox-world";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/observability/logger";

const config = loadConfig({
  PORT: "0",
  QUAYSIDE_DEMO: "false",
  QUAYSIDE_SIMULATOR: "off",
  QUAYSIDE_DISRUPTION_FEEDS: "off",
  QUAYSIDE_DATA_DIR: "memory://",
});
const quiet = createLogger("error", new Writable({ write: (_chunk, _enc, done) => done() }));

describe("the sandbox world's build when the server stops", () => {
  it("stops mid-build instead of finishing a world nobody will read", async () => {
    const stop = new AbortController();
    const building = SandboxWorld.create({
      config,
      logger: quiet,
      sampleSender: { sendSample: async () => ({ delivered: false }) } as never,
      stop: stop.signal,
    });
    // Well inside the build (its database alone takes longer).
    setTimeout(() => stop.abort(), 200);
    await expect(building).rejects.toBeInstanceOf(SandboxBuildStopped);
  }, 60_000);
});
