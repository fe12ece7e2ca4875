import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { jsonRpcMessages, type Surface } from "./support/checks";
import { FUZZ_ENV, type FuzzCase, runFuzz, weighted } from "./support/fuzz";
import {
  ALL_METHODS,
  BROKEN_BODIES,
  FUZZ_SEED,
  hostileJson,
  mutateJson,
  WRONG_CONTENT_TYPES,
} from "./support/hostile";
import { type Exchange, send } from "./support/http";
import { fromSchema, type JsonSchema } from "./support/json-schema";

/**
 * Every tool of tools/list, called with arguments generated from its inputSchema and mutated into
 * hostile ones; and malformed JSON-RPC, batches, wrong verbs, headers and bodies on POST /api/mcp.
 */
const RUNS_PER_TOOL = 30;
const HOSTILE_RUNS = 150;

// A JSON-RPC error, or a tool result with isError: the call was refused and may have written nothing.
const isRefusal = (_surface: Surface, ex: Exchange) => {
  if (ex.status >= 400) return true;
  const messages = jsonRpcMessages(ex) ?? [];
  return (
    messages.length > 0 &&
    messages.every((m) => {
      const message = m as { error?: unknown; result?: { isError?: boolean } };
      return message.error !== undefined || message.result?.isError === true;
    })
  );
};

const clock = new ManualClock();
let app: TestApp;
let org: OrgWithKey;
let tools: { name: string; inputSchema: JsonSchema }[];

const HEADERS = () => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
  authorization: `Bearer ${org.key}`,
});

