import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer, MCP_SERVER_VERSION } from "../../facades/mcp/server";
import { OUTCOMES } from "../../src/http/outcomes";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { appLog, callTool, httpClient, inMemoryClient, TRACKING_ENV, textOf } from "./support";

const EXPECTED_TOOLS = [
  "list_my_shipments",
  "get_shipment_status",
  "get_shipment_timeline",
  "get_refresh_schedule",
  "list_documents",
  "get_document_meta",
  "get_vessel_schedules",
  "track_vessel",
  "get_route_news",
  "get_disruption_detail",
  "get_port_conditions",
  "get_dnd_status",
  "check_carrier_support",
  "search_api_docs",
  "search_help",
  "list_customers",
  "get_team",
  "get_mis_report",
  "get_notification_prefs",
  "get_ticket_status",
  "get_quote_request_status",
];

let app: TestApp;
let org: OrgWithKey;
let mate: OrgWithKey;
let other: OrgWithKey;
/** Tracked by org's owner, by the teammate, and by the other organisation. */
let own: string;
let mates: string;
let others: string;
/** No carrier has a record of it: a failed shipment, kept for discovery. */
let failed: string;
let client: Client;
let tools: Tool[];

const get = (path: string, key: string) =>
  fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  // Workers off: no refresh or discovery runs behind the tests' backs (the read-only check counts rows).
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "professional" });
  mate = await app.fixtures.teammate(org.organizationId);
  other = await app.fixtures.organization({ plan: "professional" });
  const { known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 3,
    unknown: 1,
  });
  [own, mates, others] = known as [string, string, string];
  failed = unknown[0]!;
  expect((await get(`/api/v1/container/${failed}?sealine=MSCU`, org.key)).status).toBe(404);
  for (const [reference, key] of [
    [own, org.key],
    [mates, mate.key],
    [others, other.key],
  ] as const) {
    expect((await get(`/api/v1/container/${reference}`, key)).status).toBe(200);
  }
  const patched = await fetch(`${app.url}/api/v1/shipments/${own}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: JSON.stringify({ customer: "Acme Imports" }),
  });
  expect(patched.status).toBe(200);
  // A reading as the congestion job writes it (scoring itself is tested in test/unit/congestion and
  // test/integration/congestion-episode.test.ts); Rotterdam stays unscored.
  await app.services.db.prisma.portCongestionReading.create({
    data: {
      locode: "CNSHA",
      day: new Date(`${today()}T00:00:00Z`),
      latest: true,
      name: "Shanghai",
      country: "China",
      lat: 31.23,
      lng: 121.47,
      score: 82,
      bucket: "high",
      tier: "B",
      trend7d: 21,
      vesselsWaiting: 34,
      medianAnchorageWaitH: 27.5,
      longestWaitDays: 2.4,
      components: [
        {
          name: "anchorage_wait",
          raw: 27.5,
          unit: "h",
          baseline_median: 9,
          baseline_mad: 1.5,
          z: 5,
          weight: 0.35,
          n: 61,
          window_days: 7,
        },
      ],
      computedAt: app.services.clock.now(),
    },
  });
  client = await httpClient(app, org.key);
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await app?.stop();
});

const toolNamed = (name: string) => tools.find((t) => t.name === name)!;
const today = (plusDays = 0) =>
  new Date(app.services.clock.now().getTime() + plusDays * 86_400_000).toISOString().slice(0, 10);

/** Every call an assistant might make, one or more per tool, with arguments that find something. */
const calls = (): [string, Record<string, unknown>][] => [
  ["list_my_shipments", {}],
  [
    "list_my_shipments",
    { filter: { active: true, carrier: "mscu", reference: own.slice(0, 8) }, pageSize: 1 },
  ],
  ["get_shipment_status", { reference: own }],
  ["get_shipment_status", { reference: mates.toLowerCase() }],
  ["get_shipment_status", { reference: failed }],
  ["get_shipment_timeline", { reference: failed }],
  ["get_refresh_schedule", { reference: failed }],
  ["get_shipment_timeline", { reference: own }],
  ["get_refresh_schedule", { reference: own }],
  ["get_vessel_schedules", { origin: "sgsin", destination: "NLRTM", date: today(), weeks: 2 }],
  ["track_vessel", { vessel: "9811000" }],
  ["track_vessel", { vessel: "cma cgm jacques saadé" }],
  ["get_port_conditions", { port: "CNSHA" }],
  ["get_port_conditions", { port: "Rotterdam" }],
  ["get_dnd_status", { reference: own }],
  ["get_dnd_status", { reference: failed }],
  ["check_carrier_support", { carrier: "MAEU" }],
  ["check_carrier_support", { carrier: "zz-no-such-line" }],
  ["search_api_docs", { query: "shipment slots per billing cycle" }],
  ["search_help", { query: "how do I verify a webhook signature" }],
  ["list_customers", {}],
  ["list_customers", { search: "acme", filter: { hasActiveShipments: false } }],
  ["get_team", {}],
  ["get_mis_report", {}],
  ["get_mis_report", { sealine: "mscu", shipmentType: "Container", q: "acme", limit: 1 }],
  ["get_notification_prefs", {}],
];

describe("tools/list", () => {
  it("lists the working tools with input and output schemas, every argument described", () => {
    expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      for (const [arg, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${arg}`).toBeTruthy();
      }
    }
    expect(toolNamed("get_shipment_status").inputSchema.properties!.reference).toMatchObject({
      description: expect.stringContaining("e.g. MSCU1234566"),
    });
    expect(JSON.stringify(toolNamed("check_carrier_support").inputSchema)).toMatch(/SCAC, e\.g\. MAEU/);
    const track = toolNamed("track_vessel");
    expect(track.inputSchema.required).toEqual(["vessel"]);
    expect(track.inputSchema.properties!.vessel).toMatchObject({
      type: "string",
      description: expect.stringMatching(/name or IMO number.*e\.g\. EVER GIVEN or 9811000/),
    });
    expect(track.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(track.outputSchema?.required).toEqual(
      expect.arrayContaining(["vessel", "position", "lastPort", "nextPort", "cached", "allowance"]),
    );
  });

  it("takes no account, organisation or user id in any tool", () => {
    for (const tool of tools) {
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(
        /"(account|organi[sz]ation|user)(Id|_id)?"/i,
      );
    }
  });

  it("reports the server version whose tool output docs/mcp-changelog.md lists", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "quayside", version: MCP_SERVER_VERSION });
    const changelog = readFileSync(new URL("../../docs/mcp-changelog.md", import.meta.url), "utf8");
    expect(changelog).toContain(`## ${MCP_SERVER_VERSION}`);
    for (const name of EXPECTED_TOOLS) expect(changelog).toContain(`\`${name}\``);
  });
});

