import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

// Parsed by the Prisma CLI but never used: queries go through driver adapters (see TECH-NOTES.md).
process.env.DATABASE_URL ||= "postgresql://localhost/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  // Only `prisma migrate dev` uses this; an in-memory PGlite keeps authoring migrations offline.
  adapter: async () => new PrismaPGlite(new PGlite()),
});
