import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CHAIN_LENGTH, MAX_UNRECORDED } from "../src/domain/webhooks/delivery.service";
import {
  type BenchResults,
  type CheckResult,
  mergeRuns,
  pct,
  type ScenarioResult,
  type TargetResult,
} from "./results";
import type { OpenLoopRow } from "./runners";

/**
 * docs/performance.md, rendered from one results file. Run on its own (`npx tsx bench/report.ts
 * [results.json]`) it re-renders the newest results in bench/results without measuring again.
 * Everything here is computed from the numbers, except bench/analysis.md, which a person writes
 * after reading them and which is included as it is, with the results file it was written against.
 */

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DOC_PATH = path.join(REPO_ROOT, "docs", "performance.md");
export const RESULTS_DIR = path.join(REPO_ROOT, "bench", "results");
const ANALYSIS_PATH = path.join(REPO_ROOT, "bench", "analysis.md");

const num = (v: number, digits = 0) =>
  Number.isFinite(v)
    ? v.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "-";
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : "-");
const sec = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} s` : "-");
const usPerRequest = (rps: number) => (rps > 0 ? 1e6 / rps : Number.NaN);

function targetLabel(results: BenchResults, id: string): string {
  return results.targets.find((t) => t.id === id)?.label ?? id;
}

function resultTable(results: BenchResults, scenario: ScenarioResult): string[] {
  const lines = [
    "| target | req/s (median) | spread over rounds | p50 | p99 | non-2xx | server CPU per request | server core busy | other work on the machine | vs node:http | vs Express static | vs Express + Prisma |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const t of scenario.targets) {
    const ratio = (k: "node-http" | "express-static" | "express-prisma") =>
      t.ratios[k] === undefined ? "" : pct(t.ratios[k]!);
    const errors = t.socketErrors > 0 ? ` (+${t.socketErrors} socket errors)` : "";
    lines.push(
      `| ${targetLabel(results, t.targetId)} | ${num(t.medianRps)} | ${t.rpsSpread === undefined ? "-" : `±${pct(t.rpsSpread / 2)}`} | ${ms(t.p50Ms)} | ${ms(t.p99Ms)} | ${num(t.non2xx)}${errors} | ${t.cpuUsPerRequest === undefined ? "-" : `${num(t.cpuUsPerRequest)} µs`} | ${t.cpuShare === undefined ? "-" : pct(t.cpuShare)} | ${t.otherLoad === undefined ? "-" : pct(t.otherLoad)} | ${ratio("node-http")} | ${ratio("express-static")} | ${ratio("express-prisma")} |`,
    );
  }
  return lines;
}

/**
 * CPU of the pinned server core per request, layer by layer: each baseline adds one layer to the
 * one before it, the service adds our core. PostgreSQL's own CPU is not in these (it is not pinned).
 */
function costLines(results: BenchResults, scenario: ScenarioResult): string[] {
  const cpu = (id: string) => scenario.targets.find((t) => t.targetId === id)?.cpuUsPerRequest ?? Number.NaN;
  const node = cpu("node-http");
  const express = cpu("express-static");
  const lines: string[] = [];
  for (const mode of results.settings.modes) {
    const prisma = cpu(`express-prisma-${mode}`);
    const service = cpu(`quayside-${mode}`);
    if (![node, express, prisma, service].every(Number.isFinite)) continue;
    lines.push(
      `- ${mode}: ${num(service)} µs per request in the service = ${num(node)} µs node:http floor + ${num(express - node)} µs Express + ${num(prisma - express)} µs the Prisma work + ${num(service - prisma)} µs our core (gate and rate window, request id, logging and metrics middleware, GraphQL execution, envelope).`,
    );
  }
  return lines;
}

function explainMiss(results: BenchResults, check: CheckResult): string | undefined {
  if (check.status !== "missed") return undefined;
  const scenario = results.scenarios.find((s) => s.id === check.scenarioId);
  const service = scenario?.targets.find((t) => t.targetId === `quayside-${check.mode}`);
  if (!scenario || !service) return undefined;
  if (check.kind === "ratio" && check.baseline) {
    const baselineId = check.baseline === "express-prisma" ? `express-prisma-${check.mode}` : check.baseline;
    const baseline = scenario.targets.find((t) => t.targetId === baselineId);
    if (!baseline || service.cpuUsPerRequest === undefined || baseline.cpuUsPerRequest === undefined)
      return undefined;
    // Scale the measured throughput ratio by the service's CPU per request: the same work done in
    // (measured / target) of the time would meet the target. Per-round ratios, not the CPU medians,
    // decide met or missed, so the explanation starts from them.
    const measured = check.value ?? 0;
    const goal = service.cpuUsPerRequest * (measured / check.threshold);
    const cut = service.cpuUsPerRequest - goal;
    return `${scenario.name}, ${check.description}: measured ${check.display}. The service used ${num(service.cpuUsPerRequest)} µs of its core per request (the baseline ${num(baseline.cpuUsPerRequest)} µs); at ${pct(check.threshold)} it would have to do the same in about ${num(goal)} µs, so about ${num(cut)} µs per request (${pct(cut / service.cpuUsPerRequest)} of its CPU) has to go.`;
  }
  if (check.kind === "p99") {
    const bound = check.threshold;
    const connections = results.settings.connections;
    const meanMs = (connections / service.medianRps) * 1000;
    const tail = service.p99Ms / Math.max(service.p50Ms, 1e-9);
    const needed = (connections / bound) * 1000 * tail;
    return `${scenario.name}, ${check.description}: measured ${check.display}. With ${connections} connections kept busy against one saturated core, latency is queueing: mean ≈ ${connections} / ${num(service.medianRps)} req/s = ${ms(meanMs)}, and p99 was ${num(tail, 1)} × p50. With that tail, p99 < ${bound} ms needs about ${num(needed)} req/s (${num(usPerRequest(needed))} µs per request), or a much shorter tail.`;
  }
  return undefined;
}

function readAnalysis(resultsFile: string): string[] {
  if (!existsSync(ANALYSIS_PATH)) return [];
  const text = readFileSync(ANALYSIS_PATH, "utf8").trim();
  const written = /<!--\s*written against:\s*(\S+)\s*-->/.exec(text)?.[1];
  const lines = ["", "### Analysis", ""];
  if (written && path.basename(written) !== path.basename(resultsFile)) {
    lines.push(
      `> Written by hand against \`${written}\`; the figures above come from a newer run, so the reasoning below may lag them.`,
      "",
    );
  }
  lines.push(text.replace(/<!--[\s\S]*?-->\s*/g, "").trim());
  return lines;
}

