import { defineConfig } from "vitest/config";

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build (what Pothos and Yoga load); Vite would pick the
  // .mjs build for our files, and graphql-js refuses two copies of itself in one process.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
  },
});
