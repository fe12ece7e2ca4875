import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { OPERATION_FOLDERS } from "../../src/app/operation-folders";
import { loadConfig } from "../../src/config";
import {
  checkOperation,
  loadFragments,
  loadOperationFiles,
  OperationExecutor,
} from "../../src/graphql/executor";
import { publicSchema, schema } from "../../src/graphql/schema";

const limits = loadConfig({}).graphql;

describe("the printed schema", () => {
  it("is committed and current (run `npm run schema:print` after changing a type)", () => {
    const committed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(`${printSchema(publicSchema)}\n`);
  });

  it("documents its types and fields for the people who read it", () => {
    const printed = printSchema(publicSchema);
    expect(printed).toMatch(/"""\s*An API key\. The raw key is shown once/);
    expect(printed).not.toMatch(/keyHash/);
  });

  it("has no internal counter: recordApiCall runs only in the facades' own operations", () => {
    expect(publicSchema.getMutationType()?.getFields().recordApiCall).toBeUndefined();
    expect(schema.getMutationType()?.getFields().recordApiCall).toBeDefined();
    expect(printSchema(publicSchema)).not.toMatch(/recordApiCall/);
  });

  it("has no sandbox sample sender: sendSampleWebhook and the type only it returns stay internal", () => {
    expect(schema.getMutationType()?.getFields().sendSampleWebhook).toBeDefined();
    expect(publicSchema.getMutationType()?.getFields().sendSampleWebhook).toBeUndefined();
    expect(publicSchema.getType("SampleWebhookDelivery")).toBeUndefined();
    // A type a public field returns too stays, internal field or not.
    expect(publicSchema.getType("ApiUsage")).toBeDefined();
  });
});

/**
 * Persisted operations that cost more than a client may ask of /graphql in one request, and why. The
 * cost bound guards /graphql; the facades' own documents run without it, so these are checked for
 * everything else, and for really being over it (the list cannot go stale).
 */
const OVER_THE_CLIENT_COST: Record<string, string> = {
  TrackBatch:
    "v1 POST /track answers up to 50 whole tracking documents (every event of every box) in one response; a GraphQL client asks for them a few at a time",
};

describe("persisted operations of the facades", () => {
  it("every document parses, is one operation named like its file, validates, and stays within the default bounds", async () => {
    const files = (await Promise.all(OPERATION_FOLDERS.operations.map(loadOperationFiles))).flat();
    const fragments = await loadFragments(OPERATION_FOLDERS.fragments);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const over = file.name in OVER_THE_CLIENT_COST;
      const bounds = over ? { ...limits, maxCost: Number.MAX_SAFE_INTEGER } : limits;
      const checked = checkOperation(schema, file, { limits: bounds, fragments });
      expect(typeof checked, `${file.file}: ${String(checked)}`).not.toBe("string");
      if (over) expect(checkOperation(schema, file, { limits, fragments })).toMatch(/cost/);
    }
    await expect(OperationExecutor.load(schema, OPERATION_FOLDERS)).resolves.toBeDefined();
  });

  it("a broken document stops start-up with the file named", () => {
    expect(
      checkOperation(schema, { name: "Broken", source: "query Broken { carriers { nope } }" }, { limits }),
    ).toMatch(/nope/);
    expect(
      checkOperation(schema, { name: "Named", source: "query Other { plans { code } }" }, { limits }),
    ).toMatch(/named Named/);
    expect(
      checkOperation(
        schema,
        { name: "Two", source: "query Two { plans { code } } query Three { plans { code } }" },
        { limits },
      ),
    ).toMatch(/exactly one/);
  });
});
