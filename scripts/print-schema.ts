import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { printSchema } from "graphql";
import { publicSchema as schema } from "../src/graphql/schema";

/** Writes the printed schema to schema.graphql; a test fails when the committed file is stale. */
const target = fileURLToPath(new URL("../schema.graphql", import.meta.url));
writeFileSync(target, `${printSchema(schema)}\n`);
process.stdout.write(`Wrote ${target}\n`);
