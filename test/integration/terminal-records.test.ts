/**
 * Terminal records over real HTTP: the service's terminal adapter asks the embedded simulator's
 * terminals (GET /terminals/<SMDG>/containers/<box>) while the world's clock moves a box with a
 * customs inspection from before its manifest through discharge, the hold, its release and gate-out;
 * each step read back on v1 (`GET /shipments/{id}`) and GraphQL (`Shipment.terminal`), which must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boxAtTerminal } from "../../simulator/terminals";
import { SimulatedWorld, shipmentFor } from "../../simulator/world/world";
import { TerminalRecords } from "../../src/domain/terminals/terminal-records.service";
import { ManualClock } from "../../src/lib/clock";
import { TerminalInquiryAdapter } from "../../src/upstream/terminals/terminal-inquiry.adapter";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";

const HOUR = 3_600_000;
/** The terminals state times to the second. */
const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-11-10T00:00:00Z");
const clock = new ManualClock(new Date(T0));
const world = new SimulatedWorld();

let app: TestApp;
let org: OrgWithKey;

/**
 * An MSCU box, known to its carrier at T0, discharged 4 to 12 days later at an SMDG-coded terminal,
 * selected for a customs inspection and with no freight hold: ground truth from the simulator's world.
 */
function inspectedBox() {
  for (let serial = 300_000; serial < 400_000; serial += 3) {
    const reference = containerNumber("MSCU", serial);
    const shipment = shipmentFor("MSCU", reference, "equipment", new Date(T0));
    if (!shipment || shipment.cancelled) continue;
    const index = shipment.plan.containers.findIndex((c) => c.equipmentReference === reference);
    const last = shipment.plan.legs.length - 1;
    const code = shipment.plan.milestones.find((m) => m.key === `C${index}-DISC-L${last}`)?.site?.smdgCode;
    if (!code) continue;
    const at = boxAtTerminal(world, { terminalCode: code, box: reference, line: "MSCU", nowMs: T0 });
    if (!at || at.dischargeAt < T0 + 4 * DAY || at.dischargeAt > T0 + 12 * DAY) continue;
    const customs = at.holds.find((h) => h.name === "Customs");
    if (!customs || at.holds.length !== 1 || customs.releasedAt - customs.placedAt < 12 * HOUR) continue;
    return { reference, code, at, customs };
  }
  throw new Error("no inspected MSCU box in the world");
}

const box = inspectedBox();

