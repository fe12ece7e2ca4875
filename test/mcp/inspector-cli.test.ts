/**
 * The MCP tools pass the official MCP inspector's CLI (`@modelcontextprotocol/inspector --cli`), run
 * as a child process against the started service over streamable HTTP with the key as a Bearer token:
 * what an integrator does to check a server before wiring it into an assistant.
 */

import { execFile } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { trackActiveShipment } from "../support/disruptions";
import { pdfBytes, uploadDocument } from "../support/workspace";
import { TRACKING_ENV } from "./support";

const run = promisify(execFile);
const INSPECTOR = realpathSync(path.resolve("node_modules/.bin/inspector"));

interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}
interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
  _meta?: Record<string, any>;
}

let app: TestApp;
let org: OrgWithKey;
let home: string;
let reference: string;
/** A workspace document of the organisation's shipment, and its first support ticket (TCK-1). */
let documentId: string;
/** What `tools/list` answered in each era. */
const tools: Partial<Record<Era, ListedTool[]>> = {};

/**
 * The inspector's protocol eras: `legacy` negotiates 2025-11-25 through `initialize` (its default for a
 * URL), `modern` 2026-07-28 through `server/discover` and the per-request `_meta` envelope.
 */
type Era = "legacy" | "modern";
const ERAS: Era[] = ["legacy", "modern"];
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/**
 * One inspector CLI run, its JSON result parsed. Its catalog, client config and OAuth state go to a
 * folder of the test's own (never the user's home); `--protocol-era` picks the revision it negotiates.
 */
async function inspector(
  method: "tools/list" | "tools/call",
  options: { tool?: string; args?: Record<string, unknown>; era?: Era; strict?: boolean } = {},
): Promise<{ exitCode: number; stdout: string; stderr: string; json: any }> {
  // `--format json` prints `{"result": ...}` on stdout; a tool's `isError` result exits 5 with the
  // result still on stdout and `{"error":{"code":"tool_is_error"}}` on stderr.
  const argv = [
    INSPECTOR,
    "--cli",
    `${app.url}/api/mcp`,
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${org.key}`,
    "--method",
    method,
    "--format",
    "json",
    "--quiet",
    "--protocol-era",
    options.era ?? "legacy",
  ];
  if (options.tool)
    argv.push("--tool-name", options.tool, "--tool-args-json", JSON.stringify(options.args ?? {}));
  // Every schema portability problem in full on stderr (path, issue, suggestion); exit 6 on an error.
  if (options.strict) argv.push("--strict");
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    MCP_CATALOG_PATH: path.join(home, "mcp.json"),
    MCP_CLIENT_CONFIG_PATH: path.join(home, "client.json"),
  };
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { env, timeout: 60_000 });
    return { exitCode: 0, stdout, stderr, json: JSON.parse(stdout).result };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      exitCode: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? String(error),
      json: failed.stdout ? JSON.parse(failed.stdout).result : null,
    };
  }
}

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), "quayside-inspector-"));
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  // Business: every tool answers data (disruptions and port congestion included).
  org = await app.fixtures.organization({ plan: "business" });
  reference = (await trackActiveShipment(app, org, 520_000)).reference;
  const patched = await fetch(`${app.url}/api/v1/shipments/${reference}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: JSON.stringify({ customer: "Inspector Imports" }),
  });
  expect(patched.status).toBe(200);
  await app.services.disruptions.ingest(
    { id: "Harbour Wire", publisher: "Harbour Wire", kind: "news", authoritative: false },
    [
      {
        sourceId: "Harbour Wire",
        publisher: "Harbour Wire",
        guid: "harbour-wire-inspector",
        link: "https://news.example/harbour-wire/inspector",
        title: "Typhoon closes the Port of Shanghai",
        summary: "Terminals at the Port of Shanghai suspended operations.",
        publishedAt: new Date(Date.now() - 3 * 3_600_000),
      },
    ],
  );
  await app.services.db.prisma.portCongestionReading.create({
    data: {
      locode: "CNSHA",
      day: new Date(`${app.services.clock.now().toISOString().slice(0, 10)}T00:00:00Z`),
      latest: true,
      name: "Shanghai",
      country: "China",
      lat: 31.23,
      lng: 121.47,
      score: 74,
      bucket: "high",
      tier: "B",
      trend7d: 12,
      vesselsWaiting: 28,
      medianAnchorageWaitH: 21,
      longestWaitDays: 1.9,
      components: [
        {
          name: "anchorage_wait",
          raw: 21,
          unit: "h",
          baseline_median: 9,
          baseline_mad: 1.5,
          z: 4,
          weight: 0.35,
          n: 58,
          window_days: 7,
        },
      ],
      computedAt: app.services.clock.now(),
    },
  });
  const uploaded = await uploadDocument(
    app,
    org.key,
    { bytes: pdfBytes(), name: "bl.pdf", type: "application/pdf" },
    { type: "BILL_OF_LADING", shipments: [reference] },
  );
  documentId = uploaded.body.data.uploadDocument.id;
  const workspace = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: `mutation { openTicket(subject: "Inspector", body: "A question", type: QUESTION) { ticketNumber }
        requestQuote(origin: "CNSHA", destination: "NLRTM", containerType: "40HC", quantity: 1,
          readyDate: "${new Date(app.services.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10)}", commodity: "Toys") { duplicate } }`,
    }),
  });
  expect(((await workspace.json()) as { errors?: unknown }).errors).toBeUndefined();
  for (const era of ERAS) {
    const listed = await inspector("tools/list", { era });
    expect(listed.exitCode, listed.stderr).toBe(0);
    tools[era] = listed.json.tools;
  }
}, 240_000);
afterAll(async () => {
  await app?.stop();
  rmSync(home, { recursive: true, force: true });
});

