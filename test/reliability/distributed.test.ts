import { readdirSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSimulator } from "../../simulator/server";
import { type Database, openDatabase } from "../../src/db/database";
import { MIGRATIONS_DIR } from "../../src/db/migrate";
import { AccountsService } from "../../src/domain/accounts/accounts.service";
import type { PlanCode } from "../../src/generated/prisma/enums";
import { systemClock } from "../../src/lib/clock";
import { freshDatabaseTarget } from "../support/database";
import { startTimedReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";
import { redisServerPath, type StartedServer, startRedis } from "../support/servers";
import { DEMO_KEY, type ServiceProcess, startService } from "./service-process";

/**
 * Issue 27 item 7: the deployment of docs/deployment.md (section "Several processes") as real OS
 * processes: two API processes (`quayside serve`) started at the same moment on one fresh PostgreSQL
 * database and one redis-server, and a worker process (`QUAYSIDE_WORKERS=only`). Checked through the
 * public surfaces and the database: migrations raced safely, one demo organisation, exact rate
 * windows and slots across the two, every webhook delivery sent once per attempt and one at a time per
 * endpoint, every due refresh run once, every discovery and congestion scoring claimed once, and the
 * same answers from both. PostgreSQL pass only (QUAYSIDE_TEST_DB=postgres): PGlite is one process's
 * own database and cannot be shared. The steps run in order and build on each other (the refresh
 * check refreshes the slots check's shipments).
 */
const onPostgresPass = Boolean(inject("postgresUrl"));
// CI installs redis-server (.ci/run); only a developer machine without it skips.
const withRedis = Boolean(redisServerPath()) || Boolean(process.env.CI);

/**
 * docs/deployment.md's variables for every process (section "Several processes"), with loopback
 * values: one host, so HOST is loopback and PORT 0 picks a free port for each process.
 */
function deploymentEnvironment(databaseUrl: string, redisUrl: string, workers: "on" | "only") {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUAYSIDE_MIN_INSTANCES: "2",
    QUAYSIDE_WORKERS: workers,
    HOST: "127.0.0.1",
    PORT: "0",
    QUAYSIDE_PUBLIC_URL: "https://track.example.com",
    QUAYSIDE_TRUST_PROXY: "true",
    QUAYSIDE_KEEP_ALIVE_TIMEOUT_MS: "65000",
    QUAYSIDE_DEMO_KEY: DEMO_KEY,
    QUAYSIDE_LOG_LEVEL: "info",
    // Test-only differences from a production deployment: carriers are each process's embedded
    // simulator (a deterministic world, so every process sees the same carrier answers) on a port of
    // its own; webhooks go to a loopback receiver; workers look for work often, so all three compete.
    QUAYSIDE_SIMULATOR: "embedded",
    QUAYSIDE_SIMULATOR_PORT: "0",
    QUAYSIDE_DISRUPTION_FEEDS: "off",
    QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    QUAYSIDE_WORKER_INTERVAL_MS: "200",
    QUAYSIDE_WEBHOOK_INTERVAL_MS: "100",
    QUAYSIDE_CARRIER_ATTEMPTS: "1",
  };
}

let redis: StartedServer;
/** The free-plan organisation of the slots check, whose 25 shipments the refresh check makes due. */
let freeOrganisation: string;
let sql: pg.Client;
let db: Database;
let accounts: AccountsService;
let api: [ServiceProcess, ServiceProcess];
let worker: ServiceProcess;
const processes: ServiceProcess[] = [];

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** An organisation with one user and `keys` keys, made beside the running services (as the CLI does). */
async function organisation(plan: PlanCode, keys = 1): Promise<{ id: string; keys: string[] }> {
  const org = await accounts.createOrganization({
    name: `${plan} ${Math.random().toString(36).slice(2, 8)}`,
    plan,
    developerMode: true,
  });
  const user = await accounts.createUser({ organizationId: org.id, email: `owner-${org.id}@example.com` });
  const made: string[] = [];
  for (let k = 0; k < keys; k++) made.push((await accounts.createApiKey({ userId: user.id })).rawKey);
  return { id: org.id, keys: made };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function graphql(via: ServiceProcess, key: string, query: string, variables: object = {}) {
  const res = await fetch(`${via.url}/graphql`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: Record<string, unknown>; errors?: unknown },
  };
}

/**
 * Every completed scoring of a port (its `last_scored_at` written) from now on, recorded by a trigger
 * of the test's own. The processes may have scored some ports already: those are made due again in
 * the same transaction (the trigger's lock waits for scorings in flight, which are not made due
 * again), so from here on every watched port should be scored exactly once.
 */
