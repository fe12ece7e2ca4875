import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// Parsed by the Prisma CLI but never used: queries go through driver adapters. Prisma 6.19's CLI
// wants it set, or it falls back to downloading the library engine.
process.env.DATABASE_URL ||= "postgresql://localhost/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  // The CLI wants an adapter to parse the config; migrations are written by scripts/new-migration.sh
  // (a schema-to-schema diff, no database) and applied by the application (src/db/migrate.ts).
  adapter: async () => new PrismaPGlite(new PGlite()),
});