const today = () => app.services.clock.now().toISOString().slice(0, 10);

/** Valid arguments for every tool, chosen so each answers data rather than an empty or refused result. */
const validCalls = (): [string, Record<string, unknown>][] => [
  ["list_my_shipments", { filter: { active: true }, pageSize: 5 }],
  ["get_shipment_status", { reference }],
  ["get_shipment_timeline", { reference }],
  ["get_refresh_schedule", { reference }],
  ["list_documents", { reference }],
  ["get_document_meta", { id: documentId }],
  ["get_vessel_schedules", { origin: "SGSIN", destination: "NLRTM", date: today(), weeks: 2 }],
  ["track_vessel", { vessel: "9811000" }],
  ["get_route_news", {}],
  // get_disruption_detail is called with the id get_route_news answered (see the test).
  ["get_port_conditions", { port: "CNSHA" }],
  ["check_carrier_support", { carrier: "MAEU" }],
  ["search_api_docs", { query: "refresh schedule" }],
  ["search_help", { query: "connect Cursor over MCP" }],
  ["list_customers", {}],
  ["get_team", {}],
  ["get_mis_report", { status: "IN_TRANSIT" }],
  ["get_notification_prefs", {}],
  ["get_dnd_status", { reference }],
  ["get_ticket_status", { ticketNumber: "TCK-1" }],
  ["get_quote_request_status", {}],
];

describe.each(ERAS)("MCP inspector CLI, %s era: tools/list", (era) => {
  it("lists every tool with an object input schema and an output schema", () => {
    expect(tools[era]!.map((t) => t.name).sort()).toEqual(
      [...validCalls().map(([name]) => name), "get_disruption_detail"].sort(),
    );
    for (const tool of tools[era]!) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("lists schemas --strict finds portable: no warning (a nullable value is anyOf, never a type array)", async () => {
    const strict = await inspector("tools/list", { era, strict: true });
    expect(strict.exitCode, strict.stderr).toBe(0);
    expect(strict.stderr).not.toMatch(/Warning|Error/);
    const nullableArrays = JSON.stringify(strict.json.tools).match(/"type":\[/g) ?? [];
    expect(nullableArrays).toEqual([]);
  });
});

describe.each(ERAS)("MCP inspector CLI, %s era: tools/call", (era) => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const checked = async (name: string, args: Record<string, unknown>) => {
    const call = await inspector("tools/call", { tool: name, args, era });
    expect(call.exitCode, `${name}: ${call.stderr}`).toBe(0);
    const result = call.json as ToolResult;
    // A 2026-07-28 result names the server in its `_meta`; a 2025 one carries no `_meta` at all.
    if (era === "modern") expect(result._meta?.[SERVER_INFO], name).toMatchObject({ name: "quayside" });
    else expect(result._meta, name).toBeUndefined();
    const text = result.content.map((c) => c.text ?? "").join("\n");
    expect(result.isError, `${name}: ${text}`).toBeFalsy();
    const schema = tools[era]!.find((t) => t.name === name)!.outputSchema!;
    const validate = ajv.compile(schema);
    expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    expect(JSON.parse(text)).toEqual(result.structuredContent);
    return result.structuredContent!;
  };

  it("calls every tool with valid arguments: structured output that matches its output schema", async () => {
    const answers = new Map<string, Record<string, any>>();
    for (const [name, args] of validCalls()) answers.set(name, await checked(name, args));

    expect(answers.get("get_shipment_status")).toMatchObject({ reference, customer: "Inspector Imports" });
    expect(answers.get("list_my_shipments")!.shipments.map((s: any) => s.reference)).toContain(reference);
    expect(answers.get("get_port_conditions")).toMatchObject({
      locode: "CNSHA",
      scored: true,
      congestion: { score: 74, bucket: "high" },
    });
    const news = answers.get("get_route_news")!;
    expect(news.items).toHaveLength(1);
    expect(news.items[0].sources.map((s: any) => s.headline)).toEqual([
      "Typhoon closes the Port of Shanghai",
    ]);

    const id = news.items[0].id;
    const detail = await checked("get_disruption_detail", { id });
    expect(detail).toMatchObject({ id, sources: [expect.objectContaining({ publisher: "Harbour Wire" })] });
  }, 600_000);

  it("answers a shipment or disruption nobody tracks as a tool error with a sentence, not a crash", async () => {
    for (const [name, args, sentence] of [
      ["get_shipment_status", { reference: "MSCU0000000" }, /is tracked by your organisation/],
      ["get_disruption_detail", { id: "no-such-disruption" }, /disruption/i],
    ] as const) {
      const call = await inspector("tools/call", { tool: name, args, era });
      expect(call.exitCode, `${name}: ${call.stderr}`).toBe(5);
      expect(JSON.parse(call.stderr).error.code).toBe("tool_is_error");
      const result = call.json as ToolResult;
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent, name).toBeUndefined();
      expect(result.content[0]!.text, name).toMatch(sentence);
    }
    // The service is still up and answering after both.
    const again = await inspector("tools/call", { tool: "get_team", args: {}, era });
    expect(again.json.structuredContent.organization.plan).toBe("business");
  }, 180_000);
});
