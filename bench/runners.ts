import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { nextRefreshAt } from "../src/domain/tracking/shipment-facts";
import { DCSA_TNT_DEFAULTS } from "../src/upstream/carriers/dcsa-tnt.adapter";
import { containerNumber, simulatedContainers } from "../test/support/references";
import { freePort } from "../test/support/servers";
import { SCENARIO_HEADER } from "./baselines/config";
import { currentNode, type NodeBinary } from "./node-binaries";
import type { OpenLoopConfig, OpenLoopRequest, OpenLoopRun } from "./open-loop";
import type { Supervisor } from "./processes";
import { median } from "./results";
import { SCENARIOS, type Scenario, withFacts } from "./scenarios";
import { generateKeys, type SeedOutcome, seedDatabase } from "./seed";
import { seedBulkShipments } from "./shipments-seed";
import { type RunningSimulatorProcess, serviceCarrierEnv, setCarrierLatency } from "./simulator";
import { type StartedTarget, startService } from "./targets";
import { processCpuMs, runWrk, untilQuiet, writeScenarioScript } from "./wrk";

export { RUNNER_IDS } from "./scenarios";

/**
 * The scenarios of issue 11 that are not HTTP throughput: bulk /track latency against a slow carrier,
 * webhook fan-out, refresh scheduling, and scale (read, list and delta at two sizes). Each runs on
 * PostgreSQL in a database of its own (created on the harness's server), against a service process
 * of its own, pinned like the measured targets, after those are stopped; each result carries its
 * same-run baseline where one makes sense.
 */

export interface BulkTrackResult {
  references: number;
  carrierLatencyMs: number;
  requests: number;
  /** End-to-end time of each POST /api/v1/track of 50 references, in order. */
  secondsPerRequest: number[];
  medianSeconds: number;
  maxSeconds: number;
  itemsOk: number;
  itemsFailed: number;
  /** The service's per-carrier concurrency (DCSA adapter default), which bounds the time from below. */
  carrierConcurrency: number;
  /** 50 calls / concurrency x latency: the floor at that concurrency. */
  floorSeconds: number;
  /** Same run: the 50 DCSA calls made straight to the simulator from a bare loop, 4 at a time and all at once. */
  /** The same calls from a bare loop: at the service's per-carrier concurrency, and all at once. */
  baselineSeconds: { atConcurrency: number; unbounded: number };
  target: { belowSeconds: number; status: "met" | "missed" };
}

export interface FanoutResult {
  events: number;
  endpoints: number;
  seconds: number;
  deliveriesPerSecond: number;
  /** Same run: a bare loop posting the same bodies to the same receiver, one chain per endpoint. */
  baselineSeconds: number;
  baselineDeliveriesPerSecond: number;
  ratio: number;
  workerIntervalMs: number;
}

export interface RefreshResult {
  /** The schedule the product computes (nextRefreshAt) for N active shipments: jobs per minute. */
  schedule: {
    shipments: number;
    cases: {
      name: string;
      meanPerMinute: number;
      peakPerMinute: number;
      peakToMean: number;
      spanMinutes: number;
    }[];
  };
  /** The refresh worker draining due jobs against the simulator (0 ms), beside N not-due shipments. */
  drain: {
    activeShipments: number;
    dueJobs: number;
    seconds: number;
    jobsPerMinuteMean: number;
    /** Best 5-second window, scaled to a minute. */
    jobsPerMinutePeak: number;
    completed: number;
    workerIntervalMs: number;
    batch: number;
  };
}

export interface ScaleRow {
  shipments: number;
  seedSeconds: number;
  endpoints: Record<string, { rps: number; p50Ms: number; p99Ms: number; meanMs: number; non2xx: number }>;
}

export interface ScaleResult {
  connections: number;
  seconds: number;
  rows: ScaleRow[];
  /** Growth of each endpoint's p50 from the first size to the last (0.1 = 10% slower). */
  growth: Record<string, { p50: number; p99: number; status: "met" | "missed" }>;
}

export interface OpenLoopRow extends Omit<OpenLoopRun, "samples"> {
  /** Achieved at least 95% of the offered rate with no error and no refusal. */
  sustained: boolean;
  /** CPU the service used during the run, as a share of one core (1 = its core was saturated). */
  serverCpuShare: number | undefined;
  /** Sampled 2xx answers the scenario's own check refused (a success envelope missing), of those checked. */
  samplesChecked: number;
  samplesRefused: string[];
}

