import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_ONLY_ROUTES, V1_ROUTES, type V1RouteName } from "../../facades/v1/contract/routes";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { openApiChecker } from "../support/openapi";
import { startReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let org: OrgWithKey;
let document: any;
let checker: ReturnType<typeof openApiChecker>;
let known: string[];

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 3, start: 420_000 }));
  document = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
  checker = openApiChecker(document);
}, 120_000);
afterAll(() => app?.stop());

interface Sample {
  path: string;
  body?: unknown;
}

/**
 * One request per route, in an order that works (the shipment is tracked before it is read and
 * untracked last). Typed by route name: a new route without a sample does not compile.
 */
const live = (): Record<V1RouteName, Sample> => ({
  carriers: { path: "/carriers?search=maersk" },
  carrierLookup: { path: `/carriers/lookup?number=${known[1]}` },
  ports: { path: "/ports?search=rotterdam" },
  vesselTrack: { path: "/vessel/track?imo=9811000&mmsi=353136000" },
  schedules: { path: "/voyage/schedules?origin=CNSHA&destination=NLRTM&date=2026-12-01" },
  trackContainer: { path: `/container/${known[0]}` },
  trackBillOfLading: { path: "/bl/MEDUXX0000001?sealine=MSCU" },
  trackBulk: { path: "/track", body: { shipments: [{ type: "container", number: known[2] }] } },
  accountUsage: { path: "/account/usage" },
  listShipments: { path: "/shipments?pageSize=5" },
  readShipment: { path: `/shipments/${known[0]}?include=full` },
  retryFailed: { path: "/shipments/retry-failed", body: {} },
  updateShipment: { path: `/shipments/${known[0]}`, body: { customer: "ACME Imports" } },
  shareShipment: { path: `/shipments/${known[0]}/share` },
  unshareShipment: { path: `/shipments/${known[0]}/share` },
  untrackShipment: { path: `/shipments/${known[0]}` },
});

const sandbox = (): Record<V1RouteName, Sample> => ({
  ...live(),
  trackContainer: { path: "/container/MSCU1234566" },
  trackBillOfLading: { path: "/bl/MAEU123456789" },
  trackBulk: {
    path: "/track",
    body: {
      shipments: [
        { type: "container", number: "SBXU1234563" },
        { type: "container", number: "SBXU0000003" },
      ],
    },
  },
  carrierLookup: { path: "/carriers/lookup?number=MSCU1234566" },
  readShipment: { path: "/shipments/SHP-1000?include=full" },
  updateShipment: { path: "/shipments/SBXU1000013", body: { customer: "ACME Imports" } },
  shareShipment: { path: "/shipments/SHP-1001/share" },
  unshareShipment: { path: "/shipments/SHP-1001/share" },
  untrackShipment: { path: "/shipments/SHP-1002" },
  listShipments: { path: "/shipments" },
});

async function exercise(
  prefix: "" | "/sandbox",
  name: string,
  route: { method: string; path: string },
  sample: Sample,
  key?: string,
) {
  const res = await fetch(`${app.url}/api/v1${prefix}${sample.path}`, {
    method: route.method.toUpperCase(),
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(sample.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: sample.body === undefined ? undefined : JSON.stringify(sample.body),
  });
  const problems = await checker.check(route.method, `${prefix}${route.path}`, res);
  return { name, status: res.status, problems };
}

describe("the OpenAPI 3.1 document", () => {
  it("is a valid OpenAPI 3.1 document with every route, its sandbox copy and the webhook payloads", async () => {
    await SwaggerParser.validate(structuredClone(document));
    expect(document.openapi).toBe("3.1.0");
    for (const route of Object.values(V1_ROUTES)) {
      expect(document.paths[route.path]?.[route.method], route.path).toBeDefined();
      expect(document.paths[`/sandbox${route.path}`]?.[route.method], route.path).toBeDefined();
    }
    expect(document.paths["/sandbox/webhooks/fire"].post).toBeDefined();
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [
        "discovery.recovered",
        "eta.changed",
        "shipment.arrived",
        "shipment.updated",
        "shipment.vessel_arrived",
        "webhook.test",
      ].sort(),
    );
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.paths["/sandbox/shipments"].get.security).toEqual([]);
    const headers = document.paths["/shipments"].get.responses["200"].headers;
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
    );
    const lookup = document.paths["/vessel/track"].get.responses["429"].headers;
    expect(Object.keys(lookup)).toEqual(expect.arrayContaining(["Retry-After", "X-Lookup-Limit"]));
    // Its server is this deployment.
    expect(document.servers[0].url).toBe(`${app.url}/api/v1`);
  });

  it("describes every real answer of every live endpoint", async () => {
    const samples = live();
    const results = [];
    // The sample order (tracked first, untracked last), not the contract's.
    for (const name of Object.keys(samples) as V1RouteName[]) {
      results.push(await exercise("", name, V1_ROUTES[name], samples[name], org.key));
    }
    for (const r of results) expect(r.problems, `${r.name} (${r.status})`).toEqual([]);
    expect(results.filter((r) => r.status >= 300).map((r) => `${r.name} ${r.status}`)).toEqual([]);
  }, 120_000);

  it("describes every real answer of every sandbox endpoint", async () => {
    const samples = sandbox();
    const results = [];
    for (const [name, route] of Object.entries(V1_ROUTES)) {
      results.push(await exercise("/sandbox", name, route, samples[name as V1RouteName]));
    }
    const receiver = await startReceiver();
    try {
      results.push(
        await exercise("/sandbox", "fireWebhook", SANDBOX_ONLY_ROUTES.fireWebhook, {
          path: "/webhooks/fire",
          body: { url: receiver.url, event: "eta.changed" },
        }),
      );
    } finally {
      await receiver.close();
    }
    for (const r of results) expect(r.problems, `${r.name} (${r.status})`).toEqual([]);
    expect(results.filter((r) => r.status >= 300).map((r) => `${r.name} ${r.status}`)).toEqual([]);
  }, 120_000);

  it("describes the error answers: admission, bad input, not found, reserved references", async () => {
    const cases: [string, string, string, string | undefined, unknown?][] = [
      ["GET", "/shipments", "/shipments", undefined],
      ["GET", "/shipments/{id}", "/shipments/SHP-999999", org.key],
      ["GET", "/ports", "/ports?search=a", org.key],
      ["POST", "/track", "/track", org.key, { shipments: [] }],
      ["PATCH", "/shipments/{id}", "/shipments/SHP-1", org.key, { reference_number: "X" }],
      ["GET", "/vessel/track", "/vessel/track?imo=1", org.key],
      ["GET", "/sandbox/container/{number}", "/sandbox/container/SBXU0000003", undefined],
      ["GET", "/sandbox/container/{number}", "/sandbox/container/NOT-A-REFERENCE", undefined],
      ["GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4020008", undefined],
      ["GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4029999", undefined],
      ["GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4290003", undefined],
      ["GET", "/sandbox/bl/{number}", "/sandbox/bl/SBXU5020002", undefined],
      ["GET", "/sandbox/shipments/{id}", "/sandbox/shipments/SHP-999", undefined],
      [
        "POST",
        "/sandbox/webhooks/fire",
        "/sandbox/webhooks/fire",
        undefined,
        { url: "ftp://example.com", event: "eta.changed" },
      ],
    ];
    for (const [method, template, path, key, body] of cases) {
      const res = await fetch(`${app.url}/api/v1${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(await checker.check(method, template, res), `${method} ${path}`).toEqual([]);
    }
  });
});
