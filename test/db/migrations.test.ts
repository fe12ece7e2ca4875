import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/db/database";
import { applyMigrations, MIGRATIONS_DIR, MigrationChecksumError } from "../../src/db/migrate";
import { freshDatabaseTarget } from "../support/database";

describe("migrations", () => {
  it("are applied once, recorded in Prisma's own table, and a second run finds nothing to do", async () => {
    const db = await openDatabase(await freshDatabaseTarget());
    try {
      const first = await applyMigrations(db);
      expect(first.applied.length).toBeGreaterThan(0);
      const second = await applyMigrations(db);
      expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
      const { rows } = await db.sql.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual(first.applied);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
      // The schema's enum arrays are usable as parameters at once, as the lookup log's batch sends them
      // (on PGlite, whose folder a first start opens blank, they were not before a restart).
      const kinds = await db.sql.query<{ kind: string }>(
        `SELECT unnest($1::"ReferenceKind"[])::text AS kind`,
        [["booking", "container", "booking"]],
      );
      expect(kinds.rows.map((r) => r.kind)).toEqual(["booking", "container", "booking"]);
    } finally {
      await db.close();
    }
  });

  it("refuse to run when an applied migration was edited afterwards", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "quayside-migrations-"));
    const db = await openDatabase(await freshDatabaseTarget());
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      await applyMigrations(db, dir);
      const first = readdirSync(dir)
        .filter((f) => /^\d/.test(f))
        .sort()[0]!;
      writeFileSync(path.join(dir, first, "migration.sql"), "-- edited\n", { flag: "a" });
      await expect(applyMigrations(db, dir)).rejects.toBeInstanceOf(MigrationChecksumError);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failing migration leaves nothing half-applied", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "quayside-migrations-"));
    const db = await openDatabase(await freshDatabaseTarget());
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      await applyMigrations(db, dir);
      const broken = path.join(dir, "99990101000000_broken");
      cpSync(
        path.join(
          dir,
          readdirSync(dir)
            .filter((f) => /^\d/.test(f))
            .sort()[0]!,
        ),
        broken,
        { recursive: true },
      );
      writeFileSync(
        path.join(broken, "migration.sql"),
        'CREATE TABLE "half_done" (id int);\nSELECT no_such_function();\n',
      );
      await expect(applyMigrations(db, dir)).rejects.toThrow();
      const { rows } = await db.sql.query(`SELECT to_regclass('half_done') AS t`);
      expect(rows[0]).toEqual({ t: null });
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!inject("postgresUrl"))(
    "two instances starting at the same moment on one PostgreSQL apply each migration exactly once",
    async () => {
      const target = await freshDatabaseTarget();
      const instances = await Promise.all([openDatabase(target), openDatabase(target), openDatabase(target)]);
      try {
        const reports = await Promise.all(instances.map((db) => applyMigrations(db)));
        const appliedBy = reports.map((r) => r.applied.length);
        // Exactly one instance applied everything; the others waited on the lock and found it done.
        expect(appliedBy.filter((n) => n > 0)).toHaveLength(1);
        const { rows } = await instances[0]!.sql.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM "_prisma_migrations"`,
        );
        expect(Number(rows[0]!.n)).toBe(Math.max(...appliedBy));
        await instances[1]!.prisma.organization.create({ data: { name: "works" } });
      } finally {
        await Promise.all(instances.map((db) => db.close()));
      }
    },
  );
});
