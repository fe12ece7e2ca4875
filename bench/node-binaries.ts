import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Node binaries of other major versions, from the npm registry (no other download): the registry's
 * `node-<platform>-<arch>` packages hold the official binary (the `node` package only fetches one of
 * them in an install script). Installed once per major into the user's cache folder, outside the
 * repository and its node_modules; .ci/run does the same in shell.
 */
export interface NodeBinary {
  /** The major asked for ("22"), or "current" for the harness's own Node. */
  major: string;
  path: string;
  version: string;
}

export function nodeCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "quayside", "node");
}

export function currentNode(): NodeBinary {
  return { major: "current", path: process.execPath, version: process.version };
}

export function resolveNodeBinary(major: string, log: (message: string) => void): NodeBinary {
  if (!/^\d+$/.test(major)) throw new Error(`--node: a major version such as 22, got ${major}`);
  const prefix = path.join(nodeCacheDir(), major);
  const pkg = `node-${process.platform}-${process.arch}`;
  const binary = path.join(prefix, "node_modules", pkg, "bin", "node");
  if (!existsSync(binary)) {
    log(`installing Node ${major} from the npm registry (${pkg}@${major}) into ${prefix}`);
    const install = spawnSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, `${pkg}@${major}`],
      { encoding: "utf8" },
    );
    if (install.status !== 0 || !existsSync(binary)) {
      throw new Error(
        `could not install Node ${major} (${pkg}@${major}): ${(install.stderr || install.stdout || "").slice(-1_000)}`,
      );
    }
  }
  const version = spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${binary} reports ${version}, not Node ${major}`);
  return { major, path: binary, version };
}
