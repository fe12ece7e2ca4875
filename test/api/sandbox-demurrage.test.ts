import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
  // The first sandbox request builds the world (tens of seconds on a busy machine).
  await fetch(`${app.url}/api/v1/sandbox/carriers`);
}, 240_000);
afterAll(() => app?.stop());

const sandbox = async (path: string) => {
  const res = await fetch(`${app.url}/api/v1/sandbox${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("sandbox demurrage and detention", () => {
  it("the fixed shipments show every D&D status, each with what explains it", async () => {
    const { body } = await sandbox("/shipments?pageSize=100");
    const byName = new Map<string, Record<string, any>>(
      (body.data as Record<string, any>[]).map((s) => [s.name, s.demurrage_risk]),
    );
    expect(new Set([...byName.values()].map((r) => r?.status))).toEqual(
      new Set(["within_free_time", "at_risk", "overdue", "closed", "unknown"]),
    );
    // The demo contract at SHP-1002's port: one free day from discharge, costs accruing. Its terminal
    // gives only its own storage day, which the contract beats (docs/decisions/demurrage.md).
    expect(byName.get("SHP-1002")).toMatchObject({
      status: "overdue",
      charge_type: "combined",
      terms_source: "contract",
      confidence: "high",
      currency: "USD",
      next_daily_rate: 95,
    });
    const overdue = byName.get("SHP-1002")!;
    expect(overdue.days_remaining).toBeLessThan(0);
    expect(overdue.accrued_cost).toBe(overdue.overrun_days * 95);
    // The failed shipment has no carrier document to count from.
    expect(byName.get("SHP-1007")).toMatchObject({
      status: "unknown",
      unknown_reason: "no_tracking_facts",
      containers: 0,
    });
    // Delivered boxes are back at a depot: their detention is closed.
    for (const name of ["SHP-1005", "SHP-1006"]) {
      expect(byName.get(name)).toMatchObject({ status: "closed", charge_type: "detention" });
    }
  });

  it("the single read carries the same demurrage_risk, and the tracking document none", async () => {
    const list = await sandbox("/shipments?pageSize=100");
    const first = (list.body.data as Record<string, any>[]).find((s) => s.name === "SHP-1000")!;
    const read = await sandbox("/shipments/SHP-1000");
    expect(read.body.data.demurrage_risk).toEqual(first.demurrage_risk);
    const doc = await sandbox(`/container/${first.reference_number}`);
    expect(doc.status).toBe(200);
    expect(JSON.stringify(doc.body)).not.toMatch(/demurrage|detention|last_free_day|free_days|return_by/i);
  });
});
