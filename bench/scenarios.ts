import type { Database } from "../src/db/database";
import type { DatabaseMode } from "./options";
import type { ShipmentFacts } from "./shipments-seed";

/**
 * What the harness measures. A scenario is data: the request wrk sends (or a Lua chunk when requests
 * vary), an optional seed step, the Prisma work its "Express + Prisma" baseline repeats, a check of
 * the service's answer, and the targets of issue 11 it is judged against. Adding a scenario means
 * adding an entry here (and, if its Prisma work is new, one function in baselines/prisma-work.ts).
 */

/** The Prisma work of the "Express + Prisma" baseline, by name (see baselines/prisma-work.ts). */
export type PrismaWorkName =
  | "key-lookup"
  | "key-lookup+organization"
  | "key-lookup+compat-call"
  | "key-lookup+shipment-read"
  | "key-lookup+shipments-page"
  | "key-lookup+shipments-delta"
  | "key-lookup+compat-track"
  | "key-lookup+live-track"
  | "key-lookup+congestion-board"
  | "key-lookup+congestion-reading";

export type BaselineKind = "node-http" | "express-static" | "express-prisma";

export interface ScenarioRequest {
  method: "GET" | "POST";
  /** The exact path (and query) the service and every baseline answer. */
  path: string;
  body?: string;
  headers?: Readonly<Record<string, string>>;
}

export interface SeedContext {
  db: Database;
  mode: DatabaseMode;
  organizationId: string;
  userId: string;
}

export type TargetCheck =
  | {
      kind: "ratio";
      /** Median per-round ratio of the service's req/s to this baseline's (same database mode). */
      baseline: BaselineKind;
      atLeast: number;
      /** Where the number comes from, and whether it is borrowed from a scenario that does not exist yet. */
      source: string;
    }
  | { kind: "p99"; mode: DatabaseMode; belowMs: number; source: string }
  /** SQL statements the service sends for one request (measured once per mode at seed time). */
  | { kind: "statements"; atMost: number; source: string };

export interface Scenario {
  id: string;
  name: string;
  /** One sentence: what a request does inside the service. */
  what: string;
  /** The request sent to every target; it is also how the service's real answer is fetched once. */
  request: ScenarioRequest;
  /**
   * Optional Lua for requests that vary (ids from the seed, several paths). It runs after the
   * harness's prelude, which defines `keys` (array of raw keys) and `bench_format(method, path, body,
   * key)`; it must define `request()`. The harness appends its own `done()`.
   */
  lua?: string;
  /**
   * Optional Lua for the warm-up when the rounds read a random one of the seeded shipments: it reads
   * them in order, so the warm-up goes on until every one was read once (`{{bulkCount}}` requests at
   * least) and the rounds meet the steady state of a service that has answered each before, as a
   * deployed one has, not a run of first reads.
   */
  warmupLua?: string;
  /** Optional: rows this scenario reads, added to every database after the bench account. */
  seed?: (ctx: SeedContext) => Promise<void>;
  prismaWork: PrismaWorkName;
  /** Returns why the service's answer is not a real success, or undefined when it is. */
  checkAnswer(status: number, body: string): string | undefined;
  targets: readonly TargetCheck[];
  /** The scenario a smoke run uses. */
  smoke?: boolean;
  /**
   * Express path the baselines answer (`/api/v1/shipments/:id`) when requests vary or carry a query;
   * default `request.path`.
   */
  route?: string;
  /** Reads the seeded shipments (see shipments-seed.ts); `{{fact}}` in path, body and Lua is filled from them. */
  needsShipments?: boolean;
  /** Calls carriers: the service is pointed at the simulator process. */
  needsSimulator?: boolean;
  /** Also count the SQL statements of one request (kept in the results). */
  countStatements?: boolean;
}

