/**
 * The migrated database template made in a worker thread (src/db/migrated-template.ts, issue 36): the
 * sandbox world's database starts from it, so PGlite's initdb and the migrations (seconds of work in
 * one piece) no longer hold the server's event loop while it answers requests.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database";
import { applyMigrations } from "../../src/db/migrate";
import { migratedTemplateOffThread } from "../../src/db/migrated-template";

describe("the migrated template made off the server's thread", { timeout: 300_000 }, () => {
  it("opens as a database with every migration applied, and the event loop ran while it was made", async () => {
    const started = performance.now();
    let last = started;
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const template = await migratedTemplateOffThread();
    clearInterval(timer);
    const making = performance.now() - started;
    // Made on this thread, the making is one block as long as itself (initdb is one call into PGlite);
    // made in the worker, this thread's timers keep running through it.
    expect(longestGap).toBeLessThan(making / 2);

    const db = await openDatabase({ kind: "pglite", dataDir: "memory://" }, { loadDataDir: template });
    try {
      const report = await applyMigrations(db);
      expect(report.applied).toEqual([]);
      expect(report.alreadyApplied.length).toBeGreaterThan(20);
      const { rows } = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations");
      expect(rows[0]!.n).toBe(0);
    } finally {
      await db.close();
    }
  });
});
