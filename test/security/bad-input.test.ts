import { rmSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/app/server";
import { loadConfig } from "../../src/config";
import { demoAnnouncement } from "../../src/domain/accounts/demo";
import { createLogger } from "../../src/observability/logger";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { freshDataFolder } from "../support/data-folder";
import { simulatedContainers } from "../support/references";

/**
 * Issue 26 items 6 and 10 outside GraphQL: what a client can send never earns a 5xx, is refused in
 * the surface's own format, is logged as the client's mistake, and changes nothing; every answer
 * carries nosniff; the share page cannot be framed; /metrics can be closed; the demo key is printed
 * only when it is created.
 */
const METRICS_TOKEN = "metrics-token-for-the-scraper-0123456789";

let app: TestApp;
let org: OrgWithKey;
let shipmentId: string;
beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_METRICS_TOKEN: METRICS_TOKEN,
      QUAYSIDE_METRICS_ALLOW: "127.0.0.0/8,::1",
      QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "5",
    },
  });
  org = await app.fixtures.organization();
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 1,
    start: 410_000,
  });
  const tracked = await v1("POST", "/track", { shipments: [{ type: "container", number: known[0] }] });
  expect(tracked.status).toBe(200);
  const list = await v1("GET", "/shipments");
  shipmentId = (await list.json()).data[0].name;
});
afterAll(() => app?.stop());

const auth = () => ({ authorization: `Bearer ${org.key}` });

