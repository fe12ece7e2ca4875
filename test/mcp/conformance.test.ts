/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the started service,
 * once per protocol revision: 0.1.16 for 2025-11-25 (the `initialize` era) and 0.2.0-alpha.12
 * (`mcp-conformance-next`) for 2026-07-28 (`server/discover` and the per-request `_meta` envelope).
 * Every scenario of the capabilities the server declares must pass; the scenarios that call the suite's
 * own fixtures (a `test_simple_text` tool, a `test://static-text` resource, a `test_simple_prompt`
 * prompt...) are listed in the baseline beside this file, each with its reason, and
 * docs/mcp-conformance.md explains them. The suite exits non-zero on an unexpected failure and on a
 * baseline entry that passes (stale), so the list cannot silently grow or rot.
 *
 * The suite connects without credentials; a one-line forwarder in front of the service adds the
 * organisation's key as a Bearer token, as an MCP client's configuration does, and passes `Host` and
 * `Origin` through untouched so the DNS-rebinding scenario reaches the real checks.
 */

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { nodeBinaryOfAtLeast } from "../support/node-major";
import { simulatedContainers } from "../support/references";
import { TRACKING_ENV } from "./support";

let app: TestApp;
let org: OrgWithKey;
/** The key the forwarder sends: one organisation per revision, so one run's minute window is its own. */
let key: string;
let forwarder: http.Server;
let forwarderUrl: string;
let node: string;
let results: string;

const SUITES = {
  "2025-11-25": {
    cli: "node_modules/@modelcontextprotocol/conformance/dist/index.js",
    args: ["--spec-version", "2025-11-25"],
  },
  "2026-07-28": {
    cli: "node_modules/mcp-conformance-next/dist/index.js",
    args: ["--requirements", "2026-07-28"],
  },
} as const;
type Revision = keyof typeof SUITES;

beforeAll(async () => {
  [app, node] = await Promise.all([
    startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } }),
    nodeBinaryOfAtLeast(22),
  ]);
  // The custom plan's window (600 a minute): a suite sends a few hundred requests in seconds.
  org = await app.fixtures.organization({ plan: "custom" });
  // One tracked shipment, so the listed resources are not empty and the caching scenario reads one.
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 1,
    start: 640_000,
  });
  const tracked = await fetch(`${app.url}/api/v1/container/${known[0]}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(tracked.status).toBe(200);
  const target = new URL(app.url);
  forwarder = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => forwarder.listen(0, "127.0.0.1", resolve));
  forwarderUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/api/mcp`;
  results = mkdtempSync(path.join(os.tmpdir(), "quayside-conformance-"));
}, 300_000);
afterAll(async () => {
  await new Promise((resolve) => forwarder?.close(resolve));
  await app?.stop();
  if (results) rmSync(results, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** One run of a suite: its exit code and output, and every check it wrote, by scenario. */
async function conformance(revision: Revision) {
  const suite = SUITES[revision];
  key = revision === "2025-11-25" ? org.key : (await app.fixtures.teammate(org.organizationId)).key;
  const out = path.join(results, revision);
  const argv = [
    path.resolve(suite.cli),
    "server",
    "--url",
    forwarderUrl,
    ...suite.args,
    "--expected-failures",
    path.resolve(`test/mcp/conformance/${revision}.yaml`),
    "--output-dir",
    out,
  ];
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(node, argv, { maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    },
  );
  const checks: Record<string, Check[]> = {};
  for (const dir of readdirSync(out)) {
    // A scenario that ends before its first check (a skipped one) leaves no file.
    if (!existsSync(path.join(out, dir, "checks.json"))) continue;
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    checks[scenario] = JSON.parse(readFileSync(path.join(out, dir, "checks.json"), "utf8")) as Check[];
  }
  return { code, stdout, stderr, checks };
}

const failing = (checks: Record<string, Check[]>) =>
  Object.entries(checks).flatMap(([scenario, list]) =>
    list
      .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => `${c.status} ${scenario}:${c.id}: ${(c.errorMessage ?? "").slice(0, 160)}`),
  );

describe.each(Object.keys(SUITES) as Revision[])("the conformance suite for %s", (revision) => {
  it("passes every scenario but the baseline's, and every baseline entry still fails", async () => {
    const run = await conformance(revision);
    // On failure: the suite's summary, and every failed or warned check with its message.
    expect(run.code, `${run.stdout}\n${run.stderr}\n${failing(run.checks).join("\n")}`).toBe(0);
  }, 300_000);
});
