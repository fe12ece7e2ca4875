// Runs in a worker thread (migrated-template.ts): a new in-memory PGlite database with every migration
// applied, sent back as the bytes of its data folder. The TypeScript modules load through tsx's loader,
// registered here because a worker does not inherit the one `bin/quayside.mjs` registered.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { openDatabase } = await import("./database.ts");
const { applyMigrations } = await import("./migrate.ts");
const db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
try {
  await applyMigrations(db);
  const dump = await db.pglite.dumpDataDir("none");
  const bytes = new Uint8Array(await dump.arrayBuffer());
  parentPort.postMessage(bytes, [bytes.buffer]);
} finally {
  await db.close();
}