/** Targets that differ only by database mode share one line. */
function groupByDescription(results: BenchResults): [string[], string][] {
  const groups = new Map<string, string[]>();
  for (const t of results.targets) groups.set(t.description, [...(groups.get(t.description) ?? []), t.label]);
  return [...groups].map(([description, labels]) => [labels, description]);
}

/** One ratio an issue states: the service in one mode against bare Express static, in the same run. */
interface RatioTarget {
  scenario: string;
  mode: "postgres" | "pglite";
  figure: string;
  before: string;
  atLeast: number;
}

/**
 * The figures an issue on read speed states, as it states them: ratios to bare Express static in one
 * run (PostgreSQL unless stated), then the open loop, the fan-out, the GraphQL statements and the
 * growth with the database. `before` columns are the issue's own "now" figures, so the page shows
 * where each came from.
 */
interface IssueTargets {
  issue: number;
  /** Where the issue's "before" figures come from. */
  beforeFrom: string;
  ratios: RatioTarget[];
  before: { openLoop: string; fanout: string; statements: string; growth: string };
}

const ISSUE_18: IssueTargets = {
  issue: 18,
  beforeFrom: "the full run at 4fdca2c",
  ratios: [
    { scenario: "v1-shipment", mode: "postgres", figure: "v1 stored read", before: "6.0%", atLeast: 0.4 },
    {
      scenario: "v1-shipment",
      mode: "pglite",
      figure: "v1 stored read, PGlite",
      before: "3.6%",
      atLeast: 0.25,
    },
    {
      scenario: "compat-tracking",
      mode: "postgres",
      figure: "compat tracking served from the store",
      before: "~1%",
      atLeast: 0.3,
    },
    { scenario: "v1-list", mode: "postgres", figure: "v1 list of 100", before: "(40 req/s)", atLeast: 0.15 },
    {
      scenario: "v1-delta",
      mode: "postgres",
      figure: "v1 delta sync of 200",
      before: "(20 req/s)",
      atLeast: 0.1,
    },
    {
      scenario: "compat-sealines",
      mode: "postgres",
      figure: "compat `/info/sealines`",
      before: "6.6%",
      atLeast: 0.4,
    },
    {
      scenario: "mcp-status",
      mode: "postgres",
      figure: "MCP `get_shipment_status`",
      before: "(208 req/s)",
      atLeast: 0.25,
    },
  ],
  before: { openLoop: "-", fanout: "13%", statements: "2 statements", growth: "+4% / +7% / +1%" },
};

/** Issue 37 restates issue 18's figures from the full run at 402f008 and adds the in-memory carriers route. */
const ISSUE_37: IssueTargets = {
  issue: 37,
  beforeFrom: "the full run at 402f008",
  ratios: [
    { scenario: "v1-shipment", mode: "postgres", figure: "v1 stored read", before: "7.6%", atLeast: 0.4 },
    {
      scenario: "v1-shipment",
      mode: "pglite",
      figure: "v1 stored read, PGlite",
      before: "2.2%",
      atLeast: 0.25,
    },
    {
      scenario: "compat-tracking",
      mode: "postgres",
      figure: "compat tracking from the store",
      before: "2.5%",
      atLeast: 0.3,
    },
    { scenario: "v1-list", mode: "postgres", figure: "v1 list of 100", before: "0.9%", atLeast: 0.15 },
    { scenario: "v1-delta", mode: "postgres", figure: "v1 delta of 200", before: "0.4%", atLeast: 0.1 },
    {
      scenario: "mcp-status",
      mode: "postgres",
      figure: "MCP `get_shipment_status`",
      before: "2.4%",
      atLeast: 0.25,
    },
    {
      scenario: "v1-carriers",
      mode: "postgres",
      figure: "v1 carriers (in-memory list)",
      before: "32%",
      atLeast: 0.6,
    },
  ],
  before: { openLoop: "482 ms", fanout: "39%", statements: "2 statements", growth: "-14% / -18% / -9%" },
};