async function v1Terminal(): Promise<Record<string, any>[] | null> {
  const res = await fetch(`${app.url}/api/v1/shipments/${box.reference}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { terminal: Record<string, any>[] | null } }).data.terminal;
}

async function graphqlTerminal(): Promise<Record<string, any>[] | null> {
  const { body } = await graphql(
    app,
    org.key,
    `query ($id: String!) { shipment(id: $id) { terminal { state containerNumber terminal { code }
       facts { availableForPickup readyForPickup holds { type status } lastFreeDay lastFreeDaySource gateOutAt checkedAt }
       events { kind holdType at source } } } }`,
    { id: box.reference },
  );
  expect(body.errors).toBeUndefined();
  const shipment = body.data?.shipment as { terminal: Record<string, any>[] | null } | undefined;
  return shipment ? shipment.terminal : null;
}

async function mcpTerminal(): Promise<Record<string, any>[] | null> {
  const client = await httpClient(app, org.key);
  try {
    const result = await callTool(client, "get_shipment_status", { reference: box.reference });
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { terminal: Record<string, any>[] | null }).terminal;
  } finally {
    await client.close();
  }
}

/** One check of every due box, as the worker's tick does. */
const checkTerminals = () => app.services.terminals.checkDue(25);

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  const tracked = await fetch(`${app.url}/api/v1/container/${box.reference}?sealine=MSCU`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(tracked.status).toBe(200);
}, 120_000);

afterAll(() => app?.stop());

describe("a box followed through the simulator's terminal", () => {
  it("is `finding` before the terminal first answered, and stays so while the terminal has no manifest", async () => {
    const finding = [{ container_number: box.reference, terminal: expect.any(Object), status: "finding" }];
    expect(await v1Terminal()).toEqual(finding);
    expect((await graphqlTerminal())?.[0]).toMatchObject({ state: "FINDING", facts: null, events: null });
    expect(await checkTerminals()).toBe(1);
    expect(await v1Terminal()).toEqual(finding);
    expect((await v1Terminal())?.[0]?.terminal.code).toBe(box.code);
  });

  it("shows the customs hold after discharge, not available, on v1 and GraphQL alike", async () => {
    clock.set(box.at.dischargeAt + HOUR);
    expect(await checkTerminals()).toBe(1);
    const [item] = (await v1Terminal())!;
    expect(item).toMatchObject({
      status: "found",
      available_for_pickup: false,
      ready_for_pickup: false,
      holds: [{ type: "customs", status: "hold" }],
      discharged_at: seconds(box.at.dischargeAt),
      gate_out_at: null,
      checked_at: seconds(clock.now().getTime()),
    });
    const [core] = (await graphqlTerminal())!;
    expect(core).toMatchObject({
      state: "FOUND",
      facts: {
        availableForPickup: false,
        readyForPickup: false,
        holds: [{ type: "CUSTOMS", status: "HOLD" }],
      },
    });
    expect(core?.events.map((e: { kind: string }) => e.kind)).toEqual(["HOLD_PLACED", "DISCHARGED"]);
    const [tool] = (await mcpTerminal())!;
    expect(tool).toMatchObject({
      containerNumber: box.reference,
      state: "found",
      availableForPickup: false,
      readyForPickup: false,
      holds: [{ type: "customs", status: "hold" }],
      lastFreeDay: item?.last_free_day,
      checkedAt: item?.checked_at,
    });
  });

  it("drops the customs hold once customs released the box, and the box becomes available", async () => {
    clock.set(Math.max(box.customs.releasedAt, box.at.groundedAt) + 30 * 60_000);
    expect(await checkTerminals()).toBe(1);
    const [item] = (await v1Terminal())!;
    expect(item).toMatchObject({
      status: "found",
      holds: [],
      available_for_pickup: true,
      ready_for_pickup: true,
    });
    expect(
      item?.events.map((e: { event: string; hold_type: string | null }) => `${e.event}:${e.hold_type}`),
    ).toEqual(
      expect.arrayContaining(["hold_placed:customs", "hold_released:customs", "available_for_pickup:null"]),
    );
    expect(item?.last_free_day).toBe(item?.line_last_free_day ?? item?.terminal_last_free_day);
  });

  it("drops facts 24 hours old: without a newer answer the record is `finding` again", async () => {
    clock.set(clock.now().getTime() + 24 * HOUR + 60_000);
    const [item] = (await v1Terminal())!;
    expect(item).toEqual({
      container_number: box.reference,
      terminal: expect.any(Object),
      status: "finding",
    });
    expect(await app.services.terminals.currentFactsOf(box.reference)).toBeNull();
  });

  it("shows the gate-out, and gives the demurrage code the box's facts with its last free day", async () => {
    clock.set(box.at.gateOutAt + HOUR);
    expect(await checkTerminals()).toBe(1);
    const [item] = (await v1Terminal())!;
    expect(item).toMatchObject({
      status: "found",
      available_for_pickup: false,
      yard_location: null,
      gate_out_at: seconds(box.at.gateOutAt),
    });
    const current = await app.services.terminals.currentFactsOf(box.reference, box.code);
    expect(current?.facts).toMatchObject({
      gateOutAt: seconds(box.at.gateOutAt),
      lastFreeDay: box.at.lastFreeDayLine ?? box.at.lastFreeDayTerminal,
      lastFreeDaySource: box.at.lastFreeDayLine ? "line" : "terminal",
    });
  });

  it("takes a carrier's DCSA customs hold newer than the terminal's answer into the same facts", async () => {
    const rows = await app.services.db.prisma.shipment.findMany({
      where: { organizationId: org.organizationId },
    });
    const [latest] = await app.services.documents.latestOfMany([rows[0]!.documentId!]);
    const heldAt = new Date(clock.now().getTime() + 60_000).toISOString();
    clock.set(clock.now().getTime() + 2 * 60_000);
    await app.services.terminals.recordCarrierSignals(
      { ...latest!.content, fetchedAt: clock.now().toISOString() },
      (n) =>
        n === box.reference
          ? [{ kind: "hold", holdType: "customs", at: heldAt, code: "CUSTOMS_SELECTED_FOR_INSPECTION" }]
          : [],
    );
    const [item] = (await v1Terminal())!;
    expect(item?.holds).toEqual([
      { type: "customs", status: "hold", description: "CUSTOMS_SELECTED_FOR_INSPECTION" },
    ]);
    expect(item?.events.at(-1)).toMatchObject({
      event: "hold_placed",
      hold_type: "customs",
      source: "carrier",
    });
  });
});

describe("a deployment without a terminal source", () => {
  it("shows what the carriers' signals say, and null rather than `finding` once they are a day old", async () => {
    const records = new TerminalRecords({
      prisma: app.services.db.prisma,
      clock,
      logger: app.services.logger,
    });
    const rows = await app.services.db.prisma.shipment.findMany({
      where: { organizationId: org.organizationId },
    });
    const [latest] = await app.services.documents.latestOfMany([rows[0]!.documentId!]);
    const [item] = (await records.recordOf(latest!.content))!;
    expect(item).toMatchObject({ state: "found", facts: { holds: [{ type: "customs" }] } });
    clock.set(clock.now().getTime() + 25 * HOUR);
    expect(await records.recordOf(latest!.content)).toBeNull();
  });
});

describe("the terminal adapter over HTTP", () => {
  it("reads a box the terminal does not know as not known, and a terminal it cannot reach as unavailable", async () => {
    const adapter = new TerminalInquiryAdapter({ baseUrl: app.simulator!.url });
    expect(
      await adapter.lookup({
        terminalCode: box.code,
        containerNumber: containerNumber("MSCU", 999_990),
        carrierScac: "MSCU",
      }),
    ).toEqual({ kind: "not_known" });
    const down = new TerminalInquiryAdapter({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2_000 });
    expect(
      (await down.lookup({ terminalCode: box.code, containerNumber: box.reference, carrierScac: "MSCU" }))
        .kind,
    ).toBe("unavailable");
  });
});
