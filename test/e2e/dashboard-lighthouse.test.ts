import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { CHROMIUM, hasChromium } from "../support/browser";
import { simulatedContainers } from "../support/references";

/**
 * Lighthouse on the three pages a forwarder opens every morning (issue 38): the overview, the list and
 * one shipment, signed in, with shipments the embedded carrier simulator answered for. Desktop preset
 * with simulated throttling, in Debian's Chromium; each of performance, accessibility and best
 * practices at 95 or more. The figures are printed, and recorded in docs/dashboard.md.
 */
const PASSWORD = "lighthouse-keeper-38d";
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
const FLOOR = 0.95;

let app: TestApp;
let chromium: ChildProcess | undefined;
let profile: string;
let port: number;
let cookie: string;
let shipmentPath: string;

/** Debian's Chromium with a DevTools port for Lighthouse (it drives the browser itself). */
async function launch(): Promise<number> {
  profile = mkdtempSync(join(tmpdir(), "quayside-lighthouse-"));
  chromium = spawn(CHROMIUM, [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
    `--user-data-dir=${profile}`,
    "about:blank",
  ]);
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${said}`)), 30_000);
    chromium!.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(said);
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    });
  });
}

/** Signs in over HTTP as the form does, and returns the session cookie for Lighthouse's requests. */
async function signIn(email: string): Promise<string> {
  const form = await fetch(`${app.url}/dashboard/sign-in`);
  const visitor = form.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signed = await fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: visitor.join("; ") },
    body: new URLSearchParams({ _csrf: token, email, password: PASSWORD, next: "/dashboard" }),
  });
  expect(signed.status).toBe(303);
  return signed.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_WORKERS: "off" },
  });
  const org = await app.fixtures.organization({ plan: "professional" });
  const email = `lead-${org.organizationId.slice(0, 8)}@example.com`;
  await app.services.accounts.createUser({
    organizationId: org.organizationId,
    email,
    name: "Lia Lighthouse",
    role: "owner",
    password: PASSWORD,
  });
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 4,
    start: 500_000,
  });
  for (const reference of known) {
    const { body } = await graphql(
      app,
      org.key,
      `mutation($r: String!) { track(reference: $r) { ... on TrackSuccess { shipment { name } } } }`,
      { r: reference },
    );
    shipmentPath ??= `/dashboard/shipments/${(body.data as any).track.shipment.name}`;
  }
  if (hasChromium) {
    cookie = await signIn(email);
    port = await launch();
  }
}, 180_000);
afterAll(async () => {
  // Chromium writes to its profile until it has exited; removing the folder before that races it.
  if (chromium && chromium.exitCode === null) {
    const exited = new Promise((resolve) => chromium!.once("exit", resolve));
    chromium.kill();
    await exited;
  }
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  await app?.stop();
});

async function audit(path: string): Promise<Record<string, number>> {
  const result = await lighthouse(
    `${app.url}${path}`,
    {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      extraHeaders: { Cookie: cookie },
    },
    desktopConfig,
  );
  const lhr = result!.lhr;
  expect(lhr.finalDisplayedUrl).toBe(`${app.url}${path}`);
  expect(lhr.runtimeError).toBeUndefined();
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]!.score ?? 0]));
  // What kept a category below the full score, for the record when a page drops.
  const lost = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
    .map((a) => `${a.id} ${a.score}`);
  const consoleErrors = (
    (lhr.audits["errors-in-console"]?.details as { items?: unknown[] })?.items ?? []
  ).map((i) => JSON.stringify(i));
  console.log(
    `lighthouse ${path}: ${JSON.stringify(scores)}; below 1: ${lost.join(", ") || "none"}; console errors: ${consoleErrors.join(" | ") || "none"}`,
  );
  return scores;
}

describe.skipIf(!hasChromium)("Lighthouse on the dashboard", { timeout: 180_000 }, () => {
  for (const [name, path] of [
    ["the overview", () => "/dashboard"],
    ["the shipment list", () => "/dashboard/shipments"],
    ["a shipment's page", () => shipmentPath],
  ] as const) {
    it(`scores ${name} at 95 or more in performance, accessibility and best practices`, async () => {
      const scores = await audit(path());
      for (const category of CATEGORIES) expect(scores[category], category).toBeGreaterThanOrEqual(FLOOR);
    });
  }
});
