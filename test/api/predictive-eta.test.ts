/**
 * `predictive_eta` on the v1 API (spec section 2.4): on the tracking document, the shipment list and
 * the single read when the plan has predictive ETA, absent otherwise; every answer checked against the
 * served OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { openApiChecker } from "../support/openapi";

const NOW = "2026-11-20T12:00:00.000Z";
const clock = new ManualClock(NOW);
let app: TestApp;
let professional: OrgWithKey;
let starter: OrgWithKey;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  professional = await app.fixtures.organization({ plan: "professional" });
  starter = await app.fixtures.organization({ plan: "starter" });
  checker = openApiChecker(await (await fetch(`${app.url}/api/v1/openapi.json`)).json());
}, 120_000);
afterAll(() => app?.stop());

async function get(org: OrgWithKey, path: string, template: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  expect(res.status).toBe(200);
  expect(await checker.check("GET", template, res.clone())).toEqual([]);
  return (await res.json()) as Record<string, any>;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("a professional organisation tracking a container at sea (MSCU1000130)", () => {
  it("reads the same predicted window on the tracking document, the list and the single read", async () => {
    const tracked = await get(professional, "/container/MSCU1000130", "/container/{number}");
    const eta = tracked.data.predictive_eta;
    expect(Object.keys(eta).sort()).toEqual([
      "computed_at",
      "confidence",
      "fallback_reason",
      "p50",
      "p80",
      "source",
    ]);
    expect(eta.p50).toMatch(ISO);
    expect(Date.parse(eta.p50)).toBeGreaterThan(Date.parse(NOW));
    expect(Date.parse(eta.p80)).toBeGreaterThanOrEqual(Date.parse(eta.p50));
    expect(eta.computed_at).toBe(NOW);

    const list = await get(professional, "/shipments", "/shipments");
    const row = list.data.find((s: any) => s.reference_number === "MSCU1000130");
    expect(row.predictive_eta).toEqual(eta);

    const single = await get(professional, `/shipments/${row.name}`, "/shipments/{id}");
    expect(single.data.predictive_eta).toEqual(eta);
    const full = await get(professional, `/shipments/${row.name}?include=full`, "/shipments/{id}");
    expect(full.data.predictive_eta).toEqual(eta);
  });

  it("shows predictive_eta null, not absent, on a shipment whose vessel has arrived (MSCU1001121)", async () => {
    const tracked = await get(professional, "/container/MSCU1001121", "/container/{number}");
    expect(tracked.data).toHaveProperty("predictive_eta", null);
  });
});

describe("a starter organisation", () => {
  it("never sees the key: not on the document, the list or the single read", async () => {
    const tracked = await get(starter, "/container/MSCU1000130", "/container/{number}");
    expect(tracked.data).not.toHaveProperty("predictive_eta");
    const list = await get(starter, "/shipments", "/shipments");
    expect(list.data.length).toBeGreaterThan(0);
    for (const row of list.data) expect(row).not.toHaveProperty("predictive_eta");
    const single = await get(starter, `/shipments/${list.data[0].name}`, "/shipments/{id}");
    expect(single.data).not.toHaveProperty("predictive_eta");
  });
});