/** `{{name}}` in a scenario's path, body and Lua, from the seed's facts. */
export function withFacts(scenario: Scenario, facts: ShipmentFacts | undefined): Scenario {
  if (!scenario.needsShipments) return scenario;
  if (!facts) throw new Error(`${scenario.id} needs seeded shipments`);
  const values: Record<string, string> = {
    container: facts.knownContainers[0]!,
    bl: facts.bl,
    bulkCount: String(facts.bulkCount),
    deltaSince: facts.deltaSince,
    knownContainersLua: `{ ${facts.knownContainers.map((c) => `"${c}"`).join(", ")} }`,
  };
  const fill = (text: string | undefined) =>
    text?.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
      // Filled by the harness for each warm-up run (writeScenarioScript).
      if (name === "warmupStart") return whole;
      const value = values[name];
      if (value === undefined) throw new Error(`${scenario.id}: unknown fact {{${name}}}`);
      return value;
    });
  return {
    ...scenario,
    request: { ...scenario.request, path: fill(scenario.request.path)!, body: fill(scenario.request.body) },
    lua: fill(scenario.lua),
    warmupLua: fill(scenario.warmupLua),
  };
}

function json(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const ISSUE = "issue 11";
/** The issue states these for the stored read through the v1 facade. */
const BORROWED = `${ISSUE}, stated for the stored read; applied to this facade route as well`;
const P99_SOURCE = `${ISSUE}: p99 under 15 ms at 50 connections on PostgreSQL`;
const p99Target: TargetCheck = { kind: "p99", mode: "postgres", belowMs: 15, source: P99_SOURCE };

/**
 * A Lua `request()` over paths built from a bulk shipment (1..bulkCount): a random one per request, or
 * each in turn (then again) from where the warm-up's previous run stopped (`{{warmupStart}}`, filled
 * per run by the harness).
 */
const bulkShipmentLua = (pathLua: string, order: "random" | "in turn") => `
local prepared_keys = {}
init = function(args)
  for i, key in ipairs(keys) do prepared_keys[i] = key end
  math.randomseed(os.time())
end
local next_key = 0
local n = ${order === "in turn" ? "{{warmupStart}} % {{bulkCount}}" : "0"}
request = function()
  next_key = next_key % #prepared_keys + 1
  n = ${order === "in turn" ? "n % {{bulkCount}} + 1" : "math.random(1, {{bulkCount}})"}
  local ref = string.format("QSBU%07d", n)
  return bench_format("GET", ${pathLua}, nil, prepared_keys[next_key])
end
`;

function v1Success(status: number, body: string, check: (data: unknown) => string | undefined) {
  const parsed = json(body) as { success?: boolean; data?: unknown } | undefined;
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  if (parsed?.success !== true) return `expected { success: true }, got ${body.slice(0, 200)}`;
  return check(parsed.data);
}

const facadeTargets: readonly TargetCheck[] = [
  { kind: "ratio", baseline: "express-prisma", atLeast: 0.8, source: BORROWED },
  { kind: "ratio", baseline: "express-static", atLeast: 0.4, source: BORROWED },
  {
    kind: "p99",
    mode: "postgres",
    belowMs: 15,
    source: `${ISSUE}: p99 under 15 ms at 50 connections on PostgreSQL`,
  },
];

/**
 * Congestion readings as the scoring job leaves them: the 60 watched ports' newest readings, and 90 days
 * of history for Shanghai (the per-port read). Scores are spread deterministically over the buckets.
 */
async function seedCongestion({ db }: SeedContext): Promise<void> {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const reading = (locode: string, i: number, dayOffset: number) => ({
    locode,
    day: new Date(today - dayOffset * 86_400_000),
    latest: dayOffset === 0,
    name: locode,
    country: locode.slice(0, 2),
    lat: (i % 120) - 60,
    lng: ((i * 37) % 360) - 180,
    score: (i * 17 + dayOffset * 3) % 101,
    bucket: "normal",
    tier: "B",
    trend7d: (i % 9) - 4,
    vesselsWaiting: i % 30,
    medianAnchorageWaitH: 6 + (i % 20),
    longestWaitDays: 1 + (i % 5),
    components: [
      {
        name: "anchorage_wait",
        raw: 12,
        unit: "h",
        baseline_median: 9,
        baseline_mad: 2,
        z: 1,
        weight: 0.35,
        n: 40,
        window_days: 7,
      },
    ],
    computedAt: new Date(),
  });
  const { rankedPortCodes } = await import("../src/domain/ports/port-traffic");
  const ports = rankedPortCodes();
  await db.prisma.portCongestionReading.createMany({
    data: [
      ...ports.map((locode, i) => reading(locode, i, 0)),
      ...Array.from({ length: 89 }, (_, d) => reading("CNSHA", 0, d + 1)),
    ],
    skipDuplicates: true,
  });
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "v1-carriers",
    name: "v1 carriers",
    what: "GET /api/v1/carriers: key lookup and rate window, persisted GraphQL operation over the in-memory directory, v1 envelope",
    request: { method: "GET", path: "/api/v1/carriers" },
    prismaWork: "key-lookup",
    checkAnswer(status, body) {
      const parsed = json(body) as { success?: boolean; data?: unknown[] } | undefined;
      if (status !== 200) return `HTTP ${status}`;
      if (parsed?.success !== true || !Array.isArray(parsed.data) || parsed.data.length === 0) {
        return "expected { success: true, data: [carriers...] }";
      }
      return undefined;
    },
    targets: facadeTargets,
  },
  {
    id: "compat-sealines",
    name: "compat sealines",
    what: "GET /compat/info/sealines: the same directory through the compat facade, which also counts the call (api_calls: an upsert of the month's row, then the organisation's slot counts) in a second persisted operation",
    request: { method: "GET", path: "/compat/info/sealines" },
    prismaWork: "key-lookup+compat-call",
    checkAnswer(status, body) {
      const parsed = json(body) as { status?: string; data?: unknown[] } | undefined;
      if (status !== 200) return `HTTP ${status}`;
      // The compat contract answers refusals with HTTP 200 too, so the envelope decides.
      if (parsed?.status !== "success" || !Array.isArray(parsed.data) || parsed.data.length === 0) {
        return `expected { status: "success", data: [...] }, got ${body.slice(0, 200)}`;
      }
      return undefined;
    },
    targets: facadeTargets,
  },
  {
    id: "graphql-viewer",
    name: "graphql viewer",
    what: "POST /graphql through Yoga (parse, validate, execute): key lookup, then the organisation read by Prisma",
    request: {
      method: "POST",
      path: "/graphql",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { organization { name plan { name } } } }" }),
    },
    prismaWork: "key-lookup+organization",
    checkAnswer(status, body) {
      const parsed = json(body) as
        | { errors?: unknown[]; data?: { viewer?: { organization?: { plan?: { name?: string } } } } }
        | undefined;
      if (status !== 200) return `HTTP ${status}`;
      if (parsed?.errors) return `GraphQL errors: ${JSON.stringify(parsed.errors).slice(0, 200)}`;
      if (!parsed?.data?.viewer?.organization?.plan?.name)
        return "expected data.viewer.organization.plan.name";
      return undefined;
    },
    targets: [
      {
        kind: "p99",
        mode: "postgres",
        belowMs: 15,
        source: `${ISSUE}: p99 under 15 ms at 50 connections on PostgreSQL`,
      },
    ],
  },
  {
    id: "v1-congestion-board",
    name: "v1 congestion board",
    what: "GET /api/v1/ports/congestion: key lookup and rate window, the plan's feature check, the PortCongestionBoard operation (one query over the 60 newest readings), v1 envelope",
    request: { method: "GET", path: "/api/v1/ports/congestion" },
    seed: seedCongestion,
    prismaWork: "key-lookup+congestion-board",
    checkAnswer: (status, body) => {
      const parsed = json(body) as { success?: boolean; data?: unknown[] } | undefined;
      if (status !== 200) return `HTTP ${status}`;
      return parsed?.success === true && Array.isArray(parsed.data) && parsed.data.length > 0
        ? undefined
        : "expected { success: true, data: [board items...] }";
    },
    targets: facadeTargets,
  },
  {
    id: "v1-port-congestion",
    name: "v1 port congestion",
    what: "GET /api/v1/ports/CNSHA/congestion: key lookup and rate window, the plan's feature check, the PortCongestion operation (the port's readings of the last 90 days in one query), v1 envelope",
    request: { method: "GET", path: "/api/v1/ports/CNSHA/congestion" },
    route: "/api/v1/ports/:locode/congestion",
    seed: seedCongestion,
    prismaWork: "key-lookup+congestion-reading",
    checkAnswer: (status, body) =>
      v1Success(status, body, (data) =>
        Array.isArray((data as { history?: unknown[] })?.history) ? undefined : "expected data.history",
      ),
    targets: facadeTargets,
  },
  {
    id: "v1-shipment",
    name: "v1 stored read",
    what: "GET /api/v1/shipments/{id}: key lookup and rate window, the ShipmentRead operation (the shipment by reference, then its newest stored document in one statement, derived facts), v1 envelope; a random one of the seeded shipments per request",
    request: { method: "GET", path: "/api/v1/shipments/QSBU0000001" },
    route: "/api/v1/shipments/:id",
    lua: bulkShipmentLua(`"/api/v1/shipments/" .. ref`, "random"),
    warmupLua: bulkShipmentLua(`"/api/v1/shipments/" .. ref`, "in turn"),
    needsShipments: true,
    prismaWork: "key-lookup+shipment-read",
    checkAnswer: (status, body) =>
      v1Success(status, body, (data) =>
        (data as { reference_number?: string })?.reference_number
          ? undefined
          : "expected data.reference_number",
      ),
    targets: [
      { kind: "ratio", baseline: "express-prisma", atLeast: 0.8, source: `${ISSUE}: the stored read` },
      { kind: "ratio", baseline: "express-static", atLeast: 0.4, source: `${ISSUE}: the stored read` },
      p99Target,
    ],
    smoke: true,
  },
  {
    id: "compat-tracking",
    name: "compat tracking (stored)",
    what: "GET /compat/tracking?number=N&sealine=MSCU for a container tracked minutes before: the CompatTrack operation serves the stored document (younger than 12 hours, no carrier call), records the lookup and counts the call, and the compat renderer builds the SeaRates-shaped answer",
    request: { method: "GET", path: "/compat/tracking?number={{container}}&sealine=MSCU" },
    route: "/compat/tracking",
    needsShipments: true,
    prismaWork: "key-lookup+compat-track",
    checkAnswer(status, body) {
      const parsed = json(body) as { status?: string; data?: { metadata?: unknown } } | undefined;
      if (status !== 200) return `HTTP ${status}`;
      if (parsed?.status !== "success" || !parsed.data?.metadata)
        return `expected { status: "success", data: { metadata } }, got ${body.slice(0, 200)}`;
      return undefined;
    },
    targets: [p99Target],
  },
  {
    id: "v1-list",
    name: "v1 list (100)",
    what: "GET /api/v1/shipments?pageSize=100: the ShipmentsPage operation (a count of the organisation's live shipments, the newest 100, their 100 documents in one statement), v1 envelope",
    request: { method: "GET", path: "/api/v1/shipments?pageSize=100" },
    route: "/api/v1/shipments",
    needsShipments: true,
    prismaWork: "key-lookup+shipments-page",
    checkAnswer: (status, body) =>
      v1Success(status, body, (data) => {
        const items = (data as { shipments?: unknown[] })?.shipments ?? (data as unknown[]);
        return Array.isArray(items) && items.length === 100
          ? undefined
          : `expected 100 shipments, got ${body.slice(0, 200)}`;
      }),
    targets: [p99Target],
  },
  {
    id: "v1-delta",
    name: "v1 delta sync",
    what: "GET /api/v1/shipments?updated_since=T over the seeded shipments (T ten minutes before the seed, so more than the cap of 200 match): the ShipmentsDelta operation (an index range on last_synced_at, the oldest 200, their documents), v1 envelope",
    request: { method: "GET", path: "/api/v1/shipments?updated_since={{deltaSince}}" },
    route: "/api/v1/shipments",
    needsShipments: true,
    prismaWork: "key-lookup+shipments-delta",
    checkAnswer: (status, body) =>
      v1Success(status, body, (data) => {
        const text = JSON.stringify(data);
        return text.includes("QSBU") ? undefined : `expected seeded shipments, got ${body.slice(0, 200)}`;
      }),
    targets: [p99Target],
  },
  {
    id: "graphql-shipment",
    name: "graphql shipment 10x20",
    what: "POST /graphql: one shipment whose document has 10 containers of 20 events each, every event with its location and vessel, through Yoga (parse, validate, execute); SQL statements per request counted by src/db/statement-counter.ts",
    request: {
      method: "POST",
      path: "/graphql",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        query:
          'query { shipment(id: "QSBL10X20") { name status document { containers { number status events { eventCode localDateTime location { name unLocode } vessel { name } } } } } }',
      }),
    },
    needsShipments: true,
    countStatements: true,
    prismaWork: "key-lookup+shipment-read",
    checkAnswer(status, body) {
      const parsed = json(body) as
        | {
            errors?: unknown[];
            data?: { shipment?: { document?: { containers?: { events?: unknown[] }[] } } };
          }
        | undefined;
      if (status !== 200) return `HTTP ${status}`;
      if (parsed?.errors) return `GraphQL errors: ${JSON.stringify(parsed.errors).slice(0, 200)}`;
      const containers = parsed?.data?.shipment?.document?.containers ?? [];
      if (containers.length !== 10 || containers.some((c) => c.events?.length !== 20))
        return `expected 10 containers of 20 events, got ${body.slice(0, 200)}`;
      return undefined;
    },
    targets: [
      {
        kind: "statements",
        atMost: 4,
        source: `${ISSUE}: the GraphQL shipment query in at most 4 SQL statements`,
      },
      p99Target,
    ],
  },
  {
    id: "mcp-status",
    name: "mcp get_shipment_status",
    what: "POST /api/mcp, JSON-RPC tools/call get_shipment_status for a tracked container: Origin/Host checks, the McpShipmentStatus operation (shipment, document, containers and events), the tool's structured and text output",
    request: {
      method: "POST",
      path: "/api/mcp",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "get_shipment_status", arguments: { reference: "{{container}}" } },
      }),
    },
    needsShipments: true,
    prismaWork: "key-lookup+shipment-read",
    checkAnswer(status, body) {
      const parsed = json(body) as { result?: { isError?: boolean; content?: unknown[] } } | undefined;
      if (status !== 200) return `HTTP ${status}`;
      if (!parsed?.result || parsed.result.isError)
        return `expected a tool result, got ${body.slice(0, 300)}`;
      return undefined;
    },
    targets: [p99Target],
  },
  {
    id: "live-track",
    name: "live track (simulator, 0 ms)",
    what: "GET /api/v1/container/{n}: always asks the carrier, over HTTP to the simulator process at zero latency (DCSA events, mapping, a new document version when the content changed, the shipment updated), rotating over the containers tracked at seed time; the service's own overhead on a live track",
    request: { method: "GET", path: "/api/v1/container/{{container}}" },
    route: "/api/v1/container/:number",
    lua: `
local containers = {{knownContainersLua}}
local prepared = {}
init = function(args)
  for i, key in ipairs(keys) do
    prepared[i] = bench_format("GET", "/api/v1/container/" .. containers[(i - 1) % #containers + 1], nil, key)
  end
end
local next_index = 0
request = function()
  next_index = next_index % #prepared + 1
  return prepared[next_index]
end
`,
    needsShipments: true,
    needsSimulator: true,
    prismaWork: "key-lookup+live-track",
    checkAnswer: (status, body) =>
      v1Success(status, body, (data) =>
        (data as { reference_number?: string })?.reference_number
          ? undefined
          : "expected data.reference_number",
      ),
    targets: [],
  },
];

/** Scenarios of issue 11 that need work not merged yet; listed in the summary as pending. */
export interface PendingScenario {
  name: string;
  what: string;
  targets: readonly string[];
}

export const PENDING_SCENARIOS: readonly PendingScenario[] = [];

/** The scenarios that are not HTTP throughput, run by bench/runners.ts (PostgreSQL only). */
export const RUNNER_IDS = [
  "bulk-track",
  "webhook-fanout",
  "refresh-scheduling",
  "scale",
  "open-loop",
  "node-versions",
] as const;