describe("get_port_conditions", () => {
  it("answers a port's reading by code or name, an unscored port as such, an unknown one as not found", async () => {
    const byName = await callTool(client, "get_port_conditions", { port: "Shanghai" });
    expect(byName.isError).toBeFalsy();
    expect(byName.structuredContent).toMatchObject({
      locode: "CNSHA",
      scored: true,
      congestion: {
        score: 82,
        bucket: "high",
        trend_7d: 21,
        vessels_waiting: 34,
        median_anchorage_wait_h: 27.5,
      },
      components: [{ name: "anchorage_wait", words: expect.stringContaining("above its normal") }],
    });
    const unscored = await callTool(client, "get_port_conditions", { port: "NLRTM" });
    expect(unscored.structuredContent).toMatchObject({ scored: false, congestion: null, components: [] });
    const unknown = await callTool(client, "get_port_conditions", { port: "ZZZZZ" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/No port/);
  });

  it("refuses a plan without port congestion, naming the plan", async () => {
    const starter = await app.fixtures.organization({ plan: "starter" });
    const mcp = await httpClient(app, starter.key);
    const refused = await callTool(mcp, "get_port_conditions", { port: "CNSHA" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/professional plan/);
    await mcp.close();
  });
});

describe("tool output", () => {
  it("matches each tool's declared output schema, as JSON and as the same JSON in text", async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const [name, args] of calls()) {
      const result = await callTool(client, name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      const validate = ajv.compile(toolNamed(name).outputSchema!);
      expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    }
  });

  it("declares every key as required, so keys never vanish from an answer (null when unknown)", () => {
    const optional: string[] = [];
    const walk = (schema: Record<string, unknown>, path: string) => {
      for (const member of [...((schema.anyOf as object[]) ?? []), ...((schema.oneOf as object[]) ?? [])]) {
        walk(member as Record<string, unknown>, path);
      }
      if (schema.items) walk(schema.items as Record<string, unknown>, `${path}[]`);
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((schema.required as string[]) ?? []);
      for (const [key, child] of Object.entries(properties)) {
        if (!required.has(key)) optional.push(`${path}.${key}`);
        walk(child, `${path}.${key}`);
      }
    };
    for (const tool of tools) walk(tool.outputSchema as Record<string, unknown>, tool.name);
    expect(optional).toEqual([]);
  });

  it("only ever grows: every key of every recorded version is declared by each later one and today", () => {
    const recorded = JSON.parse(
      readFileSync(new URL("./tool-output-keys.json", import.meta.url), "utf8"),
    ) as { versions: Record<string, Record<string, string[]>> };
    const versions = Object.keys(recorded.versions);
    const byVersion = (a: string, b: string) => {
      const [x, y] = [a, b].map((v) => v.split(".").map(Number)) as [number[], number[]];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    };
    expect(versions, "versions are recorded oldest first").toEqual([...versions].sort(byVersion));
    const current = Object.fromEntries(tools.map((t) => [t.name, keyPaths(t.outputSchema!)]));
    const changelog = readFileSync(new URL("../../docs/mcp-changelog.md", import.meta.url), "utf8");
    const later = [...versions.slice(1), "current"];
    versions.forEach((version, i) => {
      expect(changelog, `docs/mcp-changelog.md describes ${version}`).toContain(`## ${version}`);
      const next = later[i] === "current" ? current : recorded.versions[later[i]!]!;
      for (const [name, keys] of Object.entries(recorded.versions[version]!)) {
        const missing = keys.filter((k) => !next[name]?.includes(k));
        expect(missing, `${name} of ${version} lost keys in ${later[i]}`).toEqual([]);
      }
    });
    // A new key is a new version: record it here and in docs/mcp-changelog.md.
    expect(versions.at(-1)).toBe(MCP_SERVER_VERSION);
    expect(current).toEqual(recorded.versions[MCP_SERVER_VERSION]);
  });
});

describe("shipments", () => {
  it("lists the organisation's shipments, teammates' included, never another organisation's", async () => {
    const { structuredContent } = await callTool(client, "list_my_shipments", {});
    const listed = structuredContent as {
      total: number;
      shipments: { reference: string; customer: string | null }[];
    };
    expect(listed.shipments.map((s) => s.reference).sort()).toEqual([own, mates, failed].sort());
    expect(listed.total).toBe(3);
    expect(listed.shipments.find((s) => s.reference === own)!.customer).toBe("Acme Imports");
  });

  it("filters by customer, reference, carrier and status, and pages", async () => {
    const list = async (args: Record<string, unknown>) =>
      (await callTool(client, "list_my_shipments", args)).structuredContent as {
        total: number;
        hasMore: boolean;
        shipments: { reference: string }[];
      };
    expect((await list({ filter: { customer: "ACME" } })).shipments.map((s) => s.reference)).toEqual([own]);
    expect(
      (await list({ filter: { reference: mates.slice(-5) } })).shipments.map((s) => s.reference),
    ).toEqual([mates]);
    expect((await list({ filter: { carrier: "MAEU" } })).total).toBe(0);
    expect((await list({ filter: { status: ["CANCELLED"] } })).total).toBe(0);
    expect((await list({ filter: { failed: false, etaFrom: "2000-01-01" } })).total).toBe(2);
    expect((await list({ filter: { failed: true } })).shipments.map((s) => s.reference)).toEqual([failed]);
    const page = await list({ pageSize: 1 });
    expect(page).toMatchObject({ total: 3, hasMore: true });
    expect(page.shipments).toHaveLength(1);
    const bad = await callTool(client, "list_my_shipments", { filter: { carrier: "MAERSK" } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/SCAC/);
  });

  it("answers another organisation's shipment as not found, as a tool error and never as data", async () => {
    for (const name of ["get_shipment_status", "get_shipment_timeline", "get_refresh_schedule"]) {
      const result = await callTool(client, name, { reference: others });
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toBe(
        `No shipment "${others}" is tracked by your organisation. list_my_shipments lists the ones that are.`,
      );
    }
    // The other organisation sees its own.
    const theirs = await callTool(await inMemoryClient(app, other.key), "get_shipment_status", {
      reference: others,
    });
    expect(theirs.structuredContent).toMatchObject({ reference: others });
  });

  it("answers the status REST reads for the same shipment, with the last and next milestones", async () => {
    const rest = (await (await get(`/api/v1/shipments/${own}`, org.key)).json()).data;
    const { structuredContent } = await callTool(client, "get_shipment_status", { reference: own });
    const status = structuredContent as Record<string, unknown> & { lastEvent: { actual: boolean } | null };
    expect(status).toMatchObject({
      shipmentId: rest.name,
      reference: own,
      referenceType: "container",
      carrier: { scac: "MSCU", name: rest.sealine_name },
      status: rest.status,
      origin: rest.origin,
      destination: rest.destination,
      isActive: rest.is_active === 1,
      customer: "Acme Imports",
      failed: false,
    });
    expect(status.containers).toEqual([expect.objectContaining({ number: own })]);
    expect(status.lastEvent?.actual).toBe(true);
  });

  it("answers a shipment no carrier has found yet with what is known and nulls for the rest", async () => {
    const status = (await callTool(client, "get_shipment_status", { reference: failed })).structuredContent;
    expect(status).toMatchObject({
      reference: failed,
      failed: true,
      triedCarriers: ["MSCU"],
      discoveryStatus: "queued",
      eta: null,
      portOfLoading: null,
      containers: [],
      lastEvent: null,
      isDelayed: null,
    });
    const schedule = (await callTool(client, "get_refresh_schedule", { reference: failed }))
      .structuredContent;
    expect(schedule).toMatchObject({ failed: true, scheduledRefreshAt: null, nextRefreshEligibleAt: null });
  });

  it("answers the timeline per container and the refresh schedule REST reads", async () => {
    const timeline = (await callTool(client, "get_shipment_timeline", { reference: own }))
      .structuredContent as {
      containers: { number: string; events: { actual: boolean; eventCode: string }[] }[];
    };
    expect(timeline.containers[0]!.number).toBe(own);
    expect(timeline.containers[0]!.events.some((e) => e.actual)).toBe(true);

    const rest = (await (await get(`/api/v1/shipments/${own}`, org.key)).json()).data;
    const schedule = (await callTool(client, "get_refresh_schedule", { reference: own })).structuredContent;
    expect(schedule).toMatchObject({
      refreshEligibleNow: rest.refresh_eligible_now,
      nextRefreshEligibleAt: rest.next_refresh_eligible_at,
      refreshGapHours: expect.any(Number),
    });
    expect([4, 12]).toContain((schedule as { refreshGapHours: number }).refreshGapHours);
  });

  it("reads only: no call tracks, asks a carrier or spends a slot", async () => {
    const { prisma } = app.services.db;
    const snapshot = async () => ({
      lookups: await prisma.trackingLookup.count(),
      versions: await prisma.documentVersion.count(),
      attempts: (await prisma.carrierDocument.findMany({ select: { lastAttemptAt: true } })).map((d) =>
        d.lastAttemptAt?.getTime(),
      ),
      slots: await prisma.shipmentSlot.count(),
    });
    const before = await snapshot();
    for (const [name, args] of calls()) await callTool(client, name, args);
    expect(await snapshot()).toEqual(before);
  });
});

describe("the other tools", () => {
  it("checks carrier support by SCAC or name", async () => {
    const maersk = (await callTool(client, "check_carrier_support", { carrier: "maeu" })).structuredContent;
    expect(maersk).toMatchObject({
      supported: true,
      carriers: [expect.objectContaining({ scac: "MAEU", status: "active" })],
    });
    const none = (await callTool(client, "check_carrier_support", { carrier: "no such line" }))
      .structuredContent;
    expect(none).toEqual({ query: "no such line", supported: false, carriers: [] });
    const tooShort = await callTool(client, "check_carrier_support", { carrier: "m" });
    expect(tooShort.isError).toBe(true);
  });

  it("searches our own documentation", async () => {
    const found = (
      await callTool(client, "search_api_docs", { query: "shipment slots billing cycle", limit: 10 })
    ).structuredContent as { results: { source: string; title: string; excerpt: string }[] };
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.some((r) => r.source.startsWith("docs/decisions/"))).toBe(true);
    // The generated OpenAPI document is searched too.
    const endpoint = (
      await callTool(client, "search_api_docs", {
        query: "send one signed sample delivery sandbox",
        limit: 5,
      })
    ).structuredContent as { results: { kind: string; source: string }[] };
    expect(endpoint.results.some((r) => r.kind === "openapi" && r.source === "openapi.json")).toBe(true);
    const schemaHit = (
      await callTool(client, "search_api_docs", { query: "nextRefreshEligibleAt", limit: 10 })
    ).structuredContent as { results: { kind: string; title: string }[] };
    // The printed schema is searched: a field's name finds the schema's own entries near the top
    // (the refresh refusal's type and mutation, cbc56de) and the Shipment type that holds it, whose
    // entry grows with every field added to it (BM25 length normalisation) and whose key decision
    // pages and the MCP changelog also name, so it is among the first ten, not always the first three.
    expect(schemaHit.results.slice(0, 3).some((r) => r.kind === "graphql")).toBe(true);
    expect(schemaHit.results.map((r) => [r.kind, r.title])).toContainEqual([
      "graphql",
      "GraphQL type Shipment",
    ]);
  });

  it("lists customers with their shipment counts, and the team with who is asking", async () => {
    const customers = (await callTool(client, "list_customers", { search: "acme" })).structuredContent;
    expect(customers).toMatchObject({
      total: 1,
      customersFeature: "on",
      customers: [{ name: "Acme Imports", shipments: 1, activeShipments: expect.any(Number) }],
    });
    const none = (await callTool(client, "list_customers", { search: "nobody" })).structuredContent;
    expect(none).toMatchObject({ total: 0, customers: [] });

    const team = (await callTool(await inMemoryClient(app, mate.key), "get_team", {})).structuredContent as {
      members: { role: string; isYou: boolean }[];
    };
    expect(team.members).toHaveLength(2);
    expect(team.members.find((m) => m.isYou)!.role).toBe("member");
    expect(team.members.find((m) => !m.isYou)!.role).toBe("owner");
  });

  it("answers an unknown tool with an invalid-params protocol error", async () => {
    await expect(callTool(client, "delete_everything", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("delete_everything"),
    });
  });
});

describe("lookups", () => {
  it("get_vessel_schedules spends the key's daily allowance shared with REST /voyage/schedules; cached answers are free", async () => {
    const free = await app.fixtures.organization({ plan: "free" }); // 100 lookups a day
    const mcp = await httpClient(app, free.key);
    const rest = (date: string) =>
      get(`/api/v1/voyage/schedules?origin=CNSHA&destination=NLRTM&date=${date}`, free.key);
    const schedules = async (date: string) =>
      callTool(mcp, "get_vessel_schedules", { origin: "CNSHA", destination: "NLRTM", date });

    expect((await rest(today(1))).headers.get("x-lookup-remaining")).toBe("99");
    const first = await schedules(today(8));
    expect(first.structuredContent).toMatchObject({
      cached: false,
      allowance: { limit: 100, remaining: 98 },
      sailings: expect.any(Array),
    });
    expect((first.structuredContent as { total: number }).total).toBeGreaterThan(0);
    const repeat = await schedules(today(8));
    expect(repeat.structuredContent).toMatchObject({ cached: true, allowance: null });
    expect((await rest(today(15))).headers.get("x-lookup-remaining")).toBe("97");

    const authentication = await app.services.accounts.authenticate(free.key);
    if (!authentication.ok) throw new Error("key refused");
    for (let i = 0; i < 97; i++) {
      await app.services.lookups.allowances.spend(authentication.principal, "vessel_schedule");
    }
    const refused = await schedules(today(22));
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/allowance of 100 is used up/);
    const restRefused = await rest(today(22));
    expect(restRefused.status).toBe(429);
    expect((await restRefused.json()).data.error).toBe("lookup_limit_exceeded");
    expect((await schedules(today(8))).structuredContent).toMatchObject({ cached: true });
    await mcp.close();
  });

  it("track_vessel spends the allowance shared with REST /vessel/track; repeats from the cache are free", async () => {
    const free = await app.fixtures.organization({ plan: "free" }); // 100 lookups a day
    const mcp = await httpClient(app, free.key);
    const rest = (query: string) => get(`/api/v1/vessel/track?${query}`, free.key);
    const track = (vessel: string) => callTool(mcp, "track_vessel", { vessel });

    // Vessels nothing else in this file asks for: the cache is shared by every organisation.
    const fresh = await rest("imo=9839442&mmsi=355000002");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-lookup-remaining")).toBe("99");
    const byImo = await track("9702156");
    expect(byImo.structuredContent).toMatchObject({
      cached: false,
      allowance: { limit: 100, remaining: 98 },
      vessel: { name: "CMA CGM BOUGAINVILLE" },
    });
    expect((await track("9702156")).structuredContent).toMatchObject({ cached: true, allowance: null });
    // IMO alone and IMO with MMSI are different questions, cached apart.
    expect((await rest("imo=9702156&mmsi=228000001")).headers.get("x-lookup-remaining")).toBe("97");
    const byName = await track("CMA CGM Bougainville");
    expect(byName.structuredContent).toMatchObject({
      cached: false,
      allowance: { remaining: 96 },
      vessel: { imo: "9702156" },
    });
    expect((await track("cma-cgm bougainville")).structuredContent).toMatchObject({ cached: true });
    // "Not found" is an answer: it keeps its cost, like REST's 404.
    expect(textOf(await track("9000003"))).toMatch(/95 of 100 left/);
    expect((await rest("imo=9000003&mmsi=999999999")).headers.get("x-lookup-remaining")).toBe("94");

    const authentication = await app.services.accounts.authenticate(free.key);
    if (!authentication.ok) throw new Error("key refused");
    for (let i = 0; i < 94; i++) {
      await app.services.lookups.allowances.spend(authentication.principal, "vessel_schedule");
    }
    const refused = await track("EVER ACE");
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(textOf(refused)).toMatch(/allowance of 100 is used up\. It resets at .*5-minute cache stay free/);
    const restRefused = await rest("imo=9893890&mmsi=353000001");
    expect(restRefused.status).toBe(429);
    expect((await restRefused.json()).data.error).toBe("lookup_limit_exceeded");
    // What is cached is still served, free, on both surfaces.
    expect((await track("9702156")).structuredContent).toMatchObject({ cached: true });
    expect((await rest("imo=9702156&mmsi=228000001")).status).toBe(200);
    await mcp.close();
  });

  it("refuses a port that is not a UN/LOCODE before spending anything", async () => {
    const result = await callTool(client, "get_vessel_schedules", {
      origin: "Shanghai",
      destination: "NLRTM",
      date: today(),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/UN\/LOCODE/);
  });
});

describe("track_vessel", () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const conforms = (structured: unknown) => {
    const validate = ajv.compile(toolNamed("track_vessel").outputSchema!);
    expect(validate(structured), ajv.errorsText(validate.errors)).toBe(true);
  };
  const LOCAL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

  it("finds a vessel by IMO number: where it is, the port it left and the one it is bound for", async () => {
    const result = await callTool(client, "track_vessel", { vessel: "IMO 9811000" });
    expect(result.isError, textOf(result)).toBeFalsy();
    conforms(result.structuredContent);
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const found = result.structuredContent as {
      lastPort: { locode: string; at: string; local: string };
      nextPort: { locode: string; at: string; local: string; countryCode: string };
      position: { lat: number; lon: number; reportedAt: string };
    };
    expect(found).toMatchObject({
      query: "IMO 9811000",
      matchedBy: "imo",
      vessel: { name: "EVER GIVEN", imo: "9811000", mmsi: "353136000" },
      source: "simulator",
    });
    expect(Math.abs(found.position.lat)).toBeLessThanOrEqual(90);
    expect(Date.parse(found.position.reportedAt)).not.toBeNaN();
    for (const call of [found.lastPort, found.nextPort]) {
      expect(call.locode).toMatch(/^[A-Z]{5}$/);
      expect(call.local).toMatch(LOCAL);
      expect(call.at).toMatch(/Z$/);
    }
    expect(found.nextPort.countryCode).toMatch(/^[A-Z]{2}$/);
    expect(Date.parse(found.lastPort.at)).toBeLessThan(Date.parse(found.nextPort.at));
  });

  it("finds a vessel by name, ignoring case, accents, punctuation and spacing", async () => {
    for (const vessel of ["Maersk Mc-Kinney Møller", "MAERSK  MC KINNEY MOLLER"]) {
      const result = await callTool(client, "track_vessel", { vessel });
      expect(result.isError, textOf(result)).toBeFalsy();
      conforms(result.structuredContent);
      expect(result.structuredContent).toMatchObject({
        query: vessel,
        matchedBy: "name",
        vessel: { name: "MAERSK MC-KINNEY MOLLER", imo: "9619907" },
      });
    }
    // The same answer in memory, for the principal the server was built for.
    const memory = await inMemoryClient(app, org.key);
    const result = await callTool(memory, "track_vessel", { vessel: "madrid maersk" });
    conforms(result.structuredContent);
    expect(result.structuredContent).toMatchObject({ vessel: { imo: "9778791" }, matchedBy: "name" });
    await memory.close();
  });

  it("answers a vessel no source knows as a not-found tool error, never as data", async () => {
    const byImo = await callTool(client, "track_vessel", { vessel: "9000003" });
    expect(byImo.isError).toBe(true);
    expect(byImo.structuredContent).toBeUndefined();
    expect(textOf(byImo)).toMatch(/^No position source knows a vessel with IMO number 9000003\./);
    expect(textOf(byImo)).toMatch(/counted against the daily allowance: \d+ of 1500 left/);
    const byName = await callTool(client, "track_vessel", { vessel: "Flying Dutchman" });
    expect(byName.isError).toBe(true);
    expect(textOf(byName)).toMatch(/No position source knows a vessel named "Flying Dutchman"/);
    // A name is matched whole: a part of one finds nothing.
    expect((await callTool(client, "track_vessel", { vessel: "EVER" })).isError).toBe(true);
  });

  it("refuses arguments that are neither a name nor a 7-digit IMO number, before spending anything", async () => {
    const authentication = await app.services.accounts.authenticate(org.key);
    if (!authentication.ok) throw new Error("key refused");
    const before = await app.services.lookups.allowances.peek(authentication.principal, "vessel_schedule");
    for (const [args, message] of [
      [{ vessel: "981100" }, /7 digits/],
      [{ vessel: "353136000" }, /MMSI/],
      [{ vessel: "IMO 98110001" }, /7 digits/],
      [{ vessel: " x " }, /at least 2/],
      [{ vessel: "A".repeat(101) }, /at most 100/],
      [{}, /vessel/],
      [{ vessel: 9811000 }, /string/],
    ] as const) {
      const result = await callTool(client, "track_vessel", args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result), JSON.stringify(args)).toMatch(message);
    }
    const after = await app.services.lookups.allowances.peek(authentication.principal, "vessel_schedule");
    expect(after.remaining).toBe(before.remaining);
  });
});

