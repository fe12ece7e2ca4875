import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer, MCP_TOOLS } from "../../facades/mcp/server";
import { OPERATION_FOLDERS } from "../../src/app/operation-folders";
import { SANDBOX_CONGESTION_PORTS } from "../../src/app/sandbox-congestion";
import { SANDBOX_DISRUPTION_IDS } from "../../src/app/sandbox-disruptions";
import { SANDBOX_NOW, SandboxWorld } from "../../src/app/sandbox-world";
import { loadConfig } from "../../src/config";
import { COMPONENTS } from "../../src/domain/congestion/scoring";
import { OperationExecutor } from "../../src/graphql/executor";
import { operationRunner } from "../../src/graphql/operation-runner";
import { schema } from "../../src/graphql/schema";
import { provideRunSandboxWorld, TEST_APP_ENVIRONMENT } from "../support/sandbox-world";

/**
 * Every tool's answer on the sandbox world (its clock stands still, its data is fixed), kept as a
 * golden file per call in test/mcp/golden/. A change in what a tool answers shows up as a diff to
 * review; `QUAYSIDE_UPDATE_GOLDEN=1 npx vitest run test/mcp/sandbox-golden.test.ts` rewrites them.
 */
const GOLDEN = path.join(import.meta.dirname, "golden");
const UPDATE = process.env.QUAYSIDE_UPDATE_GOLDEN === "1";

/** One call per tool (some twice), with arguments that name the sandbox world's own data. */
/**
 * The two searches read the project's own documents, not the world: any edit of the README or a help
 * article moves their scores and snippets. Their golden files keep what a change of the tool (not of
 * the documents) would alter: the keys of the answer and of each hit, and that something was found.
 */
const SEARCHES = new Set(["search_api_docs", "search_help"]);

const CALLS: { tool: string; name?: string; args: Record<string, unknown> }[] = [
  { tool: "list_my_shipments", args: {} },
  {
    tool: "list_my_shipments",
    name: "list_my_shipments.delayed",
    args: { filter: { delayStatus: "delayed" } },
  },
  { tool: "get_shipment_status", args: { reference: "SHP-1003" } },
  { tool: "get_shipment_timeline", args: { reference: "SHP-1003" } },
  { tool: "get_refresh_schedule", args: { reference: "SHP-1003" } },
  { tool: "get_port_conditions", args: { port: "NLRTM" } },
  {
    tool: "get_vessel_schedules",
    args: { origin: "CNSHA", destination: "KRPUS", date: "2026-09-01", weeks: 2 },
  },
  { tool: "track_vessel", args: { vessel: "MAERSK HALIFAX" } },
  { tool: "get_route_news", args: { mine: true } },
  { tool: "get_disruption_detail", args: { id: SANDBOX_DISRUPTION_IDS[0] } },
  { tool: "check_carrier_support", args: { carrier: "MAEU" } },
  { tool: "search_api_docs", args: { query: "webhook signature" } },
  { tool: "list_customers", args: {} },
  { tool: "get_team", args: {} },
  { tool: "search_help", args: { query: "how do I verify a webhook signature" } },
  { tool: "get_mis_report", args: {} },
  { tool: "get_notification_prefs", args: {} },
  { tool: "list_documents", args: { reference: "SHP-1000" } },
  { tool: "get_ticket_status", args: { ticketNumber: "TCK-1" } },
  { tool: "get_quote_request_status", args: {} },
  { tool: "get_dnd_status", args: { reference: "SHP-1002" } },
  { tool: "get_dnd_status", name: "get_dnd_status.at_risk", args: { reference: "SHP-1000" } },
  { tool: "get_mis_report", name: "get_mis_report.delayed", args: { delayStatus: "delayed", limit: 5 } },
];

let world: SandboxWorld;
let client: Client;

beforeAll(async () => {
  // A test app's settings, so the world is the run's, built once and loaded here: these goldens are
  // then also the proof that a loaded world answers as a built one (the run's was built, not loaded).
  provideRunSandboxWorld();
  const config = loadConfig({
    ...process.env,
    ...TEST_APP_ENVIRONMENT,
    QUAYSIDE_SIMULATOR: "embedded",
    QUAYSIDE_SIMULATOR_PORT: "0",
    QUAYSIDE_CARRIER_ATTEMPTS: "1",
  });
  const logger = pino({ level: "silent" });
  world = await SandboxWorld.create({
    config,
    logger,
    sampleSender: {
      sendSample: () => Promise.reject(new Error("no webhook samples from MCP")),
    },
  });
  const executor = await OperationExecutor.load(schema, OPERATION_FOLDERS);
  const server = createMcpServer(
    { run: operationRunner(executor, world.services, "mcp"), log: () => undefined },
    world.principal,
    { requestId: "golden" },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "quayside-golden", version: "1.0.0" });
  await client.connect(clientSide);
}, 180_000);
afterAll(async () => {
  await client?.close();
  await world?.close();
});

describe("every MCP tool on the sandbox world", () => {
  it("has a golden call for every tool served", () => {
    const covered = new Set([...CALLS.map((c) => c.tool), "get_document_meta"]);
    expect(MCP_TOOLS.map((t) => t.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(CALLS)(
    "answers $tool as its golden file says ($args)",
    async ({ tool, name, args }) => {
      const result = (await world.run(() =>
        client.callTool({ name: tool, arguments: args }),
      )) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const content = result.structuredContent as Record<string, unknown>;
      const answer = JSON.stringify(SEARCHES.has(tool) ? searchShape(content) : content, spreadOut, 2);
      const file = path.join(GOLDEN, `${name ?? tool}.json`);
      if (UPDATE) {
        await mkdir(GOLDEN, { recursive: true });
        await writeFile(file, `${answer}\n`);
      }
      expect(answer).toBe((await readFile(file, "utf8")).trimEnd());
    },
    60_000,
  );
});

describe("the sandbox's port conditions on MCP", () => {
  it.each(SANDBOX_CONGESTION_PORTS)(
    "reads %s as live: all five components, computed at the sandbox's now",
    async (port) => {
      const result = (await world.run(() =>
        client.callTool({ name: "get_port_conditions", arguments: { port } }),
      )) as CallToolResult;
      const content = result.structuredContent as {
        scored: boolean;
        congestion: { computed_at: string };
        components: { name: string }[];
      };
      expect(content.scored).toBe(true);
      expect(content.components.map((c) => c.name).sort()).toEqual([...COMPONENTS].sort());
      expect(content.congestion.computed_at).toBe(SANDBOX_NOW);
    },
  );
});

/**
 * Values the world does not fix: a refresh is scheduled up to 10% of its gap late, by a hash
 * of the shipment's id, and the world's ids are drawn afresh each time it is built. A 12-hour gap
 * spreads over 72 minutes, across an hour's boundary (SHP-1003 read 00:** in one build and 01:** in
 * another), so the day is kept.
 */
function spreadOut(key: string, value: unknown): unknown {
  if (key === "scheduledRefreshAt" && typeof value === "string") return `${value.slice(0, 10)}T**:**`;
  // A document's id is drawn when the world is built, like the refresh spread above.
  if (key === "id" && typeof value === "string" && UUID.test(value)) return "<uuid>";
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A search answer as its golden file keeps it: its keys, the keys of its hits, whether it found any. */
function searchShape(answer: Record<string, unknown>) {
  const results = answer.results as Record<string, unknown>[];
  return {
    keys: Object.keys(answer).sort(),
    hitKeys: [...new Set(results.flatMap((r) => Object.keys(r)))].sort(),
    hasHits: results.length > 0,
  };
}
