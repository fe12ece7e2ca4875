import type { TestProject } from "vitest/node";
import { redisServerPath, type StartedServer, startPostgres, startRedis } from "./servers";

declare module "vitest" {
  export interface ProvidedContext {
    /** Admin URL of the PostgreSQL server when the suite runs on PostgreSQL; "" on PGlite. */
    postgresUrl: string;
    /** A Redis server for the shared-store tests; "" when redis-server is not installed. */
    redisUrl: string;
  }
}

/**
 * `QUAYSIDE_TEST_DB=postgres` runs every database test on a real PostgreSQL: the one named by
 * `QUAYSIDE_TEST_PG_URL` (CI starts it), or one started here from Debian's binaries.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: StartedServer[] = [];
  let postgresUrl = "";
  if (process.env.QUAYSIDE_TEST_DB === "postgres") {
    postgresUrl = process.env.QUAYSIDE_TEST_PG_URL ?? "";
    if (!postgresUrl) {
      const pg = await startPostgres();
      started.push(pg);
      postgresUrl = pg.url;
    }
  }
  let redisUrl = process.env.QUAYSIDE_TEST_REDIS_URL ?? "";
  if (!redisUrl && redisServerPath()) {
    const redis = await startRedis();
    started.push(redis);
    redisUrl = redis.url;
  }
  project.provide("postgresUrl", postgresUrl);
  project.provide("redisUrl", redisUrl);
  return async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
}