async function auditCongestionScoring(): Promise<void> {
  await sql.query("BEGIN");
  await sql.query(
    `CREATE TABLE test_scorings (locode text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  );
  await sql.query(`CREATE FUNCTION test_record_scoring() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_scorings (locode) VALUES (NEW.locode); RETURN NEW; END $$`);
  await sql.query(`CREATE TRIGGER test_scoring AFTER UPDATE ON port_congestion_schedule FOR EACH ROW
    WHEN (NEW.last_scored_at IS DISTINCT FROM OLD.last_scored_at) EXECUTE FUNCTION test_record_scoring()`);
  await sql.query(
    `UPDATE port_congestion_schedule SET next_score_at = now() WHERE last_scored_at IS NOT NULL`,
  );
  await sql.query("COMMIT");
}

describe.runIf(onPostgresPass && withRedis)(
  "distributed mode: two API processes and a worker process",
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      const target = await freshDatabaseTarget();
      if (target.kind !== "postgres") throw new Error("the PostgreSQL pass gives a PostgreSQL database");
      redis = await startRedis();
      // Both API processes at the same moment on the empty database: their migrations race.
      api = (await Promise.all([
        startService(deploymentEnvironment(target.url, redis.url, "on")),
        startService(deploymentEnvironment(target.url, redis.url, "on")),
      ])) as [ServiceProcess, ServiceProcess];
      processes.push(...api);
      worker = await startService(deploymentEnvironment(target.url, redis.url, "only"));
      processes.push(worker);
      sql = new pg.Client({ connectionString: target.url });
      await sql.connect();
      db = await openDatabase(target);
      accounts = new AccountsService(db.prisma, systemClock);
      await auditCongestionScoring();
    }, 180_000);

    afterAll(async () => {
      for (const p of processes) p.child.kill("SIGKILL");
      await Promise.all(processes.map((p) => p.exited));
      await sql?.end();
      await db?.close();
      await redis?.stop();
    });

    it("started together on an empty database: each migration applied once, one demo organisation, every process ready", async () => {
      const { rows: migrations } = await sql.query<{ migration_name: string; n: string; unfinished: string }>(
        `SELECT migration_name, count(*) AS n, count(*) FILTER (WHERE finished_at IS NULL) AS unfinished
         FROM _prisma_migrations GROUP BY migration_name`,
      );
      const committed = readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory());
      expect(migrations).toHaveLength(committed.length);
      expect(migrations.filter((m) => m.n !== "1" || m.unfinished !== "0")).toEqual([]);
      // One of the two applied them all; the other waited on the lock and found nothing to do.
      const applied = api.map((p) => p.logs().filter((l) => l.msg === "Database migrations applied").length);
      expect(applied.sort()).toEqual([0, 1]);
      const { rows: demos } = await sql.query(`SELECT id FROM organizations WHERE name = 'Demo'`);
      expect(demos).toHaveLength(1);

      for (const p of api) {
        expect(await (await fetch(`${p.url}/healthz`)).json()).toEqual({ status: "ok" });
        // Both API processes count each other in Redis; the worker process is not counted.
        await until(
          async () =>
            ((await (await fetch(`${p.url}/readyz`)).json()) as { instances?: number }).instances === 2,
          "both API processes to be seen in Redis",
        );
        const ready = await fetch(`${p.url}/readyz`);
        expect({ status: ready.status, body: await ready.json() }).toEqual({
          status: 200,
          body: { status: "ready", database: "postgres", counters: "shared", instances: 2 },
        });
      }
      const workerReady = await fetch(`${worker.url}/readyz`);
      expect(workerReady.status).toBe(200);
      expect(await workerReady.json()).toMatchObject({
        status: "ready",
        database: "postgres",
        counters: "shared",
      });
      expect(await (await fetch(`${worker.url}/metrics`)).text()).toMatch(/^quayside_http_requests_total/m);
      // The worker process serves no API.
      const refused = await fetch(`${worker.url}/api/v1/shipments`, { headers: bearer(DEMO_KEY) });
      expect(refused.status).toBe(404);
      expect(JSON.stringify(await refused.json())).toContain("QUAYSIDE_WORKERS=only");
      // The demo key works on both API processes.
      for (const p of api)
        expect((await fetch(`${p.url}/api/v1/carriers`, { headers: bearer(DEMO_KEY) })).status).toBe(200);
    });

    it("one key's minute window is exact across both processes and every surface: 120 of 140 pass", async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        // A burst inside one window: started early in a minute, checked by every answer's reset.
        while (new Date().getUTCSeconds() > 35) await new Promise((resolve) => setTimeout(resolve, 500));
        const {
          keys: [key],
        } = await organisation("professional");
        const answers = await Promise.all(
          Array.from({ length: 140 }, async (_, i) => {
            const via = api[i % 2]!;
            const surface = Math.floor(i / 2) % 3;
            const res =
              surface === 0
                ? await fetch(`${via.url}/api/v1/carriers?search=maersk`, { headers: bearer(key!) })
                : surface === 1
                  ? await fetch(`${via.url}/compat/info/sealines?api_key=${key}`)
                  : await fetch(`${via.url}/graphql`, {
                      method: "POST",
                      headers: { ...bearer(key!), "content-type": "application/json" },
                      body: JSON.stringify({ query: "{ viewer { organization { name } } }" }),
                    });
            await res.arrayBuffer();
            return { status: res.status, reset: res.headers.get("x-ratelimit-reset") };
          }),
        );
        if (new Set(answers.map((a) => a.reset)).size > 1) continue; // straddled a minute: once more
        expect(answers.filter((a) => a.status === 200)).toHaveLength(120);
        expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
        return;
      }
      throw new Error("two bursts in a row straddled a minute boundary");
    });

    it("slots are exact across both processes: 25 of 28 new containers tracked on the free plan, the rest refused", async () => {
      const simulator = await startSimulator();
      const { known } = await simulatedContainers(simulator.url, "MSCU", "MSCU", {
        known: 28,
        start: 300_000,
      });
      await simulator.close();
      const tracker = await organisation("free", 2);
      freeOrganisation = tracker.id;
      const [trackKey, readKey] = tracker.keys;
      const answers = await Promise.all(
        known.map(async (number, i) => {
          const res = await fetch(`${api[i % 2]!.url}/api/v1/container/${number}?sealine=MSCU`, {
            headers: bearer(trackKey!),
          });
          return { status: res.status, body: (await res.json()) as { data: { error?: string } } };
        }),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused.map((a) => [a.status, a.body.data.error])).toEqual(
        Array(3).fill([402, "shipment_limit_reached"]),
      );

      // The same answers from both: the list, each shipment, and the compat tracking of each.
      const list = await Promise.all(
        api.map(async (p) =>
          (await fetch(`${p.url}/api/v1/shipments?pageSize=100`, { headers: bearer(readKey!) })).json(),
        ),
      );
      expect(list[0]).toEqual(list[1]);
      const ids = (list[0] as { data: { name: string }[] }).data.map((s) => s.name);
      expect(ids).toHaveLength(25);
      for (const id of ids.slice(0, 5)) {
        const [a, b] = await Promise.all(
          api.map(async (p) =>
            (await fetch(`${p.url}/api/v1/shipments/${id}`, { headers: bearer(readKey!) })).json(),
          ),
        );
        expect(a).toEqual(b);
      }
      const query = "{ shipments(pageSize: 100) { total items { id status eta carrier { scac } } } }";
      const [ga, gb] = await Promise.all([
        graphql(api[0], readKey!, query),
        graphql(api[1], readKey!, query),
      ]);
      expect(ga.body.errors).toBeUndefined();
      expect(ga.body).toEqual(gb.body);
    });
    it("every due refresh runs once across the three processes", async () => {
      const due = await sql.query(
        `UPDATE shipments SET next_refresh_at = now() - interval '1 minute'
        WHERE organization_id = $1 AND deleted_at IS NULL RETURNING reference_key`,
        [freeOrganisation],
      );
      expect(due.rowCount).toBe(25);
      const refreshes = async () =>
        (
          await sql.query<{ reference_key: string; n: string }>(
            `SELECT reference_key, count(*) AS n FROM tracking_lookups
            WHERE organization_id = $1 AND surface = 'job' GROUP BY reference_key`,
            [freeOrganisation],
          )
        ).rows;
      await until(async () => (await refreshes()).length === 25, "every due shipment to be refreshed");
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a second run would show here
      const runs = await refreshes();
      expect(runs.filter((r) => r.n !== "1")).toEqual([]);
      expect(runs.map((r) => r.reference_key).sort()).toEqual(due.rows.map((r) => r.reference_key).sort());
      const { rows: stillDue } = await sql.query(
        `SELECT id FROM shipments WHERE organization_id = $1 AND next_refresh_at <= now()`,
        [freeOrganisation],
      );
      expect(stillDue).toEqual([]);
    });

    it("webhook deliveries are sent once per attempt, one at a time per endpoint, and each discovery is claimed once", async () => {
      const simulator = await startSimulator();
      const { known: maerskBoxes } = await simulatedContainers(simulator.url, "MAEU", "MSKU", {
        known: 6,
        start: 900_000,
      });
      await simulator.close();
      const receiver = await startTimedReceiver(() => 60);
      try {
        const {
          id: org,
          keys: [key],
        } = await organisation("professional");
        const endpoints: string[] = [];
        for (let e = 0; e < 4; e++) {
          const made = await graphql(
            api[e % 2]!,
            key!,
            "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
            { input: { url: receiver.url(`/endpoint-${e}`), events: ["*"] } },
          );
          endpoints.push((made.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id);
        }
        // Maersk's boxes asked of MSC: 404, and discovery queued for the workers of all three processes.
        const lookups = await Promise.all(
          maerskBoxes.map(async (number, i) => {
            const res = await fetch(`${api[i % 2]!.url}/api/v1/container/${number}?sealine=MSCU`, {
              headers: bearer(key!),
            });
            return { status: res.status, body: (await res.json()) as { data: { discovery?: string } } };
          }),
        );
        expect(lookups.map((l) => [l.status, l.body.data.discovery])).toEqual(Array(6).fill([404, "queued"]));
        // Test deliveries through both processes, every endpoint at once.
        await Promise.all(
          endpoints.map(async (id, e) => {
            for (let n = 0; n < 15; n++) {
              const sent = await graphql(
                api[(n + e) % 2]!,
                key!,
                "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }",
                {
                  id,
                },
              );
              expect(sent.body.errors).toBeUndefined();
            }
          }),
        );

        // 60 test deliveries and discovery.recovered for 6 shipments to each of 4 endpoints.
        const total = 60 + 6 * 4;
        const deliveries = async () =>
          (
            await sql.query<{
              id: string;
              endpoint_id: string;
              event: string;
              status: string;
              attempts: number;
              logged: string;
            }>(
              `SELECT d.id, d.endpoint_id, d.event, d.status, d.attempts,
                    (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged
               FROM webhook_deliveries d WHERE d.organization_id = $1 ORDER BY d.seq`,
              [org],
            )
          ).rows;
        await until(
          async () => {
            const rows = await deliveries();
            return rows.length === total && rows.every((d) => d.status === "delivered");
          },
          "every delivery to be delivered",
          90_000,
        );
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // a late duplicate would show here

        const rows = await deliveries();
        expect(rows.filter((d) => d.attempts !== 1 || d.logged !== "1")).toEqual([]);
        const arrived = receiver.arrivals.map((a) => a.deliveryId);
        expect(arrived).toHaveLength(total); // none sent twice
        expect(new Set(arrived)).toEqual(new Set(rows.map((d) => d.id)));
        for (let e = 0; e < 4; e++) {
          expect(receiver.mostOpen.get(`/endpoint-${e}`)).toBe(1);
          // In the order of the changes, whichever process sent each.
          expect(
            receiver.arrivals.filter((a) => a.path === `/endpoint-${e}`).map((a) => a.deliveryId),
          ).toEqual(rows.filter((d) => d.endpoint_id === endpoints[e]).map((d) => d.id));
        }
        expect(rows.filter((d) => d.event === "discovery.recovered")).toHaveLength(6 * 4);

        // Each discovery ran once: every shipment recovered, each carrier asked once per box by a job.
        const { rows: shipments } = await sql.query(
          `SELECT discovery_status, carrier_scac FROM shipments WHERE organization_id = $1`,
          [org],
        );
        expect(shipments).toEqual(Array(6).fill({ discovery_status: "recovered", carrier_scac: "MAEU" }));
        const { rows: asked } = await sql.query<{ reference_key: string; carrier_scac: string; n: string }>(
          `SELECT reference_key, carrier_scac, count(*) AS n FROM tracking_lookups
          WHERE organization_id = $1 AND surface = 'job' GROUP BY reference_key, carrier_scac`,
          [org],
        );
        expect(asked.filter((a) => a.n !== "1")).toEqual([]);
        expect(asked.filter((a) => a.carrier_scac === "MAEU")).toHaveLength(6);
      } finally {
        await receiver.close();
      }
    });

    it("every watched port's congestion scoring is claimed once, and both processes answer the same board", async () => {
      const watched = async () =>
        Number(
          (await sql.query<{ n: string }>(`SELECT count(*) AS n FROM port_congestion_schedule`)).rows[0]!.n,
        );
      const scorings = async () =>
        (
          await sql.query<{ locode: string; n: string }>(
            `SELECT locode, count(*) AS n FROM test_scorings GROUP BY locode`,
          )
        ).rows;
      await until(
        async () => {
          // The watched ports are written in one statement: once there are any, there are all.
          const ports = await watched();
          return ports > 0 && (await scorings()).length === ports;
        },
        "every watched port to be scored",
        90_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a second scoring would show here
      expect((await scorings()).filter((s) => s.n !== "1")).toEqual([]);

      const [a, b] = await Promise.all(
        api.map(async (p) => {
          const res = await fetch(`${p.url}/api/v1/ports/congestion`, { headers: bearer(DEMO_KEY) });
          return { status: res.status, body: await res.json() };
        }),
      );
      expect(a!.status).toBe(200);
      expect(a).toEqual(b);
    });
  },
);
