/**
 * Issue 39 item 17: the simulator holds a findable example of every compat message a carrier's answer
 * causes, documented in simulator/README.md. This tracks every row of that table through the compat
 * API and checks the `message` the row promises, and that the simulator lists the same references.
 *
 * Issue 39 item 15, end to end: a box query the carrier answers about another box (fault `other-box`)
 * is the carrier not knowing the box, not that box's journey stored under the asked number.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { SUCCESS_MESSAGES } from "./compat-schema";
import { compatGet, SIMULATOR_ENV } from "./support";

interface ExampleRow {
  reference: string;
  carrier: string;
  type: string;
  message: string;
}

/** The rows of the README's example table, as written. */
function documentedExamples(): ExampleRow[] {
  const readme = readFileSync(new URL("../../simulator/README.md", import.meta.url), "utf8");
  const section = readme.split("## Example references")[1]?.split("\n## ")[0] ?? "";
  const rows: ExampleRow[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim().replaceAll("`", ""));
    // | reference | carrier | type | message | what the carrier answers |
    if (cells.length < 6 || !/^[A-Z0-9]+$/.test(cells[1] ?? "") || cells[1] === "reference") continue;
    rows.push({ reference: cells[1]!, carrier: cells[2]!, type: cells[3]!, message: cells[4]! });
  }
  return rows;
}

const EXAMPLES = documentedExamples();

let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  org = await app.fixtures.organization({ plan: "professional" });
}, 120_000);
afterAll(() => app?.stop());

describe("the simulator's example references (README table)", () => {
  it("document every compat message a carrier's answer causes", () => {
    expect(new Set(EXAMPLES.map((row) => row.message))).toEqual(
      new Set([
        "SEALINE_CANCELED_SHIPMENT",
        "NO_CONTAINERS",
        "NO_EVENTS",
        "SEALINE_HASNT_PROVIDE_INFO",
        "SEALINE_NO_RESPONSE",
      ]),
    );
  });

  it("are the references the simulator lists under GET / examples", async () => {
    const index = (await (await fetch(app.simulator!.url)).json()) as {
      carriers: Array<{ scac: string; examples: unknown }>;
    };
    for (const row of EXAMPLES) {
      const carrier = index.carriers.find((c) => c.scac === row.carrier);
      expect(JSON.stringify(carrier?.examples), `${row.carrier} ${row.reference}`).toContain(
        `"${row.reference}"`,
      );
    }
  });

  it.each(EXAMPLES)("$carrier $type $reference answers $message on compat /tracking", async (row) => {
    const answer = await compatGet(app, org.key, "/tracking", {
      number: row.reference,
      type: row.type,
      sealine: row.carrier,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(row.message);
    const success = (SUCCESS_MESSAGES as readonly string[]).includes(row.message);
    expect(answer.body.status).toBe(success ? "success" : "error");
    if (success) expect(answer.body.data.metadata.number).toBe(row.reference);
  });
});

describe("a box query the carrier answers about another box (fault other-box)", () => {
  it("is SEALINE_HASNT_PROVIDE_INFO, keeps nothing, and warns in the log; the same carrier without the fault answers OK", async () => {
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 2,
      start: 420_000,
    });
    const [asked, control] = known as [string, string];
    app.simulator!.faults.set("MSCU", { mode: "other-box" });
    try {
      const answer = await compatGet(app, org.key, "/tracking", {
        number: asked,
        type: "CT",
        sealine: "MSCU",
      });
      expect(answer.body.message).toBe("SEALINE_HASNT_PROVIDE_INFO");
    } finally {
      app.simulator!.faults.clear("MSCU");
    }
    expect(await app.services.documents.find(org.organizationId, "MSCU", "container", asked)).toBeFalsy();
    expect(app.logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: "Carrier answered a container query about another box; treated as not found",
        scac: "MSCU",
        container: asked,
      }),
    );

    const normal = await compatGet(app, org.key, "/tracking", {
      number: control,
      type: "CT",
      sealine: "MSCU",
    });
    expect(normal.body.message).toBe("OK");
    expect(normal.body.data.containers.map((c: { number: string }) => c.number)).toEqual([control]);
  });
});
