import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { midMinute, postJsonRpc, toolsCall } from "./support";

const clock = new ManualClock(midMinute());
let app: TestApp;
let professional: OrgWithKey;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const listTools = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "1000" } });
  professional = await app.fixtures.organization({ plan: "professional" });
});
afterAll(() => app?.stop());

/** node:http, because fetch will not send a Host header of our choosing. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, app.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, setHost: false },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the HTTP transport", () => {
  it("answers one JSON-RPC request with one JSON result, spending one request of the key's window", async () => {
    const before = await postJsonRpc(app, listTools(1), bearer(professional.key));
    const after = await postJsonRpc(app, listTools(2), bearer(professional.key));
    for (const res of [before, after]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    }
    expect(after.body).toMatchObject({ jsonrpc: "2.0", id: 2, result: { tools: expect.any(Array) } });
    expect(Number(before.headers.get("x-ratelimit-remaining")) - 1).toBe(
      Number(after.headers.get("x-ratelimit-remaining")),
    );
  });

  it("runs each request as its own key's organisation, however many requests run at once on the process's servers", async () => {
    const other = await app.fixtures.organization({ plan: "professional" });
    const emailOf = async (org: OrgWithKey) =>
      (await app.services.db.prisma.user.findUniqueOrThrow({ where: { id: org.userId } })).email;
    const expected = new Map([
      [professional.key, await emailOf(professional)],
      [other.key, await emailOf(other)],
    ]);
    // Servers are kept between requests and bound to one request at a time: alternating keys, in
    // rounds of concurrent calls, each answer names only the caller's own team.
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? professional.key : other.key));
      const answers = await Promise.all(
        keys.map((key, i) => postJsonRpc(app, toolsCall(i + 1, "get_team"), bearer(key))),
      );
      answers.forEach((res, i) => {
        expect(res.status).toBe(200);
        const team = (res.body as any).result.structuredContent;
        const emails = JSON.stringify(team);
        expect(emails).toContain(expected.get(keys[i]!)!);
        for (const [key, email] of expected) if (key !== keys[i]) expect(emails).not.toContain(email);
      });
    }
  });

  it("accepts a notification with 202 and no body, never an HTML answer", async () => {
    // Streamable HTTP: a POST of only notifications is answered 202 Accepted with no body.
    const res = await fetch(`${app.url}/api/mcp`, {
      method: "POST",
      headers: {
        ...bearer(professional.key),
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(res.headers.get("content-length") ?? "0").toBe("0");
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
  });

  it.each(["GET", "DELETE", "PUT"])(
    "answers %s with 405, Allow: POST and a JSON-RPC error, before authentication",
    async (method) => {
      const res = await fetch(`${app.url}/api/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
      expect(await res.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message: expect.stringMatching(/POST/),
          data: { error: "method_not_allowed" },
        },
      });
    },
  );

  it("answers a body that is not JSON with a JSON-RPC parse error", async () => {
    const res = await postJsonRpc(app, "{not json", bearer(professional.key));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });
});

describe("one request on a kept server's own transport", () => {
  // A single request that leaves nothing on the server is served without the SDK's web transport
  // (facades/mcp/direct.ts); a batch still goes through it. Both must answer alike.
  const alone = [
    toolsCall(7, "get_team"),
    listTools(8),
    { jsonrpc: "2.0", id: "nine", method: "ping" },
    { jsonrpc: "2.0", id: 10, method: "resources/list" },
    toolsCall(11, "no_such_tool"),
    toolsCall(12, "get_shipment_status", { reference: 42 }),
  ];

  it.each(alone.map((message) => [message.method, message] as const))(
    "answers %s alone exactly as the same message in a batch of one",
    async (_method, message) => {
      const single = await postJsonRpc(app, message, bearer(professional.key));
      const batch = await postJsonRpc(app, [message], bearer(professional.key));
      expect(single.status).toBe(200);
      expect(single.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(batch.status).toBe(200);
      // The SDK answers a batch of one request with the answer alone, not an array.
      expect(single.body).toEqual(batch.body);
    },
  );

  it("leaves to the SDK what a streamable HTTP server refuses before any tool runs", async () => {
    const call = toolsCall(13, "get_team");
    const withHeaders = (headers: Record<string, string>) =>
      postJsonRpc(app, call, { ...bearer(professional.key), ...headers });
    const jsonOnly = await withHeaders({ accept: "application/json" });
    expect(jsonOnly.status).toBe(406);
    expect(jsonOnly.body).toMatchObject({ error: { code: -32000, message: /Not Acceptable/ } });
    const oldVersion = await withHeaders({ "mcp-protocol-version": "2024-01-01" });
    expect(oldVersion.status).toBe(400);
    expect(oldVersion.body).toMatchObject({ error: { message: /Unsupported protocol version: 2024-01-01/ } });
  });
});

describe("batches", () => {
  it("answers a batch of 20 messages with 20 results, spending 20 requests of the window", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    const batch = Array.from({ length: 20 }, (_, i) => toolsCall(i + 1, "get_team"));
    const res = await postJsonRpc(app, batch, bearer(org.key));
    expect(res.status).toBe(200);
    const results = res.body as { id: number; result: { structuredContent: { members: unknown[] } } }[];
    expect(results).toHaveLength(20);
    expect(results.map((r) => r.id).sort((a, b) => a - b)).toEqual(batch.map((m) => m.id));
    for (const r of results) expect(r.result.structuredContent.members).toHaveLength(1);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("100");
  });

  it("refuses a batch of 21 messages whole with a JSON-RPC error, spending one request and running nothing", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    const batch = Array.from({ length: 21 }, (_, i) => toolsCall(i + 1, "get_team"));
    const res = await postJsonRpc(app, batch, bearer(org.key));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/at most 20 messages; this one holds 21/),
        data: { error: "invalid_batch" },
      },
    });
    // The refusal spent one request, like any refused answer to a key, not 21.
    const next = await postJsonRpc(app, listTools(1), bearer(org.key));
    expect(next.headers.get("x-ratelimit-remaining")).toBe("118");
    // Without a key the body is never read: the key's refusal answers.
    expect((await postJsonRpc(app, batch)).status).toBe(401);
  });

  it("refuses an empty batch", async () => {
    const res = await postJsonRpc(app, [], bearer(professional.key));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: -32600, data: { error: "invalid_batch" } } });
  });

  it("refuses a batch sent with developer mode off with 403, spending one request of the window, not twenty", async () => {
    const org = await app.fixtures.organization({ plan: "professional", developerMode: false });
    const batch = Array.from({ length: 20 }, (_, i) => toolsCall(i + 1, "get_team"));
    const res = await postJsonRpc(app, batch, bearer(org.key));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: -32003, data: { error: "developer_mode_disabled" } } });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("119");
  });

  it("refuses a batch the minute window cannot hold whole, spending one request, and still admits a smaller one", async () => {
    const org = await app.fixtures.organization({ plan: "free" }); // 30 a minute
    const batch = (n: number) => Array.from({ length: n }, (_, i) => listTools(i + 1));
    const first = await postJsonRpc(app, batch(20), bearer(org.key));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("10");

    const refused = await postJsonRpc(app, batch(20), bearer(org.key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(refused.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32029,
        message: expect.stringMatching(/batch of 20 messages .* 9 remain/),
        data: {
          error: "rate_limit_exceeded",
          limit: 30,
          remaining: 9,
          retryAfter: 30,
          plan: "free",
          upgrade: expect.objectContaining({ next_plan: "starter" }),
        },
      },
    });

    const smaller = await postJsonRpc(app, batch(9), bearer(org.key));
    expect(smaller.status).toBe(200);
    expect(smaller.body).toHaveLength(9);
    expect(smaller.headers.get("x-ratelimit-remaining")).toBe("0");
    const single = await postJsonRpc(app, listTools(7), bearer(org.key));
    expect(single.status).toBe(429);
    expect(single.body).toMatchObject({
      id: 7,
      error: { code: -32029, data: { error: "rate_limit_exceeded" } },
    });
  });
});

describe("authentication, as on REST", () => {
  let devModeOff: OrgWithKey;
  let revoked: OrgWithKey;
  let expired: OrgWithKey;
  beforeAll(async () => {
    devModeOff = await app.fixtures.organization({ developerMode: false });
    revoked = await app.fixtures.organization();
    await app.services.accounts.revokeApiKey({ keyId: revoked.keyId });
    expired = await app.fixtures.organization({ expiresAt: new Date(clock.now().getTime() + 1_000) });
    clock.advance(2_000);
  });

  // A body is read only for a key that authenticates (a keyless client must not hold a socket with a
  // slow body), so a 401 cannot know the message's id and answers with id null (JSON-RPC 2.0 section 5).
  it.each([
    ["no key", () => ({}), 401, -32001, "missing_api_key", null],
    ["an unknown key", () => bearer("qs_neverIssuedToAnyone"), 401, -32001, "invalid_api_key", null],
    ["a revoked key", () => bearer(revoked.key), 401, -32001, "api_key_revoked", null],
    ["an expired key", () => bearer(expired.key), 401, -32001, "api_key_expired", null],
    ["developer mode off", () => bearer(devModeOff.key), 403, -32003, "developer_mode_disabled", 42],
  ])(
    "refuses %s with the outcome's HTTP status and a JSON-RPC error",
    async (_label, headers, status, code, error, id) => {
      const res = await postJsonRpc(app, toolsCall(42, "get_team"), headers());
      expect(res.status).toBe(status);
      expect(res.body).toEqual({
        jsonrpc: "2.0",
        id,
        error: { code, message: expect.any(String), data: { error } },
      });
      expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
    },
  );

  it("accepts X-API-KEY, and ignores ?api_key= (the compatibility API's transport only)", async () => {
    expect((await postJsonRpc(app, listTools(1), { "x-api-key": professional.key })).status).toBe(200);
    const res = await fetch(`${app.url}/api/mcp?api_key=${professional.key}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(listTools(1)),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { data: { error: "missing_api_key" } } });
  });
});

describe("DNS rebinding protection on a server bound to 127.0.0.1", () => {
  const body = JSON.stringify(listTools(1));
  const headers = (extra: Record<string, string>) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...bearer(professional.key),
    ...extra,
  });

  it("refuses a page of another site (Origin) with 403, before authentication", async () => {
    for (const origin of ["http://evil.example", "https://127.0.0.1.evil.example", "null"]) {
      const res = await postJsonRpc(app, listTools(1), { ...bearer(professional.key), origin });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: { code: -32000, data: { error: "origin_not_allowed" } } });
    }
    expect((await postJsonRpc(app, listTools(1), { origin: "http://evil.example" })).status).toBe(403);
  });

  it("admits loopback origins on any port and requests without an Origin", async () => {
    for (const origin of ["http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080"]) {
      expect((await postJsonRpc(app, listTools(1), { ...bearer(professional.key), origin })).status).toBe(
        200,
      );
    }
  });

  it("refuses a Host that is not a loopback name with 403, and admits loopback names on any port", async () => {
    const port = new URL(app.url).port;
    const refused = await rawPost("/api/mcp", headers({ host: `evil.example:${port}` }), body);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { data: { error: "origin_not_allowed" } } });
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "localhost"]) {
      expect((await rawPost("/api/mcp", headers({ host }), body)).status).toBe(200);
    }
  });
});

describe("switched off", () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ env: { QUAYSIDE_MCP_ENABLED: "false" } });
  });
  afterAll(() => off?.stop());

  it("answers 404 for every verb: the endpoint is not served", async () => {
    const { key } = await off.fixtures.organization();
    const res = await postJsonRpc(off, listTools(1), bearer(key));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32601 } });
    expect((await fetch(`${off.url}/api/mcp`)).status).toBe(404);
  });
});
