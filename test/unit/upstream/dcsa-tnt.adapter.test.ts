import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config";
import { ManualClock } from "../../../src/lib/clock";
import type { CarrierAuth } from "../../../src/upstream/carriers/auth";
import type { CarrierQuery } from "../../../src/upstream/carriers/carrier-adapter";
import {
  createDcsaTntAdapter,
  type DcsaTntAdapterOptions,
} from "../../../src/upstream/carriers/dcsa-tnt.adapter";
import type { Sleep } from "../../../src/upstream/http/request";
import { closedPort, json, startTestServer, type TestServer } from "./test-server";

const CONTAINER: CarrierQuery = { scac: "HLCU", reference: "HLXU8034420", referenceType: "container" };
const ev = (id: string) => ({ eventID: id, eventType: "EQUIPMENT" });

let server: TestServer;
let clock: ManualClock;
let sleeps: number[];
const sleep: Sleep = async (ms) => {
  sleeps.push(ms);
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  clock = new ManualClock("2024-01-10T12:00:00Z");
  sleeps = [];
});

function adapter(overrides: Partial<DcsaTntAdapterOptions> = {}) {
  return createDcsaTntAdapter({
    scac: "HLCU",
    baseUrl: `${server.url}/HLCU`,
    auth: { kind: "none" },
    clock,
    sleep,
    random: () => 0.5,
    timeoutMs: 2_000,
    ...overrides,
  });
}

const eventRequests = () => server.requests.filter((r) => r.path.endsWith("/v2/events"));

describe("query", () => {
  it.each([
    ["container", "equipmentReference"],
    ["bl", "transportDocumentReference"],
    ["booking", "carrierBookingReference"],
  ] as const)("filters a %s by %s and sends the page size", async (referenceType, parameter) => {
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    const outcome = await adapter({ pageSize: 50 }).fetchEvents({
      ...CONTAINER,
      referenceType,
      reference: "REF 1/2",
    });
    expect(outcome).toEqual({ kind: "found", events: [ev("a")], pages: 1, truncated: false });
    const [request] = server.requests;
    expect(request?.path).toBe("/HLCU/v2/events");
    expect(request?.query.get(parameter)).toBe("REF 1/2");
    expect(request?.query.get("limit")).toBe("50");
    expect(request?.headers["api-version"]).toBe("2");
  });

  it("uses the carrier's own events path when the registry names one", async () => {
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    await adapter({
      baseUrl: `${server.url}/operation/trackandtrace/v1/`,
      eventsPath: "/events",
    }).fetchEvents(CONTAINER);
    expect(server.requests[0]?.path).toBe("/operation/trackandtrace/v1/events");
  });
});

describe("paging through Next-Page", () => {
  it("follows an absolute link", async () => {
    server.handle((req, res) => {
      if (req.query.get("page") === "2") return json(res, 200, [ev("c")]);
      json(res, 200, [ev("a"), ev("b")], { "Next-Page": `${server.url}/HLCU/v2/events?page=2&limit=2` });
    });
    const outcome = await adapter({ pageSize: 2 }).fetchEvents(CONTAINER);
    expect(outcome).toEqual({
      kind: "found",
      events: [ev("a"), ev("b"), ev("c")],
      pages: 2,
      truncated: false,
    });
    expect(server.requests[1]?.query.get("page")).toBe("2");
  });

  it("sends a bare cursor back with the original query", async () => {
    server.handle((req, res) => {
      if (req.query.get("cursor") === "fE9mZnNldHw9MTA=") return json(res, 200, [ev("b")]);
      json(res, 200, [ev("a")], { "Next-Page": "fE9mZnNldHw9MTA=" });
    });
    const outcome = await adapter().fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({ kind: "found", pages: 2, events: [ev("a"), ev("b")] });
    const second = server.requests[1];
    expect(second?.query.get("equipmentReference")).toBe("HLXU8034420");
    expect(second?.query.get("limit")).toBe("100");
  });

  it("stops at the page cap and says the answer is truncated", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      json(res, 200, [ev(`e${n}`)], { "Next-Page": `cursor-${n}` });
    });
    const outcome = await adapter({ maxPages: 3 }).fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({ kind: "found", pages: 3, truncated: true });
    expect(server.requests).toHaveLength(3);
  });

  it("stops when the carrier hands out the same cursor again", async () => {
    server.handle((_req, res) => json(res, 200, [ev("x")], { "Next-Page": "same" }));
    const outcome = await adapter().fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({ kind: "found", pages: 2, truncated: true });
    expect(server.requests).toHaveLength(2);
  });

  it("does not follow a link to another host, which would carry our credentials there", async () => {
    server.handle((_req, res) =>
      json(res, 200, [ev("a")], { "Next-Page": "http://203.0.113.9/v2/events?cursor=x" }),
    );
    const outcome = await adapter({ auth: { kind: "api-key", header: "keyId", value: "k" } }).fetchEvents(
      CONTAINER,
    );
    expect(outcome).toMatchObject({ kind: "found", pages: 1, truncated: true });
    expect(server.requests).toHaveLength(1);
  });

  it("stops on an empty page even when it names a next one", async () => {
    server.handle((req, res) =>
      req.query.get("cursor")
        ? json(res, 200, [], { "Next-Page": "c2" })
        : json(res, 200, [ev("a")], { "Next-Page": "c1" }),
    );
    expect(await adapter().fetchEvents(CONTAINER)).toMatchObject({
      kind: "found",
      pages: 2,
      truncated: false,
    });
  });

  it("fails the whole lookup when a later page is gone, rather than returning half a journey", async () => {
    server.handle((req, res) =>
      req.query.get("cursor") ? json(res, 404, {}) : json(res, 200, [ev("a")], { "Next-Page": "c1" }),
    );
    expect(await adapter().fetchEvents(CONTAINER)).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("page 2"),
    });
  });
});

