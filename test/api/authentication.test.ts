import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { AccountsService } from "../../src/domain/accounts/accounts.service";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
let good: OrgWithKey;
let devModeOff: OrgWithKey;
let expired: OrgWithKey;
let revoked: OrgWithKey;

beforeAll(async () => {
  // ONE's endpoint configured (its registry entry needs no credentials) (nothing is tracked here): /info/sealines lists the lines a deployment
  // can reach.
  app = await startTestApp({
    env: {
      QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "1000",
      QUAYSIDE_CARRIER_ONEY_BASE_URL: "http://127.0.0.1:9/ONEY",
    },
  });
  good = await app.fixtures.organization();
  devModeOff = await app.fixtures.organization({ developerMode: false });
  // Short-lived, yet far enough ahead that a loaded machine still creates it before it expires.
  const expiresAt = new Date(Date.now() + 1_500);
  expired = await app.fixtures.organization({ expiresAt });
  revoked = await app.fixtures.organization();
  await app.services.accounts.revokeApiKey({ keyId: revoked.keyId });
  // Let the short-lived key expire.
  await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 100));
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
      expect(body.data.find((l) => l.scac_codes.includes("ONEY"))?.name).toMatch(/Ocean Network Express|ONE/);
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
      expect(body.data.carriers.map((c) => c.scac)).toContain("ONEY");
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

/**
 * A clock standing still in the middle of this minute: the failure window is a fixed minute, and on a
 * slow machine the real clock crossed its end between the third and the fourth unknown key.
 */
function midMinute(): ManualClock {
  return new ManualClock(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
}

describe("failed authentication per client address", () => {
  it("answers unknown keys 429 after the configured number, on every surface, and still serves a good key from that address", async () => {
    const strict = await startTestApp({
      env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "3" },
      clock: midMinute(),
    });
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
      const compatRefused = await fetch(`${strict.url}/compat/info/sealines?api_key=qs_wrongwrongwrongwrong`);
      expect((await compatRefused.json()).message).toBe("API_KEY_RATE_LIMIT");
      const graphqlRefused = await fetch(`${strict.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...bearer("qs_wrongwrongwrongwrong") },
        body: JSON.stringify({ query: "{ carriers { scac } }" }),
      });
      expect(graphqlRefused.status).toBe(429);

      // Only failures are throttled: a key that authenticates is served from the same address, and
      // its headers report its own window, not the address's.
      const served = await fetch(`${strict.url}/compat/info/sealines?api_key=${key}`);
      expect((await served.json()).status).toBe("success");
      expect(served.headers.get("x-ratelimit-limit")).toBe("120");
      expect((await fetch(`${strict.url}/api/v1/carriers`, { headers: bearer(key) })).status).toBe(200);
    } finally {
      await strict.stop();
    }
  });

  it("does not count a revoked or expired key, which is no guess, and keeps its own 401", async () => {
    const strict = await startTestApp({
      env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "2" },
      clock: midMinute(),
    });
    try {
      const gone = await strict.fixtures.organization();
      await strict.services.accounts.revokeApiKey({ keyId: gone.keyId });
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${strict.url}/api/v1/carriers`, { headers: bearer(gone.key) });
        expect(res.status).toBe(401);
        expect((await res.json()).data.error).toBe("api_key_revoked");
      }
      // The address's failure window is untouched: two unknown keys still get their 401.
      for (let i = 0; i < 2; i++) {
        expect(
          (await fetch(`${strict.url}/api/v1/carriers`, { headers: bearer("qs_wrongwrongwrongwrong") }))
            .status,
        ).toBe(401);
      }
    } finally {
      await strict.stop();
    }
  });
});

