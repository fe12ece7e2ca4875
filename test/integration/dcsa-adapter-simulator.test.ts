/**
 * The DCSA adapter, the carrier registry and the mapper against the carrier simulator over real HTTP:
 * paging, each auth strategy the simulator can demand, and each fault it can inject.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, type SimulatorAuth, startSimulator } from "../../simulator/server";
import { knownShipments, type Shipment } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import type { CarrierQuery } from "../../src/upstream/carriers/carrier-adapter";
import {
  type CarrierGateway,
  createCarrierGateway,
  loadCarrierRegistry,
} from "../../src/upstream/carriers/carrier-registry";
import { mapDcsaEvents } from "../../src/upstream/carriers/dcsa-tnt.mapper";
import type { Sleep } from "../../src/upstream/http/request";

const AUTH = {
  HLCU: {
    kind: "client-id-secret",
    idHeader: "X-IBM-Client-Id",
    secretHeader: "X-IBM-Client-Secret",
    clientId: "hapag-client",
    clientSecret: "hapag-secret",
  },
  CMDU: { kind: "api-key", header: "keyId", value: "cma-key-1" },
  MAEU: {
    kind: "oauth2",
    clientId: "maersk client",
    clientSecret: "s3cr3t:with/odd=chars",
    tokenTtlSeconds: 600,
  },
} satisfies Record<string, SimulatorAuth>;

const PAGE_SIZE = 4;
const clock = new ManualClock("2025-06-01T00:00:00Z");
let simulator: RunningSimulator;
let sleeps: number[] = [];
const sleep: Sleep = async (ms) => {
  sleeps.push(ms);
};

function gateway(
  overrides: { clock?: ManualClock; auth?: Record<string, SimulatorAuth>; timeoutMs?: number } = {},
): CarrierGateway {
  const registry = loadCarrierRegistry({
    env: {},
    simulatorUrl: simulator.url,
    simulatorAuth: overrides.auth ?? AUTH,
  });
  return createCarrierGateway(registry, {
    clock: overrides.clock ?? clock,
    sleep,
    random: () => 0.5,
    timeoutMs: overrides.timeoutMs ?? 3_000,
    pageSize: PAGE_SIZE,
  });
}

/** A shipment the simulated carrier knows at the clock's time, long enough to need several pages. */
function knownShipment(scac: string, accept: (s: Shipment) => boolean = () => true): Shipment {
  let tried = 0;
  for (const shipment of knownShipments(scac, clock.now())) {
    if (!shipment.cancelled && accept(shipment)) return shipment;
    if (++tried >= 2_000) break;
  }
  throw new Error(`no suitable ${scac} shipment found`);
}

async function adminState(): Promise<{ tokenIssues: Record<string, number> }> {
  const response = await fetch(`${simulator.url}/_admin/state`);
  return (await response.json()) as { tokenIssues: Record<string, number> };
}

const byBillOfLading = (s: Shipment): CarrierQuery => ({
  scac: s.scac,
  reference: s.transportDocumentReference,
  referenceType: "bl",
});

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, clock, auth: AUTH, pageSize: PAGE_SIZE });
});
afterAll(async () => {
  await simulator.close();
});
afterEach(() => {
  simulator.faults.clear();
  sleeps = [];
});

