import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { billingWords, featureWords, UsageError } from "../../src/cli/index";
import { callTool, httpClient } from "../mcp/support";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

/**
 * The operator's levers (issue 36): `quayside orgs billing` and `quayside orgs features`, run by the
 * real CLI against a running server, and every surface answering the change on its very next request
 * (the organisation's keys were used just before, so a cached key row would show the old state).
 */
const run = promisify(execFile);
const BIN = path.resolve("bin/quayside.mjs");
const PASSWORD = "levers-password-1";

let app: TestApp;
let dataDir: string;
let cliEnv: Record<string, string>;
let org: { id: string; key: string; email: string };
let container: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "quayside-levers-"));
  const onPostgres = Boolean(inject("postgresUrl"));
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      // On PGlite a folder, so the CLI finds the running server holding it and runs inside it (its
      // operator endpoint), as on an operator's machine. On PostgreSQL the CLI opens the database
      // itself; the key cache is off there, since another process cannot clear this one's.
      ...(onPostgres ? { QUAYSIDE_KEY_CACHE_SECONDS: "0" } : { QUAYSIDE_DATA_DIR: dataDir }),
    },
  });
  const database = app.services.config.database;
  cliEnv = {
    ...(process.env as Record<string, string>),
    QUAYSIDE_LOG_LEVEL: "silent",
    ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : { QUAYSIDE_DATA_DIR: dataDir }),
  };
  const { accounts } = app.services;
  const created = await accounts.createOrganization({
    name: "Levers Ltd",
    plan: "business",
    developerMode: true,
  });
  const email = `owner-${created.id.slice(0, 8)}@example.com`;
  const user = await accounts.createUser({
    organizationId: created.id,
    email,
    role: "owner",
    password: PASSWORD,
  });
  const { rawKey } = await accounts.createApiKey({ userId: user.id });
  org = { id: created.id, key: rawKey, email };
  ({
    known: [container = ""],
  } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 1 }));
  // Tracked before any lever moves: a shipment whose page shows the disruptions section.
  expect((await v1("GET", `/container/${container}`)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function quayside(...args: string[]): Promise<string> {
  const { stdout } = await run("node", [BIN, ...args], { env: cliEnv });
  return stdout;
}

async function quaysideFails(...args: string[]): Promise<{ code: number; stderr: string }> {
  return run("node", [BIN, ...args], { env: cliEnv }).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => e,
  );
}

function v1(method: string, route: string, body?: unknown) {
  return fetch(`${app.url}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function viewerOrganization() {
  const { body } = await graphql(
    app,
    org.key,
    "{ viewer { organization { billingState overdueDays graceDays features { feature access } } } }",
  );
  return (body.data as { viewer: { organization: Record<string, unknown> } }).viewer.organization;
}

/** A signed-in dashboard page, as the organisation's owner sees it. */
async function dashboard(page: string): Promise<string> {
  const form = await fetch(`${app.url}/dashboard/sign-in`);
  const session = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: token, email: org.email, password: PASSWORD }).toString(),
  });
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
  return (await fetch(`${app.url}${page}`, { headers: { cookie } })).text();
}

describe("quayside orgs billing", { timeout: 180_000 }, () => {
  it("puts an organisation past its grace: 402 payment_overdue on v1 at once, GraphQL and the dashboard say so; current lifts it", async () => {
    expect(await quayside("orgs", "billing", "Levers Ltd", "overdue", "20", "grace", "14")).toMatch(
      /Levers Ltd .*: 20 days overdue, past its 14-day grace: new tracking is refused \(402 payment_overdue\)/,
    );
    const refused = await v1("POST", "/track", { shipments: [{ type: "container", number: container }] });
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { data: unknown }).data).toEqual({
      error: "payment_overdue",
      overdueDays: 20,
      graceDays: 14,
      plan: "business",
      manageUrl: expect.stringContaining("/billing"),
      usageApi: "/api/v1/account/usage",
    });
    // Existing shipments stay readable (spec v1 section 7).
    expect((await v1("GET", `/shipments/${container}`)).status).toBe(200);
    expect(await viewerOrganization()).toMatchObject({
      billingState: "overdue",
      overdueDays: 20,
      graceDays: 14,
    });
    expect(await dashboard("/dashboard/usage")).toContain(
      "Billing: overdue, 20 days overdue (grace 14 days).",
    );

    // More grace: still overdue, but tracking goes on.
    expect(await quayside("orgs", "billing", org.id, "grace", "30")).toMatch(
      /20 days overdue, within its 30-day grace: tracking goes on/,
    );
    expect(
      (await v1("POST", "/track", { shipments: [{ type: "container", number: container }] })).status,
    ).toBe(200);

    const current = JSON.parse(
      await quayside("orgs", "billing", "Levers Ltd", "current", "grace", "14", "--json"),
    );
    expect(current).toMatchObject({
      billingState: "active",
      overdueDays: 0,
      graceDays: 14,
      trackingPaused: false,
    });
    expect((await v1("GET", `/container/${container}`)).status).toBe(200);
    expect(await viewerOrganization()).toMatchObject({ billingState: "active", overdueDays: 0 });
  });

  it("refuses words it does not know, with a sentence and exit code 2", async () => {
    expect(await quaysideFails("orgs", "billing", "Levers Ltd", "overdue", "soon")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("overdue takes a whole number of days"),
    });
    expect(await quaysideFails("orgs", "billing", "Levers Ltd", "current", "overdue", "3")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("contradict"),
    });
    expect(await quaysideFails("orgs", "billing", "Nobody Inc", "current")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("No organisation Nobody Inc"),
    });
  });
});

describe("quayside orgs features", { timeout: 180_000 }, () => {
  it("switches port congestion and disruptions off and on: 403 feature_disabled on v1, GraphQL, MCP and the dashboard at once", async () => {
    const mcp = await httpClient(app, org.key);
    const portConditions = () => callTool(mcp, "get_port_conditions", { port: "CNSHA" });
    expect((await portConditions()).isError).toBeFalsy();

    const listed = await quayside(
      "orgs",
      "features",
      "Levers Ltd",
      "port_congestion",
      "off",
      "disruptions",
      "off",
    );
    expect(listed).toMatch(/port_congestion +off \(403 feature_disabled\)/);
    expect(listed).toMatch(/webhooks +on/);

    const board = await v1("GET", "/ports/congestion");
    expect(board.status).toBe(403);
    expect(((await board.json()) as { data: unknown }).data).toEqual({
      error: "feature_disabled",
      feature: "port_congestion",
    });
    const news = await v1("GET", "/disruptions");
    expect(news.status).toBe(403);
    expect(((await news.json()) as { data: unknown }).data).toEqual({
      error: "feature_disabled",
      feature: "disruptions",
    });
    const features = (await viewerOrganization()).features as { feature: string; access: string }[];
    expect(features.find((f) => f.feature === "port_congestion")?.access).toBe("feature_disabled");
    expect(features.find((f) => f.feature === "disruptions")?.access).toBe("feature_disabled");
    const switchedOff = await portConditions();
    expect(switchedOff.isError).toBe(true);
    expect(JSON.stringify(switchedOff.content)).toContain(
      "Port congestion is switched off for the organisation.",
    );
    expect(await dashboard(`/dashboard/shipments/${container}`)).toContain(
      "Disruption alerts are switched off for this organisation.",
    );

    const on = JSON.parse(
      await quayside(
        "orgs",
        "features",
        "--org",
        org.id,
        "port_congestion",
        "on",
        "disruptions",
        "on",
        "--json",
      ),
    );
    expect(on.features).toContainEqual(expect.objectContaining({ feature: "port_congestion", access: "on" }));
    expect((await v1("GET", "/ports/congestion")).status).toBe(200);
    expect((await v1("GET", "/disruptions")).status).toBe(200);
    expect((await portConditions()).isError).toBeFalsy();
    expect(await dashboard(`/dashboard/shipments/${container}`)).not.toContain(
      "switched off for this organisation",
    );
    await mcp.close();
  });

  it("says a feature the plan lacks stays plan_required whatever its switch, and refuses unknown features", async () => {
    await app.services.accounts.createOrganization({ name: "Small Levers", plan: "starter" });
    expect(await quayside("orgs", "features", "Small Levers", "disruptions", "on")).toMatch(
      /disruptions +not in the plan \(403 plan_required: business and up\)/,
    );
    expect(await quaysideFails("orgs", "features", "Small Levers", "teleport", "on")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("no feature teleport"),
    });
    expect(await quaysideFails("orgs", "features", "Small Levers", "webhooks", "maybe")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("webhooks takes on or off"),
    });
  });
});

describe("the CLI's words", () => {
  it("reads billing and feature sentences in any order", () => {
    expect(billingWords(["grace", "7", "overdue", "20"])).toEqual({ graceDays: "7", overdueDays: "20" });
    expect(billingWords(["Current"])).toEqual({ current: true });
    expect(() => billingWords(["overdue"])).toThrow(UsageError);
    expect(featureWords(["mcp", "off", "webhooks", "on"])).toEqual({ mcp: false, webhooks: true });
    expect(() => featureWords(["mcp"])).toThrow(/mcp takes on or off/);
  });
});
