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
});

describe("persisted operations of the facades", () => {
  it("every document parses, is one operation named like its file, validates, and stays within the default bounds", async () => {
    const files = (await Promise.all(OPERATION_FOLDERS.operations.map(loadOperationFiles))).flat();
    const fragments = await loadFragments(OPERATION_FOLDERS.fragments);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const checked = checkOperation(schema, file.name, file.source, limits, fragments);
      expect(typeof checked, `${file.file}: ${String(checked)}`).not.toBe("string");
    }
    await expect(OperationExecutor.load(schema, OPERATION_FOLDERS)).resolves.toBeDefined();
  });

  it("a broken document stops start-up with the file named", () => {
    expect(checkOperation(schema, "Broken", "query Broken { carriers { nope } }", limits)).toMatch(/nope/);
    expect(checkOperation(schema, "Named", "query Other { plans { code } }", limits)).toMatch(/named Named/);
    expect(
      checkOperation(schema, "Two", "query Two { plans { code } } query Three { plans { code } }", limits),
    ).toMatch(/exactly one/);
  });
});
