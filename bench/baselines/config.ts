import { readFileSync } from "node:fs";
import type { DatabaseTarget } from "../../src/config";
import type { PrismaWorkName } from "../scenarios";

/**
 * What the harness hands a baseline process (a JSON file named by the first argument): where to
 * listen, and for each scenario the path it answers and the exact bytes of the service's answer.
 */
/**
 * Every request of the harness names its scenario in this header: scenarios can share a method and
 * path (the GraphQL viewer and the GraphQL shipment are both POST /graphql), and the baselines must
 * answer each with its own bytes. The service ignores it.
 */
export const SCENARIO_HEADER = "x-bench-scenario";

export interface BaselineRoute {
  /** The scenario's id, as sent in SCENARIO_HEADER. */
  scenario: string;
  method: "GET" | "POST";
  path: string;
  /** Express path the route answers (`/api/v1/shipments/:id`, or `path` without its query). */
  route: string;
  /** The service's real answer to this scenario, fetched once by the harness. */
  bodyFile: string;
  prismaWork: PrismaWorkName;
}

export interface BaselineConfig {
  host: string;
  port: number;
  routes: BaselineRoute[];
  /** Only the Express + Prisma baseline opens a database. */
  database?: DatabaseTarget;
  /** Service configuration the Express + Prisma baseline's domain services load (carrier registry). */
  env?: Record<string, string>;
}

export interface LoadedRoute extends BaselineRoute {
  body: Buffer;
}

/** `/a/:id/b` -> a RegExp matching the path of a request (query ignored). */
export function routeMatcher(route: string): (url: string) => boolean {
  const pattern = new RegExp(
    `^${route
      .split("/")
      .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")}$`,
  );
  return (url) => pattern.test(url.split("?")[0]!);
}

export function readBaselineConfig(argv: readonly string[] = process.argv): {
  config: BaselineConfig;
  routes: LoadedRoute[];
} {
  const file = argv[2];
  if (!file) throw new Error("usage: <baseline>.ts <config.json>");
  const config = JSON.parse(readFileSync(file, "utf8")) as BaselineConfig;
  return { config, routes: config.routes.map((r) => ({ ...r, body: readFileSync(r.bodyFile) })) };
}

/** The same header the service sends with its JSON. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Stops on SIGTERM/SIGINT from the harness; keep-alive connections are cut, nothing is in flight that matters. */
export function exitOnSignal(close: () => Promise<void> | void): void {
  const stop = () => {
    Promise.resolve(close()).finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/**
 * Scenarios that share an Express route (the list and the delta are both GET /api/v1/shipments; both
 * GraphQL scenarios are POST /graphql) are told apart by SCENARIO_HEADER, else by their query's
 * parameter names.
 */
export function groupByRoute<T extends BaselineRoute>(
  routes: readonly T[],
): Map<string, (url: string, scenario?: string) => T> {
  const groups = new Map<string, T[]>();
  for (const route of routes) {
    const key = `${route.method} ${route.route}`;
    groups.set(key, [...(groups.get(key) ?? []), route]);
  }
  const names = (url: string) => [...new URL(url, "http://x").searchParams.keys()].sort().join("&");
  return new Map(
    [...groups].map(([key, candidates]) => [
      key,
      (url: string, scenario?: string) =>
        candidates.find((c) => c.scenario === scenario) ??
        candidates.find((c) => c.path === url) ??
        candidates.find((c) => names(c.path) === names(url)) ??
        candidates[0]!,
    ]),
  );
}
