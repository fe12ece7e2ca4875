/**
 * Import boundaries as an allowlist (issue 40; docs/decisions/architecture.md "Boundaries"): every
 * layer says what it MAY import, and an import no rule allows fails `npm run lint`. A new folder or a
 * new path is therefore refused until someone writes down why a layer needs it, which a blocklist
 * never does (a probe of 13 forbidden imports got 7 through Biome's list). Paths are resolved files,
 * so `../../src/app/services`, `@prisma/client` and a re-export all count as what they are.
 * test/unit/boundaries.test.ts tries each forbidden import and expects this check to fail.
 *
 * Layers, top to bottom (an arrow only ever points down):
 *   bin -> src/cli -> src/app (composition root) -> facades, src/graphql, src/jobs, src/operator,
 *   src/http, src/upstream, simulator -> src/services.ts -> src/domain -> src/db, src/observability
 *   -> src/config.ts -> src/lib; src/generated (Prisma's client) and reference-data are leaves.
 */

/** npm packages, by name, as resolved under node_modules. */
const npm = (...names) => `^node_modules/(${names.map((n) => n.replace(/[.]/g, "\\.")).join("|")})/`;

/** Any runtime package (`dependencies`), never a devDependency: the image prunes those. */
const RUNTIME_PACKAGES = { dependencyTypes: ["npm", "core"] };

