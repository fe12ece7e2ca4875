import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import type { DatabaseTarget } from "../../src/config";
import { databaseEnvironment } from "../support/database";

const BIN = path.resolve("bin/quayside.mjs");

/** `quayside serve` as a real process: what an orchestrator starts, signals and kills. */
export interface ServiceProcess {
  url: string;
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** JSON log lines written so far. */
  logs(): { level: number; msg: string; [field: string]: unknown }[];
  /** The exit code, once it exits. */
  exited: Promise<number | null>;
  /** Milliseconds from `startedAt` of the spawn to the line "listening on". */
  listeningAfterMs: number;
}

export const DEMO_KEY = "reliability_demo_key_0123456789";

/** A database each test file owns: a PGlite folder, or a fresh PostgreSQL database. */
export function serviceEnvironment(target: DatabaseTarget, dataDir: string): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    ...(target.kind === "postgres"
      ? databaseEnvironment(target)
      : { DATABASE_URL: "", QUAYSIDE_DATA_DIR: dataDir }),
    PORT: "0",
    QUAYSIDE_LOG_LEVEL: "info",
    QUAYSIDE_WORKERS: "off",
    QUAYSIDE_DEMO_KEY: DEMO_KEY,
    // On a PGlite folder the sandbox world is built at start by default: its PGlite work holds the
    // event loop for seconds, which these timing tests must not measure. A test that wants it says so.
    QUAYSIDE_SANDBOX_WORLD: "first-request",
  };
}

export function temporaryFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "quayside-reliability-"));
  return { dir: path.join(dir, "data"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const started = performance.now();
  const child = spawn("node", [BIN, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      // The last line of the start-up banner: an API process's, or a worker process's.
      if (m && (output.includes("compat API") || output.includes("metrics"))) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    logs: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: number; msg: string }),
    exited,
    listeningAfterMs: performance.now() - started,
  };
}
