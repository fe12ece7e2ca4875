import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/config";
import { LOCK_FILE } from "../../src/db/data-folder-lock";

/** A fresh, empty database for one test file: in-memory PGlite, or a new database on PostgreSQL. */
export async function freshDatabaseTarget(): Promise<DatabaseTarget> {
  const adminUrl = inject("postgresUrl");
  if (!adminUrl) return { kind: "pglite", dataDir: "memory://" };
  return createPostgresDatabase(adminUrl);
}

export interface MigratedDatabase {
  target: DatabaseTarget;
  /** Removes the PGlite copy once its server stopped (databases on PostgreSQL go with the server). */
  release(): Promise<void>;
}

/**
 * A fresh database with every migration already applied, copied from the run's template
 * (`test/support/global-setup.ts`): on PostgreSQL `CREATE DATABASE ... TEMPLATE`, on PGlite a copy of
 * the migrated data folder. A server started on it finds nothing left to migrate.
 */
export async function migratedDatabaseTarget(): Promise<MigratedDatabase> {
  const adminUrl = inject("postgresUrl");
  const nothing = async () => undefined;
  if (adminUrl) {
    const template = inject("postgresTemplate");
    return { target: await createPostgresDatabase(adminUrl, template || undefined), release: nothing };
  }
  const templateDir = inject("pgliteTemplateDir");
  // Without the global setup (a project that does not name it): an empty database, migrated at start.
  if (!templateDir) return { target: { kind: "pglite", dataDir: "memory://" }, release: nothing };
  const dir = await mkdtemp(path.join(path.dirname(templateDir), "db-"));
  await cp(templateDir, dir, {
    recursive: true,
    // The template was closed, so it holds no lock; a stray one would make the copy look taken.
    filter: (source) => path.basename(source) !== LOCK_FILE,
  });
  return {
    target: { kind: "pglite", dataDir: dir },
    release: () => rm(dir, { recursive: true, force: true }),
  };
}

async function createPostgresDatabase(adminUrl: string, template?: string): Promise<DatabaseTarget> {
  const name = `quayside_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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