function v1(method: string, route: string, body?: unknown, headers: Record<string, string> = auth()) {
  return fetch(`${app.url}/api/v1${route}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

function mcp(message: unknown, headers: Record<string, string> = {}) {
  return fetch(`${app.url}/api/mcp`, {
    method: "POST",
    headers: {
      ...auth(),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

/** No request since `mark` was logged as an error or with a stack. */
function expectNoServerErrorLogged(mark: number) {
  const lines = app.logs.slice(mark);
  expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
  expect(app.rawLogs.slice(mark).join("\n")).not.toMatch(/"stack"/);
}

const v1Refusal = (error: string) => ({ success: false, statusCode: 400, data: { error } });

describe("malformed percent-encoding in a path", () => {
  it.each([
    ["the share page, without a key", "/share/%FF", false],
    ["v1, cut in the middle of a sequence", "/api/v1/container/%E0%A4%A", true],
    ["v1, without a key", "/api/v1/container/%FF", false],
    ["the sandbox", "/api/v1/sandbox/container/%C0", false],
  ])("is a 400 in the v1 format on %s", async (_label, route, withKey) => {
    const mark = app.logs.length;
    const res = await fetch(`${app.url}${route}`, { headers: withKey ? auth() : {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ...v1Refusal("invalid_parameter"),
      message: expect.stringMatching(/percent-encoding/),
    });
    expectNoServerErrorLogged(mark);
    expect(app.logs.slice(mark).some((l) => l.msg === "Refused client input" && l.level === 30)).toBe(true);
  });

  it("is a compat envelope with HTTP 200 on the compatibility API (its contract's only status)", async () => {
    const res = await fetch(`${app.url}/compat/tracking%`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "error", message: "WRONG_PARAMETERS" });
  });

  it("is a GraphQL error on /graphql and a JSON-RPC error on /api/mcp", async () => {
    const graphql = await fetch(`${app.url}/graphql/%FF`, { headers: auth() });
    expect(graphql.status).toBe(400);
    expect(await graphql.json()).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
    const rpc = await fetch(`${app.url}/api/mcp/%FF`, { method: "POST", headers: auth() });
    expect(rpc.status).toBe(400);
    expect(await rpc.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32602 } });
  });
});

describe("a body that does not decompress", () => {
  const garbage = { "content-type": "application/json", "content-encoding": "gzip" };

  it("is a 400 malformed_body on v1 and a JSON-RPC parse error on MCP, logged without a stack", async () => {
    const mark = app.logs.length;
    const rest = await fetch(`${app.url}/api/v1/track`, {
      method: "POST",
      headers: { ...auth(), ...garbage },
      body: "this is not gzip",
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({
      ...v1Refusal("malformed_body"),
      message: expect.stringMatching(/Content-Encoding/),
    });
    const rpc = await mcp("this is not gzip", { "content-encoding": "gzip" });
    expect(rpc.status).toBe(400);
    expect(await rpc.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    expectNoServerErrorLogged(mark);
  });
});

describe("NUL characters and lone surrogates never reach the database", () => {
  it.each([
    ["a NUL", "MSCU\u00001234566"],
    ["a lone high surrogate", "MSCU\uD8001234566"],
    ["a lone low surrogate", "\uDC00"],
  ])("%s in a v1 body is a 400 naming the field, and nothing is tracked", async (_label, number) => {
    const mark = app.logs.length;
    const before = (await (await v1("GET", "/shipments")).json()).total;
    const res = await v1("POST", "/track", { shipments: [{ type: "container", number }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ...v1Refusal("invalid_parameter"),
      message: expect.stringMatching(/^body\.shipments\[0\]\.number holds a NUL character or an unpaired/),
    });
    expect((await (await v1("GET", "/shipments")).json()).total).toBe(before);
    expectNoServerErrorLogged(mark);
  });

  it("a customer name with a NUL is refused and the shipment keeps its customer", async () => {
    expect((await v1("PATCH", `/shipments/${shipmentId}`, { customer: "ACME" })).status).toBe(200);
    const res = await v1("PATCH", `/shipments/${shipmentId}`, { customer: "ACME\u0000Evil" });
    expect(res.status).toBe(400);
    const shipment = await (await v1("GET", `/shipments/${shipmentId}`)).json();
    expect(JSON.stringify(shipment)).toContain('"ACME"');
    expect(JSON.stringify(shipment)).not.toContain("Evil");
  });

  it.each([
    ["v1", "/api/v1/shipments?customer=a%00b", true],
    ["v1, in a path", "/api/v1/container/MSCU%001234566", true],
    ["the sandbox", "/api/v1/sandbox/shipments?search=ab%00", false],
  ])("in a query or path on %s is a 400", async (_label, route, withKey) => {
    const mark = app.logs.length;
    const res = await fetch(`${app.url}${route}`, { headers: withKey ? auth() : {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(v1Refusal("invalid_parameter"));
    expectNoServerErrorLogged(mark);
  });

  it("in a sandbox body is a 400", async () => {
    const res = await fetch(`${app.url}/api/v1/sandbox/track`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shipments: [{ number: "SBXU\u0000" }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(v1Refusal("invalid_parameter"));
  });

  it.each([
    ["a NUL", "get_shipment_status", { reference: "MSCU\u00001234566" }],
    ["a lone surrogate", "list_my_shipments", { customer: "ACME \uD800" }],
  ])("%s in MCP tool arguments is a -32602 error echoing the id", async (_label, name, args) => {
    const mark = app.logs.length;
    const res = await mcp({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32602,
        message: expect.stringMatching(/^message\.params\.arguments\.\w+ holds a NUL character/),
        data: { error: "invalid_parameter" },
      },
    });
    expectNoServerErrorLogged(mark);
  });
});

describe("the year 0000", () => {
  it.each(["0000-01-01T00:00:00Z", "0000-06-01", "0001-01-01T00:30:00+01:00"])(
    "in updated_since (%s) is a 400 invalid_parameter",
    async (since) => {
      const res = await v1("GET", `/shipments?updated_since=${encodeURIComponent(since)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        ...v1Refusal("invalid_parameter"),
        data: { param: "updated_since" },
      });
    },
  );

  it("while the year 0001 is simply an early date", async () => {
    const res = await v1("GET", "/shipments?updated_since=0001-01-01T00:00:00Z");
    expect(res.status).toBe(200);
    expect((await res.json()).count).toBeGreaterThanOrEqual(1);
  });
});

