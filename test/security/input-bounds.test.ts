import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { seedShipment } from "../support/shipment-seed";

/**
 * Issue 39 items 6 and 7: a DateTime GraphQL cannot store is a clear BAD_USER_INPUT, never a masked
 * internal error; and on the compatibility API a NUL or a path that does not decode is still HTTP
 * 200 with its `message`, as the contract answers everything but a non-GET verb.
 */
const clock = new ManualClock("2026-11-22T10:00:00.000Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
  await seedShipment(app.services, clock, org, {
    reference: "MSCU1234566",
    scac: "MSCU",
    status: "IN_TRANSIT",
    answers: [{ eta: "2026-12-01T08:00:00Z" }],
    createdAt: "2026-11-20T10:00:00Z",
  });
}, 120_000);
afterAll(() => app?.stop());

/** No line since `mark` was logged as an error (a masked internal error is logged at level 50). */
function expectNothingLoggedAsError(mark: number) {
  expect(app.logs.slice(mark).filter((l) => Number(l.level) >= 50)).toEqual([]);
}

describe("DateTime inputs outside the years 0001 to 9999 (item 6)", () => {
  const DELTA = "query($since: DateTime!) { shipmentsUpdatedSince(since: $since) { count } }";
  const YEARS_MESSAGE = /DateTime must be in the years 0001 to 9999/;

  it.each([
    "0000-01-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "+010000-01-01T00:00:00Z",
    // The year 0001 in its own offset is the year 0000 in UTC.
    "0001-01-01T00:30:00+01:00",
  ])(
    "shipmentsUpdatedSince(since: %s) is BAD_USER_INPUT naming the years, not an internal error",
    async (since) => {
      const mark = app.logs.length;
      const { status, body } = await graphql(app, org.key, DELTA, { since });
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0]!.extensions?.code).toBe("BAD_USER_INPUT");
      expect(body.errors![0]!.message).toMatch(YEARS_MESSAGE);
      expect(body.errors![0]!.message).toContain("$since");
      expectNothingLoggedAsError(mark);
    },
  );

  it("is refused the same way written into the document", async () => {
    const { status, body } = await graphql(
      app,
      org.key,
      '{ shipmentsUpdatedSince(since: "0000-06-01T00:00:00Z") { count } }',
    );
    expect(status).toBe(400);
    expect(body.errors![0]!.extensions?.code).toBe("BAD_USER_INPUT");
    expect(body.errors![0]!.message).toMatch(YEARS_MESSAGE);
  });

  it("is refused on every DateTime input, not only the delta (a filter, a key's expiry)", async () => {
    const search = await graphql(
      app,
      org.key,
      "query($to: DateTime) { shipmentSearch(filter: { etaTo: $to }) { total } }",
      { to: "+275760-09-13T00:00:00Z" },
    );
    expect(search.body.errors![0]!.extensions?.code).toBe("BAD_USER_INPUT");
    expect(search.body.errors![0]!.message).toMatch(YEARS_MESSAGE);
    const key = await graphql(
      app,
      org.key,
      'mutation($at: DateTime) { createApiKey(input: { name: "far", expiresAt: $at }) { apiKey { id } } }',
      { at: "-000001-01-01T00:00:00Z" },
    );
    expect(key.body.errors![0]!.extensions?.code).toBe("BAD_USER_INPUT");
    expect(
      (await app.services.accounts.listApiKeys({ userId: org.userId })).map((k) => k.name),
    ).not.toContain("far");
  });

  it("still answers the first and the last instant it accepts", async () => {
    const earliest = await graphql(app, org.key, DELTA, { since: "0001-01-01T00:00:00Z" });
    expect(earliest.body.errors).toBeUndefined();
    expect(earliest.body.data).toEqual({ shipmentsUpdatedSince: { count: 1 } });
    const latest = await graphql(app, org.key, DELTA, { since: "9999-12-31T23:59:59.999Z" });
    expect(latest.body.errors).toBeUndefined();
    expect(latest.body.data).toEqual({ shipmentsUpdatedSince: { count: 0 } });
  });
});

describe("a NUL or undecodable percent-encoding on the compatibility API (item 7)", () => {
  it.each([
    ["/compat/tracking?number=MSCU%001234566", /query parameter number holds a NUL/],
    ["/compat/container?number=MSCU1234566&sealine=MS%00U", /query parameter sealine holds a NUL/],
    ["/compat/reference?number=%00&type=BL", /query parameter number holds a NUL/],
    ["/compat/route?number=MSCU1234566&type=C%00", /query parameter type holds a NUL/],
    ["/compat/history?number=MSCU1234566&type=CT&id=1%00", /query parameter id holds a NUL/],
    ["/compat/info/sealines?unknown=%00", /query parameter unknown holds a NUL/],
    ["/compat/tracking%00?number=MSCU1234566", /The path holds a NUL/],
    ["/compat/tracking%", /malformed percent-encoding/],
    ["/compat/container/%FF", /malformed percent-encoding/],
    ["/compat/info/%E0%A4%A", /malformed percent-encoding/],
  ])("%s is HTTP 200 WRONG_PARAMETERS with its detail and the rate headers", async (route, detail) => {
    const mark = app.logs.length;
    const res = await fetch(`${app.url}${route}`, { headers: { authorization: `Bearer ${org.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      status: "error",
      message: "WRONG_PARAMETERS",
      data: {},
      detail: expect.any(String),
    });
    expect(body.detail).toMatch(detail);
    // Refused before any key is read: the address's failed-authentication window, read not spent.
    expect(res.headers.get("x-ratelimit-limit")).toBe(String(app.services.config.authFailuresPerMinute));
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(app.services.config.authFailuresPerMinute));
    expectNothingLoggedAsError(mark);
  });

  it("answers the same with a key in the query, and keeps 405 for a non-GET verb", async () => {
    const inQuery = await fetch(`${app.url}/compat/tracking?number=%00&api_key=${org.key}`);
    expect(inQuery.status).toBe(200);
    expect(await inQuery.json()).toMatchObject({ status: "error", message: "WRONG_PARAMETERS" });
    const post = await fetch(`${app.url}/compat/tracking?number=%00`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
    expect(await post.json()).toMatchObject({
      status: "error",
      message: "WRONG_PARAMETERS",
      detail: "POST is not allowed; every operation of this API is a GET.",
    });
  });

  it("leaves v1 answering such a parameter with its own 400", async () => {
    const res = await fetch(`${app.url}/api/v1/shipments?customer=a%00b`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ data: { error: "invalid_parameter" } });
  });
});
