import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
  // The first sandbox request builds its world (tens of seconds).
  await fetch(`${app.url}/api/v1/sandbox/shipments`);
}, 300_000);
afterAll(() => app?.stop());

async function sandboxShipment(name: string) {
  const res = await fetch(`${app.url}/api/v1/sandbox/shipments/${name}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

describe("the sandbox's terminal records", () => {
  it("shows a box under an active freight hold, not ready for pickup", async () => {
    const data = await sandboxShipment("SHP-1001");
    expect(data.terminal).toHaveLength(1);
    const [item] = data.terminal;
    expect(item).toMatchObject({
      container_number: "SBXU1004739",
      status: "found",
      available_for_pickup: false,
      ready_for_pickup: false,
      holds: [{ type: "freight", status: "hold" }],
      gate_out_at: null,
    });
    expect(item.terminal.code).toMatch(/^[A-Z0-9]{3,6}$/);
    expect(item.events.map((e: { event: string }) => e.event)).toEqual(["hold_placed", "discharged"]);
    expect(item.last_free_day).toBe(item.line_last_free_day ?? item.terminal_last_free_day);
  });

  it("shows a box in the yard with no hold as available and ready, with its yard location", async () => {
    const [item] = (await sandboxShipment("SHP-1000")).terminal;
    expect(item).toMatchObject({
      status: "found",
      available_for_pickup: true,
      ready_for_pickup: true,
      holds: [],
    });
    expect(item.yard_location).toMatch(/^[A-H]\d{2}-\d{2}-\d$/);
    expect(item.events.map((e: { event: string }) => e.event)).toEqual([
      "discharged",
      "available_for_pickup",
    ]);
  });

  it("shows `finding` with no facts for a box whose terminal has no manifest for it yet", async () => {
    const data = await sandboxShipment("SHP-1003");
    expect(data.terminal).toEqual([
      { container_number: "SBXU1007363", terminal: expect.any(Object), status: "finding" },
    ]);
  });

  it("shows a gated-out box whose customs inspection and freight hold were both lifted: no hold listed", async () => {
    const [item] = (await sandboxShipment("SHP-1006")).terminal;
    expect(item).toMatchObject({
      status: "found",
      holds: [],
      available_for_pickup: false,
      yard_location: null,
    });
    expect(item.gate_out_at).toMatch(/^2026-07-31T/);
    const events = item.events.map((e: { event: string; hold_type: string | null }) =>
      e.hold_type ? `${e.event}:${e.hold_type}` : e.event,
    );
    expect(events).toEqual(
      expect.arrayContaining([
        "hold_placed:customs",
        "hold_released:customs",
        "hold_released:freight",
        "gated_out",
      ]),
    );
  });

  it("answers null for the shipment no carrier found", async () => {
    expect((await sandboxShipment("SHP-1007")).terminal).toBeNull();
  });

  it("keeps `terminal` off the shipment list", async () => {
    const res = await fetch(`${app.url}/api/v1/sandbox/shipments`);
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) expect(row).not.toHaveProperty("terminal");
  });
});
