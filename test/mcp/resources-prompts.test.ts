/**
 * Resources, prompts and completions through the SDK's own clients over HTTP, as an assistant uses
 * them: the 2.x client on revision 2026-07-28 and the 1.x client on 2025-11-25. A resource is the
 * tool's answer (same JSON, same rules), the list pages through the organisation's shipments, another
 * organisation's reference is not found, completions offer only the caller's references, and each
 * prompt attaches the tools' data.
 */

import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_PAGE_SIZE } from "../../facades/mcp/resources/resources";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber, simulatedContainers } from "../support/references";
import { storedShipment } from "../support/workspace";
import { TRACKING_ENV } from "./support";

let app: TestApp;
let org: OrgWithKey;
let other: OrgWithKey;
/** A container tracked through the simulator: a full shipment with events. */
let tracked: string;
/** Shipments stored for the organisation, enough for a second page. */
const stored: string[] = [];
const clients: { close(): Promise<void> }[] = [];

async function modern(key: string) {
  const client = new ModernClient(
    { name: "quayside-tests", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new ModernTransport(new URL(`${app.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function legacy(key: string) {
  const client = new LegacyClient({ name: "quayside-tests", version: "1.0.0" });
  await client.connect(
    new LegacyTransport(new URL(`${app.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "business" });
  other = await app.fixtures.organization({ plan: "business" });
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 1,
    start: 660_000,
  });
  tracked = known[0]!;
  const res = await fetch(`${app.url}/api/v1/container/${tracked}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(res.status).toBe(200);
  for (let n = 0; n < RESOURCE_PAGE_SIZE; n++) {
    const reference = containerNumber("QSRU", 100 + n);
    await storedShipment(app, org, reference);
    stored.push(reference);
  }
}, 180_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await app?.stop();
});

const shipmentUri = (reference: string) => `quayside://shipments/${reference}`;
/** A resource's JSON (the first content's text). */
const jsonOf = (contents: readonly object[]) =>
  JSON.parse(String((contents[0] as { text?: unknown } | undefined)?.text)) as Record<string, any>;
/**
 * The shipment without the predicted arrival's `computedAt`, and its p80 to the second: the prediction
 * is made at each read, and its spread follows the horizon from that instant (two reads a few
 * milliseconds apart once gave p80s 1 ms apart).
 */
const settled = (shipment: unknown) => {
  const copy = structuredClone((shipment ?? {}) as Record<string, any>);
  if (copy.predictiveEta) {
    delete copy.predictiveEta.computedAt;
    if (typeof copy.predictiveEta.p80 === "string")
      copy.predictiveEta.p80 = copy.predictiveEta.p80.slice(0, 19);
  }
  return copy;
};

describe("resources", () => {
  it("lists the four templates", async () => {
    const client = await modern(org.key);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.name, t.uriTemplate, t.mimeType])).toEqual([
      ["shipment", "quayside://shipments/{reference}", "application/json"],
      ["container-timeline", "quayside://containers/{container}/timeline", "application/json"],
      ["port-conditions", "quayside://ports/{locode}/conditions", "application/json"],
      ["disruption", "quayside://disruptions/{id}", "application/json"],
    ]);
  });

  it("lists the organisation's shipments a page at a time, and none of another's", async () => {
    // The 1.x client asks page by page; the 2.x client follows the cursor itself.
    const client = await legacy(org.key);
    const first = await client.listResources();
    expect(first.resources).toHaveLength(RESOURCE_PAGE_SIZE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((r) => r.uri);
    expect(new Set(uris).size).toBe(RESOURCE_PAGE_SIZE + 1);
    expect(uris.sort()).toEqual([tracked, ...stored].map(shipmentUri).sort());
    expect(first.resources[0]).toMatchObject({ mimeType: "application/json", name: expect.any(String) });

    const all = await (await modern(org.key)).listResources();
    expect(all.resources.map((r) => r.uri).sort()).toEqual(uris);

    const theirs = await (await modern(other.key)).listResources();
    expect(theirs.resources).toEqual([]);
    await expect(client.listResources({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
  });

  it("reads a shipment and a container's timeline as the tools answer them", async () => {
    const client = await modern(org.key);
    const shipment = await client.readResource({ uri: shipmentUri(tracked) });
    expect(shipment.contents[0]).toMatchObject({ uri: shipmentUri(tracked), mimeType: "application/json" });
    const status = await client.callTool({ name: "get_shipment_status", arguments: { reference: tracked } });
    expect(settled(jsonOf(shipment.contents))).toEqual(settled(status.structuredContent));

    const timelineUri = `quayside://containers/${tracked}/timeline`;
    const timeline = jsonOf((await client.readResource({ uri: timelineUri })).contents);
    const tool = await client.callTool({ name: "get_shipment_timeline", arguments: { reference: tracked } });
    expect(timeline).toEqual(tool.structuredContent);
    expect(timeline.containers[0].events.length).toBeGreaterThan(0);
  });

  it("reads on the 2025-11-25 revision too", async () => {
    const client = await legacy(org.key);
    const shipment = await client.readResource({ uri: shipmentUri(tracked) });
    expect(jsonOf(shipment.contents)).toMatchObject({ reference: tracked });
  });

  it("answers another organisation's shipment, and an unknown one, as not found with the URI", async () => {
    // The owner reads it; the other organisation is told it does not exist, never that it is forbidden.
    const owner = await modern(org.key);
    expect(jsonOf((await owner.readResource({ uri: shipmentUri(tracked) })).contents)).toMatchObject({
      reference: tracked,
    });
    const client = await modern(other.key);
    for (const uri of [
      shipmentUri(tracked),
      `quayside://containers/${tracked}/timeline`,
      shipmentUri("NOPE0000000"),
    ]) {
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
    }
    await expect(client.readResource({ uri: "quayside://nothing/here" })).rejects.toMatchObject({
      code: -32602,
      data: { uri: "quayside://nothing/here" },
    });
  });

  it("reads a port's conditions by UN/LOCODE", async () => {
    const client = await modern(org.key);
    const port = jsonOf((await client.readResource({ uri: "quayside://ports/NLRTM/conditions" })).contents);
    expect(port).toMatchObject({ locode: "NLRTM", name: "Rotterdam", scored: expect.any(Boolean) });
  });

  it("answers a disruption id nobody published as not found", async () => {
    const client = await modern(org.key);
    const uri = "quayside://disruptions/00000000-0000-4000-8000-00000000dead";
    // The tool's own sentence: the template matched and get_disruption_detail answered.
    await expect(client.readResource({ uri })).rejects.toMatchObject({
      code: -32602,
      data: { uri },
      message: expect.stringContaining("No published disruption has the id"),
    });
  });
});

describe("completions", () => {
  it("offers the organisation's own references, never another's", async () => {
    const prefix = stored[0]!.slice(0, 8);
    const ref = { type: "ref/resource" as const, uri: "quayside://shipments/{reference}" };
    const mine = await (await modern(org.key)).complete({
      ref,
      argument: { name: "reference", value: prefix },
    });
    expect(mine.completion.values.length).toBeGreaterThan(0);
    expect(mine.completion.values.every((v) => v.startsWith(prefix))).toBe(true);
    const theirs = await (await modern(other.key)).complete({
      ref,
      argument: { name: "reference", value: prefix },
    });
    expect(theirs.completion.values).toEqual([]);

    const prompt = await (await legacy(org.key)).complete({
      ref: { type: "ref/prompt", name: "shipment_delay_cost" },
      argument: { name: "reference", value: tracked.slice(0, 9) },
    });
    expect(prompt.completion.values).toContain(tracked);
  });

  it("offers port codes and carriers", async () => {
    const client = await modern(org.key);
    const ports = await client.complete({
      ref: { type: "ref/resource", uri: "quayside://ports/{locode}/conditions" },
      argument: { name: "locode", value: "Rotterdam" },
    });
    expect(ports.completion.values).toContain("NLRTM");
    const carriers = await client.complete({
      ref: { type: "ref/prompt", name: "morning_exceptions" },
      argument: { name: "carrier", value: "Maersk" },
    });
    expect(carriers.completion.values).toContain("MAEU");
  });
});

describe("prompts", () => {
  it("lists the three prompts with their arguments", async () => {
    const { prompts } = await (await modern(org.key)).listPrompts();
    expect(
      prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => [a.name, a.required ?? false])]),
    ).toEqual([
      ["morning_exceptions", [["carrier", false]]],
      ["shipment_delay_cost", [["reference", true]]],
      ["disruption_impact", [["id", true]]],
    ]);
  });

  it("builds 'why is this shipment late' from the shipment, its clocks and its route's news", async () => {
    const client = await modern(org.key);
    const prompt = await client.getPrompt({ name: "shipment_delay_cost", arguments: { reference: tracked } });
    const [attached, question] = prompt.messages;
    expect(attached?.content).toMatchObject({
      type: "resource",
      resource: { uri: shipmentUri(tracked), mimeType: "application/json" },
    });
    const status = await client.callTool({ name: "get_shipment_status", arguments: { reference: tracked } });
    const resource = (attached!.content as { resource: { text: string } }).resource;
    expect(settled(JSON.parse(resource.text))).toEqual(settled(status.structuredContent));
    expect(question?.content).toMatchObject({
      type: "text",
      text: expect.stringContaining("Demurrage and detention"),
    });
  });

  it("builds the morning's exceptions from the active shipments", async () => {
    const prompt = await (await legacy(org.key)).getPrompt({ name: "morning_exceptions", arguments: {} });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain(`${RESOURCE_PAGE_SIZE + 1} in all`);
    expect(text).toContain("Delayed or not found");
  });

  it("refuses another organisation's shipment and an unknown disruption with a sentence", async () => {
    const client = await modern(other.key);
    await expect(
      client.getPrompt({ name: "shipment_delay_cost", arguments: { reference: tracked } }),
    ).rejects.toThrow(/No shipment/);
    await expect(
      client.getPrompt({
        name: "disruption_impact",
        arguments: { id: "00000000-0000-4000-8000-00000000dead" },
      }),
    ).rejects.toThrow(/No published disruption/);
  });
});