describe("in memory", () => {
  it("serves the same tools and answers as over HTTP, for the principal the server was built for", async () => {
    const memory = await inMemoryClient(app, org.key);
    expect((await memory.listTools()).tools).toEqual(tools);
    for (const [name, args] of [
      ["get_shipment_status", { reference: own }],
      ["list_my_shipments", {}],
    ] as const) {
      expect((await callTool(memory, name, args)).structuredContent).toEqual(
        (await callTool(client, name, args)).structuredContent,
      );
    }
    await memory.close();
  });

  it("answers an unexpected failure with the masked sentence, logged, never its message", async () => {
    const authentication = await app.services.accounts.authenticate(org.key);
    if (!authentication.ok) throw new Error("key refused");
    const broken = async () => {
      throw new Error("relation shipments is on fire at 10.0.0.7");
    };
    const server = createMcpServer({ run: broken, log: appLog(app) }, authentication.principal, {
      requestId: "broken-executor",
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const memory = new Client({ name: "quayside-tests", version: "1.0.0" });
    await memory.connect(clientSide);
    const result = await callTool(memory, "get_team");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(OUTCOMES.unexpected.sentence);
    expect(app.logs).toContainEqual(
      expect.objectContaining({ msg: "MCP tool failed", tool: "get_team", requestId: "broken-executor" }),
    );
    await memory.close();
  });
});

/** Every key path an output schema declares, e.g. `shipments[].carrier.scac`. */
function keyPaths(schema: object, prefix = ""): string[] {
  const node = schema as Record<string, unknown>;
  const paths: string[] = [];
  for (const member of [...((node.anyOf as object[]) ?? []), ...((node.oneOf as object[]) ?? [])]) {
    paths.push(...keyPaths(member, prefix));
  }
  if (node.items) paths.push(...keyPaths(node.items as object, `${prefix}[]`));
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, object>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path, ...keyPaths(child, path));
  }
  return [...new Set(paths)].sort();
}