const status = (met: boolean | undefined) => (met === undefined ? "-" : met ? "met" : "**missed**");

function issueTargetsSection(results: BenchResults, spec: IssueTargets): string[] {
  const rows: string[] = [];
  for (const t of spec.ratios) {
    const scenario = results.scenarios.find((s) => s.id === t.scenario);
    const service = scenario?.targets.find((x) => x.targetId === `quayside-${t.mode}`);
    const ratio = service?.ratios["express-static"];
    rows.push(
      `| ${t.figure} / bare Express static | ${t.before} | ${ratio === undefined ? "-" : `${pct(ratio)} (${num(service!.medianRps)} req/s)`} | >= ${pct(t.atLeast)} | ${status(ratio === undefined ? undefined : ratio >= t.atLeast)} |`,
    );
  }
  const r = results.runners;
  const open = r?.openLoop?.rows["v1-shipment"];
  rows.push(
    `| stored read, p99 at a constant 1,000 requests a second | ${spec.before.openLoop} | ${open ? `${ms(open.p99Ms)}${open.sustained ? "" : " (rate not sustained)"}${r!.openLoop!.offeredRps === 1_000 ? "" : ` at ${num(r!.openLoop!.offeredRps)} req/s`}` : "-"} | < 10 ms | ${status(open ? open.sustained && open.p99Ms < 10 && r!.openLoop!.offeredRps >= 1_000 : undefined)} |`,
  );
  const fanout = r?.webhookFanout;
  rows.push(
    `| webhook fan-out / bare loop to the same receiver | ${spec.before.fanout} | ${fanout ? `${pct(fanout.ratio)} (${num(fanout.deliveriesPerSecond)} a second)` : "-"} | >= 60% | ${status(fanout ? fanout.ratio >= 0.6 : undefined)} |`,
  );
  const statements = results.scenarios.find((s) => s.id === "graphql-shipment")?.statementsPerRequest;
  const most = statements ? Math.max(...Object.values(statements)) : undefined;
  rows.push(
    `| GraphQL shipment of 10 containers x 20 events | ${spec.before.statements} | ${most === undefined ? "-" : `${most} statements`} | <= 2 statements | ${status(most === undefined ? undefined : most <= 2)} |`,
  );
  const growth = r?.scale?.growth;
  const g = (id: string) => growth?.[id];
  const sign = (v: number) => `${v >= 0 ? "+" : ""}${pct(v)}`;
  rows.push(
    `| read / list / delta p50 growth from ${r?.scale ? `${num(r.scale.rows[0]!.shipments)} to ${num(r.scale.rows[r.scale.rows.length - 1]!.shipments)}` : "100,000 to 1,000,000"} shipments | ${spec.before.growth} | ${growth ? ["v1-shipment", "v1-list", "v1-delta"].map((id) => (g(id) ? sign(g(id)!.p50) : "-")).join(" / ") : "-"} | <= +20% each | ${status(growth ? ["v1-shipment", "v1-list", "v1-delta"].every((id) => g(id)?.status === "met") : undefined)} |`,
  );
  return [
    "",
    `## Targets of issue ${spec.issue}`,
    "",
    `Ratios measured in this run, PostgreSQL unless stated; reported, never asserted. "Before" is the issue's own figure, from ${spec.beforeFrom}.`,
    "",
    "| figure | before | measured | target | status |",
    "|---|---:|---:|---|---|",
    ...rows,
  ];
}

