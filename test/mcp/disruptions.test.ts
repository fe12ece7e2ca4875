/**
 * MCP get_route_news and get_disruption_detail (spec v1 section 4.4; server 1.3.0): output matches the
 * declared schema, `sources` carried, plan gating and another organisation's shipment as tool errors.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPort } from "../../src/domain/ports/port-directory";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { trackActiveShipment } from "../support/disruptions";
import { callTool, httpClient, TRACKING_ENV, textOf } from "./support";

let app: TestApp;
let org: OrgWithKey;
let other: OrgWithKey;
let client: Client;
let reference: string;

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "business" });
  other = await app.fixtures.organization({ plan: "business" });
  const active = await trackActiveShipment(app, org, 430_000);
  reference = active.reference;
  const exposure = active.exposure;
  const name = (findPort(exposure.portOfDischarge!)?.name ?? "").replace(/\s*\(.*\)$/, "");
  for (const [publisher, hours] of [
    ["Harbour Wire", 9],
    ["Quay Ledger", 7],
  ] as const) {
    await app.services.disruptions.ingest({ id: publisher, publisher, kind: "news", authoritative: false }, [
      {
        sourceId: publisher,
        publisher,
        guid: `${publisher}-mcp`,
        link: `https://news.example/${encodeURIComponent(publisher)}/mcp`,
        title: `Typhoon closes the Port of ${name}`,
        summary: `Terminals at the Port of ${name} suspended operations.`,
        publishedAt: new Date(Date.now() - hours * 3_600_000),
      },
    ]);
  }
  client = await httpClient(app, org.key);
}, 180_000);
afterAll(async () => {
  await client?.close();
  await app?.stop();
});

async function checked(name: string, args: Record<string, unknown>) {
  const tools = (await client.listTools()).tools;
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  const validate = new Ajv({ strict: false, allErrors: true }).compile(
    tools.find((t) => t.name === name)!.outputSchema!,
  );
  expect(validate(result.structuredContent), new Ajv().errorsText(validate.errors)).toBe(true);
  return result.structuredContent as Record<string, any>;
}

describe("get_route_news", () => {
  it("lists a shipment's disruptions with match types and sources", async () => {
    const news = await checked("get_route_news", { reference });
    expect(news.scope).toBe("shipment");
    expect(news.items).toHaveLength(1);
    expect(news.items[0].matchTypes).toContain("pod");
    expect(news.items[0].sources.map((s: any) => s.publisher).sort()).toEqual([
      "Harbour Wire",
      "Quay Ledger",
    ]);
  });

  it("lists those touching any of my shipments, and filters by category and minimum severity", async () => {
    expect((await checked("get_route_news", { mine: true })).items).toHaveLength(1);
    expect((await checked("get_route_news", { mine: true, category: "labor" })).items).toEqual([]);
    expect((await checked("get_route_news", { minSeverity: 4, category: "weather" })).scope).toBe("all");
  });

  it("answers another organisation's shipment as not found, and a plan without disruptions as a tool error", async () => {
    const foreign = await httpClient(app, other.key);
    try {
      const result = await callTool(foreign, "get_route_news", { reference });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/not tracked|No shipment/i);
      expect((await checked("get_route_news", { mine: true })).total).toBe(1);
    } finally {
      await foreign.close();
    }
    const starter = await app.fixtures.organization({ plan: "starter" });
    const gated = await httpClient(app, starter.key);
    try {
      const result = await callTool(gated, "get_route_news", {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("business");
    } finally {
      await gated.close();
    }
  });
});

describe("get_disruption_detail", () => {
  it("answers one disruption with sources and affected, and not found for an unknown id", async () => {
    const listed = (await checked("get_route_news", { reference })).items[0];
    const detail = await checked("get_disruption_detail", { id: listed.id });
    expect(detail.id).toBe(listed.id);
    expect(detail.sources).toHaveLength(2);
    expect(detail.affected).toEqual({ count: 1, references: [reference] });
    const missing = await callTool(client, "get_disruption_detail", {
      id: "00000000-0000-4000-8000-999999999999",
    });
    expect(missing.isError).toBe(true);
  });
});