export interface OpenLoopResult {
  offeredRps: number;
  seconds: number;
  warmupSeconds: number;
  maxSockets: number;
  timeoutMs: number;
  shipments: number;
  /** By scenario id. */
  rows: Record<string, OpenLoopRow>;
  target: { scenario: string; belowMs: number; p99Ms: number; status: "met" | "missed" };
}

export interface NodeVersionRow {
  /** The major asked for, or "current" (the harness's own Node). */
  node: string;
  version: string;
  /** Closed loop at the rounds' connections (wrk), as the rounds measure. */
  closed: {
    connections: number;
    rps: number;
    p50Ms: number;
    p99Ms: number;
    non2xx: number;
    cpuUsPerRequest: number | undefined;
  };
  /** Open loop at the offered rate. */
  open: OpenLoopRow;
}

export interface NodeVersionsResult {
  scenario: string;
  seconds: number;
  shipments: number;
  rows: NodeVersionRow[];
}

export interface RunnerResults {
  bulkTrack?: BulkTrackResult;
  webhookFanout?: FanoutResult;
  refreshScheduling?: RefreshResult;
  scale?: ScaleResult;
  openLoop?: OpenLoopResult;
  nodeVersions?: NodeVersionsResult;
  warnings: string[];
}

interface RunnerContext {
  runners: readonly string[];
  supervisor: Supervisor;
  simulator: RunningSimulatorProcess;
  postgresUrl: string;
  serverCpus: string;
  loadCpus: string;
  repoRoot: string;
  tempDir: string;
  smoke: boolean;
  scaleSizes: number[];
  /** Shipments seeded for the open-loop and node-versions runners. */
  shipments: number;
  /** Offered rate of the open-loop runs. */
  openLoopRate: number;
  /** wrk connections of the rounds (the node-versions runner's closed loop uses the same). */
  connections: number;
  /** Node binaries the node-versions runner runs the service under, beside the harness's own. */
  nodeBinaries: NodeBinary[];
  log: (message: string) => void;
  /** Where each runner's service writes a V8 CPU profile when stopped (--cpu-prof), if asked. */
  cpuProfDir?: string;
}

const RUNNER_KEYS = 50;