export function renderPerformanceDoc(
  results: BenchResults,
  resultsFiles: string | readonly string[],
): string {
  const files = typeof resultsFiles === "string" ? [resultsFiles] : resultsFiles;
  const resultsFile = files[0]!;
  const link = (file: string) =>
    `[\`${path.basename(file)}\`](${path.relative(path.join(REPO_ROOT, "docs"), file).split(path.sep).join("/")})`;
  const from =
    files.length === 1
      ? link(resultsFile)
      : `${link(files[0]!)} (the HTTP scenarios) and ${link(files[1]!)} (the runners), two runs of one commit`;
  const m = results.machine;
  const s = results.settings;
  const r = results.rateLimits;
  const out: string[] = [];
  out.push(
    "# Performance",
    "",
    `_Generated by \`npm run bench\` (bench/report.ts) from ${from}. Do not edit by hand: change the harness or bench/analysis.md, then run \`npm run bench\`, or \`npx tsx bench/report.ts\` to re-render the newest results (\`npx tsx bench/report.ts SCENARIOS.json RUNNERS.json\` renders two runs of one commit as one page)._`,
    "",
    "## How to run",
    "",
    "```sh",
    "npm run bench                  # full run: PGlite and PostgreSQL, 5 rounds x 5 s per target, results + this page",
    "npm run bench -- --smoke       # what CI runs: 1 round of 1 s, one scenario, results to a temp file, this page untouched",
    "npm run bench -- --help        # rounds, duration, warm-up, scenarios, modes, keys, CPUs, BENCH_PG_URL",
    "```",
    "",
    "Needs `wrk` and `taskset` (Debian packages `wrk`, `util-linux`) and, for the PostgreSQL mode, the PostgreSQL server binaries (or `BENCH_PG_URL`). The smoke run fails only when the harness breaks (a target does not start, wrk is missing, a target answers nothing successfully), never on a slow figure.",
    "",
    "The predictive ETA's calibration (1,000 simulated voyages, coverage of p50 and p80 and errors per horizon bucket) is on its own page, [docs/eta-calibration.md](eta-calibration.md): `npm run bench -- --scenarios eta-calibration` runs it alone.",
    "",
    "## Machine",
    "",
    "| | |",
    "|---|---|",
    `| cores (nproc) | ${m.cores} |`,
    `| CPU | ${m.cpuModel} |`,
    `| memory | ${m.memoryGiB} GiB |`,
    `| OS, kernel | ${m.os}, ${m.kernel} |`,
    `| Node | ${m.node} |`,
    `| PostgreSQL | ${m.postgres ?? "not used"}${s.postgres === "started by the harness" ? " (started by the harness: initdb on a temp folder, fsync off, not pinned)" : s.postgres === "BENCH_PG_URL" ? " (BENCH_PG_URL)" : ""} |`,
    `| PGlite | ${m.pglite ?? "not used"} |`,
    `| wrk | ${m.wrk ?? "?"} |`,
    `| commit | ${results.source.commit}${results.source.uncommittedFiles ? ` (+${results.source.uncommittedFiles} uncommitted files in the tree)` : ""} |`,
    `| other work | ${num(m.busyBeforeStartPercent, 1)}% of all cores busy in the second before start; during the measured runs, processes not of this run used ${m.otherLoadDuringRuns ? `${pct(m.otherLoadDuringRuns.median)} of all cores (median over runs; highest ${pct(m.otherLoadDuringRuns.max)})` : "?"}; load average ${m.loadAverageAtStart.join(" / ")} at start, ${m.loadAverageAtEnd?.join(" / ") ?? "?"} at end |`,
    `| idle targets | while one target was under load, the others (pinned to the same core) used ${m.idleTargetsDuringRuns ? `${pct(m.idleTargetsDuringRuns.median)} of it (median over runs; highest ${pct(m.idleTargetsDuringRuns.max)})` : "? (not recorded by this run)"} |`,
    `| run | ${results.generatedAt} |`,
    "",
    "## Method",
    "",
    `- Targets, all started before any measurement and kept up together: the service in each database mode (${s.modes.join(", ")}), and three baselines per scenario, each answering the service's own answer bytes for that scenario (fetched once from the service):`,
    ...groupByDescription(results).map(
      ([labels, description]) => `  - **${labels.join("**, **")}**: ${description}.`,
    ),
    `- Every server is pinned to CPU ${s.serverCpus} and wrk to CPU ${s.loadCpus} with \`taskset\`. PostgreSQL is not pinned (a dependency, not a target: it takes what the scheduler gives it, as in the reference \`pgbench\` figures measured before the harness).`,
    `- \`wrk -t${s.threads} -c${s.connections} -d${s.durationSeconds}s --latency --timeout 10s\` with a generated Lua script. Warm-up: runs of ${s.warmupSeconds} s per target and scenario, repeated until the target has answered ${num(s.warmupRequests)} requests (at most ${s.warmupMaxRuns} runs: a slow target needs more time to reach steady state than a fast one)${s.warmupCoverMaxRuns === undefined ? "" : `; a scenario whose rounds read a random one of the seeded shipments reads them in order in its warm-up and goes on (up to ${s.warmupCoverMaxRuns} runs) until each was read once, so its rounds meet a service that has answered every one before, as a deployed service has, not a run of first reads`}. Then ${s.rounds} rounds; in each round every scenario's targets run one after another (the order rotates each round).${
      s.settle
        ? ` Before every ${s.settle.notBeforeContinuedWarmups ? "measured run, and a target's first warm-up run of a scenario," : "run"} the harness waits until all targets together use under ${pct(s.settle.quietShare)} of a core (at most ${s.settle.maxMs / 1000} s), so that the tail of one server's work (garbage collection, compilation, queued writes) is not charged to the next.`
        : " This run did not wait for the targets to go idle between runs, so the tail of one server's work (garbage collection, compilation, queued writes) could fall into the next target's run."
    }`,
    "- Reported per target: median req/s over rounds and how far the rounds spread around it (± half of max - min), median over rounds of each round's p50 and p99, non-2xx answers summed over the measured rounds (wrk's count of status >= 400, so a 429 would show here), the server process's CPU per answered request and its share of the pinned core (from /proc; a CPU-bound server well under 100% lost its core to something else), the share of all cores that other processes (not this run's servers, wrk, harness or any postgres process) used during the run, and for each baseline the median of the per-round ratios (ratios cancel the drift of a shared machine; absolute numbers move 30-50% between runs).",
    `- Rate limits are kept out of the measurement by a window the load cannot fill, not by switching them off: every request is still spent through its key's and its organisation's windows. One organisation on plan \`${r.plan}\` at a negotiated ${num(r.perKeyPerMinute)} requests per key per minute (\`quayside orgs rate\`; its keys together five times that) holds ${num(r.keysSeeded)} keys: enough for ${num(r.poolSizedForRps)} req/s (twice the bare-Express ceiling measured before the harness, which the service, built on Express, cannot pass) during the ${r.poolLoadSeconds} s of load one service can get at most within a minute; the warm-up rotates through all of them. Every key in rotation also costs the service one \`last_used_at\` write a minute, so the measured rounds rotate through only ${num(r.roundKeys)} keys, ${r.roundKeysHeadroom} times what the fastest service warm-up (${num(r.warmupPeakServiceRps)} req/s) needs for the ${r.roundLoadSeconds} s of load one service gets in any minute of the rounds (at least ${r.minRoundKeys}): at most ${num(r.roundKeys)} such writes a minute (\`--keys N\` sets the number). The fastest measured service run reached ${num(r.peakServiceRps)} req/s, which would spend ${pct(r.peakShareOfKeyWindow)} of each round key's window. wrk's script rotates round-robin through the keys, and every target gets the same requests with the same keys. The services' own count of answers by status after the run (warm-up included): ${Object.entries(
      results.statusCounts,
    )
      .map(
        ([id, counts]) =>
          `${id} ${
            Object.entries(counts)
              .map(([status, n]) => `${status}: ${num(n)}`)
              .join(", ") || "?"
          }`,
      )
      .join("; ")}.`,
    "",
    "## Results",
  );
  for (const scenario of results.scenarios) {
    const sizes = Object.entries(scenario.answerBytes)
      .map(([id, bytes]) => `${bytes} B from ${id}`)
      .join(", ");
    out.push(
      "",
      `### ${scenario.name}: \`${scenario.method} ${scenario.path}\``,
      "",
      `${scenario.what}. Answer: ${sizes}; baselines answer ${scenario.baselineBodyBytes} B.`,
      "",
      ...resultTable(results, scenario),
      "",
      "Where the time goes: differences between the targets' median CPU per request on the pinned core (each baseline adds one layer; PostgreSQL's own CPU is not included). On a busy machine these differences carry the noise of both sides; a profile is steadier (see the analysis).",
      "",
      ...costLines(results, scenario),
    );
  }

  out.push(...runnerSections(results));

  const checks = results.scenarios.flatMap((sc) => sc.checks.map((c) => ({ c, name: sc.name })));
  out.push(
    "",
    "## Targets of issue 11",
    "",
    "Reported, not asserted. Targets the issue states for scenarios that do not exist yet are applied to the nearest route that does, and say so.",
    "",
    "| scenario | target | measured | status | source |",
    "|---|---|---:|---|---|",
    ...checks.map(
      ({ c, name }) =>
        `| ${name} | ${c.description} | ${c.display} | ${c.status === "met" ? "met" : c.status === "missed" ? "**missed**" : c.status} | ${c.source} |`,
    ),
    ...runnerChecks(results),
    ...results.pending.flatMap((p) =>
      p.targets.map((t) => `| ${p.name} | ${t} | - | pending (scenario not implemented yet) | issue 11 |`),
    ),
  );
  const misses = checks.map(({ c }) => explainMiss(results, c)).filter((x): x is string => x !== undefined);
  if (misses.length > 0)
    out.push("", "### Why targets are missed, from the numbers", "", ...misses.map((x) => `- ${x}`));
  out.push(...issueTargetsSection(results, ISSUE_18));
  out.push(...issueTargetsSection(results, ISSUE_37));
  out.push(...readAnalysis(resultsFile));

  if (results.pending.length > 0) {
    out.push(
      "",
      "## Not yet implemented",
      "",
      "Scenarios of issue 11 that arrive with later work; each becomes one entry in bench/scenarios.ts (request or Lua, seed step, Prisma work of its baseline, targets).",
      "",
      ...results.pending.map(
        (p) => `- **${p.name}**: ${p.what}.${p.targets.length ? ` Target: ${p.targets.join("; ")}.` : ""}`,
      ),
    );
  }
  if (results.warnings.length > 0)
    out.push("", "## Warnings from this run", "", ...results.warnings.map((w) => `- ${w}`));
  return `${out.join("\n")}\n`;
}

