import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/config";

/** A fresh, empty database for one test file: in-memory PGlite, or a new database on PostgreSQL. */
export async function freshDatabaseTarget(): Promise<DatabaseTarget> {
  const adminUrl = inject("postgresUrl");
  if (!adminUrl) return { kind: "pglite", dataDir: "memory://" };
  return createPostgresDatabase(adminUrl);
}

export interface MigratedDatabase {
  target: DatabaseTarget;
  /** On PGlite: the migrated template to load into the in-memory database (`openDatabase`'s option). */
  loadDataDir?: Blob;
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A fresh database with every migration already applied, copied from the run's template
 * (`test/support/global-setup.ts`): on PostgreSQL `CREATE DATABASE ... TEMPLATE`, on PGlite an
 * in-memory database loaded from the template's dump. A server started on it finds nothing to migrate.
 */
export async function migratedDatabaseTarget(): Promise<MigratedDatabase> {
  const adminUrl = inject("postgresUrl");
  if (adminUrl) {
    const template = inject("postgresTemplate");
    return { target: await createPostgresDatabase(adminUrl, template || undefined) };
  }
  const target: DatabaseTarget = { kind: "pglite", dataDir: "memory://" };
  const template = migratedPgliteTemplate();
  // Without the global setup (a project that does not name it): an empty database, migrated at start.
  if (!template) return { target };
  return { target, loadDataDir: await template };
}

/**
 * The run's migrated PGlite template (on both passes), or undefined without the global setup. Read
 * once per test process; every app of the file loads the same bytes.
 */
export function migratedPgliteTemplate(): Promise<Blob> | undefined {
  const file = inject("pgliteTemplate");
  if (!file) return undefined;
  pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
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