async function createDatabase(baseUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function prepare(
  ctx: RunnerContext,
  name: string,
  shipments?: number,
  keyCount = RUNNER_KEYS,
): Promise<{ url: string; keys: string[]; seed: SeedOutcome }> {
  const url = await createDatabase(ctx.postgresUrl, `bench_${name.replace(/\W/g, "_")}_${process.pid}`);
  const keys = generateKeys(keyCount);
  const seed = await seedDatabase({
    target: { kind: "postgres", url },
    mode: "postgres",
    rawKeys: keys,
    runTag: `${name}-${process.pid}`,
    scenarios: [],
    shipments: shipments
      ? { count: shipments, simulatorUrl: ctx.simulator.url, registryFile: ctx.simulator.registryFile }
      : undefined,
  });
  return { url, keys, seed };
}

async function service(
  ctx: RunnerContext,
  name: string,
  url: string,
  env: Record<string, string>,
  nodeBinary?: string,
) {
  return startService(ctx.supervisor, {
    nodeBinary,
    id: `quayside-${name}`,
    mode: "postgres",
    port: await freePort(),
    database: { kind: "postgres", url },
    cpus: ctx.serverCpus,
    repoRoot: ctx.repoRoot,
    env: { ...serviceCarrierEnv(ctx.simulator), ...env },
    cpuProfDir: ctx.cpuProfDir && path.join(ctx.cpuProfDir, name),
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, (performance.now() - started) / 1000];
}

async function pool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

// ---------------------------------------------------------------------------------------------

const BULK_SIZE = 50;
const BULK_LATENCY_MS = 200;
/** What the service runs with: QUAYSIDE_CARRIER_CONCURRENCY is not set for it. */
const CARRIER_CONCURRENCY = DCSA_TNT_DEFAULTS.maxConcurrency;

async function bulkTrack(ctx: RunnerContext): Promise<BulkTrackResult> {
  const requests = ctx.smoke ? 1 : 5;
  const { url, keys } = await prepare(ctx, "bulk");
  // Fresh references for every request: none is stored, so every item is a carrier call.
  const { known } = await simulatedContainers(ctx.simulator.url, "MSCU", "MSCU", {
    known: BULK_SIZE * requests,
    start: 300_000,
  });
  if (known.length < BULK_SIZE * requests) {
    throw new Error(
      `the simulator knows only ${known.length} of the ${BULK_SIZE * requests} references needed`,
    );
  }
  const target = await service(ctx, "bulk", url, { QUAYSIDE_WORKERS: "off" });
  const secondsPerRequest: number[] = [];
  let itemsOk = 0;
  let itemsFailed = 0;
  let baseline = { atConcurrency: Number.NaN, unbounded: Number.NaN };
  await setCarrierLatency(ctx.simulator.url, "MSCU", BULK_LATENCY_MS);
  try {
    for (let r = 0; r < requests; r++) {
      const batch = known.slice(r * BULK_SIZE, (r + 1) * BULK_SIZE);
      const [answer, seconds] = await timed(async () => {
        const response = await fetch(`${target.url}/api/v1/track`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${keys[r % keys.length]}` },
          body: JSON.stringify({ shipments: batch.map((number) => ({ type: "container", number })) }),
          signal: AbortSignal.timeout(120_000),
        });
        return { status: response.status, body: (await response.json()) as { results?: { ok?: boolean }[] } };
      });
      if (answer.status !== 200) throw new Error(`bulk /track answered HTTP ${answer.status}`);
      const items = answer.body.results ?? [];
      itemsOk += items.filter((i) => i.ok === true).length;
      itemsFailed += items.filter((i) => i.ok !== true).length;
      secondsPerRequest.push(seconds);
    }
    // The carrier calls alone, from a bare loop, against the same slowed simulator.
    const direct = (number: string) => async () => {
      const response = await fetch(`${ctx.simulator.url}/MSCU/v2/events?equipmentReference=${number}`);
      await response.arrayBuffer();
    };
    const batch = known.slice(0, BULK_SIZE);
    const [, bounded] = await timed(() => pool(batch, CARRIER_CONCURRENCY, (n) => direct(n)()));
    const [, all] = await timed(() => Promise.all(batch.map((n) => direct(n)())));
    baseline = { atConcurrency: bounded, unbounded: all };
  } finally {
    await setCarrierLatency(ctx.simulator.url, "MSCU", 0);
    await ctx.supervisor.stop(target.process);
  }
  const medianSeconds = median(secondsPerRequest);
  return {
    references: BULK_SIZE,
    carrierLatencyMs: BULK_LATENCY_MS,
    requests,
    secondsPerRequest,
    medianSeconds,
    maxSeconds: Math.max(...secondsPerRequest),
    itemsOk,
    itemsFailed,
    carrierConcurrency: CARRIER_CONCURRENCY,
    floorSeconds: (Math.ceil(BULK_SIZE / CARRIER_CONCURRENCY) * BULK_LATENCY_MS) / 1000,
    baselineSeconds: baseline,
    target: { belowSeconds: 2, status: medianSeconds < 2 ? "met" : "missed" },
  };
}

// ---------------------------------------------------------------------------------------------

const FANOUT_EVENTS = 1_000;
const FANOUT_ENDPOINTS = 10;
const WEBHOOK_INTERVAL_MS = 1_000;

async function webhookFanout(ctx: RunnerContext): Promise<FanoutResult> {
  const events = ctx.smoke ? 100 : FANOUT_EVENTS;
  const { url, seed } = await prepare(ctx, "fanout");
  let received = 0;
  let waiter: (() => void) | undefined;
  let goal = Number.POSITIVE_INFINITY;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": 2 });
      res.end("ok");
      received++;
      if (received >= goal) waiter?.();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const waitFor = (n: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      goal = n;
      if (received >= n) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`only ${received} of ${n} webhooks arrived`)),
        timeoutMs,
      );
      waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const orgId = seed.account.organizationId;
  const body = JSON.stringify({
    event: "shipment.updated",
    created: new Date().toISOString(),
    data: { id: "SHP-1", reference: "MSCU1234566", status: "IN_TRANSIT", changes: [{ field: "eta" }] },
  });
  await withPg(url, async (client) => {
    await client.query(
      `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, enabled, created_at, updated_at)
       SELECT 'bench-endpoint-' || g, $1, $2 || '/hook/' || g, ARRAY['*'], 'whsec_bench_' || g, true, now(), now()
         FROM generate_series(1, $3::int) g`,
      [orgId, receiverUrl, FANOUT_ENDPOINTS],
    );
  });
  const target = await service(ctx, "fanout", url, {
    QUAYSIDE_WORKERS: "on",
    QUAYSIDE_WEBHOOK_INTERVAL_MS: String(WEBHOOK_INTERVAL_MS),
    QUAYSIDE_WORKER_INTERVAL_MS: "60000",
    QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  });
  try {
    // Measured on an instance at rest, as a running one fans out: the handlers it loads after it
    // first answers (GraphQL, MCP) and its operations' compilation ran beside the first deliveries.
    await untilQuiet([target.process.pid]);
    // The outbox rows a change writes in its transaction: one event per endpoint per change.
    const [, seconds] = await timed(async () => {
      await withPg(url, (client) =>
        client.query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event, body, status, attempts, next_attempt_at, created_at)
           SELECT 'bench-delivery-' || g, 'bench-endpoint-' || (1 + g % $2::int), $1, 'shipment.updated', $3, 'pending', 0, now(), now()
             FROM generate_series(1, $4::int) g`,
          [orgId, FANOUT_ENDPOINTS, body, events],
        ),
      );
      await waitFor(events, 300_000);
    });
    const delivered = await withPg(url, async (client) => {
      // The worker marks a delivery after the receiver's answer: wait for the last marks.
      for (let i = 0; i < 50; i++) {
        const rows = await client.query(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'",
        );
        if (rows.rows[0].n >= events) return rows.rows[0].n as number;
        await new Promise((r) => setTimeout(r, 100));
      }
      return -1;
    });
    if (delivered < events) throw new Error(`only ${delivered} of ${events} deliveries marked delivered`);
    await ctx.supervisor.stop(target.process);
    // Baseline: the same bodies posted by a bare loop, one chain per endpoint as the worker does.
    received = 0;
    const perEndpoint = Array.from({ length: FANOUT_ENDPOINTS }, (_, e) =>
      Array.from({ length: Math.ceil(events / FANOUT_ENDPOINTS) }, () => `${receiverUrl}/hook/${e + 1}`),
    );
    const [, baselineSeconds] = await timed(() =>
      Promise.all(
        perEndpoint.map(async (urls) => {
          for (const u of urls) {
            const response = await fetch(u, {
              method: "POST",
              headers: { "content-type": "application/json", "x-service-signature": "t=0,v1=0" },
              body,
            });
            await response.arrayBuffer();
          }
        }),
      ),
    );
    return {
      events,
      endpoints: FANOUT_ENDPOINTS,
      seconds,
      deliveriesPerSecond: events / seconds,
      baselineSeconds,
      baselineDeliveriesPerSecond: (perEndpoint.length * perEndpoint[0]!.length) / baselineSeconds,
      ratio: events / seconds / ((perEndpoint.length * perEndpoint[0]!.length) / baselineSeconds),
      workerIntervalMs: WEBHOOK_INTERVAL_MS,
    };
  } finally {
    await ctx.supervisor.stop(target.process);
    receiver.closeAllConnections();
    receiver.close();
  }
}

// ---------------------------------------------------------------------------------------------

const REFRESH_SHIPMENTS = 100_000;
const DRAIN_JOBS = 1_000;
const WORKER_INTERVAL_MS = 1_000;

function scheduleShape(shipments: number, syncSpreadMs: number, name: string, now: Date) {
  const perMinute = new Map<number, number>();
  for (let i = 0; i < shipments; i++) {
    const lastSyncedAt = new Date(now.getTime() - Math.floor((i / shipments) * syncSpreadMs));
    const at = nextRefreshAt({
      shipmentId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      status: "IN_TRANSIT",
      lastSyncedAt,
      eta: new Date(now.getTime() + 20 * 86_400_000),
      now,
    });
    if (!at) continue;
    const minute = Math.floor(at.getTime() / 60_000);
    perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
  }
  const minutes = [...perMinute.keys()];
  const spanMinutes = Math.max(...minutes) - Math.min(...minutes) + 1;
  const meanPerMinute = shipments / spanMinutes;
  const peakPerMinute = Math.max(...perMinute.values());
  return { name, meanPerMinute, peakPerMinute, peakToMean: peakPerMinute / meanPerMinute, spanMinutes };
}

async function refreshScheduling(ctx: RunnerContext): Promise<RefreshResult> {
  const active = ctx.smoke ? 2_000 : REFRESH_SHIPMENTS;
  const dueJobs = ctx.smoke ? 100 : DRAIN_JOBS;
  const now = new Date();
  const schedule = {
    shipments: active,
    cases: [
      scheduleShape(active, 12 * 3_600_000, "synced evenly over 12 hours (steady state)", now),
      scheduleShape(active, 10 * 60_000, "all synced within 10 minutes (a bulk import)", now),
      scheduleShape(active, 1_000, "all synced within one second (worst case)", now),
    ],
  };
  const { url, seed } = await prepare(ctx, "refresh", active);
  const { organizationId, userId } = seed.account;
  // Due jobs with real container numbers of MSCU (about 6% unknown to the simulator, as in life),
  // stored answers older than the refresh gap, so every job asks the carrier.
  const references = Array.from({ length: dueJobs }, (_, i) => containerNumber("MSCU", 500_000 + i));
  await withPg(url, (client) =>
    client.query(
      `INSERT INTO shipments (id, organization_id, added_by_user_id, reference_type, reference, reference_key, carrier_scac,
                              status, eta, last_synced_at, created_at, updated_at, next_refresh_at)
       SELECT gen_random_uuid()::text, $1, $2, 'container', r, r, 'MSCU', 'IN_TRANSIT', now() + interval '20 days',
              now() - interval '13 hours', now() - interval '13 hours', now() - interval '13 hours', now() - interval '1 minute'
         FROM unnest($3::text[]) r`,
      [organizationId, userId, references],
    ),
  );
  const started = Date.now();
  const target = await service(ctx, "refresh", url, {
    QUAYSIDE_WORKERS: "on",
    QUAYSIDE_WORKER_INTERVAL_MS: String(WORKER_INTERVAL_MS),
    QUAYSIDE_WEBHOOK_INTERVAL_MS: "60000",
  });
  const samples: { t: number; done: number }[] = [];
  try {
    await withPg(url, async (client) => {
      const deadline = Date.now() + 600_000;
      for (;;) {
        const rows = await client.query(
          `SELECT count(*)::int AS n FROM shipments
            WHERE reference = ANY($1::text[])
              AND (next_refresh_at IS NULL OR next_refresh_at > now() + interval '1 hour' OR failed_at IS NOT NULL)`,
          [references],
        );
        samples.push({ t: Date.now(), done: rows.rows[0].n as number });
        if (rows.rows[0].n >= dueJobs || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    });
  } finally {
    await ctx.supervisor.stop(target.process);
  }
  // From the first completed job (the service's start-up is not the worker's time) to the last.
  const first = samples.find((s) => s.done > 0) ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  const seconds = Math.max(1e-3, (last.t - first.t) / 1000) + WORKER_INTERVAL_MS / 1000;
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const j = samples.findIndex((s) => s.t >= samples[i]!.t + 5_000);
    if (j < 0) break;
    peak = Math.max(
      peak,
      ((samples[j]!.done - samples[i]!.done) / ((samples[j]!.t - samples[i]!.t) / 1000)) * 60,
    );
  }
  void started;
  return {
    schedule,
    drain: {
      activeShipments: active,
      dueJobs,
      seconds,
      jobsPerMinuteMean: (last.done / seconds) * 60,
      jobsPerMinutePeak: peak,
      completed: last.done,
      workerIntervalMs: WORKER_INTERVAL_MS,
      batch: 25,
    },
  };
}

// ---------------------------------------------------------------------------------------------

const SCALE_SCENARIOS = ["v1-shipment", "v1-list", "v1-delta"] as const;
const SCALE_CONNECTIONS = 10;

async function scale(ctx: RunnerContext): Promise<ScaleResult> {
  const [firstSize, ...more] = ctx.scaleSizes;
  const seconds = ctx.smoke ? 2 : 10;
  const [prepared, firstSeed] = await timed(() => prepare(ctx, "scale", firstSize));
  const { url, keys, seed } = prepared;
  const facts = seed.shipments!;
  const dir = path.join(ctx.tempDir, "scale");
  mkdirSync(dir, { recursive: true });
  const keysFile = path.join(dir, "keys.txt");
  writeFileSync(keysFile, `${keys.join("\n")}\n`);
  const rows: ScaleRow[] = [];
  const measure = async (shipments: number, seedSeconds: number) => {
    const target = await service(ctx, "scale", url, { QUAYSIDE_WORKERS: "off" });
    const endpoints: ScaleRow["endpoints"] = {};
    try {
      for (const id of SCALE_SCENARIOS) {
        const scenario = withFacts(SCENARIOS.find((s) => s.id === id)!, { ...facts, bulkCount: shipments });
        const script = writeScenarioScript(dir, scenario, keysFile);
        // Warm-up, then the measured run.
        await runWrk(ctx.supervisor, {
          url: target.url,
          script,
          seconds: 2,
          connections: SCALE_CONNECTIONS,
          cpus: ctx.loadCpus,
          serverPid: target.process.pid,
        });
        const run = await runWrk(ctx.supervisor, {
          url: target.url,
          script,
          seconds,
          connections: SCALE_CONNECTIONS,
          cpus: ctx.loadCpus,
          serverPid: target.process.pid,
        });
        endpoints[id] = {
          rps: run.rps,
          p50Ms: run.p50Ms,
          p99Ms: run.p99Ms,
          meanMs: run.meanMs,
          non2xx: run.non2xx,
        };
      }
    } finally {
      await ctx.supervisor.stop(target.process);
    }
    rows.push({ shipments, seedSeconds, endpoints });
    ctx.log(`scale ${shipments.toLocaleString("en-GB")}: ${JSON.stringify(endpoints)}`);
  };
  await measure(firstSize!, firstSeed);
  let size = firstSize!;
  for (const next of more) {
    const [, grown] = await timed(() =>
      withPg(url, async (client) => {
        await client.query("SET statement_timeout = 0");
        await seedBulkShipments(
          {
            query: async (text, params) => ({
              rows: (await client.query(text, params ? [...params] : [])).rows,
            }),
            exec: async (text) => {
              await client.query(text);
            },
          },
          {
            ...seed.account,
            templateReferences: facts.knownContainers,
            from: size,
            to: next,
            runTag: `scale-${process.pid}`,
          },
        );
      }),
    );
    size = next;
    await measure(next, grown);
  }
  const growth: ScaleResult["growth"] = {};
  const a = rows[0]!;
  const b = rows[rows.length - 1]!;
  for (const id of SCALE_SCENARIOS) {
    const p50 = b.endpoints[id]!.p50Ms / a.endpoints[id]!.p50Ms - 1;
    const p99 = b.endpoints[id]!.p99Ms / a.endpoints[id]!.p99Ms - 1;
    growth[id] = { p50, p99, status: p50 <= 0.2 ? "met" : "missed" };
  }
  return { connections: SCALE_CONNECTIONS, seconds, rows, growth };
}

// ---------------------------------------------------------------------------------------------

const OPEN_LOOP_SCENARIOS = ["v1-shipment", "v1-list", "compat-tracking", "mcp-status"] as const;
const OPEN_LOOP_WARMUP_SECONDS = 2;
const OPEN_LOOP_TIMEOUT_MS = 10_000;
/** Enough sockets for 1,000 req/s at 250 ms each; a slower server queues in the client, counted. */
const OPEN_LOOP_MAX_SOCKETS = 256;
const OPEN_LOOP_P99_TARGET_MS = 10;
const RANDOM_READS = 5_000;
/** The bench plan's per-key window (plan custom): keys enough for every request of a runner, twice over. */
const KEY_WINDOW_PER_MINUTE = 600;

function runnerKeys(requests: number): number {
  return Math.min(5_000, Math.max(RUNNER_KEYS, Math.ceil((requests / KEY_WINDOW_PER_MINUTE) * 2)));
}

/** The requests a scenario sends, keys in turn; the stored read picks a random seeded shipment each. */
function openLoopRequests(scenario: Scenario, keys: readonly string[], bulkCount: number): OpenLoopRequest[] {
  const headers = (key: string): Record<string, string> => ({
    ...scenario.request.headers,
    Authorization: `Bearer ${key}`,
    [SCENARIO_HEADER]: scenario.id,
  });
  if (scenario.id === "v1-shipment") {
    return Array.from({ length: RANDOM_READS }, (_, i) => ({
      method: "GET",
      path: `/api/v1/shipments/QSBU${String(1 + Math.floor(Math.random() * bulkCount)).padStart(7, "0")}`,
      headers: headers(keys[i % keys.length]!),
    }));
  }
  return keys.map((key) => ({
    method: scenario.request.method,
    path: scenario.request.path,
    headers: headers(key),
    body: scenario.request.body,
  }));
}

async function runOpenLoopProcess(
  ctx: RunnerContext,
  config: OpenLoopConfig,
  serverPid: number,
  name: string,
): Promise<{ run: OpenLoopRun; serverCpuShare: number | undefined }> {
  const file = path.join(ctx.tempDir, "open-loop", `${name}.json`);
  const result = path.join(ctx.tempDir, "open-loop", `${name}.result.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(config));
  const cpuBefore = processCpuMs(serverPid);
  const client = ctx.supervisor.spawn(
    "open-loop",
    "taskset",
    ["-c", ctx.loadCpus, process.execPath, "--import", "tsx", "bench/open-loop.ts", file, result],
    { cwd: ctx.repoRoot },
  );
  const code = await client.exited;
  const cpuAfter = processCpuMs(serverPid);
  if (code !== 0 || !existsSync(result)) {
    throw new Error(`the open-loop client failed (${client.exit}):\n${client.output().slice(-2_000)}`);
  }
  const run = JSON.parse(readFileSync(result, "utf8")) as OpenLoopRun;
  const serverCpuShare =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : (cpuAfter - cpuBefore) / 1000 / config.seconds;
  return { run, serverCpuShare };
}

/** A warm-up at the same rate (discarded), then the measured run; answers sampled and checked. */
async function measureOpenLoop(
  ctx: RunnerContext,
  target: StartedTarget,
  scenario: Scenario,
  requests: OpenLoopRequest[],
  seconds: number,
  name: string,
): Promise<OpenLoopRow> {
  const config = (s: number): OpenLoopConfig => ({
    url: target.url,
    rate: ctx.openLoopRate,
    seconds: s,
    requests,
    timeoutMs: OPEN_LOOP_TIMEOUT_MS,
    maxSockets: OPEN_LOOP_MAX_SOCKETS,
  });
  await runOpenLoopProcess(ctx, config(OPEN_LOOP_WARMUP_SECONDS), target.process.pid, `${name}-warmup`);
  const { run, serverCpuShare } = await runOpenLoopProcess(ctx, config(seconds), target.process.pid, name);
  const { samples, ...figures } = run;
  const samplesRefused = samples
    .filter((s) => s.status >= 200 && s.status < 300)
    .map((s) => scenario.checkAnswer(s.status, s.body))
    .filter((why): why is string => why !== undefined);
  return {
    ...figures,
    sustained:
      run.achievedRps >= 0.95 * run.offeredRps &&
      run.errors === 0 &&
      run.non2xx === 0 &&
      samplesRefused.length === 0,
    serverCpuShare,
    samplesChecked: samples.length,
    samplesRefused: samplesRefused.slice(0, 3),
  };
}

function describeOpenLoop(id: string, row: OpenLoopRow): string {
  // A run where no request completed has no latencies (null or NaN): said so, not a crash of the run.
  const ms = (value: number | null, digits: number) =>
    typeof value === "number" && Number.isFinite(value) ? `${value.toFixed(digits)} ms` : "none completed";
  return `${id} at ${row.offeredRps} req/s: achieved ${row.achievedRps.toFixed(0)}, p50 ${ms(row.p50Ms, 2)}, p99 ${ms(row.p99Ms, 2)}, max ${ms(row.maxMs, 1)}, ${row.non2xx} non-2xx (${JSON.stringify(row.byStatus)}), ${row.errors} errors${row.sustained ? "" : " (NOT sustained)"}`;
}

async function openLoop(ctx: RunnerContext, warnings: string[]): Promise<OpenLoopResult> {
  const seconds = ctx.smoke ? 2 : 10;
  const requests = ctx.openLoopRate * (seconds + OPEN_LOOP_WARMUP_SECONDS) * OPEN_LOOP_SCENARIOS.length;
  const { url, keys, seed } = await prepare(ctx, "open-loop", ctx.shipments, runnerKeys(requests));
  const facts = seed.shipments!;
  const target = await service(ctx, "open-loop", url, { QUAYSIDE_WORKERS: "off" });
  const rows: Record<string, OpenLoopRow> = {};
  try {
    for (const id of OPEN_LOOP_SCENARIOS) {
      const scenario = withFacts(SCENARIOS.find((s) => s.id === id)!, facts);
      const row = await measureOpenLoop(
        ctx,
        target,
        scenario,
        openLoopRequests(scenario, keys, facts.bulkCount),
        seconds,
        id,
      );
      rows[id] = row;
      ctx.log(describeOpenLoop(id, row));
      if (!row.sustained) {
        warnings.push(
          `open loop: ${describeOpenLoop(id, row)}${row.samplesRefused.length > 0 ? `; refused answers: ${row.samplesRefused.join(" | ").slice(0, 300)}` : ""}`,
        );
      }
    }
  } finally {
    await ctx.supervisor.stop(target.process);
  }
  const read = rows["v1-shipment"]!;
  return {
    offeredRps: ctx.openLoopRate,
    seconds,
    warmupSeconds: OPEN_LOOP_WARMUP_SECONDS,
    maxSockets: OPEN_LOOP_MAX_SOCKETS,
    timeoutMs: OPEN_LOOP_TIMEOUT_MS,
    shipments: facts.bulkCount,
    rows,
    target: {
      scenario: "v1-shipment",
      belowMs: OPEN_LOOP_P99_TARGET_MS,
      p99Ms: read.p99Ms,
      // An unsustained rate has no meaningful p99: the target is missed.
      status: read.sustained && read.p99Ms < OPEN_LOOP_P99_TARGET_MS ? "met" : "missed",
    },
  };
}

// ---------------------------------------------------------------------------------------------

const NODE_VERSIONS_SCENARIO = "v1-shipment";

/** The stored read under the harness's own Node and each binary of --node, one service at a time. */
async function nodeVersions(ctx: RunnerContext, warnings: string[]): Promise<NodeVersionsResult> {
  const seconds = ctx.smoke ? 2 : 10;
  const binaries: NodeBinary[] = [currentNode(), ...ctx.nodeBinaries];
  // The closed loop may run well above the offered rate: size the keys for 3,000 req/s.
  const requests =
    Math.max(ctx.openLoopRate, 3_000) * 2 * (seconds + OPEN_LOOP_WARMUP_SECONDS) * binaries.length;
  const { url, keys, seed } = await prepare(ctx, "node-versions", ctx.shipments, runnerKeys(requests));
  const facts = seed.shipments!;
  const scenario = withFacts(SCENARIOS.find((s) => s.id === NODE_VERSIONS_SCENARIO)!, facts);
  const dir = path.join(ctx.tempDir, "node-versions");
  mkdirSync(dir, { recursive: true });
  const keysFile = path.join(dir, "keys.txt");
  writeFileSync(keysFile, `${keys.join("\n")}\n`);
  const script = writeScenarioScript(dir, scenario, keysFile);
  const rows: NodeVersionRow[] = [];
  for (const node of binaries) {
    const target = await service(ctx, `node-${node.major}`, url, { QUAYSIDE_WORKERS: "off" }, node.path);
    try {
      const wrk = (s: number) =>
        runWrk(ctx.supervisor, {
          url: target.url,
          script,
          seconds: s,
          connections: ctx.connections,
          cpus: ctx.loadCpus,
          serverPid: target.process.pid,
        });
      await wrk(OPEN_LOOP_WARMUP_SECONDS);
      const closed = await wrk(seconds);
      const open = await measureOpenLoop(
        ctx,
        target,
        scenario,
        openLoopRequests(scenario, keys, facts.bulkCount),
        seconds,
        `node-${node.major}`,
      );
      rows.push({
        node: node.major,
        version: node.version,
        closed: {
          connections: ctx.connections,
          rps: closed.rps,
          p50Ms: closed.p50Ms,
          p99Ms: closed.p99Ms,
          non2xx: closed.non2xx,
          cpuUsPerRequest: closed.serverCpuUsPerRequest,
        },
        open,
      });
      ctx.log(
        `Node ${node.version}: ${closed.rps.toFixed(0)} req/s at ${ctx.connections} connections (p99 ${closed.p99Ms.toFixed(2)} ms); ${describeOpenLoop(NODE_VERSIONS_SCENARIO, open)}`,
      );
      if (closed.non2xx > 0)
        warnings.push(`Node ${node.version}: ${closed.non2xx} non-2xx in the closed loop`);
    } finally {
      await ctx.supervisor.stop(target.process);
    }
  }
  return { scenario: NODE_VERSIONS_SCENARIO, seconds, shipments: facts.bulkCount, rows };
}

export async function runLatencyScenarios(ctx: RunnerContext): Promise<RunnerResults> {
  const results: RunnerResults = { warnings: [] };
  const run = async <T>(id: string, fn: () => Promise<T>): Promise<T | undefined> => {
    if (!ctx.runners.includes(id)) return undefined;
    ctx.log(`runner ${id}`);
    const [value, seconds] = await timed(fn);
    ctx.log(`runner ${id} done in ${seconds.toFixed(1)} s`);
    return value;
  };
  results.bulkTrack = await run("bulk-track", () => bulkTrack(ctx));
  results.webhookFanout = await run("webhook-fanout", () => webhookFanout(ctx));
  results.refreshScheduling = await run("refresh-scheduling", () => refreshScheduling(ctx));
  results.scale = await run("scale", () => scale(ctx));
  results.openLoop = await run("open-loop", () => openLoop(ctx, results.warnings));
  results.nodeVersions = await run("node-versions", () => nodeVersions(ctx, results.warnings));
  return results;
}

export type { StartedTarget };