describe("answers that are not events", () => {
  it.each([
    ["an empty list", 200, []],
    ["404", 404, { statusCode: 404 }],
    ["400 on the reference", 400, { statusCode: 400, errors: [{ reason: "invalidQuery" }] }],
  ])("%s is not-found", async (_name, status, body) => {
    server.handle((_req, res) => json(res, status, body));
    expect(await adapter().fetchEvents(CONTAINER)).toEqual({ kind: "not-found" });
  });

  it("a body that is not JSON is malformed", async () => {
    server.handle(
      (_req, res) => void res.writeHead(200, { "Content-Type": "text/html" }).end("<html>maintenance</html>"),
    );
    expect(await adapter().fetchEvents(CONTAINER)).toMatchObject({
      kind: "malformed",
      reason: expect.stringContaining("not JSON"),
    });
  });

  it("reads the events of a { events: [...] } envelope (T&T 3.0, Maersk)", async () => {
    server.handle((_req, res) => json(res, 200, { events: [ev("a"), ev("b")] }));
    expect(await adapter().fetchEvents(CONTAINER)).toEqual({
      kind: "found",
      events: [ev("a"), ev("b")],
      pages: 1,
      truncated: false,
    });
  });

  it("a JSON object instead of an array is malformed", async () => {
    server.handle((_req, res) => json(res, 200, { data: [] }));
    expect(await adapter().fetchEvents(CONTAINER)).toMatchObject({
      kind: "malformed",
      reason: expect.stringContaining("not a JSON array"),
    });
  });

  it("a body over the size limit is malformed, not loaded into memory", async () => {
    server.handle((_req, res) =>
      json(
        res,
        200,
        Array.from({ length: 200 }, (_, i) => ev(`event-${i}`)),
      ),
    );
    expect(await adapter({ maxBodyBytes: 1_000 }).fetchEvents(CONTAINER)).toMatchObject({
      kind: "malformed",
    });
  });
});