const CONFIGURATION = "^src/(config|config-error|workspace-config)\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  allowedSeverity: "error",
  allowed: [
    // Node's own modules, from anywhere.
    { from: {}, to: { dependencyTypes: ["core"] } },
    // Type declarations (@types/geojson) are devDependencies, and fine where only types are imported:
    // nothing of them exists at run time.
    {
      from: { path: "^(src|facades)/" },
      to: { path: "^node_modules/@types/", dependencyTypes: ["type-only"] },
    },

    // bin: the command only loads the CLI through tsx.
    { from: { path: "^bin/" }, to: { path: ["^src/cli/", npm("tsx")] } },

    // The composition root and the CLI beside it know everything below them, facades and the simulator
    // included (the embedded simulator, the operation folders).
    {
      from: { path: "^src/(app|cli)/" },
      to: { path: ["^src/", "^facades/", "^simulator/", "^reference-data/"] },
    },
    { from: { path: "^src/(app|cli)/" }, to: RUNTIME_PACKAGES },

    // Facades translate and never decide: their own folder, the facade kit, the generated operation
    // types, the gate and outcome table (src/http) and the operation runner. Never src/domain, src/db,
    // src/upstream, src/app, src/config, Prisma or the simulator.
    {
      from: { path: "^facades/(compat|v1|mcp|share|dashboard)/" },
      to: {
        path: [
          "^facades/$1/",
          "^facades/(facade\\.ts|generated/)",
          "^src/http/",
          "^src/graphql/operation-runner\\.ts$",
          npm(
            "express",
            "zod",
            "zod-openapi",
            "openapi-to-postmanv2",
            "@modelcontextprotocol/server",
            "@graphql-typed-document-node/core",
            "d3-geo",
            "topojson-client",
            "world-atlas",
            "htmx.org",
          ),
        ],
      },
    },
    // The dashboard draws a shipment's route with the share page's map (one drawing, two pages).
    { from: { path: "^facades/dashboard/" }, to: { path: "^facades/share/map\\.ts$" } },
    {
      from: { path: "^facades/facade\\.ts$" },
      to: { path: ["^src/http/", "^src/graphql/operation-runner\\.ts$", npm("express")] },
    },
    { from: { path: "^facades/generated/" }, to: { path: npm("@graphql-typed-document-node/core") } },

    // The GraphQL core: domain services through the Services contract, the outcome table, never the
    // composition root, the facades, the adapters or configuration.
    {
      from: { path: "^src/graphql/" },
      to: {
        path: [
          "^src/graphql/",
          "^src/services\\.ts$",
          "^src/domain/",
          "^src/db/",
          "^src/generated/",
          "^src/observability/",
          "^src/lib/",
          "^src/http/outcomes\\.ts$",
        ],
      },
    },
    { from: { path: "^src/graphql/" }, to: RUNTIME_PACKAGES },

    // Jobs: the domain's background work, handed the Services contract.
    {
      from: { path: "^src/jobs/" },
      to: { path: ["^src/jobs/", "^src/services\\.ts$", "^src/domain/", "^src/observability/", "^src/lib/"] },
    },
    { from: { path: "^src/jobs/" }, to: RUNTIME_PACKAGES },

    // The operator endpoint (the CLI's way into a running server).
    {
      from: { path: "^src/operator/" },
      to: {
        path: [
          "^src/operator/",
          "^src/http/",
          "^src/domain/",
          "^src/db/",
          "^src/generated/",
          "^src/observability/",
          "^src/lib/",
          CONFIGURATION,
        ],
      },
    },
    { from: { path: "^src/operator/" }, to: RUNTIME_PACKAGES },

    // The gate (keys, windows, connections) and the outcome table.
    {
      from: { path: "^src/http/" },
      to: {
        path: ["^src/http/", "^src/domain/", "^src/db/", "^src/observability/", "^src/lib/", CONFIGURATION],
      },
    },
    { from: { path: "^src/http/" }, to: RUNTIME_PACKAGES },

    // Adapters implement the domain's ports; they never reach back into the GraphQL core or the app.
    {
      from: { path: "^src/upstream/" },
      to: { path: ["^src/upstream/", "^src/domain/", "^src/generated/", "^src/observability/", "^src/lib/"] },
    },
    { from: { path: "^src/upstream/" }, to: RUNTIME_PACKAGES },

    // What the composition root hands requests, jobs and commands: types of the layers below.
    {
      from: { path: "^src/services\\.ts$" },
      to: { path: ["^src/domain/", "^src/db/", "^src/observability/", "^src/lib/", CONFIGURATION] },
    },

    // The domain: its own rules and ports, the database it owns, logs and metrics, the shared carrier
    // facts, src/lib. Not configuration (it is handed values), not GraphQL, HTTP, adapters or the app.
    {
      from: { path: "^src/domain/" },
      to: {
        path: [
          "^src/domain/",
          "^src/db/",
          "^src/generated/",
          "^src/observability/",
          "^src/lib/",
          "^reference-data/",
        ],
      },
    },
    { from: { path: "^src/domain/" }, to: RUNTIME_PACKAGES },

    {
      from: { path: "^src/db/" },
      to: { path: ["^src/db/", "^src/generated/", "^src/observability/", "^src/lib/", CONFIGURATION] },
    },
    { from: { path: "^src/db/" }, to: RUNTIME_PACKAGES },

    {
      from: { path: "^src/observability/" },
      to: { path: ["^src/observability/", "^src/lib/", CONFIGURATION] },
    },
    { from: { path: "^src/observability/" }, to: RUNTIME_PACKAGES },

    // Configuration is the bottom of the service: it reads the environment and names no adapter.
    {
      from: { path: "^src/config\\.ts$" },
      to: { path: ["^src/(config-error|workspace-config)\\.ts$", "^src/lib/"] },
    },
    { from: { path: "^src/workspace-config\\.ts$" }, to: { path: ["^src/config-error\\.ts$", "^src/lib/"] } },
    { from: { path: CONFIGURATION }, to: { path: npm("zod") } },

    { from: { path: "^src/lib/" }, to: { path: "^src/lib/" } },
    { from: { path: "^src/lib/" }, to: RUNTIME_PACKAGES },
    { from: { path: "^src/generated/" }, to: { path: "^src/generated/" } },
    { from: { path: "^src/generated/" }, to: RUNTIME_PACKAGES },

    // The carrier simulator is a program of its own: its folder, the shared carrier facts and the clock.
    {
      from: { path: "^simulator/" },
      to: { path: ["^simulator/", "^reference-data/", "^src/lib/clock\\.ts$"] },
    },
    { from: { path: "^reference-data/" }, to: { path: "^reference-data/" } },
  ],
  forbidden: [
    {
      name: "no-cycle-between-files-of-different-layers",
      comment:
        "Two modules that import each other are one module in two files; across layers that is an arrow pointing up.",
      severity: "error",
      from: { path: "^src/(config|workspace-config|config-error|services)\\.ts$" },
      to: { circular: true },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are arrows too: `import type { Services } from "../app/services"` made the core
    // depend on the composition root.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(test|bench|scripts)/" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      // Type-only packages (@graphql-typed-document-node/core) have nothing but `typings`.
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".mts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
