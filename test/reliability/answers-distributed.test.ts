import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSimulator } from "../../simulator/server";
import { type Database, openDatabase } from "../../src/db/database";
import { AccountsService } from "../../src/domain/accounts/accounts.service";
import { systemClock } from "../../src/lib/clock";
import { freshDatabaseTarget } from "../support/database";
import { simulatedContainers } from "../support/references";
import { redisServerPath, type StartedServer, startRedis } from "../support/servers";
import { type ServiceProcess, startService } from "./service-process";

/**
 * Issue 37 item 1 on several processes: two API processes (`quayside serve`) on one PostgreSQL and
 * one Redis keep their answers in Redis. An answer one process kept is served by the other, and a
 * write acknowledged by either is never followed by the answer before it, on either. PostgreSQL
 * pass only (QUAYSIDE_TEST_DB=postgres), like test/reliability/distributed.test.ts.
 */
const onPostgresPass = Boolean(inject("postgresUrl"));
const withRedis = Boolean(redisServerPath()) || Boolean(process.env.CI);

let redis: StartedServer;
let db: Database;
let api: [ServiceProcess, ServiceProcess];
let key: string;
let accounts: AccountsService;

function environment(databaseUrl: string, redisUrl: string) {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUAYSIDE_MIN_INSTANCES: "2",
    QUAYSIDE_WORKERS: "off",
    HOST: "127.0.0.1",
    PORT: "0",
    QUAYSIDE_LOG_LEVEL: "info",
    QUAYSIDE_SIMULATOR: "embedded",
    QUAYSIDE_SIMULATOR_PORT: "0",
    QUAYSIDE_DISRUPTION_FEEDS: "off",
    QUAYSIDE_CARRIER_ATTEMPTS: "1",
  };
}

async function v1(via: ServiceProcess, path: string, init: RequestInit = {}) {
  const res = await fetch(`${via.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function compatTrack(via: ServiceProcess, reference: string) {
  const query = new URLSearchParams({ api_key: key, number: reference, sealine: "MSCU" });
  return (await (await fetch(`${via.url}/compat/tracking?${query}`)).json()) as Record<string, any>;
}

async function answerHits(via: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${via.url}/metrics`)).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith('quayside_cache_lookups_total{cache="answer",result="hit"}'));
  return Number(line?.split(" ").at(-1) ?? 0);
}

describe.skipIf(!onPostgresPass || !withRedis)("kept answers across two processes sharing Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    const target = await freshDatabaseTarget();
    if (target.kind !== "postgres") throw new Error("the PostgreSQL pass gives a PostgreSQL database");
    const env = environment(target.url, redis.url);
    api = [await startService(env), await startService(env)];
    db = await openDatabase(target);
    accounts = new AccountsService(db.prisma, systemClock);
    const org = await accounts.createOrganization({
      name: "Two processes",
      plan: "professional",
      developerMode: true,
    });
    // No prediction worker runs here: with predictive ETA on, every read would compute one stamped
    // with the clock, which is never kept (src/lib/answer-scope.ts).
    await accounts.updateOrganization(org.id, { featureSwitches: { predictive_eta: false } });
    const user = await accounts.createUser({ organizationId: org.id, email: `owner-${org.id}@example.com` });
    key = (await accounts.createApiKey({ userId: user.id })).rawKey;
  }, 180_000);
  afterAll(async () => {
    for (const p of api ?? []) p.child.kill("SIGTERM");
    await Promise.all((api ?? []).map((p) => p.exited));
    await db?.close();
    await redis?.stop();
  });

  it("serves one process's kept answer from the other, and never an answer from before a write on either", async () => {
    const [a, b] = api;
    // Each process's embedded simulator is the same deterministic world: a box one knows, both know.
    const simulator = await startSimulator();
    const reference = (await simulatedContainers(simulator.url, "MSCU", "MSCU", { known: 1 })).known[0]!;
    await simulator.close();
    expect((await v1(a, `/api/v1/container/${reference}`)).status).toBe(200);

    // Kept by one, served by the other: the hit is counted where it is served.
    const first = await v1(a, `/api/v1/shipments/${reference}`);
    expect(first.status).toBe(200);
    await v1(a, `/api/v1/shipments/${reference}`);
    const hitsBefore = await answerHits(b);
    const fromB = await v1(b, `/api/v1/shipments/${reference}`);
    expect(fromB.body.data.reference_number).toBe(reference);
    const kept = (await answerHits(b)) > hitsBefore;
    // compat's stored answer too: kept by A, served by B. The first names the sealine the v1 track
    // detected (the shipment's carrier becomes provided: a write); the second is a read A keeps.
    expect((await compatTrack(a, reference)).data.metadata.from_cache).toBe(true);
    expect((await compatTrack(a, reference)).data.metadata.from_cache).toBe(true);
    const compatHitsBefore = await answerHits(b);
    expect((await compatTrack(b, reference)).data.metadata.number).toBe(reference);
    const compatKept = (await answerHits(b)) > compatHitsBefore;
    // The carrier asked again through B (a new sync instant: compat shows it to the second, and these
    // processes run on the real clock, hence the wait): A's compat answer shows that sync at once.
    const before = (await compatTrack(a, reference)).data.metadata.updated_at;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await v1(b, `/api/v1/container/${reference}`)).status).toBe(200);
    const synced = (await v1(b, `/api/v1/shipments/${reference}`)).body.data.last_synced_at as string;
    const after = (await compatTrack(a, reference)).data.metadata.updated_at;
    expect(after).toBe(new Date(synced).toISOString().slice(0, 19).replace("T", " "));
    expect(after).not.toBe(before);

    // A PATCH acknowledged by A; B answers with it at once.
    const patched = await v1(a, `/api/v1/shipments/${reference}`, {
      method: "PATCH",
      body: JSON.stringify({ customer: "Quay Traders" }),
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    for (const via of [b, a, b]) {
      expect((await v1(via, `/api/v1/shipments/${reference}`)).body.data.customers).toEqual(["Quay Traders"]);
      const list = (await v1(via, "/api/v1/shipments?pageSize=100")).body.data;
      const item = (list.items ?? list).find((s: any) => s.reference_number === reference);
      expect(item.customers).toEqual(["Quay Traders"]);
    }

    // A DELETE acknowledged by B; A no longer serves the shipment, nor lists it.
    expect((await v1(b, `/api/v1/shipments/${reference}`, { method: "DELETE" })).status).toBe(200);
    for (const via of [a, b]) {
      expect((await v1(via, `/api/v1/shipments/${reference}`)).status).toBe(404);
      const list = (await v1(via, "/api/v1/shipments?pageSize=100")).body.data;
      expect((list.items ?? list).some((s: any) => s.reference_number === reference)).toBe(false);
    }
    // Not vacuous: the answers kept by A were served by B before the writes.
    expect(kept).toBe(true);
    expect(compatKept).toBe(true);
  }, 120_000);
});
