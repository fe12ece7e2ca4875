import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The import boundaries (.dependency-cruiser.cjs, run by `npm run lint`) probed the way a mistake would
 * arrive: a file in a layer importing what the layer may not. Each probe is written into a copy of the
 * project made of symlinks (the working tree is never touched), the checker runs on the probes with the
 * project's own rules, and every forbidden import must be refused while the allowed controls pass.
 * Issue 40: the Biome blocklist this replaced let 7 of 13 such imports through.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

interface Probe {
  /** What a reader of the failure should learn. */
  name: string;
  /** The file that imports, relative to the root: a new file, or a real one with the import added. */
  file: string;
  /** The import specifier, as its author would write it from `file`. */
  imports: string;
}

const FORBIDDEN: Probe[] = [
  { name: "the Prisma client from a facade", file: "facades/v1/probe.ts", imports: "@prisma/client" },
  {
    name: "the generated Prisma client from a facade",
    file: "facades/compat/probe.ts",
    imports: "../../src/generated/prisma/client",
  },
  { name: "src/app/services from a facade", file: "facades/mcp/probe.ts", imports: "../../src/app/services" },
  { name: "src/config from a facade", file: "facades/v1/probe-config.ts", imports: "../../src/config" },
  {
    name: "a domain service from a facade",
    file: "facades/dashboard/probe.ts",
    imports: "../../src/domain/tracking/tracking.service",
  },
  { name: "the database from a facade", file: "facades/share/probe.ts", imports: "../../src/db/database" },
  {
    name: "an upstream adapter from a facade",
    file: "facades/v1/probe-upstream.ts",
    imports: "../../src/upstream/carriers/dcsa-tnt.adapter",
  },
  {
    name: "the simulator from a facade",
    file: "facades/compat/probe-sim.ts",
    imports: "../../simulator/server",
  },
  {
    name: "another facade's internals from a facade",
    file: "facades/v1/probe-mcp.ts",
    imports: "../mcp/tools/get-refresh-schedule.tool",
  },
  {
    name: "the GraphQL schema (not the operation runner) from a facade",
    file: "facades/mcp/probe-schema.ts",
    imports: "../../src/graphql/schema",
  },
  { name: "the simulator from the domain", file: "src/domain/probe.ts", imports: "../../simulator/server" },
  {
    name: "the simulator from the GraphQL core",
    file: "src/graphql/probe-sim.ts",
    imports: "../../simulator/server",
  },
  { name: "domain to GraphQL", file: "src/domain/tracking/probe.ts", imports: "../../graphql/builder" },
  { name: "GraphQL to the composition root", file: "src/graphql/probe.ts", imports: "../app/services" },
  { name: "jobs to the composition root", file: "src/jobs/probe.ts", imports: "../app/services" },
  {
    name: "domain to an upstream adapter",
    file: "src/domain/probe-upstream.ts",
    imports: "../upstream/carriers/dcsa-tnt.adapter",
  },
  { name: "domain to HTTP", file: "src/domain/probe-http.ts", imports: "../http/outcomes" },
  { name: "domain to configuration", file: "src/domain/probe-config.ts", imports: "../config" },
  { name: "domain to the composition root", file: "src/domain/probe-app.ts", imports: "../app/services" },
  { name: "domain to a facade", file: "src/domain/probe-facade.ts", imports: "../../facades/v1/router" },
  { name: "GraphQL to a facade", file: "src/graphql/probe-facade.ts", imports: "../../facades/v1/router" },
  {
    name: "GraphQL to an upstream adapter",
    file: "src/graphql/probe-upstream.ts",
    imports: "../upstream/carriers/dcsa-tnt.adapter",
  },
  { name: "an adapter to the GraphQL core", file: "src/upstream/probe.ts", imports: "../graphql/builder" },
  { name: "src/lib to the domain", file: "src/lib/probe.ts", imports: "../domain/tracking/tracking.service" },
  {
    name: "configuration to the DCSA adapter (at run time)",
    file: "src/config.ts",
    imports: "./upstream/carriers/dcsa-tnt.adapter",
  },
  {
    name: "workspace configuration back to configuration (a cycle)",
    file: "src/workspace-config.ts",
    imports: "./config",
  },
  {
    name: "the simulator to the domain",
    file: "simulator/probe.ts",
    imports: "../src/domain/tracking/tracking.service",
  },
  {
    name: "the simulator to the core's configuration",
    file: "simulator/probe-config.ts",
    imports: "../src/config",
  },
  { name: "production code to a devDependency", file: "src/domain/probe-dev.ts", imports: "vitest" },
  { name: "a file in a folder no layer claims", file: "src/probe.ts", imports: "./lib/clock" },
];

