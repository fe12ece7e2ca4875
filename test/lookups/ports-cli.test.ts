import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseEnvironment, freshDatabaseTarget } from "../support/database";

const run = promisify(execFile);
const BIN = path.resolve("bin/quayside.mjs");
let env: Record<string, string>;
let dir: string;

// A small release in the official UNECE layout (no header, "ddmmN dddmmE" coordinates).
const CODE_LIST = [
  ',"NL",,".NETHERLANDS",,,,,,,,',
  ',"NL","RTM","Rotterdam","Rotterdam","ZH","AI","12345---","0001",,"5155N 00430E",""',
  ',"NL","UTC","Utrecht","Utrecht","UT","AI","-23-----","0001",,"5205N 00507E",""',
  ',"CN","SGH","Shanghai","Shanghai","SH","AS","12345---","0001",,"3114N 12129E",""',
  ',"CN","SHA","Shanghai Hongqiao International Apt","Shanghai Hongqiao International Apt","SH","AS","---4----","0001",,"3112N 12120E",""',
].join("\n");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "quayside-ports-cli-"));
  writeFileSync(path.join(dir, "2024-1 UNLOCODE CodeListPart1.csv"), CODE_LIST);
  writeFileSync(path.join(dir, "2024-1 SubdivisionCodes.csv"), '"NL","ZH","Zuid-Holland","Province"\n');
  const target = await freshDatabaseTarget();
  env = {
    ...(process.env as Record<string, string>),
    QUAYSIDE_LOG_LEVEL: "silent",
    ...(target.kind === "postgres"
      ? databaseEnvironment(target)
      : { QUAYSIDE_DATA_DIR: path.join(dir, "data") }),
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("quayside ports import", () => {
  it("imports a release folder and reports what it wrote", async () => {
    const { stdout } = await run("node", [BIN, "ports", "import", dir, "--json"], { env });
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      layout: "official",
      ports: 2,
      withCoordinates: 2,
      withTimeZone: 2,
      withSubdivision: 2,
      aliases: [{ alias: "CNSHA", locode: "CNSGH" }],
    });
  });
});
