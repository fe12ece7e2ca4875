import { defineConfig } from "vitest/config";

/**
 * Four lanes that follow test/'s folders (docs/testing.md): `npm run test:unit` and the others run one.
 * The lanes that touch a database name the global setup, which makes the migrated templates once per
 * run; the unit lane has none and starts in a second.
 */
const DATABASE_SETUP = ["test/support/global-setup.ts"];
/** Stops and reports an app a file left running, which a kept worker would carry into the next file. */
const FILE_GUARD = ["test/support/file-guard.ts"];

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build (what Pothos and Yoga load); Vite would pick the
  // .mjs build for our files, and graphql-js refuses two copies of itself in one process.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time on the 2-core machine (vitest's default there is one): most of a file's
    // wall time is waiting on sockets, timers and child processes.
    maxWorkers: 2,
    // Each run transformed the whole TypeScript graph again (esbuild, in vitest's main process): kept on
    // disk (node_modules/.experimental-vitest-cache, keyed by each file's content and the lockfile),
    // a later run reads it. `npm test`'s PostgreSQL pass and CI's Node subsets follow a run that wrote
    // it; one file's run on the loaded machine: 34.6 s of CPU with an empty cache, 23.0 s with it.
    experimental: { fsModuleCache: true },
    // Each worker process keeps its module graph from one file to the next: a fresh graph per file
    // (vitest's default) imported the app's TypeScript again for every file, 941 s a pass summed over
    // the files on the slower 2-core machine, a third of the pass's wall time. No file mocks modules
    // or changes the process-wide state an app reads without restoring it; FILE_GUARD stops an app
    // a file forgot.
    isolate: false,
    projects: [
      {
        extends: true,
        // Pure functions, no server and no database: one process runs every file (half the lane's time).
        test: { name: "unit", include: ["test/unit/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "graphql",
          include: ["test/graphql/**/*.test.ts", "test/db/**/*.test.ts"],
          globalSetup: DATABASE_SETUP,
          setupFiles: FILE_GUARD,
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: [
            "test/api/**/*.test.ts",
            "test/compat/**/*.test.ts",
            "test/mcp/**/*.test.ts",
            "test/cli/**/*.test.ts",
            "test/lookups/**/*.test.ts",
          ],
          globalSetup: DATABASE_SETUP,
          setupFiles: FILE_GUARD,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: [
            "test/e2e/**/*.test.ts",
            "test/integration/**/*.test.ts",
            "test/reliability/**/*.test.ts",
            "test/security/**/*.test.ts",
            "test/observability/**/*.test.ts",
            "test/simulator/**/*.test.ts",
          ],
          globalSetup: DATABASE_SETUP,
          setupFiles: FILE_GUARD,
        },
      },
    ],
  },
});
