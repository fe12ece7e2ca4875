import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A `node` binary of at least `major`: this process's when it is new enough, else the official binary
 * from the npm registry (`node-<platform>-<arch>`) in the cache that .ci/run's Node 22 and 24 subsets
 * and the benchmark's `--node` use, installed there the same way when missing. For tools that need a
 * newer Node than the service's floor (the MCP conformance suite calls `fs.globSync`, Node 22).
 */
export async function nodeBinaryOfAtLeast(major: number): Promise<string> {
  if (Number(process.versions.node.split(".")[0]) >= major) return process.execPath;
  const cache = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
    "quayside",
    "node",
  );
  const arch = `${process.platform}-${process.arch}`;
  for (const candidate of [major, major + 2]) {
    const bin = path.join(cache, String(candidate), "node_modules", `node-${arch}`, "bin", "node");
    if (existsSync(bin)) return bin;
  }
  const prefix = path.join(cache, String(major));
  await run(
    "npm",
    ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, `node-${arch}@${major}`],
    { timeout: 300_000 },
  );
  return path.join(prefix, "node_modules", `node-${arch}`, "bin", "node");
}
