import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ManagedProcess, Supervisor } from "./processes";

/**
 * The DCSA carrier simulator as a process of its own (`quayside simulator --port N`), so that every
 * carrier call of the service under test is real HTTP to another process, and the simulator's CPU is
 * not charged to the service's core: it is pinned to the load CPUs, beside wrk. Latency is set per
 * carrier through its admin API (`PUT /_admin/faults/<SCAC>` with mode `slow`).
 */
export interface RunningSimulatorProcess {
  url: string;
  /** A carrier registry file pointing every SCAC at this simulator (QUAYSIDE_CARRIER_REGISTRY). */
  registryFile: string;
  process: ManagedProcess;
}

export async function startSimulatorProcess(
  supervisor: Supervisor,
  input: { port: number; cpus: string; repoRoot: string; tempDir: string },
): Promise<RunningSimulatorProcess> {
  const child = supervisor.spawn(
    "simulator",
    "taskset",
    [
      "-c",
      input.cpus,
      process.execPath,
      "bin/quayside.mjs",
      "simulator",
      "--port",
      String(input.port),
      "--host",
      "127.0.0.1",
    ],
    {
      cwd: input.repoRoot,
      longLived: true,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production" },
    },
  );
  const url = `http://127.0.0.1:${input.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exit !== undefined)
      throw new Error(`the simulator ${child.exit}:\n${child.output().slice(-2_000)}`);
    try {
      const response = await fetch(`${url}/_admin/state`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the simulator did not answer within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // Live mode with every carrier at the simulator's DCSA T&T 2.2 API, no auth and no request budget:
  // what embedded mode does, across processes (a carrier's own API kind, version and published
  // budget are for the real carrier, not the simulator).
  const registry = JSON.parse(
    readFileSync(path.join(input.repoRoot, "config", "carriers.registry.json"), "utf8"),
  ) as { carriers: Record<string, Record<string, unknown>> };
  for (const [scac, entry] of Object.entries(registry.carriers)) {
    entry.adapter = "dcsa-tnt-2.2";
    entry.baseUrl = `${url}/${scac}`;
    entry.eventsPath = "/v2/events";
    entry.auth = { kind: "none" };
    delete entry.tntVersion;
    delete entry.rateLimit;
  }
  const registryFile = path.join(input.tempDir, "carriers.registry.json");
  writeFileSync(registryFile, JSON.stringify(registry));
  return { url, registryFile, process: child };
}

/** Every answer of `scac` waits `ms` first (0 clears the fault). */
export async function setCarrierLatency(simulatorUrl: string, scac: string, ms: number): Promise<void> {
  const response =
    ms > 0
      ? await fetch(`${simulatorUrl}/_admin/faults/${scac}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ mode: "slow", delayMs: ms }),
        })
      : await fetch(`${simulatorUrl}/_admin/faults/${scac}`, { method: "DELETE" });
  await response.arrayBuffer();
  if (!response.ok && response.status !== 404)
    throw new Error(`simulator admin answered HTTP ${response.status} setting ${scac} latency`);
}

/** Environment that makes the service call this simulator over HTTP for every carrier. */
export function serviceCarrierEnv(simulator: RunningSimulatorProcess): Record<string, string> {
  return {
    QUAYSIDE_SIMULATOR: "off",
    QUAYSIDE_CARRIER_REGISTRY: simulator.registryFile,
    QUAYSIDE_CARRIER_ATTEMPTS: "1",
  };
}
