import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database";
import { type LookupEntry, LookupLog } from "../../src/domain/tracking/lookup-log";
import { migratedDatabaseTarget } from "../support/database";

/**
 * The history ids of logged lookups (compat `/history?id=`): a batch numbers its own rows, per
 * organisation in the order they were logged, and a lookup the trigger numbers (a track's write)
 * takes the next number after them, so each organisation counts 1, 2, 3 ... without a gap or a repeat.
 */
let db: Database;
let log: LookupLog;

beforeAll(async () => {
  const { target, loadDataDir } = await migratedDatabaseTarget();
  db = await openDatabase(target, { loadDataDir });
  for (const org of ["org-a", "org-b"]) {
    await db.sql.query(`INSERT INTO organizations (id, name) VALUES ($1, $1)`, [org]);
  }
  log = new LookupLog(db.prepared);
});
afterAll(async () => {
  await log?.close();
  await db?.close();
});

const entry = (organizationId: string, reference: string): LookupEntry => ({
  organizationId,
  apiKeyId: null,
  surface: "compat",
  reference,
  referenceType: "container",
  referenceKey: reference,
  carrierScac: "MSCU",
  outcome: "tracked",
  fromCache: true,
  documentVersionId: null,
  createdAt: new Date("2026-12-01T07:00:00Z"),
});

const numbered = async (organizationId: string) =>
  (
    await db.sql.query<{ reference: string; number: number }>(
      `SELECT reference, number FROM tracking_lookups WHERE organization_id = $1 ORDER BY number`,
      [organizationId],
    )
  ).rows.map((r) => [r.reference, Number(r.number)]);

describe("logged lookups' history ids", () => {
  it("count on per organisation across batches and lookups numbered one by one", async () => {
    const first = [
      log.append(entry("org-a", "MSCU1000001")),
      log.append(entry("org-b", "MSCU2000001")),
      log.append(entry("org-a", "MSCU1000002")),
    ];
    expect(await Promise.all(first.map((number) => number()))).toEqual([1, 1, 2]);
    // A track's own write: numbered by the trigger, after the batch.
    await db.sql.query(
      `INSERT INTO tracking_lookups (organization_id, surface, reference, reference_type, reference_key, outcome)
       VALUES ('org-a', 'v1', 'MSCU1000003', 'container', 'MSCU1000003', 'tracked')`,
    );
    const second = [
      log.append(entry("org-b", "MSCU2000002")),
      log.append(entry("org-a", "MSCU1000004")),
      log.append(entry("org-a", "MSCU1000005")),
    ];
    expect(await Promise.all(second.map((number) => number()))).toEqual([2, 4, 5]);
    expect(await numbered("org-a")).toEqual([
      ["MSCU1000001", 1],
      ["MSCU1000002", 2],
      ["MSCU1000003", 3],
      ["MSCU1000004", 4],
      ["MSCU1000005", 5],
    ]);
    expect(await numbered("org-b")).toEqual([
      ["MSCU2000001", 1],
      ["MSCU2000002", 2],
    ]);
  });
});
