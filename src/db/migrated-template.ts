import { Worker } from "node:worker_threads";

// The template a test run already made, when one was provided (`provideMigratedTemplate`).
let provided: Promise<Blob> | undefined;

/**
 * A migrated, empty in-memory PGlite database, made in a worker thread and handed over as its data
 * folder's dump (`openDatabase`'s `loadDataDir`). Making one on the server's thread holds the event
 * loop for seconds in one piece (PostgreSQL's initdb inside PGlite: 10 s on this project's loaded
 * 2-core machine, then 1.7 s of migrations) while the server answers requests; loading the dump is
 * about a quarter of that. The sandbox world's database starts from it (issue 36).
 */
export function migratedTemplateOffThread(): Promise<Blob> {
  if (provided) return provided;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./migrated-template.worker.mjs", import.meta.url));
    worker.once("message", (bytes: Uint8Array<ArrayBuffer>) => resolve(new Blob([bytes])));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the template worker exited with code ${code}`)));
  });
}

/**
 * A migrated template this process already holds, used instead of making one: the test run makes one
 * per run (test/support/global-setup.ts), and a test app's sandbox world then skips the worker, which
 * is PGlite's initdb and every migration again, seconds of a core, for every world a run builds.
 */
export function provideMigratedTemplate(template: Promise<Blob>): void {
  provided = template;
}