describe("MCP requests the SDK's own schemas refuse", () => {
  it.each([
    ["tools/call without params", { method: "tools/call" }, /params/],
    ["a tool name that is a number", { method: "tools/call", params: { name: 5 } }, /params\.name/],
    [
      "arguments that are a list",
      { method: "tools/call", params: { name: "get_team", arguments: [1] } },
      /params\.arguments/,
    ],
    ["initialize without a protocol version", { method: "initialize", params: {} }, /protocolVersion/],
  ])("%s is a -32602 with one readable line, not the validator's dump", async (_label, message, names) => {
    const mark = app.logs.length;
    const res = await mcp({ jsonrpc: "2.0", id: 3, ...message });
    const body = await res.json();
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid params: /),
        data: { error: "invalid_parameter" },
      },
    });
    expect(body.error.message).toMatch(names);
    expect(body.error.message).not.toMatch(/[[\]{}\n]|"code"/);
    expectNoServerErrorLogged(mark);
  });

  it("a tool call with wrong argument types stays a tool error the assistant can read", async () => {
    const res = await mcp({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get_shipment_status", arguments: { reference: 5 } },
    });
    const body = await res.json();
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toMatch(/reference/);
    expect(body.result.content[0].text).not.toMatch(/[{}\n]/);
  });
});

describe("OPTIONS", () => {
  it.each([
    ["/api/v1/shipments/SHP-1", "GET, HEAD, PATCH, DELETE, OPTIONS"],
    ["/api/v1/track", "POST, OPTIONS"],
    ["/api/v1/sandbox/webhooks/fire", "POST, OPTIONS"],
    ["/share/anything", "GET, HEAD, OPTIONS"],
    ["/healthz", "GET, HEAD, OPTIONS"],
  ])("on %s is a 204 with the verbs it answers, without a key", async (route, allow) => {
    const res = await fetch(`${app.url}${route}`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(allow.split(", ").sort());
    expect(await res.text()).toBe("");
  });

  it("answers in each surface's format where there is nothing to allow, never Express's page", async () => {
    const unknown = await fetch(`${app.url}/api/v1/no-such-route`, { method: "OPTIONS" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ data: { error: "route_not_found" } });
    const compat = await fetch(`${app.url}/compat/tracking`, { method: "OPTIONS" });
    expect(compat.status).toBe(405);
    expect(await compat.json()).toMatchObject({ status: "error", message: "WRONG_PARAMETERS" });
    const rpc = await fetch(`${app.url}/api/mcp`, { method: "OPTIONS" });
    expect(rpc.status).toBe(405);
    expect(await rpc.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { data: { error: "method_not_allowed" } },
    });
    const root = await fetch(`${app.url}/nothing-here`, { method: "OPTIONS" });
    expect(root.headers.get("content-type")).toMatch(/json/);
  });

  it("is not counted as a failed authentication", async () => {
    // The address may fail 5 times a minute here; 10 preflights later a keyless call is still a 401,
    // not the 429 of an address that keeps failing.
    for (let i = 0; i < 10; i++) await fetch(`${app.url}/api/v1/carriers`, { method: "OPTIONS" });
    const res = await fetch(`${app.url}/api/v1/carriers`);
    expect(res.status).toBe(401);
  });
});