export function writePerformanceDoc(results: BenchResults, resultsFiles: string | readonly string[]): void {
  writeFileSync(DOC_PATH, renderPerformanceDoc(results, resultsFiles));
}

/** A plain-text table for the terminal. */
export function consoleSummary(results: BenchResults): string {
  const lines: string[] = [];
  const row = (cells: string[], widths: number[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  const widths = [27, 9, 10, 10, 8, 9, 6, 6, 7, 9, 8];
  for (const scenario of results.scenarios) {
    lines.push(
      "",
      `${scenario.name}  ${scenario.method} ${scenario.path}  (${scenario.baselineBodyBytes} B)`,
    );
    lines.push(
      row(
        ["target", "req/s", "p50", "p99", "non-2xx", "cpu/req", "core", "/node", "/express", "/prisma"],
        widths,
      ),
    );
    for (const t of scenario.targets) lines.push(row(consoleCells(results, t), widths));
    for (const c of scenario.checks) lines.push(`  ${c.status.padEnd(12)} ${c.description}: ${c.display}`);
  }
  return lines.join("\n");
}

function consoleCells(results: BenchResults, t: TargetResult): string[] {
  const ratio = (v: number | undefined) => (v === undefined ? "" : pct(v));
  return [
    targetLabel(results, t.targetId),
    num(t.medianRps),
    ms(t.p50Ms),
    ms(t.p99Ms),
    num(t.non2xx + t.socketErrors),
    t.cpuUsPerRequest === undefined ? "-" : `${num(t.cpuUsPerRequest)}us`,
    t.cpuShare === undefined ? "-" : pct(t.cpuShare),
    t.otherLoad === undefined ? "-" : pct(t.otherLoad),
    ratio(t.ratios["node-http"]),
    ratio(t.ratios["express-static"]),
    ratio(t.ratios["express-prisma"]),
  ];
}

function newestResultsFile(): string | undefined {
  if (!existsSync(RESULTS_DIR)) return undefined;
  const files = readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(RESULTS_DIR, f));
  return files.sort((a, b) => {
    const at = (JSON.parse(readFileSync(a, "utf8")) as BenchResults).generatedAt;
    const bt = (JSON.parse(readFileSync(b, "utf8")) as BenchResults).generatedAt;
    return at.localeCompare(bt);
  })[files.length - 1];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.slice(2, 4).map((f) => path.resolve(f));
  const file = files[0] ?? newestResultsFile();
  if (!file) {
    process.stderr.write("No results in bench/results; run npm run bench first.\n");
    process.exit(1);
  }
  const read = (f: string) => JSON.parse(readFileSync(f, "utf8")) as BenchResults;
  try {
    if (files.length === 2) writePerformanceDoc(mergeRuns(read(files[0]!), read(files[1]!)), files);
    else writePerformanceDoc(read(file), file);
  } catch (error) {
    process.stderr.write(`Not rendered: ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `Rendered ${path.relative(process.cwd(), DOC_PATH)} from ${(files.length === 2 ? files : [file]).map((f) => path.relative(process.cwd(), f)).join(" and ")}\n`,
  );
}

/** The runners' rows in the targets table. */
function runnerChecks(results: BenchResults): string[] {
  const r = results.runners;
  if (!r) return [];
  const lines: string[] = [];
  if (r.bulkTrack) {
    const b = r.bulkTrack;
    lines.push(
      `| bulk track | POST /track of ${b.references} at ${b.carrierLatencyMs} ms per carrier call < ${b.target.belowSeconds} s | ${sec(b.medianSeconds)} (median of ${b.requests}) | ${b.target.status === "met" ? "met" : "**missed**"} | issue 11 |`,
    );
  }
  if (r.scale) {
    const first = r.scale.rows[0]!;
    const last = r.scale.rows[r.scale.rows.length - 1]!;
    for (const [id, g] of Object.entries(r.scale.growth)) {
      lines.push(
        `| scale | ${id} p50 within 20% from ${num(first.shipments)} to ${num(last.shipments)} shipments | ${g.p50 >= 0 ? "+" : ""}${pct(g.p50)} (p99 ${g.p99 >= 0 ? "+" : ""}${pct(g.p99)}) | ${g.status === "met" ? "met" : "**missed**"} | issue 11${last.shipments < 1_000_000 ? "; the default sizes reach 1,000,000" : ""} |`,
      );
    }
  }
  if (r.openLoop) {
    const t = r.openLoop.target;
    const row = r.openLoop.rows[t.scenario];
    const measured = row
      ? `${ms(t.p99Ms)}${row.sustained ? "" : ` (rate not sustained: ${num(row.achievedRps)} of ${num(row.offeredRps)} req/s, ${num(row.non2xx)} non-2xx, ${num(row.errors)} errors)`}`
      : "-";
    lines.push(
      `| open loop | stored read, p99 at a constant ${num(r.openLoop.offeredRps)} requests a second < ${t.belowMs} ms | ${measured} | ${t.status === "met" ? "met" : "**missed**"} | issue 18${r.openLoop.offeredRps === 1_000 ? "" : "; the issue states 1,000 requests a second"} |`,
    );
  }
  return lines;
}

function openLoopCells(row: OpenLoopRow): string {
  const statuses = Object.entries(row.byStatus ?? {})
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, n]) => `${num(n)} x ${status}`);
  const refused =
    row.samplesRefused.length > 0
      ? `; ${row.samplesRefused.length} of ${row.samplesChecked} sampled answers refused`
      : "";
  return `${num(row.achievedRps)} | ${ms(row.p50Ms)} | ${ms(row.p90Ms)} | ${ms(row.p99Ms)} | ${ms(row.maxMs)} | ${row.serverCpuShare === undefined ? "-" : pct(row.serverCpuShare)} | ${[...statuses, row.errors > 0 ? `${num(row.errors)} unanswered (${num(row.timeouts)} timeouts)` : ""].filter(Boolean).join(", ") || "none"}${refused} | ${row.sustained ? "yes" : "**no**"} |`;
}

/** The open-loop runner and the node-versions runner (bench/runners.ts, bench/open-loop.ts). */
function openLoopSections(results: BenchResults): string[] {
  const r = results.runners;
  const out: string[] = [];
  const header = [
    "achieved req/s | p50 | p90 | p99 | max | service core busy | refusals and errors | sustained |",
    "---:|---:|---:|---:|---:|---:|---|---|",
  ];
  if (r?.openLoop) {
    const o = r.openLoop;
    out.push(
      "",
      `### open loop: ${num(o.offeredRps)} requests a second, whatever the answers`,
      "",
      `\`bench/open-loop.ts\`, a client of our own run as its own process pinned to the load CPU like wrk: request i is due at start + i / rate and its latency runs from that due time to the end of its answer, so time spent waiting behind a slow answer (in the server or in the client's queue of at most ${o.maxSockets} sockets) is counted, not omitted as in a closed loop. ${o.warmupSeconds} s of warm-up at the same rate, then ${o.seconds} s measured per scenario, the service on PostgreSQL (${num(o.shipments)} shipments, workers off). A request unanswered ${num(o.timeoutMs / 1000)} s after its due time is an error. Achieved is answers per second from the first due time to the last answer; a rate is sustained when that is at least 95% of the offered rate with no refusal or error. One answer in 97 is checked like the rounds check theirs.`,
      "",
      `| scenario | ${header[0]}`,
      `|---|${header[1]}`,
      ...Object.entries(o.rows).map(([id, row]) => `| ${id} | ${openLoopCells(row)}`),
    );
  }
  if (r?.nodeVersions) {
    const v = r.nodeVersions;
    out.push(
      "",
      `### Node versions: ${v.scenario} on PostgreSQL under each Node`,
      "",
      `One service at a time, the same database (${num(v.shipments)} shipments) and the same pinning; the binaries other than the harness's own come from the npm registry (\`node-<platform>-<arch>\`, \`--node\`). Closed loop: wrk at the rounds' connections for ${v.seconds} s after a warm-up; open loop: bench/open-loop.ts at ${num(v.rows[0]?.open.offeredRps ?? Number.NaN)} requests a second.`,
      "",
      "| Node | closed loop req/s | p50 | p99 | server CPU per request | open loop: achieved req/s | p50 | p90 | p99 | max | service core busy | refusals and errors | sustained |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
      ...v.rows.map(
        (row) =>
          `| ${row.version}${row.node === "current" ? " (the harness's own)" : ""} | ${num(row.closed.rps)} | ${ms(row.closed.p50Ms)} | ${ms(row.closed.p99Ms)} | ${row.closed.cpuUsPerRequest === undefined ? "-" : `${num(row.closed.cpuUsPerRequest)} µs`} | ${openLoopCells(row.open)}`,
      ),
    );
  }
  return out;
}

/** Bulk latency, webhook fan-out, refresh scheduling and scale (bench/runners.ts). */
function runnerSections(results: BenchResults): string[] {
  const r = results.runners;
  if (!r) return [];
  const out: string[] = [
    "",
    "## Latency, fan-out, refresh and scale",
    "",
    "Not HTTP throughput, so not wrk rounds: `bench/runners.ts` runs each on PostgreSQL in a database of its own, against a service process of its own pinned like the measured targets (which are stopped by then), with the carrier simulator as a separate process over HTTP. Each figure is beside a same-run baseline where one makes sense.",
  ];
  if (r.bulkTrack) {
    const b = r.bulkTrack;
    out.push(
      "",
      `### bulk track: \`POST /api/v1/track\` of ${b.references} new containers, simulator at ${b.carrierLatencyMs} ms per call`,
      "",
      "| | seconds per bulk request |",
      "|---|---:|",
      `| the service, end to end (median of ${b.requests}; max ${sec(b.maxSeconds)}; ${b.itemsOk} items tracked, ${b.itemsFailed} failed) | ${sec(b.medianSeconds)} |`,
      `| floor at the service's per-carrier concurrency of ${b.carrierConcurrency}: ceil(${b.references} / ${b.carrierConcurrency}) x ${b.carrierLatencyMs} ms | ${sec(b.floorSeconds)} |`,
      `| baseline: the same ${b.references} DCSA calls from a bare loop, ${b.carrierConcurrency} at a time | ${sec(b.baselineSeconds.atConcurrency)} |`,
      `| baseline: the same ${b.references} DCSA calls from a bare loop, all at once | ${sec(b.baselineSeconds.unbounded)} |`,
      "",
      b.target.status === "met"
        ? `Target (under ${b.target.belowSeconds} s): met.`
        : `Target (under ${b.target.belowSeconds} s): **missed**. The DCSA adapter allows ${b.carrierConcurrency} concurrent calls per carrier (\`DCSA_TNT_DEFAULTS.maxConcurrency\`, or \`maxConcurrency\` of a registry entry), so ${b.references} calls of one carrier at ${b.carrierLatencyMs} ms cannot take less than ${sec(b.floorSeconds)}; the bare loop at the same concurrency shows that floor. Reaching the target needs at least ${Math.ceil(b.references / Math.floor((b.target.belowSeconds * 1000) / b.carrierLatencyMs - 1))} concurrent calls per carrier for a bulk request (a per-carrier limit agreed with each carrier, or a higher limit for the simulator), plus the service's own time per item, which is the gap between the measured time and the floor.`,
    );
  }
  if (r.webhookFanout) {
    const f = r.webhookFanout;
    out.push(
      "",
      `### webhook fan-out: ${num(f.events)} outbox deliveries to ${f.endpoints} endpoints of a local receiver`,
      "",
      "| | seconds | deliveries per second |",
      "|---|---:|---:|",
      `| the service's webhook dispatcher (endpoints leased under SKIP LOCKED, one lane per endpoint, claimed every ${f.workerIntervalMs} ms and at once when a lane ends with more due; each endpoint's deliveries signed and sent one at a time in order, endpoints in parallel; attempts and delivery states written in bulk by one recorder while the lane goes on sending, at most ${MAX_UNRECORDED} attempts ahead of the writes; up to ${CHAIN_LENGTH} deliveries per lease) | ${sec(f.seconds)} | ${num(f.deliveriesPerSecond)} |`,
      `| baseline: a bare loop posting the same bodies to the same receiver, one chain per endpoint | ${sec(f.baselineSeconds)} | ${num(f.baselineDeliveriesPerSecond)} |`,
      "",
      `The worker reaches ${pct(f.ratio)} of the bare loop. The rows are inserted in one statement (the outbox a change writes), and the time runs from that insert to the last delivery received, so it includes up to one worker interval of waiting before the first batch.`,
    );
  }
  if (r.refreshScheduling) {
    const s = r.refreshScheduling;
    out.push(
      "",
      `### refresh scheduling: ${num(s.schedule.shipments)} active shipments`,
      "",
      "The schedule the product computes (`nextRefreshAt`: the 12-hour gap plus up to 10% chosen by hash), for the same number of shipments synced in three patterns; jobs falling due per minute:",
      "",
      "| synced | span | mean jobs/min | peak jobs/min | peak / mean |",
      "|---|---:|---:|---:|---:|",
      ...s.schedule.cases.map(
        (c) =>
          `| ${c.name} | ${num(c.spanMinutes)} min | ${num(c.meanPerMinute, 1)} | ${num(c.peakPerMinute)} | ${num(c.peakToMean, 2)} |`,
      ),
      "",
      `What the refresh worker achieves: ${num(s.drain.dueJobs)} jobs due at once (real MSCU container numbers, stored answers older than the gap, so each asks the simulator at 0 ms), beside ${num(s.drain.activeShipments)} active shipments not due; batches of ${s.drain.batch}, re-run at once while full. ${num(s.drain.completed)} done in ${sec(s.drain.seconds)}: **${num(s.drain.jobsPerMinuteMean)} jobs per minute on average, ${num(s.drain.jobsPerMinutePeak)} at the best 5 seconds**. Against the steady-state mean of ${num(s.schedule.cases[0]?.meanPerMinute ?? Number.NaN, 1)} jobs per minute for ${num(s.schedule.shipments)} shipments, that is ${num(s.drain.jobsPerMinuteMean / (s.schedule.cases[0]?.meanPerMinute ?? Number.NaN), 0)} times the need; the worst case (all synced in one second) peaks at ${num(Math.max(...s.schedule.cases.map((c) => c.peakPerMinute)))} jobs per minute, which the worker drains within the 10% spread.`,
    );
  }
  out.push(...openLoopSections(results));
  if (r.scale) {
    const sc = r.scale;
    const ids = Object.keys(sc.rows[0]?.endpoints ?? {});
    out.push(
      "",
      `### scale: read, list and delta at ${sc.rows.map((row) => num(row.shipments)).join(" and ")} shipments`,
      "",
      `wrk with ${sc.connections} connections for ${sc.seconds} s per endpoint after a 2 s warm-up, the service on PostgreSQL with workers off; the shipments are added in bulk SQL (\`INSERT ... SELECT generate_series\`, bench/shipments-seed.ts) between the sizes, then \`VACUUM (ANALYZE)\`. Read: a random shipment by reference; list: the newest page of 100; delta: \`updated_since\` ten minutes before the first seed (capped at 200).`,
      "",
      `| shipments | seeding | ${ids.map((id) => `${id} p50 / p99 (req/s)`).join(" | ")} |`,
      `|---:|---:|${ids.map(() => "---:").join("|")}|`,
      ...sc.rows.map(
        (row) =>
          `| ${num(row.shipments)} | ${sec(row.seedSeconds)} | ${ids
            .map((id) => {
              const e = row.endpoints[id]!;
              return `${ms(e.p50Ms)} / ${ms(e.p99Ms)} (${num(e.rps)})`;
            })
            .join(" | ")} |`,
      ),
      "",
      `Growth of p50 from the first size to the last: ${Object.entries(sc.growth)
        .map(([id, g]) => `${id} ${g.p50 >= 0 ? "+" : ""}${pct(g.p50)} (${g.status})`)
        .join(
          ", ",
        )}. The list counts the organisation's live shipments on every page (\`total\`), a scan that grows with the organisation; read and delta walk an index.`,
    );
  }
  return out;
}
