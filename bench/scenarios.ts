import type { Database } from "../src/db/database";
import type { DatabaseMode } from "./options";

/**
 * What the harness measures. A scenario is data: the request wrk sends (or a Lua chunk when requests
 * vary), an optional seed step, the Prisma work its "Express + Prisma" baseline repeats, a check of
 * the service's answer, and the targets of issue 11 it is judged against. Adding a scenario means
 * adding an entry here (and, if its Prisma work is new, one function in baselines/prisma-work.ts).
 */

/** The Prisma work of the "Express + Prisma" baseline, by name (see baselines/prisma-work.ts). */
export type PrismaWorkName = "key-lookup" | "key-lookup+organization" | "key-lookup+compat-call";

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
  | { kind: "p99"; mode: DatabaseMode; belowMs: number; source: string };

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
  /** Optional: rows this scenario reads, added to every database after the bench account. */
  seed?: (ctx: SeedContext) => Promise<void>;
  prismaWork: PrismaWorkName;
  /** Returns why the service's answer is not a real success, or undefined when it is. */
  checkAnswer(status: number, body: string): string | undefined;
  targets: readonly TargetCheck[];
  /** The scenario a smoke run uses. */
  smoke?: boolean;
}

function json(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const ISSUE = "issue 11";
/** The issue states these for the stored read through the v1 facade, which does not exist yet. */
const BORROWED = `${ISSUE}, stated for the stored read; applied to this facade route until that exists`;

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
    smoke: true,
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
];

/** Scenarios of issue 11 that need work not merged yet; listed in the summary as pending. */
export interface PendingScenario {
  name: string;
  what: string;
  targets: readonly string[];
}

export const PENDING_SCENARIOS: readonly PendingScenario[] = [
  {
    name: "v1 stored read",
    what: "GET /api/v1/shipments/{id} served from the store",
    targets: [
      ">= 80% of bare Express + the same Prisma query (our GraphQL core costs at most 20%)",
      ">= 40% of bare Express with static JSON",
      "p99 < 15 ms at 50 connections on PostgreSQL",
    ],
  },
  { name: "compat tracking", what: "compat /tracking served from the store", targets: [] },
  { name: "v1 list", what: "GET /api/v1/shipments, a page of 100", targets: [] },
  { name: "delta sync", what: "changes since a cursor over 100,000 shipments", targets: [] },
  {
    name: "graphql shipment",
    what: "one shipment with 10 containers of 20 events each; SQL statements per request reported",
    targets: ["<= 4 SQL statements per request"],
  },
  { name: "mcp get_shipment_status", what: "the MCP tool over streamable HTTP", targets: [] },
  {
    name: "live track",
    what: "a live track against the carrier simulator at zero latency (the service's own overhead)",
    targets: [],
  },
  {
    name: "bulk track",
    what: "bulk /track of 50 references with the simulator at 200 ms per call",
    targets: ["whole request under 2 s"],
  },
  { name: "webhook fan-out", what: "1,000 events delivered to a local receiver", targets: [] },
  {
    name: "refresh scheduling",
    what: "100,000 active shipments; jobs per minute, peak vs mean",
    targets: [],
  },
  {
    name: "scale 100k -> 1M",
    what: "seed 100,000 and 1,000,000 shipments on PostgreSQL; read, list and delta latency at both sizes",
    targets: ["read, list and delta within 20% from 100,000 to 1,000,000 shipments"],
  },
];