describe("paging and mapping", () => {
  // Delivered by now, with a transshipment: every event type is in the answer.
  const delivered = () =>
    knownShipment(
      "ONEY",
      (s) => s.completesAt.getTime() < clock.now().getTime() && s.transshipmentPorts.length > 0,
    );

  it("pages through Next-Page until the whole journey is in, then maps it to the simulator's truth", async () => {
    const shipment = delivered();
    const outcome = await gateway().fetchEvents(byBillOfLading(shipment));
    if (outcome.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(outcome)}`);
    expect(outcome.pages).toBeGreaterThan(1);
    expect(outcome.truncated).toBe(false);
    expect(outcome.events.length).toBeGreaterThan(PAGE_SIZE);
    const ids = outcome.events.map((e) => (e as { eventID: string }).eventID);
    expect(new Set(ids).size).toBe(ids.length);

    const mapped = mapDcsaEvents(outcome.events, {
      reference: shipment.transportDocumentReference,
      referenceType: "bl",
      carrierScac: shipment.scac,
      fetchedAt: clock.now(),
    });
    if (!mapped.ok) throw new Error(mapped.detail);
    const doc = mapped.document;
    expect(mapped.warnings).toEqual([]);
    expect(doc.route.pol.locationKey).toBe(shipment.portOfLoading.unLocode);
    expect(doc.route.pod.locationKey).toBe(shipment.portOfDischarge.unLocode);
    expect(doc.transshipmentLocationKeys).toEqual(shipment.transshipmentPorts.map((p) => p.unLocode));
    expect(doc.containers.map((c) => c.number).sort()).toEqual(
      shipment.containers.map((c) => c.equipmentReference).sort(),
    );
    expect(doc.status).toBe("DELIVERED");
    expect(doc.ata).not.toBeNull();
  });

  it("stops at the page cap and says so", async () => {
    const shipment = delivered();
    const registry = loadCarrierRegistry({ env: {}, simulatorUrl: simulator.url, simulatorAuth: AUTH });
    const capped = createCarrierGateway(registry, { clock, sleep, pageSize: PAGE_SIZE, maxPages: 2 });
    const outcome = await capped.fetchEvents(byBillOfLading(shipment));
    expect(outcome).toMatchObject({ kind: "found", pages: 2, truncated: true });
    if (outcome.kind === "found") expect(outcome.events).toHaveLength(2 * PAGE_SIZE);
  });

  it("finds the same box by container number and by booking", async () => {
    const shipment = delivered();
    const box = shipment.containers[0]?.equipmentReference ?? "";
    const byBox = await gateway().fetchEvents({
      scac: shipment.scac,
      reference: box,
      referenceType: "container",
    });
    const byBooking = await gateway().fetchEvents({
      scac: shipment.scac,
      reference: shipment.carrierBookingReference,
      referenceType: "booking",
    });
    expect(byBox.kind).toBe("found");
    expect(byBooking.kind).toBe("found");
    if (byBox.kind !== "found") return;
    const mapped = mapDcsaEvents(byBox.events, {
      reference: box,
      referenceType: "container",
      carrierScac: shipment.scac,
      fetchedAt: clock.now(),
    });
    expect(mapped.ok && mapped.document.containers.map((c) => c.number)).toEqual([box]);
  });

  it("answers not-found for a reference the carrier does not know", async () => {
    const outcome = await gateway().fetchEvents({
      scac: "ONEY",
      reference: "NOTAREFERENCE",
      referenceType: "bl",
    });
    expect(outcome).toEqual({ kind: "not-found" });
  });
});

describe("authentication the simulator demands", () => {
  it("client id and secret headers (Hapag-Lloyd style)", async () => {
    const shipment = knownShipment("HLCU");
    expect((await gateway().fetchEvents(byBillOfLading(shipment))).kind).toBe("found");
    const wrong = gateway({ auth: { ...AUTH, HLCU: { ...AUTH.HLCU, clientSecret: "nope" } } });
    expect(await wrong.fetchEvents(byBillOfLading(shipment))).toMatchObject({ kind: "unauthorized" });
  });

  it("an API key header (CMA CGM style)", async () => {
    const shipment = knownShipment("CMDU");
    expect((await gateway().fetchEvents(byBillOfLading(shipment))).kind).toBe("found");
    const none = gateway({ auth: { HLCU: AUTH.HLCU, MAEU: AUTH.MAEU } });
    expect(await none.fetchEvents(byBillOfLading(shipment))).toMatchObject({ kind: "unauthorized" });
  });

  it("OAuth2 client credentials: one token reused across pages and lookups, renewed when it runs out", async () => {
    const shipment = knownShipment("MAEU");
    const maersk = gateway();
    const before = (await adminState()).tokenIssues.MAEU ?? 0;
    const first = await maersk.fetchEvents(byBillOfLading(shipment));
    expect(first.kind).toBe("found");
    await maersk.fetchEvents(byBillOfLading(shipment));
    expect((await adminState()).tokenIssues.MAEU).toBe(before + 1);
    clock.advance(600_000);
    expect((await maersk.fetchEvents(byBillOfLading(shipment))).kind).toBe("found");
    expect((await adminState()).tokenIssues.MAEU).toBe(before + 2);
  });

  it("OAuth2: a token the carrier expired early is dropped and replaced on the 401", async () => {
    const shipment = knownShipment("MAEU");
    // Our clock stands still while the carrier's moves past the token's life.
    const ours = new ManualClock(clock.now());
    const maersk = gateway({ clock: ours });
    await maersk.fetchEvents(byBillOfLading(shipment));
    const issued = (await adminState()).tokenIssues.MAEU ?? 0;
    clock.advance(700_000);
    const later = knownShipment("MAEU");
    expect((await maersk.fetchEvents(byBillOfLading(later))).kind).toBe("found");
    expect((await adminState()).tokenIssues.MAEU).toBe(issued + 1);
  });

  it("OAuth2: wrong client credentials are unauthorized, naming the token endpoint", async () => {
    const shipment = knownShipment("MAEU");
    const wrong = gateway({ auth: { ...AUTH, MAEU: { ...AUTH.MAEU, clientSecret: "wrong" } } });
    expect(await wrong.fetchEvents(byBillOfLading(shipment))).toMatchObject({
      kind: "unauthorized",
      reason: expect.stringContaining("token endpoint"),
    });
  });
});

describe("faults", () => {
  const zim = () => knownShipment("ZIMU");

  it("down: the connection dies; retried, then unreachable", async () => {
    simulator.faults.set("ZIMU", { mode: "down" });
    const outcome = await gateway().fetchEvents(byBillOfLading(zim()));
    expect(outcome).toMatchObject({ kind: "unreachable" });
    expect(sleeps).toHaveLength(2);
  });

  it("slow: answered after our timeout, so unreachable without waiting for it", async () => {
    simulator.faults.set("ZIMU", { mode: "slow", delayMs: 2_000 });
    const started = Date.now();
    const outcome = await gateway({ timeoutMs: 300 }).fetchEvents(byBillOfLading(zim()));
    expect(outcome).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("no answer within 300 ms"),
    });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("slow but within the timeout: found", async () => {
    simulator.faults.set("ZIMU", { mode: "slow", delayMs: 100 });
    expect((await gateway({ timeoutMs: 2_000 }).fetchEvents(byBillOfLading(zim()))).kind).toBe("found");
  });

  it("server-error: retried with backoff, then unreachable", async () => {
    simulator.faults.set("ZIMU", { mode: "server-error" });
    const outcome = await gateway().fetchEvents(byBillOfLading(zim()));
    expect(outcome).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("HTTP 500 after 3 attempts"),
    });
    expect(sleeps).toEqual([188, 375]);
  });

  it("server-error 503 with Retry-After: the carrier's wait is honoured", async () => {
    simulator.faults.set("ZIMU", { mode: "server-error", status: 503, retryAfterSeconds: 2 });
    expect(await gateway().fetchEvents(byBillOfLading(zim()))).toMatchObject({ kind: "unreachable" });
    expect(sleeps).toEqual([2_000, 2_000]);
  });

  it("malformed: a body cut off mid-stream", async () => {
    simulator.faults.set("ZIMU", { mode: "malformed" });
    expect(await gateway().fetchEvents(byBillOfLading(zim()))).toMatchObject({ kind: "malformed" });
  });

  it("rate-limited with a long Retry-After: answered at once with the carrier's wait", async () => {
    simulator.faults.set("ZIMU", { mode: "rate-limited" });
    expect(await gateway().fetchEvents(byBillOfLading(zim()))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 30,
    });
    expect(sleeps).toEqual([]);
  });

  it("rate-limited with a short Retry-After: retried, then rate-limited", async () => {
    simulator.faults.set("ZIMU", { mode: "rate-limited", retryAfterSeconds: 1 });
    expect(await gateway().fetchEvents(byBillOfLading(zim()))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 1,
    });
    expect(sleeps).toEqual([1_000, 1_000]);
  });

  it("a fault on one carrier leaves the others alone, and clearing it brings the carrier back", async () => {
    simulator.faults.set("ZIMU", { mode: "down" });
    expect((await gateway().fetchEvents(byBillOfLading(knownShipment("ONEY")))).kind).toBe("found");
    simulator.faults.clear("ZIMU");
    expect((await gateway().fetchEvents(byBillOfLading(zim()))).kind).toBe("found");
  });
});

describe("real carriers' habits (issue 24 item 5)", () => {
  const journeyOf = async (gw: CarrierGateway, query: CarrierQuery) => {
    const outcome = await gw.fetchEvents(query);
    if (outcome.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(outcome)}`);
    return outcome;
  };

  it.each([
    ["bom", "a byte-order mark before each page"],
    ["relative-paging", "Next-Page as a host-relative link"],
    ["link-paging", "the next page in a Link: rel=next header"],
  ] as const)("%s (%s): the whole journey, as without the habit", async (mode, _habit) => {
    const query = byBillOfLading(knownShipment("ZIMU"));
    const plain = await journeyOf(gateway(), query);
    expect(plain.pages).toBeGreaterThan(1);
    simulator.faults.set("ZIMU", { mode });
    const habit = await journeyOf(gateway(), query);
    expect(habit).toEqual(plain);
    expect(habit.truncated).toBe(false);
  });

  it("429 with Retry-After: 3600: the next lookups of the carrier are answered without calling it", async () => {
    // The gateway's own clock moves through the hour; the simulated world stays where it is.
    const ours = new ManualClock(clock.now());
    const gw = gateway({ clock: ours });
    simulator.faults.set("ZIMU", { mode: "rate-limited", retryAfterSeconds: 3600 });
    const query = byBillOfLading(knownShipment("ZIMU"));
    expect(await gw.fetchEvents(query)).toEqual({ kind: "rate-limited", retryAfterSeconds: 3600 });
    simulator.faults.clear("ZIMU");
    const reached = async () =>
      ((await (await fetch(`${simulator.url}/_admin/state`)).json()) as { requests: Record<string, number> })
        .requests.ZIMU;
    const before = await reached();
    ours.advance(30 * 60_000);
    const other = knownShipment("ZIMU", (s) => s.transportDocumentReference !== query.reference);
    expect(await gw.fetchEvents(byBillOfLading(other))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 1800,
    });
    expect(await reached()).toBe(before);
    ours.advance(30 * 60_000);
    expect((await gw.fetchEvents(query)).kind).toBe("found");
    expect(await reached()).toBeGreaterThan(before ?? 0);
  });
});