beforeAll(async () => {
  app = await startTestApp({ clock, env: FUZZ_ENV });
  org = await app.fixtures.organization({ plan: "custom" });
  const listed = await send(app.url, {
    method: "POST",
    path: "/api/mcp",
    headers: HEADERS(),
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const [first] = jsonRpcMessages(listed) ?? [];
  tools = (first as { result: { tools: typeof tools } }).result.tools;
}, 120_000);
afterAll(() => app?.stop());

const call = (id: unknown, name: unknown, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

function callsOf(tool: { name: string; inputSchema: JsonSchema }): fc.Arbitrary<FuzzCase> {
  const args = weighted<unknown>(
    [4, fromSchema(tool.inputSchema, tool.inputSchema)],
    [
      5,
      fc
        .tuple(fromSchema(tool.inputSchema, tool.inputSchema), hostileJson(), fc.nat())
        .map(([v, h, n]) => mutateJson(v, h, n)),
    ],
  );
  return fc.tuple(args, fc.constantFrom<unknown>(1, "a", 0, -1, 2 ** 60)).map(([a, id]) => ({
    operation: `tools/call ${tool.name}`,
    surface: "mcp" as const,
    request: { method: "POST", path: "/api/mcp", headers: HEADERS(), body: call(id, tool.name, a) },
  }));
}

const message = fc.oneof(
  fc.constantFrom<unknown>(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "ping" },
    { jsonrpc: "2.0", id: 4, method: "resources/list" },
    { jsonrpc: "2.0", id: 5, method: "prompts/list" },
    { jsonrpc: "2.0", id: 6, method: "nope/nope" },
    { jsonrpc: "1.0", id: 7, method: "tools/list" },
    { id: 8, method: "tools/list" },
    { jsonrpc: "2.0", id: 9 },
    { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" },
    { jsonrpc: "2.0", id: null, method: "tools/list" },
    { jsonrpc: "2.0", id: 10, method: "tools/call" },
    { jsonrpc: "2.0", id: 11, method: "tools/call", params: "x" },
    { jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
    { jsonrpc: "2.0", id: 13, method: "tools/call", params: { name: "list_my_shipments", arguments: "x" } },
    { jsonrpc: "2.0", id: 14, result: {} },
  ),
  fc
    .tuple(hostileJson(), hostileJson(), hostileJson())
    .map(([id, method, params]) => ({ jsonrpc: "2.0", id, method, params })),
  hostileJson(),
);

function hostileRequests(): fc.Arbitrary<FuzzCase> {
  const post = (body: string, headers: Record<string, string> = HEADERS()) => ({
    method: "POST",
    path: "/api/mcp",
    headers,
    body,
  });
  return weighted<FuzzCase>(
    [
      4,
      message.map((m) => ({
        operation: "malformed JSON-RPC",
        surface: "mcp",
        request: post(JSON.stringify(m)),
      })),
    ],
    [
      3,
      fc
        .array(message, { minLength: 0, maxLength: 25 })
        .map((ms) => ({ operation: `batch`, surface: "mcp", request: post(JSON.stringify(ms)) })),
    ],
    [
      2,
      fc
        .constantFrom(...BROKEN_BODIES)
        .map((b) => ({ operation: "broken body", surface: "mcp", request: post(b) })),
    ],
    [
      1,
      fc.constantFrom(...WRONG_CONTENT_TYPES).map((t) => ({
        operation: "wrong content type",
        surface: "mcp",
        request: post(call(1, "get_team", {}), { ...HEADERS(), "content-type": t }),
      })),
    ],
    [
      1,
      fc.constantFrom("application/json", "text/event-stream", "text/html", "*/*", "").map((a) => ({
        operation: "wrong Accept",
        surface: "mcp",
        request: post(call(1, "get_team", {}), { ...HEADERS(), accept: a }),
      })),
    ],
    [
      1,
      fc.constantFrom("1999-01-01", "nope", "").map((v) => ({
        operation: "wrong protocol version",
        surface: "mcp",
        request: post(call(1, "get_team", {}), { ...HEADERS(), "mcp-protocol-version": v }),
      })),
    ],
    [
      1,
      fc.constantFrom("https://evil.example", "null").map((o) => ({
        operation: "foreign Origin",
        surface: "mcp",
        request: post(call(1, "get_team", {}), { ...HEADERS(), origin: o }),
      })),
    ],
    [
      2,
      fc.constantFrom(...ALL_METHODS.filter((m) => m !== "POST")).map((method) => ({
        operation: `${method} /api/mcp`,
        surface: "mcp",
        request: { method, path: "/api/mcp", headers: HEADERS() },
      })),
    ],
    [
      1,
      fc.constantFrom("", "Bearer", "Bearer wrong", "Basic eDp5").map((a) => ({
        operation: "wrong key",
        surface: "mcp",
        request: post(call(1, "get_team", {}), { ...HEADERS(), authorization: a }),
      })),
    ],
  );
}

describe("fuzz: MCP, every tool of tools/list, and malformed JSON-RPC", () => {
  it("lists the tools", () => {
    expect(tools.length).toBeGreaterThanOrEqual(10);
  });

  it("answers every generated tool call without a 5xx, internal text or a foreign format, with nosniff, and stores nothing on a refusal", async () => {
    const reports: string[] = [];
    let requests = 0;
    for (const [i, tool] of tools.entries()) {
      const findings = await runFuzz({
        app,
        clock,
        label: `tools/call ${tool.name}`,
        seed: FUZZ_SEED + i,
        numRuns: RUNS_PER_TOOL,
        cases: callsOf(tool),
        organizationId: org.organizationId,
        isRefusal,
      });
      requests += findings.requests;
      if (findings.distinct > 0) reports.push(findings.report());
    }
    console.info(`fuzz mcp: ${tools.length} tools, ${requests} requests`);
    expect(reports.join("\n\n")).toBe("");
  }, 240_000);

  it("answers malformed JSON-RPC, batches, verbs, headers and bodies in JSON-RPC, and stores nothing", async () => {
    const findings = await runFuzz({
      app,
      clock,
      label: "hostile MCP requests",
      seed: FUZZ_SEED,
      numRuns: HOSTILE_RUNS,
      cases: hostileRequests(),
      organizationId: org.organizationId,
      isRefusal,
    });
    expect(findings.report()).toBe("");
  }, 240_000);
});