describe("authentication", () => {
  it("sends no credentials for auth none", async () => {
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    await adapter().fetchEvents(CONTAINER);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("sends an API key in the carrier's header", async () => {
    server.handle((req, res) =>
      req.headers.keyid === "secret-key" ? json(res, 200, [ev("a")]) : json(res, 401, {}),
    );
    const outcome = await adapter({
      auth: { kind: "api-key", header: "keyId", value: "secret-key" },
    }).fetchEvents(CONTAINER);
    expect(outcome.kind).toBe("found");
  });

  it("sends client id and secret headers", async () => {
    server.handle((req, res) =>
      req.headers["x-ibm-client-id"] === "id-1" && req.headers["x-ibm-client-secret"] === "s3cr3t"
        ? json(res, 200, [ev("a")])
        : json(res, 401, {}),
    );
    const auth: CarrierAuth = {
      kind: "client-id-secret",
      idHeader: "X-IBM-Client-Id",
      secretHeader: "X-IBM-Client-Secret",
      clientId: "id-1",
      clientSecret: "s3cr3t",
    };
    expect((await adapter({ auth }).fetchEvents(CONTAINER)).kind).toBe("found");
  });

  it("answers unauthorized for 401 and 403 with static credentials, without retrying", async () => {
    for (const status of [401, 403]) {
      server.handle((_req, res) => json(res, status, {}));
      const outcome = await adapter({
        auth: { kind: "api-key", header: "keyId", value: "wrong" },
      }).fetchEvents(CONTAINER);
      expect(outcome).toMatchObject({
        kind: "unauthorized",
        reason: expect.stringContaining(`HTTP ${status}`),
      });
      expect(server.requests).toHaveLength(1);
    }
  });

  it("answers unauthorized with the reason when credentials are not configured, without calling", async () => {
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    const outcome = await adapter({
      auth: { kind: "unconfigured", reason: "set QUAYSIDE_CARRIER_HLCU_CLIENT_ID" },
    }).fetchEvents(CONTAINER);
    expect(outcome).toEqual({ kind: "unauthorized", reason: "set QUAYSIDE_CARRIER_HLCU_CLIENT_ID" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("OAuth2 client credentials", () => {
  const oauth: CarrierAuth = {
    kind: "oauth2",
    clientId: "quay side",
    clientSecret: "p@ss:word",
    scope: "tnt",
  };
  let issued: number;
  let valid: Set<string>;

  beforeEach(() => {
    issued = 0;
    valid = new Set();
    server.handle((req, res) => {
      if (req.path === "/HLCU/oauth/token") {
        issued += 1;
        const token = `token-${issued}`;
        valid.add(token);
        return json(res, 200, { access_token: token, token_type: "bearer", expires_in: 3600 });
      }
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      return valid.has(token) ? json(res, 200, [ev("a")]) : json(res, 401, {});
    });
  });

  it("posts a form-encoded client-credentials grant with HTTP Basic, then calls with the bearer token", async () => {
    expect((await adapter({ auth: oauth }).fetchEvents(CONTAINER)).kind).toBe("found");
    const [tokenRequest, eventsRequest] = server.requests;
    expect(tokenRequest?.method).toBe("POST");
    expect(tokenRequest?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(tokenRequest?.body)).toEqual(
      new URLSearchParams({ grant_type: "client_credentials", scope: "tnt" }),
    );
    const basic = Buffer.from(
      tokenRequest?.headers.authorization?.replace(/^Basic /, "") ?? "",
      "base64",
    ).toString();
    expect(basic).toBe("quay%20side:p%40ss%3Aword");
    expect(eventsRequest?.headers.authorization).toBe("Bearer token-1");
  });

  it("reuses the token until shortly before it expires by the injected clock", async () => {
    const carrier = adapter({ auth: oauth });
    await carrier.fetchEvents(CONTAINER);
    clock.advance(3_500_000);
    await carrier.fetchEvents(CONTAINER);
    expect(issued).toBe(1);
    // 3600 s lifetime minus a 30 s margin.
    clock.advance(80_000);
    await carrier.fetchEvents(CONTAINER);
    expect(issued).toBe(2);
  });

  it("on a 401 with a cached token drops it, gets a new one and retries once", async () => {
    const carrier = adapter({ auth: oauth });
    await carrier.fetchEvents(CONTAINER);
    valid.clear(); // the carrier revoked it early
    const outcome = await carrier.fetchEvents(CONTAINER);
    expect(outcome.kind).toBe("found");
    expect(issued).toBe(2);
  });

  it("gives up after one renewal when the carrier keeps refusing", async () => {
    server.handle((req, res) =>
      req.path.endsWith("/oauth/token")
        ? json(res, 200, { access_token: "t", expires_in: 60 })
        : json(res, 401, {}),
    );
    const outcome = await adapter({ auth: oauth }).fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({ kind: "unauthorized" });
    expect(eventRequests()).toHaveLength(2);
  });

  it("answers unauthorized when the token endpoint refuses the client", async () => {
    server.handle((_req, res) => json(res, 401, { error: "invalid_client" }));
    const outcome = await adapter({ auth: oauth }).fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({
      kind: "unauthorized",
      reason: expect.stringContaining("token endpoint"),
    });
  });

  it("shares one token request between concurrent lookups", async () => {
    const carrier = adapter({ auth: oauth });
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => carrier.fetchEvents(CONTAINER)));
    expect(outcomes.every((o) => o.kind === "found")).toBe(true);
    expect(issued).toBe(1);
  });

  it("uses the configured token URL and adds the subscription key header", async () => {
    const auth: CarrierAuth = {
      ...oauth,
      tokenUrl: `${server.url}/HLCU/oauth/token`,
      apiKeyHeader: "Consumer-Key",
      apiKey: "ck-1",
    };
    await adapter({ auth, baseUrl: `${server.url}/HLCU` }).fetchEvents(CONTAINER);
    expect(eventRequests()[0]?.headers["consumer-key"]).toBe("ck-1");
  });
});

describe("failures, retries and timeouts", () => {
  it("retries a 5xx with backoff and jitter, then succeeds", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      if (n <= 2) return json(res, n === 1 ? 500 : 502, {});
      json(res, 200, [ev("a")]);
    });
    const outcome = await adapter().fetchEvents(CONTAINER);
    expect(outcome.kind).toBe("found");
    // random() = 0.5: half the step fixed plus a quarter: 250 -> 188, 500 -> 375.
    expect(sleeps).toEqual([188, 375]);
  });

  it("is unreachable when 5xx persists after the retries", async () => {
    server.handle((_req, res) => json(res, 503, {}));
    const outcome = await adapter().fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("HTTP 503 after 3 attempts"),
    });
    expect(server.requests).toHaveLength(3);
  });

  it("honours Retry-After in seconds", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      if (n === 1) return json(res, 503, {}, { "Retry-After": "2" });
      json(res, 200, [ev("a")]);
    });
    expect((await adapter().fetchEvents(CONTAINER)).kind).toBe("found");
    expect(sleeps).toEqual([2000]);
  });

  it("honours Retry-After as an HTTP date, measured by the injected clock", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      if (n === 1) return json(res, 429, {}, { "Retry-After": "Wed, 10 Jan 2024 12:00:05 GMT" });
      json(res, 200, [ev("a")]);
    });
    expect((await adapter().fetchEvents(CONTAINER)).kind).toBe("found");
    expect(sleeps).toEqual([5000]);
  });

  it("is rate-limited after the retries, passing on the carrier's Retry-After", async () => {
    server.handle((_req, res) => json(res, 429, {}, { "Retry-After": "1" }));
    expect(await adapter().fetchEvents(CONTAINER)).toEqual({ kind: "rate-limited", retryAfterSeconds: 1 });
    expect(server.requests).toHaveLength(3);
  });

  it("does not wait for a long Retry-After: it answers rate-limited at once", async () => {
    server.handle((_req, res) => json(res, 429, {}, { "Retry-After": "3600" }));
    expect(await adapter().fetchEvents(CONTAINER)).toEqual({ kind: "rate-limited", retryAfterSeconds: 3600 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("times out a carrier that does not answer, without retrying", async () => {
    server.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1_000));
      if (!res.writableEnded) json(res, 200, [ev("late")]);
    });
    const started = Date.now();
    const outcome = await adapter({ timeoutMs: 100 }).fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("no answer within 100 ms"),
    });
    expect(Date.now() - started).toBeLessThan(900);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a reset connection and gets through", async () => {
    let n = 0;
    server.handle((_req, res) => {
      n += 1;
      if (n === 1) return void res.socket?.destroy();
      json(res, 200, [ev("a")]);
    });
    expect((await adapter().fetchEvents(CONTAINER)).kind).toBe("found");
    expect(sleeps).toHaveLength(1);
  });

  it("is unreachable when the connection is refused, after the retries", async () => {
    const port = await closedPort();
    const outcome = await adapter({ baseUrl: `http://127.0.0.1:${port}/HLCU` }).fetchEvents(CONTAINER);
    expect(outcome).toMatchObject({ kind: "unreachable", reason: expect.stringContaining("ECONNREFUSED") });
    expect(sleeps).toHaveLength(2);
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    server.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 500));
      if (!res.writableEnded) json(res, 200, []);
    });
    const controller = new AbortController();
    const pending = adapter().fetchEvents(CONTAINER, controller.signal);
    setTimeout(() => controller.abort(new Error("user went away")), 50);
    await expect(pending).rejects.toThrow("user went away");
  });
});

