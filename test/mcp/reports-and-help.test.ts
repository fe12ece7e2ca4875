/**
 * MCP `get_mis_report` and `search_help` (issue 22 items 5 and 6, server 1.4.0) through the SDK client,
 * in memory and over streamable HTTP, each answer validated against the tool's listed output schema.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { seedShipment } from "../support/shipment-seed";
import { callTool, httpClient, inMemoryClient, textOf } from "./support";

const clock = new ManualClock("2026-11-20T00:00:00Z");
let app: TestApp;
let org: OrgWithKey;
let other: OrgWithKey;
let client: Client;
let tools: Tool[];
const ajv = new Ajv({ strict: false, allErrors: true });

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
  other = await app.fixtures.organization();
  // SHP-1: +3 days (delayed); SHP-2: -12 hours (on time); SHP-3: never found (unknown).
  await seedShipment(app.services, clock, org, {
    reference: "MSCU1000001",
    scac: "MSCU",
    status: "DELIVERED",
    answers: [{ eta: "2026-11-01T00:00:00.000Z" }, { eta: "2026-11-04T00:00:00.000Z", actual: true }],
    customer: "Acme Imports",
    createdAt: "2026-10-01T00:00:00.000Z",
  });
  await seedShipment(app.services, clock, org, {
    reference: "MAEU1000002",
    scac: "MAEU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-12-02T00:00:00.000Z" }, { eta: "2026-12-01T12:00:00.000Z" }],
    createdAt: "2026-10-02T00:00:00.000Z",
  });
  await seedShipment(app.services, clock, org, {
    reference: "MAEU1000003",
    scac: "MAEU",
    status: "UNKNOWN",
    answers: [],
    createdAt: "2026-10-03T00:00:00.000Z",
  });
  await seedShipment(app.services, clock, other, {
    reference: "HLXU2000001",
    scac: "HLCU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-11-10T00:00:00.000Z" }],
    createdAt: "2026-10-01T00:00:00.000Z",
  });
  client = await inMemoryClient(app, org.key);
  tools = (await client.listTools()).tools;
}, 120_000);
afterAll(async () => {
  await client?.close();
  await app?.stop();
});

async function structured(c: Client, name: string, args: Record<string, unknown>) {
  const result = await callTool(c, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  const validate = ajv.compile(tools.find((t) => t.name === name)!.outputSchema!);
  expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, any>;
}

describe("get_mis_report", () => {
  it("is listed read-only with described arguments named as the specification names them", () => {
    const tool = tools.find((t) => t.name === "get_mis_report")!;
    expect(Object.keys(tool.inputSchema.properties!)).toEqual([
      "status",
      "delayStatus",
      "shipmentType",
      "sealine",
      "q",
      "limit",
    ]);
    for (const schema of Object.values(tool.inputSchema.properties!)) {
      expect((schema as { description?: string }).description).toBeTruthy();
    }
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it("answers the organisation's totals, carriers and rows against the first ETA", async () => {
    const report = await structured(client, "get_mis_report", {});
    expect(report.filters).toEqual({
      status: null,
      delayStatus: null,
      shipmentType: null,
      sealine: null,
      q: null,
      limit: 20,
    });
    expect(report.totals).toEqual({
      shipments: 3,
      active: 2,
      delivered: 1,
      delayed: 1,
      onTime: 1,
      early: 0,
      unknown: 1,
      assessed: 2,
      onTimePct: 50,
      avgDelayDays: 1.3, // (3 - 0.5) / 2 = 1.25
      p90DelayDays: 3, // the 2nd of -0.5, 3
    });
    expect(report.byCarrier.map((c: { sealine: string }) => c.sealine)).toEqual(["MAEU", "MSCU"]);
    expect(report.byCarrier[1]).toMatchObject({ sealineName: expect.any(String), delayed: 1, onTimePct: 0 });
    expect(report.rowsTotal).toBe(3);
    expect(report.rows[2]).toEqual({
      shipmentId: "SHP-1",
      reference: "MSCU1000001",
      shipmentType: "Container",
      sealine: "MSCU",
      status: "DELIVERED",
      origin: "Shanghai, China",
      destination: "Rotterdam, Netherlands",
      atd: null,
      firstEta: "2026-11-01T00:00:00.000Z",
      eta: "2026-11-04T00:00:00.000Z",
      ata: "2026-11-04T00:00:00.000Z",
      delayDays: 3,
      delayStatus: "delayed",
      customer: "Acme Imports",
    });
  });

  it("filters and limits like the GraphQL report, over HTTP too", async () => {
    const http = await httpClient(app, org.key);
    try {
      const onTime = await structured(http, "get_mis_report", { delayStatus: "on_time", sealine: "maeu" });
      expect(onTime.filters).toMatchObject({ delayStatus: "on_time", sealine: "MAEU" });
      expect(onTime.rows.map((r: { shipmentId: string }) => r.shipmentId)).toEqual(["SHP-2"]);
      expect(onTime.rows[0]).toMatchObject({ delayDays: -0.5, delayStatus: "on_time" });
      const limited = await structured(http, "get_mis_report", { limit: 1 });
      expect(limited.rows.map((r: { shipmentId: string }) => r.shipmentId)).toEqual(["SHP-3"]);
      expect(limited.totals.shipments).toBe(3);
      const acme = await structured(http, "get_mis_report", { q: "acme", shipmentType: "Container" });
      expect(acme.rowsTotal).toBe(1);
    } finally {
      await http.close();
    }
  });

  it("never shows another organisation's shipments", async () => {
    const theirs = await inMemoryClient(app, other.key);
    try {
      const report = await structured(theirs, "get_mis_report", {});
      expect(report.rows.map((r: { reference: string }) => r.reference)).toEqual(["HLXU2000001"]);
      const mine = await structured(client, "get_mis_report", { q: "HLXU2000001" });
      expect(mine.totals.shipments).toBe(0);
      expect(mine.rows).toEqual([]);
    } finally {
      await theirs.close();
    }
  });

  it("refuses arguments outside the specification's values as tool errors naming the argument", async () => {
    for (const [args, sentence] of [
      [
        { delayStatus: "late" },
        /delayStatus: Invalid option: expected one of "delayed"\|"early"\|"on_time"\|"unknown"/,
      ],
      [
        { shipmentType: "Pallet" },
        /shipmentType: Invalid option: expected one of "Container"\|"Bill of Lading"/,
      ],
      [{ sealine: "MAERSK" }, /sealine: a 4-character SCAC/],
      [{ limit: 101 }, /limit: Too big: expected number to be <=100/],
      [{ status: "ARRIVED" }, /status: Invalid option/],
    ] as const) {
      const result = await callTool(client, "get_mis_report", args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(sentence);
    }
  });
});

describe("search_help", () => {
  it("answers how-to questions from the help articles, best first, with the matching passage", async () => {
    const answer = await structured(client, "search_help", { query: "How do I connect Cursor to Quayside?" });
    expect(answer.articlesSearched).toBeGreaterThanOrEqual(10);
    expect(answer.results[0]).toMatchObject({
      slug: "mcp-setup",
      path: "docs/help/mcp-setup.md",
      snippet: expect.stringMatching(/cursor/i),
    });
    const limited = await structured(client, "search_help", { query: "webhook signature", limit: 1 });
    expect(limited.results).toHaveLength(1);
    expect(limited.results[0].slug).toBe("webhooks");
  });

  it("leaves search_api_docs on the API documentation", async () => {
    const docs = await structured(client, "search_api_docs", {
      query: "Claude Desktop mcp-remote configuration",
      limit: 20,
    });
    expect(docs.results.length).toBeGreaterThan(0);
    for (const hit of docs.results) expect(hit.source).not.toMatch(/^docs\/help\//);
  });

  it("refuses a query under two characters", async () => {
    const result = await callTool(client, "search_help", { query: "a" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/query: at least 2 characters/);
  });
});