describe("response headers", () => {
  it("every answer carries X-Content-Type-Options: nosniff", async () => {
    const answers = await Promise.all([
      fetch(`${app.url}/nothing-here`),
      fetch(`${app.url}/healthz`),
      fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
      fetch(`${app.url}/metrics`),
      v1("GET", "/carriers"),
      v1("GET", "/carriers", undefined, {}),
      fetch(`${app.url}/api/v1/sandbox/carriers`),
      fetch(`${app.url}/compat/info/sealines`, { headers: auth() }),
      fetch(`${app.url}/share/unknown-token`),
      fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ query: "{ __typename }" }),
      }),
      mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: "Bearer nope" }),
    ]);
    for (const res of answers)
      expect([res.url, res.headers.get("x-content-type-options")]).toEqual([res.url, "nosniff"]);
  });

  it("a request that is not HTTP gets a JSON 400 with nosniff from the server itself", async () => {
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(app.url).port), "127.0.0.1");
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        received += chunk;
      });
      socket.on("close", () => resolve(received));
      socket.on("connect", () => socket.write("HELLO THERE\r\n\r\n"));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/x-content-type-options: nosniff/i);
    expect(text).toContain('"error":"malformed_request"');
  });

  it("the share page cannot be framed by another site", async () => {
    const shared = await v1("POST", `/shipments/${shipmentId}/share`);
    const { url } = (await shared.json()).data;
    for (const [page, status] of [
      [url, 200],
      [`${app.url}/share/revoked-or-never-issued`, 404],
    ]) {
      const res = await fetch(page);
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/html/);
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("/metrics with QUAYSIDE_METRICS_TOKEN and QUAYSIDE_METRICS_ALLOW", () => {
  it("needs the token: none or a wrong one is a 401 with WWW-Authenticate", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-the-token" },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${app.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="Quayside metrics"');
      expect(await res.json()).toMatchObject({ data: { error: "metrics_token_required" } });
    }
  });

  it("serves the scraper that sends it from an allowed address", async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^# HELP quayside_http_requests_total/m);
  });

  it("refuses an address outside the list even with the token", async () => {
    const closed = await startTestApp({
      env: { QUAYSIDE_METRICS_TOKEN: METRICS_TOKEN, QUAYSIDE_METRICS_ALLOW: "10.0.0.0/8" },
    });
    try {
      const res = await fetch(`${closed.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ data: { error: "metrics_address_not_allowed" } });
      expect((await fetch(`${closed.url}/healthz`)).status).toBe(200);
    } finally {
      await closed.stop();
    }
  });

  it("refuses a configuration it cannot honour at start-up", () => {
    expect(() => loadConfig({ QUAYSIDE_METRICS_TOKEN: "short" })).toThrow(/QUAYSIDE_METRICS_TOKEN/);
    expect(() => loadConfig({ QUAYSIDE_METRICS_ALLOW: "10.0.0.0/33" })).toThrow(/QUAYSIDE_METRICS_ALLOW/);
    expect(() => loadConfig({ QUAYSIDE_METRICS_ALLOW: "example.com" })).toThrow(/QUAYSIDE_METRICS_ALLOW/);
    expect(() =>
      loadConfig({ QUAYSIDE_HEADERS_TIMEOUT_MS: "20000", QUAYSIDE_REQUEST_TIMEOUT_MS: "10000" }),
    ).toThrow(/QUAYSIDE_REQUEST_TIMEOUT_MS/);
  });
});

describe("the demo key", () => {
  it("is printed on the start that creates it and never on a restart", { timeout: 60_000 }, async () => {
    // A new folder: the first start is the subject (in memory with the run's scratch, not on disk).
    const dataDir = freshDataFolder();
    const start = async () => {
      const server = await startServer(
        loadConfig({
          PORT: "0",
          QUAYSIDE_DATA_DIR: dataDir,
          QUAYSIDE_SIMULATOR: "off",
          QUAYSIDE_WORKERS: "off",
        }),
        { logger: createLogger("silent") },
      );
      await server.stop();
      return demoAnnouncement(server.demo);
    };
    try {
      const first = await start();
      const key = /plan professional\): (\S+)/.exec(first ?? "")?.[1];
      const password = /with password (\S+)$/.exec(first ?? "")?.[1];
      // The key, and beside it the dashboard sign-in (docs/decisions/dashboard.md).
      expect(first).toMatch(
        /^Demo API key \(organisation "Demo", plan business\): \S{16,}\nDemo sign-in at \/dashboard: demo@quayside\.local with password \S{16}$/,
      );
      const second = await start();
      expect(second).not.toContain(key);
      expect(second).not.toContain(password);
      expect(second).toMatch(/printed only on the first start/);
      expect(second).toContain("quayside keys create --user demo@quayside.local");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("set through QUAYSIDE_DEMO_KEY is printed when it is created, not on later starts", () => {
    const pinned = "demo_key_for_scripts_0123456789";
    const created = { kind: "pinned-key", organizationId: "org", rawKey: pinned, created: true } as const;
    expect(demoAnnouncement(created)).toContain(pinned);
    expect(demoAnnouncement({ ...created, created: false })).not.toContain(pinned);
    expect(demoAnnouncement({ ...created, created: false })).toMatch(/QUAYSIDE_DEMO_KEY/);
  });
});
