import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
let good: OrgWithKey;
let devModeOff: OrgWithKey;
let expired: OrgWithKey;
let revoked: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "1000" } });
  good = await app.fixtures.organization();
  devModeOff = await app.fixtures.organization({ developerMode: false });
  expired = await app.fixtures.organization({ expiresAt: new Date(Date.now() + 300) });
  revoked = await app.fixtures.organization();
  await app.services.accounts.revokeApiKey({ keyId: revoked.keyId });
  await new Promise((r) => setTimeout(r, 400)); // let the short-lived key expire
});
afterAll(() => app?.stop());

const v1 = (headers: Record<string, string> = {}, query = "") =>
  fetch(`${app.url}/api/v1/carriers${query}`, { headers });
const compat = (headers: Record<string, string> = {}, query = "") =>
  fetch(`${app.url}/compat/info/sealines${query}`, { headers });
const gql = (headers: Record<string, string> = {}) =>
  fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query: "{ carriers { scac } }" }),
  });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("v1 API", () => {
  it("accepts the key as a Bearer token and as X-API-KEY", async () => {
    for (const headers of [bearer(good.key), { "x-api-key": good.key }]) {
      const res = await v1(headers);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; total: number };
      expect(body.success).toBe(true);
      expect(body.total).toBeGreaterThanOrEqual(25);
    }
  });

  it("ignores the api_key query parameter, which only the compatibility API accepts", async () => {
    const res = await v1({}, `?api_key=${good.key}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, data: { error: "missing_api_key" } });
  });

  it.each([
    ["a missing key", () => ({}), 401, "missing_api_key"],
    ["a wrong key", () => bearer("qs_thisKeyWasNeverIssuedToAnyone"), 401, "invalid_api_key"],
    ["a malformed key", () => bearer("not a key at all"), 401, "invalid_api_key"],
    ["an expired key", () => bearer(expired.key), 401, "api_key_expired"],
    ["a revoked key", () => bearer(revoked.key), 401, "api_key_revoked"],
    ["developer mode off", () => bearer(devModeOff.key), 403, "developer_mode_disabled"],
  ])("refuses %s with the spec's error body", async (_label, headers, status, error) => {
    const res = await v1(headers());
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, statusCode: status, data: { error } });
    expect(typeof body.statusMessage).toBe("string");
    expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules|prisma/i);
  });
});

describe("compatibility API", () => {
  it("accepts api_key, X-API-KEY and Bearer", async () => {
    for (const [headers, query] of [
      [{}, `?api_key=${good.key}`],
      [{ "x-api-key": good.key }, ""],
      [bearer(good.key), ""],
    ] as const) {
      const res = await compat(headers, query);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        status: string;
        message: string;
        data: { name: string; scac_codes: string[] }[];
      };
      expect(body).toMatchObject({ status: "success", message: "OK" });
      expect(body.data.find((l) => l.scac_codes.includes("MAEU"))?.name).toMatch(/Maersk/);
    }
  });

  it.each([
    ["a missing key", () => "", "API_KEY_WRONG"],
    ["a wrong key", () => "?api_key=qs_thisKeyWasNeverIssuedToAnyone", "API_KEY_WRONG"],
    ["a revoked key", () => `?api_key=${revoked.key}`, "API_KEY_WRONG"],
    ["an expired key", () => `?api_key=${expired.key}`, "API_KEY_EXPIRED"],
    ["developer mode off", () => `?api_key=${devModeOff.key}`, "API_KEY_ACCESS_DENIED"],
  ])("refuses %s with HTTP 200 and an API_KEY_* message", async (_label, query, message) => {
    const res = await compat({}, query());
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "error", message });
    expect(typeof body.detail).toBe("string");
    expect(body.detail.length).toBeGreaterThan(10);
  });

  it("sends Retry-After 3600 on API_KEY_EXPIRED", async () => {
    const res = await compat({}, `?api_key=${expired.key}`);
    expect(res.headers.get("retry-after")).toBe("3600");
  });

  it("answers 405 to any verb but GET, before looking at the key", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await fetch(`${app.url}/compat/tracking?api_key=${good.key}`, { method });
      expect(res.status).toBe(405);
      expect((await res.json()).status).toBe("error");
    }
  });
});

describe("GraphQL", () => {
  it("accepts Bearer and X-API-KEY", async () => {
    for (const headers of [bearer(good.key), { "x-api-key": good.key }]) {
      const res = await gql(headers);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { carriers: { scac: string }[] } };
      expect(body.data.carriers.map((c) => c.scac)).toContain("MSCU");
    }
  });

  it.each([
    ["a missing key", () => ({}), 401, "missing_api_key"],
    ["a wrong key", () => bearer("qs_thisKeyWasNeverIssuedToAnyone"), 401, "invalid_api_key"],
    ["an expired key", () => bearer(expired.key), 401, "api_key_expired"],
    ["a revoked key", () => bearer(revoked.key), 401, "api_key_revoked"],
  ])("refuses %s with UNAUTHENTICATED", async (_label, headers, status, reason) => {
    const res = await gql(headers());
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.errors[0].extensions).toEqual({ code: "UNAUTHENTICATED", reason });
  });

  it("with developer mode off, answers viewer but refuses data fields with DEVELOPER_MODE_DISABLED", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(devModeOff.key) },
      body: JSON.stringify({ query: "{ viewer { organization { developerMode } } carriers { scac } }" }),
    });
    const body = await res.json();
    expect(body.data?.viewer.organization.developerMode ?? null).toBe(false);
    expect(body.errors[0].extensions.code).toBe("DEVELOPER_MODE_DISABLED");
    expect(body.errors[0].path).toEqual(["carriers"]);
  });
});

describe("failed authentication per client address", () => {
  it("is rate-limited, on every surface, after the configured number of failures", async () => {
    const strict = await startTestApp({ env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "3" } });
    try {
      const key = (await strict.fixtures.organization()).key;
      for (let i = 0; i < 3; i++) {
        expect(
          (await fetch(`${strict.url}/api/v1/carriers`, { headers: bearer("qs_wrongwrongwrongwrong") }))
            .status,
        ).toBe(401);
      }
      const v1Refused = await fetch(`${strict.url}/api/v1/carriers`, {
        headers: bearer("qs_wrongwrongwrongwrong"),
      });
      expect(v1Refused.status).toBe(429);
      expect((await v1Refused.json()).data.error).toBe("too_many_failed_authentications");
      expect(Number(v1Refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // Even a good key from that address waits: a guesser must not learn which key works.
      const compatRefused = await fetch(`${strict.url}/compat/info/sealines?api_key=${key}`);
      expect((await compatRefused.json()).message).toBe("API_KEY_RATE_LIMIT");
    } finally {
      await strict.stop();
    }
  });
});
