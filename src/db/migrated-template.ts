import { Worker } from "node:worker_threads";

/**
 * A migrated, empty in-memory PGlite database, made in a worker thread and handed over as its data
 * folder's dump (`openDatabase`'s `loadDataDir`). Making one on the server's thread holds the event
 * loop for seconds in one piece (PostgreSQL's initdb inside PGlite: 10 s on this project's loaded
 * 2-core machine, then 1.7 s of migrations) while the server answers requests; loading the dump is
 * about a quarter of that. The sandbox world's database starts from it (issue 36).
 */
export function migratedTemplateOffThread(): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./migrated-template.worker.mjs", import.meta.url));
    worker.once("message", (bytes: Uint8Array<ArrayBuffer>) => resolve(new Blob([bytes])));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the template worker exited with code ${code}`)));
  });
}
