import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, SqlRunner } from "./database";

/**
 * Applies the committed `prisma/migrations/<name>/migration.sql` files ourselves, because
 * `prisma migrate deploy` through a driver adapter fails on PostgreSQL (prisma/orm#27403) and the
 * native engine cannot be downloaded offline. Rows go into Prisma's own `_prisma_migrations` table
 * with the same sha256 checksum, so `prisma migrate status` agrees with us.
 *
 * Several instances starting at once on one PostgreSQL serialise on an advisory lock: the first
 * applies, the others wait, then find nothing left to do.
 */
const MIGRATION_LOCK_ID = 0x51a75_1de; // "quayside" in spirit; any constant shared by every instance

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationChecksumError extends Error {}

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function applyMigrations(db: Database, dir: string = MIGRATIONS_DIR): Promise<MigrationReport> {
  const migrations = await readMigrations(dir);
  return db.withAdvisoryLock(MIGRATION_LOCK_ID, async (sql) => {
    await sql.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await sql.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new MigrationChecksumError(
            `Migration ${migration.name} was edited after it was applied; add a new migration instead.`,
          );
        }
        report.alreadyApplied.push(migration.name);
        continue;
      }
      await applyOne(sql, migration);
      report.applied.push(migration.name);
    }
    // PGlite learns the array types (an enum's `"ReferenceKind"[]`, say) when it opens; types a
    // migration created since are unknown to its parameter serialiser, which sends a JS array of them
    // as `a,b` ("malformed array literal"). A fresh embedded install opens its folder blank and
    // migrates it, so without this every batch of the lookup log failed until the next restart.
    if (report.applied.length > 0) await db.pglite?.refreshArrayTypes();
    return report;
  });
}

async function applyOne(sql: SqlRunner, migration: MigrationFile): Promise<void> {
  // One transaction per migration: a failing file leaves no half-applied schema behind.
  await sql.exec("BEGIN");
  try {
    await sql.exec(migration.sql);
    await sql.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
       VALUES ($1, $2, now(), $3, 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await sql.exec("COMMIT");
  } catch (error) {
    await sql.exec("ROLLBACK");
    throw error;
  }
}
