/**
 * Issue 37: a v1 stored read that is not served from a kept answer reads each thing it shows once,
 * in a prepared statement: the shipment, its newest document, its boxes' terminal records and its
 * carrier push. Before, the document was read four times over (summary, terminal record, D&D,
 * final-destination ETA), the shipment a second time through Prisma (fields that named columns the
 * hot read had already brought) and the carrier push through Prisma: seven statements, three of them
 * compiled by Prisma on every read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let org: OrgWithKey;
let box: string;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      // Every read executes: what one costs is the subject.
      QUAYSIDE_ANSWER_CACHE: "false",
      QUAYSIDE_WORKERS: "off",
    },
  });
  org = await app.fixtures.organization({ plan: "professional" });
  box = (await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 1, unknown: 0 })).known[0]!;
  const tracked = await get(`/api/v1/container/${box}`);
  expect(tracked.status).toBe(200);
  // As the workers keep them: the prediction and the free time with its D&D schedule.
  while ((await app.services.eta.computeDue(100)) > 0) {}
  await app.services.freeTime.backfill();
}, 120_000);
afterAll(() => app?.stop());

function get(path: string) {
  return fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${org.key}` } });
}

/** The first table a statement reads (a row source such as `unnest(...)` is not one). */
function tableOf(sql: string): string {
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+(?:"public"\.)?"?([a-z_]+)"?/gi)) {
    if (m[1] !== "unnest") return m[1]!;
  }
  return sql;
}

/** The tables each statement of one request reads, in order. */
async function tablesRead(path: string): Promise<{ status: number; tables: string[] }> {
  const captured: string[] = [];
  app.services.db.statements.capture = captured;
  try {
    const res = await get(path);
    await res.arrayBuffer();
    return {
      status: res.status,
      tables: captured.map(tableOf),
    };
  } finally {
    app.services.db.statements.capture = null;
  }
}

describe("a v1 stored read that executes", () => {
  it("reads the shipment, its document, its terminal records and its carrier push once each, none through Prisma", async () => {
    const { status, tables } = await tablesRead(`/api/v1/shipments/${box}`);
    expect(status).toBe(200);
    expect(tables).toEqual(["shipments", "carrier_documents", "carrier_subscriptions", "terminal_records"]);
  });

  it("with the full document, still one read of the document", async () => {
    const { status, tables } = await tablesRead(`/api/v1/shipments/${box}?include=full`);
    expect(status).toBe(200);
    expect(tables.filter((t) => t === "carrier_documents")).toHaveLength(1);
    expect(tables).toHaveLength(4);
  });
});