describe("concurrency limit", () => {
  it("keeps at most the configured number of requests in flight; the rest wait their turn", async () => {
    let inFlight = 0;
    let peak = 0;
    server.handle(async (_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 40));
      inFlight -= 1;
      json(res, 200, [ev("a")]);
    });
    const carrier = adapter({ maxConcurrency: 2 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => carrier.fetchEvents(CONTAINER)));
    expect(outcomes.every((o) => o.kind === "found")).toBe(true);
    expect(peak).toBe(2);
    expect(server.requests).toHaveLength(6);
  });

  it("keeps 8 in flight by default, so 50 lookups of one carrier take 7 rounds, not 13", async () => {
    let inFlight = 0;
    let peak = 0;
    server.handle(async (_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      json(res, 200, [ev("a")]);
    });
    const carrier = adapter();
    await Promise.all(Array.from({ length: 50 }, () => carrier.fetchEvents(CONTAINER)));
    expect(peak).toBe(8);
  });

  it("takes the service-wide limit from QUAYSIDE_CARRIER_CONCURRENCY (1 to 64)", () => {
    expect(loadConfig({}).carrierCalls.concurrency).toBe(8);
    expect(loadConfig({ QUAYSIDE_CARRIER_CONCURRENCY: "3" }).carrierCalls.concurrency).toBe(3);
    for (const bad of ["0", "65", "many"]) {
      expect(() => loadConfig({ QUAYSIDE_CARRIER_CONCURRENCY: bad })).toThrow(/QUAYSIDE_CARRIER_CONCURRENCY/);
    }
  });
});
