import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database";
import { applyMigrations, MIGRATIONS_DIR } from "../../src/db/migrate";
import { freshDatabaseTarget } from "../support/database";

const MIGRATION = "20261124211234_tenant_numbering_and_documents";

/**
 * Upgrading a database that numbered shipments and history ids platform-wide and shared documents:
 * every number already handed out keeps resolving, each organisation then counts on from its own
 * highest, and a stored document goes to the one organisation that used it (a shared one to none).
 */
describe(`migration ${MIGRATION}`, () => {
  it("keeps existing SHP numbers and history ids, counts on per organisation, and assigns single-user documents", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "quayside-migrations-"));
    const db = await openDatabase(await freshDatabaseTarget());
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      // The database as it was before: every migration up to this one.
      for (const name of readdirSync(dir).filter((f) => /^\d/.test(f) && f >= MIGRATION)) {
        rmSync(path.join(dir, name), { recursive: true });
      }
      await applyMigrations(db, dir);
      const sql = (text: string, params: unknown[] = []) => db.sql.query(text, params);
      for (const org of ["a", "b", "c"]) {
        await sql(`INSERT INTO organizations (id, name) VALUES ($1, $1)`, [org]);
        await sql(
          `INSERT INTO users (id, organization_id, email, name) VALUES ($1, $1, $1 || '@x.test', $1)`,
          [org],
        );
      }
      // Documents: one only a's, one both used, one only b's logged call points at.
      for (const [id, key] of [
        ["doc-a", "MSCU1000001"],
        ["doc-ab", "MSCU1000002"],
        ["doc-b", "MSCU1000003"],
      ] as const) {
        await sql(
          `INSERT INTO carrier_documents (id, carrier_scac, reference_type, reference_key, latest_version, last_synced_at)
           VALUES ($1, 'MSCU', 'container', $2, 1, now())`,
          [id, key],
        );
        await sql(
          `INSERT INTO document_versions (id, document_id, version, content, content_hash, fetched_at)
           VALUES ($1 || '-v1', $1, 1, '{}', 'h', now())`,
          [id],
        );
      }
      // Interleaved, as a platform-wide sequence hands them out: a 1, b 2, a 3, a 4, b 5.
      const shipments: [string, string, string | null][] = [
        ["a", "MSCU1000001", "doc-a"],
        ["b", "MSCU1000002", "doc-ab"],
        ["a", "MSCU1000002", "doc-ab"],
        ["a", "MSCU1000004", null],
        ["b", "MSCU1000005", null],
      ];
      for (const [i, [org, key, doc]] of shipments.entries()) {
        await sql(
          `INSERT INTO shipments (id, organization_id, added_by_user_id, reference_type, reference, reference_key, document_id)
           VALUES ($1, $2, $2, 'container', $3, $3, $4)`,
          [`s${i + 1}`, org, key, doc],
        );
        await sql(
          `INSERT INTO tracking_lookups (organization_id, surface, reference, reference_type, reference_key, outcome, document_version_id)
           VALUES ($1, 'compat', $2, 'container', $2, 'tracked', $3)`,
          [org, key, org === "b" && i === 4 ? "doc-b-v1" : doc ? `${doc}-v1` : null],
        );
      }

      cpSync(path.join(MIGRATIONS_DIR, MIGRATION), path.join(dir, MIGRATION), { recursive: true });
      expect((await applyMigrations(db, dir)).applied).toEqual([MIGRATION]);

      const numbers = async (table: string) =>
        (
          await db.sql.query<{ organization_id: string; number: string }>(
            `SELECT organization_id, number::text AS number FROM ${table} ORDER BY organization_id, number`,
          )
        ).rows.map((r) => `${r.organization_id}${r.number}`);
      expect(await numbers("shipments")).toEqual(["a1", "a3", "a4", "b2", "b5"]);
      expect(await numbers("tracking_lookups")).toEqual(["a1", "a3", "a4", "b2", "b5"]);

      // New rows: each organisation counts on from its own highest; a new one starts at 1.
      for (const [i, org] of ["a", "b", "c"].entries()) {
        await sql(
          `INSERT INTO shipments (id, organization_id, added_by_user_id, reference_type, reference, reference_key)
           VALUES ($1, $2, $2, 'container', 'MSCU2000000', 'MSCU2000000')`,
          [`new${i}`, org],
        );
        await sql(
          `INSERT INTO tracking_lookups (organization_id, surface, reference, reference_type, reference_key, outcome)
           VALUES ($1, 'v1', 'MSCU2000000', 'container', 'MSCU2000000', 'tracked')`,
          [org],
        );
      }
      const newest = async (table: string) =>
        (
          await db.sql.query<{ organization_id: string; number: string }>(
            `SELECT organization_id, number::text AS number FROM ${table} WHERE reference_key = 'MSCU2000000' ORDER BY organization_id`,
          )
        ).rows.map((r) => `${r.organization_id}${r.number}`);
      expect(await newest("shipments")).toEqual(["a5", "b6", "c1"]);
      expect(await newest("tracking_lookups")).toEqual(["a5", "b6", "c1"]);

      const owners = await db.sql.query<{ id: string; organization_id: string | null }>(
        `SELECT id, organization_id FROM carrier_documents ORDER BY id`,
      );
      expect(owners.rows).toEqual([
        { id: "doc-a", organization_id: "a" },
        { id: "doc-ab", organization_id: null },
        { id: "doc-b", organization_id: "b" },
      ]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