describe("authenticated keys cached for QUAYSIDE_KEY_CACHE_SECONDS (5 by default)", () => {
  const TTL = 5_000;
  const clock = new ManualClock("2026-03-02T10:00:00Z");
  let cached: TestApp;
  beforeAll(async () => {
    cached = await startTestApp({ clock, env: { QUAYSIDE_AUTH_FAILURES_PER_MINUTE: "1000" } });
  });
  afterAll(() => cached?.stop());

  const carriers = (key: string) =>
    fetch(`${cached.url}/api/v1/carriers`, { headers: bearer(key) }).then(async (res) => ({
      status: res.status,
      error: res.status === 200 ? undefined : ((await res.json()) as { data: { error: string } }).data.error,
      limit: res.headers.get("x-ratelimit-limit"),
    }));
  /** The SQL statements a call sends that read or write the key table. */
  async function keyStatements<T>(call: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const captured: string[] = [];
    cached.services.db.statements.capture = captured;
    try {
      const result = await call();
      return { result, statements: captured.filter((sql) => /"api_keys"/.test(sql)) };
    } finally {
      cached.services.db.statements.capture = null;
    }
  }

  const reads = (statements: string[]) => statements.filter((sql) => /^SELECT/i.test(sql));

  it("answers a repeat request without a SQL statement for the key", async () => {
    const org = await cached.fixtures.organization();
    const first = await keyStatements(() => carriers(org.key));
    expect(first.result.status).toBe(200);
    expect(reads(first.statements)).toHaveLength(1);
    const repeat = await keyStatements(() => carriers(org.key));
    expect(repeat.result.status).toBe(200);
    expect(reads(repeat.statements)).toEqual([]);
    expect(cached.services.accounts.cachedKeys).toBeGreaterThan(0);
  });

  it("refuses a key revoked through GraphQL on the very next request", async () => {
    const owner = await cached.fixtures.organization();
    const member = await cached.fixtures.teammate(owner.organizationId);
    expect((await carriers(member.key)).status).toBe(200);
    const revoked = await graphql(cached, owner.key, "mutation($id: ID!) { revokeApiKey(id: $id) { id } }", {
      id: member.keyId,
    });
    expect(revoked.body.errors).toBeUndefined();
    expect(await carriers(member.key)).toMatchObject({ status: 401, error: "api_key_revoked" });
    expect((await carriers(owner.key)).status).toBe(200);
  });

  it("refuses every key of the organisation at once when developer mode is switched off, and admits them at once when on", async () => {
    const owner = await cached.fixtures.organization();
    const member = await cached.fixtures.teammate(owner.organizationId);
    const other = await cached.fixtures.organization();
    for (const key of [owner.key, member.key, other.key]) expect((await carriers(key)).status).toBe(200);
    const mutation = "mutation($on: Boolean!) { setDeveloperMode(enabled: $on) { developerMode } }";
    await graphql(cached, owner.key, mutation, { on: false });
    expect(await carriers(member.key)).toMatchObject({ status: 403, error: "developer_mode_disabled" });
    const compat = await fetch(`${cached.url}/compat/info/sealines?api_key=${member.key}`);
    expect((await compat.json()).message).toBe("API_KEY_ACCESS_DENIED");
    expect((await carriers(other.key)).status).toBe(200);
    await graphql(cached, owner.key, mutation, { on: true });
    expect((await carriers(member.key)).status).toBe(200);
  });

  it("applies a plan change made through the accounts service on the next request", async () => {
    const org = await cached.fixtures.organization({ plan: "professional" });
    expect((await carriers(org.key)).limit).toBe("120");
    await cached.services.accounts.updateOrganization(org.organizationId, { plan: "free" });
    expect((await carriers(org.key)).limit).toBe("30");
  });

  it("lets a key revoked by another process work for at most the cache time", async () => {
    const org = await cached.fixtures.organization();
    expect((await carriers(org.key)).status).toBe(200);
    // `quayside keys revoke` runs as its own process: this one learns of it only from the database.
    await cached.services.db.prisma.apiKey.update({
      where: { id: org.keyId },
      data: { revokedAt: clock.now() },
    });
    expect((await carriers(org.key)).status).toBe(200);
    clock.advance(TTL - 1);
    expect((await carriers(org.key)).status).toBe(200);
    clock.advance(1);
    expect(await carriers(org.key)).toMatchObject({ status: 401, error: "api_key_revoked" });
  });

  it("reads a key in use again past half its cache time without making the request wait, and sees another process's revocation from then on", async () => {
    const org = await cached.fixtures.organization();
    expect((await carriers(org.key)).status).toBe(200);
    await cached.services.db.prisma.apiKey.update({
      where: { id: org.keyId },
      data: { revokedAt: clock.now() },
    });
    clock.advance(TTL / 2);
    // Answered from the cached row, within the documented bound, while one read of the key starts.
    expect((await carriers(org.key)).status).toBe(200);
    // The clock stands still: only that background read can bring the revocation in.
    await expect
      .poll(() => carriers(org.key), { timeout: 5_000, interval: 50 })
      .toMatchObject({ status: 401, error: "api_key_revoked" });
  });

  it("refuses at once a key revoked through this process after another process revoked it", async () => {
    const org = await cached.fixtures.organization();
    expect((await carriers(org.key)).status).toBe(200);
    await cached.services.db.prisma.apiKey.update({
      where: { id: org.keyId },
      data: { revokedAt: clock.now() },
    });
    await cached.services.accounts.revokeApiKey({ keyId: org.keyId });
    expect(await carriers(org.key)).toMatchObject({ status: 401, error: "api_key_revoked" });
  });

  it("refuses an expired key the moment it expires, while its row is still cached", async () => {
    const org = await cached.fixtures.organization({ expiresAt: new Date(clock.now().getTime() + 2_000) });
    expect((await carriers(org.key)).status).toBe(200);
    clock.advance(1_999);
    expect((await carriers(org.key)).status).toBe(200);
    clock.advance(1);
    const refused = await keyStatements(() => carriers(org.key));
    expect(refused.result).toMatchObject({ status: 401, error: "api_key_expired" });
    expect(reads(refused.statements)).toEqual([]); // answered from the cache, yet refused
  });

  it("still records the key's last use, at most once a minute, from a cached row too", async () => {
    const org = await cached.fixtures.organization();
    const lastUsed = () =>
      cached.services.db.prisma.apiKey
        .findUniqueOrThrow({ where: { id: org.keyId } })
        .then((k) => k.lastUsedAt?.getTime() ?? null);
    const start = clock.now().getTime();
    expect((await carriers(org.key)).status).toBe(200);
    await expect.poll(lastUsed).toBe(start);
    clock.advance(58_000); // the row is read again (and cached), last used 58 s ago: not written
    expect((await carriers(org.key)).status).toBe(200);
    clock.advance(3_000); // cached 3 s ago, last used 61 s ago: written
    expect((await carriers(org.key)).status).toBe(200);
    await expect.poll(lastUsed).toBe(start + 61_000);
    clock.advance(1_000); // and the cached row knows it: nothing to write, nothing to read
    const quiet = await keyStatements(() => carriers(org.key));
    expect(quiet.result.status).toBe(200);
    expect(quiet.statements).toEqual([]);
  });

  it("holds at most its bound of keys, dropping the oldest first", async () => {
    const accounts = new AccountsService(cached.services.db.prisma, clock, {
      keyCacheSeconds: 5,
      keyCacheMaxEntries: 3,
    });
    const owner = await cached.fixtures.organization();
    const keys = [owner.key];
    for (let i = 0; i < 4; i++) keys.push((await cached.fixtures.teammate(owner.organizationId)).key);
    for (const key of keys) {
      expect((await accounts.authenticate(key)).ok).toBe(true);
      expect(accounts.cachedKeys).toBeLessThanOrEqual(3);
    }
    expect(accounts.cachedKeys).toBe(3);
    // Reads only: the last-use writes of the keys just authenticated may still be on their way.
    const newest = await keyStatements(() => accounts.authenticate(keys[4]));
    expect(reads(newest.statements)).toEqual([]);
    const oldest = await keyStatements(() => accounts.authenticate(keys[0]));
    expect(oldest.result.ok).toBe(true);
    expect(reads(oldest.statements)).toHaveLength(1);
  });

  it("never holds an unknown key", async () => {
    const before = cached.services.accounts.cachedKeys;
    for (let i = 0; i < 5; i++) {
      expect(await carriers(`qs_neverIssuedKeyNumber${i}xxxxxxxxxxxxx`)).toMatchObject({ status: 401 });
    }
    expect(cached.services.accounts.cachedKeys).toBe(before);
  });

  it("is off with QUAYSIDE_KEY_CACHE_SECONDS=0, and refuses a value that is not a whole number >= 0", () => {
    expect(loadConfig({ QUAYSIDE_KEY_CACHE_SECONDS: "0" }).keyCacheSeconds).toBe(0);
    expect(loadConfig({}).keyCacheSeconds).toBe(5);
    for (const bad of ["-1", "1.5", "soon"]) {
      expect(() => loadConfig({ QUAYSIDE_KEY_CACHE_SECONDS: bad })).toThrow(/QUAYSIDE_KEY_CACHE_SECONDS/);
    }
  });
});
