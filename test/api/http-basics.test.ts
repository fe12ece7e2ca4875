import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
let org: OrgWithKey;
beforeAll(async () => {
  app = await startTestApp({ env: { QUAYSIDE_BODY_LIMIT: "2kb" } });
  org = await app.fixtures.organization();
});
afterAll(() => app?.stop());

const auth = () => ({ authorization: `Bearer ${org.key}` });

describe("bad input", () => {
  it("malformed JSON is a 400 with a clear message on v1 and GraphQL", async () => {
    const v1 = await fetch(`${app.url}/api/v1/carriers`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"shipments": [',
    });
    expect(v1.status).toBe(400);
    expect(await v1.json()).toMatchObject({ statusCode: 400, data: { error: "malformed_body" } });

    const gql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: "{not json",
    });
    expect(gql.status).toBe(400);
    expect((await gql.json()).errors[0].message).toMatch(/not valid JSON/);
  });

  it("refuses oversized bodies with 413", async () => {
    const res = await fetch(`${app.url}/api/v1/carriers`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ filler: "x".repeat(5000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).data.error).toBe("body_too_large");
  });

  it("an unknown route is a 404 JSON body, on every surface but compat, whose contract answers 200", async () => {
    const v1 = await fetch(`${app.url}/api/v1/no-such-thing`, { headers: auth() });
    expect(v1.status).toBe(404);
    expect((await v1.json()).data.error).toBe("route_not_found");
    const root = await fetch(`${app.url}/nothing/here`);
    expect(root.status).toBe(404);
    expect(root.headers.get("content-type")).toMatch(/json/);
    // Every compat answer is HTTP 200 but 405 (docs/decisions/compat-api.md, issue 25): the envelope says.
    const compat = await fetch(`${app.url}/compat/no-such-operation`, { headers: auth() });
    expect(compat.status).toBe(200);
    expect(await compat.json()).toMatchObject({
      status: "error",
      message: "WRONG_PARAMETERS",
      detail: expect.any(String),
    });
  });

  it("a search shorter than 2 characters is a 400 naming the parameter", async () => {
    const res = await fetch(`${app.url}/api/v1/carriers?search=m`, { headers: auth() });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ data: { error: "invalid_parameter", param: "search" } });
    const ok = await fetch(`${app.url}/api/v1/carriers?search=maersk`, { headers: auth() });
    expect((await ok.json()).data[0]).toEqual({
      scac: "MAEU",
      name: expect.stringMatching(/Maersk/),
      slug: expect.any(String),
      // No endpoint or credentials for Maersk on this test deployment.
      tracked: false,
    });
  });
});

describe("operations endpoints", () => {
  it("health and readiness", async () => {
    expect(await (await fetch(`${app.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe("ready");
  });

  it("Prometheus metrics count requests by route, status and surface with latency histograms", async () => {
    await fetch(`${app.url}/api/v1/carriers`, { headers: auth() });
    await fetch(`${app.url}/api/v1/carriers`);
    const text = await (await fetch(`${app.url}/metrics`)).text();
    expect(text).toMatch(
      /quayside_http_requests_total\{route="\/api\/v1\/carriers",method="GET",status="200",surface="v1"\} \d+/,
    );
    expect(text).toMatch(/quayside_http_requests_total\{[^}]*status="401",surface="v1"\} \d+/);
    expect(text).toMatch(
      /quayside_http_request_duration_seconds_bucket\{le="0.005",route="\/api\/v1\/carriers"/,
    );
  });
});

describe("a worker process (QUAYSIDE_WORKERS=only)", () => {
  it("answers health, readiness and metrics, and no API", async () => {
    const worker = await startTestApp({ env: { QUAYSIDE_WORKERS: "only", QUAYSIDE_DEMO: "true" } });
    try {
      expect(await (await fetch(`${worker.url}/healthz`)).json()).toEqual({ status: "ok" });
      const ready = await fetch(`${worker.url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await ready.json()).status).toBe("ready");
      expect(await (await fetch(`${worker.url}/metrics`)).text()).toMatch(/^quayside_http_requests_total/m);
      for (const [method, path] of [
        ["GET", "/api/v1/shipments"],
        ["GET", "/compat/tracking?number=MSCU1234566"],
        ["POST", "/graphql"],
        ["POST", "/api/mcp"],
      ] as const) {
        const res = await fetch(`${worker.url}${path}`, { method, headers: auth() });
        expect(res.status).toBe(404);
        expect((await res.json()).message).toContain("background work only (QUAYSIDE_WORKERS=only)");
      }
      // It makes no demo account (even with QUAYSIDE_DEMO on): it serves no key to use one with.
      expect(worker.demo).toBeNull();
      expect(await worker.services.accounts.listOrganizations()).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});

describe("logs", () => {
  it("are JSON with a request id on every request line, and never carry a key", async () => {
    const before = app.rawLogs.length;
    await fetch(`${app.url}/compat/info/sealines?api_key=${org.key}&number=X`, {
      headers: { "x-request-id": "trace-123" },
    });
    await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${org.key}`, "x-api-key": org.key },
    });
    // Request lines only: background work (the deferred handlers loading after start-up, workers)
    // logs lines of its own that belong to no request.
    const lines = app.logs.slice(before).filter((l) => l.req !== undefined);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((l) => typeof l.requestId !== "string")).toEqual([]);
    expect(lines.some((l) => l.requestId === "trace-123")).toBe(true);
    expect(app.rawLogs.join("\n")).not.toContain(org.key);
    expect(app.rawLogs.join("\n")).toContain("api_key=[redacted]");
  });

  it("echo the request id to the client", async () => {
    const res = await fetch(`${app.url}/healthz`, { headers: { "x-request-id": "abc-1" } });
    expect(res.headers.get("x-request-id")).toBe("abc-1");
  });
});
