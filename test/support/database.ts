import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/config";

/** A fresh, empty database for one test file: in-memory PGlite, or a new database on PostgreSQL. */
export async function freshDatabaseTarget(): Promise<DatabaseTarget> {
  const adminUrl = inject("postgresUrl");
  if (!adminUrl) return { kind: "pglite", dataDir: "memory://" };
  const name = `quayside_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { kind: "postgres", url: url.toString() };
}

export function databaseEnvironment(target: DatabaseTarget): Record<string, string> {
  return target.kind === "postgres" ? { DATABASE_URL: target.url } : { QUAYSIDE_DATA_DIR: target.dataDir };
}
