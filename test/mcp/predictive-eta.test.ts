/**
 * MCP `get_shipment_status` (server 1.4.0; fallbackReason since 1.5.0) carries the predicted arrival window: the same one the v1
 * API serves for the shipment in the same hour, and null on a plan without predictive ETA.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_SERVER_VERSION } from "../../facades/mcp/server";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { callTool, httpClient, TRACKING_ENV } from "./support";

const NOW = "2026-11-20T12:00:00.000Z";
let app: TestApp;
let professional: OrgWithKey;
let starter: OrgWithKey;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({
    env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" },
    clock: new ManualClock(NOW),
  });
  professional = await app.fixtures.organization({ plan: "professional" });
  starter = await app.fixtures.organization({ plan: "starter" });
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close();
  await app?.stop();
});

async function trackedStatus(org: OrgWithKey, reference: string) {
  const rest = await fetch(`${app.url}/api/v1/container/${reference}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(rest.status).toBe(200);
  const client = await httpClient(app, org.key);
  clients.push(client);
  const { structuredContent } = await callTool(client, "get_shipment_status", { reference });
  return { rest: ((await rest.json()) as any).data, status: structuredContent as Record<string, any> };
}

describe("get_shipment_status with predictive ETA", () => {
  it("is served by server version 1.5.0 or later (fallbackReason added in 1.5.0)", () => {
    expect(MCP_SERVER_VERSION.localeCompare("1.5.0", undefined, { numeric: true })).toBeGreaterThanOrEqual(0);
  });

  it("gives a container at sea the v1 API's predicted window, key for key", async () => {
    const { rest, status } = await trackedStatus(professional, "MSCU1000130");
    const v1 = rest.predictive_eta;
    expect(status.predictiveEta).toEqual({
      p50: v1.p50,
      p80: v1.p80,
      source: v1.source,
      confidence: v1.confidence,
      computedAt: v1.computed_at,
      fallbackReason: v1.fallback_reason,
    });
    expect(Date.parse(status.predictiveEta.p50)).toBeGreaterThan(Date.parse(NOW));
  });

  it("answers predictiveEta null on the starter plan, the key still present", async () => {
    const { status } = await trackedStatus(starter, "MSCU1000130");
    expect(status).toHaveProperty("predictiveEta", null);
    expect(status.reference).toBe("MSCU1000130");
  });
});
