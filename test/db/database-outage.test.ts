import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { type StartedPostgres, startPostgres } from "../support/servers";

/**
 * Issue 27 items 1 and 2: a PostgreSQL restart under load never kills the process, and while the
 * database is away every surface answers 503 with Retry-After in its own format, then 200 again as
 * soon as it is back. These need a PostgreSQL server of their own to restart and stop (not the
 * suite's shared one), so they run in the suite's PostgreSQL pass (QUAYSIDE_TEST_DB=postgres);
 * PGlite is in-process and has no outage to survive.
 */
const onPostgresPass = Boolean(inject("postgresUrl"));

const TRACKING_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_WORKERS: "off",
};
/** Clients abort a request after this long: a leaked pool would otherwise show as a 2-minute hang. */
const REQUEST_DEADLINE_MS = 15_000;

let pg: StartedPostgres;
let app: TestApp;
let known: string[];
/** Exceptions nothing caught: an unhandled 'error' event of a pooled connection lands here. */
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => void uncaught.push(error);

describe.runIf(onPostgresPass)("PostgreSQL restarts and outages", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    process.on("uncaughtException", recordUncaught);
    pg = await startPostgres();
    app = await startTestApp({ env: { DATABASE_URL: pg.url, ...TRACKING_ENV } });
    ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 16 }));
  });
  afterAll(async () => {
    await app?.stop();
    await pg?.stop();
    process.off("uncaughtException", recordUncaught);
  });

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });

  it("5 restarts while 16 clients track and read: the process lives, every answer is 200 or a 503 with Retry-After, then 200 again", async () => {
    // One organisation per client on the largest plan, so the clients' pace stays inside rate windows.
    const clients = await Promise.all(known.map(() => app.fixtures.organization({ plan: "custom" })));
    const answers: { status: number; retryAfter: string | null; error: unknown; sentAt: number }[] = [];
    const failures: string[] = [];
    let hammering = true;
    const hammer = async (org: OrgWithKey, container: string) => {
      for (let n = 0; hammering; n++) {
        const path = n % 2 === 0 ? `/api/v1/container/${container}` : "/api/v1/shipments";
        try {
          const sentAt = performance.now();
          const res = await get(path, org.key);
          const body = (await res.json()) as { data?: { error?: unknown } };
          answers.push({
            status: res.status,
            retryAfter: res.headers.get("retry-after"),
            error: res.status === 200 ? null : body.data?.error,
            sentAt,
          });
        } catch (error) {
          failures.push(`${path}: ${String(error)}`);
        }
        // About 8 requests a second per client: under the plan's 600 a minute over the test.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const load = clients.map((org, i) => hammer(org, known[i]!));

    // When each restart had returned (the server accepting connections again) and when the next began.
    const upWindows: { from: number; to: number }[] = [];
    let backAt: number | null = null;
    for (let restart = 0; restart < 5; restart++) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      if (backAt !== null) upWindows.push({ from: backAt, to: performance.now() });
      await pg.restart();
      backAt = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    upWindows.push({ from: backAt!, to: performance.now() });
    hammering = false;
    await Promise.all(load);

    expect(uncaught).toEqual([]);
    expect(failures).toEqual([]);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 503)).toBe(true);
    expect(refused.every((a) => a.retryAfter === "5" && a.error === "database_unavailable")).toBe(true);
    // Five restarts under this load always catch requests in flight; none would mean no restart happened.
    expect(refused.length).toBeGreaterThan(0);
    // "Then 200 again" after every restart, not only at the end: a request sent while the server was
    // back answered 200 before the next restart. (How many were refused depends on how long the
    // machine takes to restart PostgreSQL, so the share of 200s is no measure.)
    const recovered = upWindows.map((w) =>
      answers.some((a) => a.status === 200 && a.sentAt >= w.from && a.sentAt < w.to),
    );
    expect(recovered).toEqual(upWindows.map(() => true));

    // Recovered without a restart of the service, and no connection leaked: 16 requests at once on a
    // pool of 10 all answer.
    const after = await Promise.all(clients.map((org, i) => get(`/api/v1/container/${known[i]}`, org.key)));
    expect(after.map((res) => res.status)).toEqual(clients.map(() => 200));
    const shipments = await Promise.all(clients.map((org) => get("/api/v1/shipments", org.key)));
    expect(shipments.map((res) => res.status)).toEqual(clients.map(() => 200));
  });

  it("with PostgreSQL stopped, v1, compat, GraphQL and MCP answer 503 with Retry-After in their own formats, then 200 when it returns", async () => {
    // A key the service has just read (its cached row passes admission, the operation finds the
    // database gone) and one it has never seen (admission itself finds the database gone).
    const warm = await app.fixtures.organization({ plan: "custom" });
    const cold = await app.fixtures.organization({ plan: "custom" });
    const surfaces = (key: string) => ({
      v1: () => get("/api/v1/shipments", key),
      compat: () => fetch(`${app.url}/compat/tracking?api_key=${key}&number=${known[0]}&sealine=MSCU`),
      graphql: () =>
        fetch(`${app.url}/graphql`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ query: "{ shipments(pageSize: 5) { total } }" }),
        }),
      mcp: () =>
        fetch(`${app.url}/api/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 7,
            method: "tools/call",
            params: { name: "list_my_shipments", arguments: {} },
          }),
        }),
    });
    const up = surfaces(warm.key);
    for (const call of Object.values(up)) expect((await call()).status).toBe(200);

    await pg.halt();
    const logsBefore = app.logs.length;
    try {
      for (const key of [warm.key, cold.key]) {
        const calls = surfaces(key);
        const v1 = await calls.v1();
        expect(v1.status).toBe(503);
        expect(v1.headers.get("retry-after")).toBe("5");
        expect(await v1.json()).toEqual({
          success: false,
          statusCode: 503,
          statusMessage: "Service Unavailable",
          message: expect.stringMatching(/database is unavailable.*Retry in 5 seconds/),
          data: { error: "database_unavailable", retryAfter: 5 },
        });

        // The compat contract answers every operation with HTTP 200; the envelope says what happened.
        const compat = await calls.compat();
        expect(compat.status).toBe(200);
        expect(compat.headers.get("retry-after")).toBe("5");
        expect(await compat.json()).toEqual({
          status: "error",
          message: "UNEXPECTED_ERROR",
          data: {},
          detail: expect.stringMatching(/database is unavailable/),
        });

        const graphql = await calls.graphql();
        expect(graphql.status).toBe(503);
        expect(graphql.headers.get("retry-after")).toBe("5");
        const graphqlBody = (await graphql.json()) as {
          errors: { message: string; extensions: Record<string, unknown> }[];
        };
        expect(graphqlBody.errors).toHaveLength(1);
        expect(graphqlBody.errors[0]).toMatchObject({
          message: expect.stringMatching(/database is unavailable/),
          extensions: { code: "SERVICE_UNAVAILABLE", reason: "database_unavailable" },
        });

        const mcp = await calls.mcp();
        expect(mcp.status).toBe(503);
        expect(mcp.headers.get("retry-after")).toBe("5");
        expect(await mcp.json()).toEqual({
          jsonrpc: "2.0",
          id: key === warm.key ? 7 : null,
          error: {
            code: -32053,
            message: expect.stringMatching(/database is unavailable/),
            data: { error: "database_unavailable", retryAfter: 5 },
          },
        });
      }
      // An outage is a warning per request, never an error with a stack.
      const during = app.logs.slice(logsBefore);
      expect(during.filter((line) => (line.level as number) >= 50)).toEqual([]);
      const warnings = during.filter((line) => line.msg === "Database unavailable");
      expect(warnings.length).toBeGreaterThanOrEqual(6);
      expect(JSON.stringify(during)).not.toMatch(/"stack"|\n\s+at /);
    } finally {
      await pg.resume();
    }

    // Back at once: the same requests answer 200 without restarting the service.
    for (const key of [warm.key, cold.key]) {
      const calls = surfaces(key);
      for (const [surface, call] of Object.entries(calls)) {
        const res = await call();
        expect({ surface, status: res.status }).toEqual({ surface, status: 200 });
      }
    }
    expect(uncaught).toEqual([]);
  });
});

// Said out loud in the PGlite pass, rather than passing silently.
describe.runIf(!onPostgresPass)("PostgreSQL restarts and outages", () => {
  it.skip("run with QUAYSIDE_TEST_DB=postgres: they need a PostgreSQL server of their own to restart and stop", () => {});
});
