import { existsSync, mkdtempSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/config";
import { migratedDatabaseTarget, migratedPgliteTemplate } from "./database";

/**
 * Migrated databases for child processes (`quayside serve`, the CLI) and for apps started on a PGlite
 * data folder, for tests whose subject is not the first start itself.
 *
 * A child cannot load the run's in-memory template the way `startTestApp` does: it opens a folder. On
 * a fresh folder it ran PGlite's initdb and every migration itself, several seconds of a core before
 * it listened (the first migration of test/cli/cli.test.ts took 27 s on the loaded CI machine). Here
 * each gets a copy of one migrated folder instead, made once per run from the global setup's dump and
 * kept beside it (removed with it). A test that checks the first start (initdb, migrations, the demo
 * key printed then, a stale lock taken over) keeps a fresh folder: this is not for it.
 */

/** The name of the run's migrated folder, beside the dump (the run's scratch folder, in memory). */
const TEMPLATE_FOLDER = "template-data-folder";

let templateFolder: Promise<string | undefined> | undefined;

/**
 * The run's migrated PGlite data folder, or undefined without the global setup. Made by whichever
 * test process asks first: each makes its own under a name of its own and renames it into place, so
 * two files starting at once never see a half-written folder (the second's rename fails, and it uses
 * the first's).
 */
function migratedTemplateFolder(): Promise<string | undefined> {
  templateFolder ??= (async () => {
    const dump = inject("pgliteTemplate");
    const template = migratedPgliteTemplate();
    if (!dump || !template) return undefined;
    const folder = path.join(path.dirname(dump), TEMPLATE_FOLDER);
    if (existsSync(path.join(folder, "PG_VERSION"))) return folder;
    const own = `${folder}.${process.pid}.${Date.now().toString(36)}`;
    const pglite = new PGlite(own, { loadDataDir: await template });
    await pglite.waitReady;
    await pglite.close();
    try {
      await rename(own, folder);
    } catch {
      // Another test process put its copy there first: the same bytes.
      await rm(own, { recursive: true, force: true });
    }
    return folder;
  })();
  return templateFolder;
}

/**
 * A new PGlite data folder holding a copy of the run's migrated one: a `quayside serve` or CLI command
 * opened on it finds nothing to migrate. It is made in the run's scratch folder (memory where the
 * system has /dev/shm: `cp -r` of the 30 MB folder took 0.25 s there and 4.3 s to /tmp's disk on the
 * loaded 2-core machine, and the child's own writes are quicker too), and goes with it at the end of
 * the run. Without the global setup, a new folder in the system's temporary folder: the process
 * migrates it itself.
 */
export async function migratedDataFolder(): Promise<string> {
  const template = await migratedTemplateFolder();
  const dir = freshDataFolder();
  if (template) await cp(template, dir, { recursive: true });
  return dir;
}

/**
 * The path of a new, not yet existing data folder, for a test whose subject is the first start
 * (initdb, migrations, the demo key printed then, a stale lock): in the run's scratch folder (memory,
 * removed with the run) where there is one, as the migrated copies are; else in the system's
 * temporary folder. A first start writes a whole new database there, as much as the copy above.
 */
export function freshDataFolder(): string {
  const dump = inject("pgliteTemplate");
  const root = dump ? path.dirname(dump) : os.tmpdir();
  return path.join(mkdtempSync(path.join(root, "child-")), "data");
}

/**
 * The database a child service owns, already migrated: on the PostgreSQL pass a database copied from
 * the run's template (`CREATE DATABASE ... TEMPLATE`), on PGlite a migrated data folder of its own (a
 * folder, so a restart on it reads what the first start left).
 */
export async function migratedServiceDatabase(): Promise<DatabaseTarget> {
  if (inject("postgresUrl")) return (await migratedDatabaseTarget()).target;
  return { kind: "pglite", dataDir: await migratedDataFolder() };
}