/** Imports the rules allow: without them a checker that refuses everything would pass the test above. */
const ALLOWED: Probe[] = [
  {
    name: "the outcome table from a facade",
    file: "facades/v1/allowed.ts",
    imports: "../../src/http/outcomes",
  },
  {
    name: "the operation runner from a facade",
    file: "facades/mcp/allowed.ts",
    imports: "../../src/graphql/operation-runner",
  },
  { name: "the Services contract from GraphQL", file: "src/graphql/allowed.ts", imports: "../services" },
  { name: "the Services contract from jobs", file: "src/jobs/allowed.ts", imports: "../services" },
  { name: "src/lib from the domain", file: "src/domain/allowed.ts", imports: "../lib/clock" },
  { name: "the clock from the simulator", file: "simulator/allowed.ts", imports: "../src/lib/clock" },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/**
 * A copy of the project in which the probes' folders are real and everything else is a symlink to the
 * working tree; a probe on an existing file is that file with the import added at its end.
 */
function overlay(probes: Probe[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "quayside-boundaries-"));
  const files = new Map<string, string[]>();
  for (const p of probes) files.set(p.file, [...(files.get(p.file) ?? []), p.imports]);
  const realDirs = new Set<string>([""]);
  for (const file of files.keys()) {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) realDirs.add(parts.slice(0, i).join("/"));
  }
  const mirror = (rel: string) => {
    mkdirSync(path.join(dir, rel), { recursive: true });
    for (const entry of readdirSync(path.join(ROOT, rel))) {
      const child = rel ? `${rel}/${entry}` : entry;
      if (child === ".git") continue;
      if (realDirs.has(child)) mirror(child);
      else if (files.has(child)) copyFileSync(path.join(ROOT, child), path.join(dir, child));
      else symlinkSync(path.join(ROOT, child), path.join(dir, child));
    }
  };
  mirror("");
  for (const [file, imports] of files) {
    const lines = imports.map(
      (spec, i) => `import * as boundaryProbe${i} from "${spec}";\nvoid boundaryProbe${i};`,
    );
    writeFileSync(path.join(dir, file), `${lines.join("\n")}\n`, { flag: "a" });
  }
  // The project's rules, limited to the probes' own imports, with paths kept inside the copy.
  writeFileSync(
    path.join(dir, "probe.dependency-cruiser.cjs"),
    `const rules = require(${JSON.stringify(path.join(ROOT, ".dependency-cruiser.cjs"))});
module.exports = { ...rules, options: { ...rules.options, maxDepth: 1, preserveSymlinks: true } };\n`,
  );
  return dir;
}

async function cruise(dir: string, probes: Probe[]): Promise<Violation[]> {
  const bin = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
  const files = [...new Set(probes.map((p) => p.file))];
  const run = await promisify(execFile)(
    process.execPath,
    [bin, "--config", "probe.dependency-cruiser.cjs", "--output-type", "json", ...files],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The violations of one probe: from its file, to the module its specifier names. */
function refusals(violations: Violation[], probe: Probe): Violation[] {
  const target = probe.imports.startsWith(".")
    ? path.posix.normalize(path.posix.join(path.posix.dirname(probe.file), probe.imports))
    : `node_modules/${probe.imports}`;
  return violations.filter((v) => v.from === probe.file && v.to.startsWith(target));
}

let dir: string;
let violations: Violation[];

beforeAll(async () => {
  const probes = [...FORBIDDEN, ...ALLOWED];
  dir = overlay(probes);
  // A real file with a probe in it is cruised on its own: cruised beside a probe that imports it, it
  // would be that probe's leaf (depth 1) and its own imports would go unread.
  const existing = [...new Set(probes.filter((p) => existsSync(path.join(ROOT, p.file))).map((p) => p.file))];
  const runs = await Promise.all([
    cruise(
      dir,
      probes.filter((p) => !existing.includes(p.file)),
    ),
    ...existing.map((file) =>
      cruise(
        dir,
        probes.filter((p) => p.file === file),
      ),
    ),
  ]);
  violations = runs.flat();
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("import boundaries (each layer says what it may import)", () => {
  it.each(FORBIDDEN.map((p) => [p.name, p] as const))("refuses %s", (_name, probe) => {
    expect(refusals(violations, probe), `${probe.file} -> ${probe.imports}`).not.toEqual([]);
  });

  it.each(ALLOWED.map((p) => [p.name, p] as const))("allows %s", (_name, probe) => {
    expect(violations.filter((v) => v.from === probe.file)).toEqual([]);
  });

  it("finds nothing else to refuse in the probes' files than the probes", () => {
    // A real file with a probe added (src/config.ts) must owe its refusal to the probe alone.
    const probed = new Set(FORBIDDEN.map((p) => p.file));
    const explained = violations.filter((v) => FORBIDDEN.some((p) => refusals([v], p).length > 0));
    expect(violations.filter((v) => probed.has(v.from) && !explained.includes(v))).toEqual([]);
  });
});
