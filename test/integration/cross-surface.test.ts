/**
 * One truth, five surfaces: the same containers asked on GraphQL, v1, compat and MCP (one
 * organisation, one carrier simulator, one clock) and on the sandbox (its own frozen world) must agree
 * on the events shown (codes and times), status, ETA, arrival and position wherever a surface shows
 * them, and on the sea legs where a surface lists them (GraphQL and v1's voyage plan). The delivered box
 * ends with a DROP at the consignee, a code no surface shows.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sailingOf } from "../../simulator/world/shipment-timeline";
import { knownShipments, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
import { callTool, httpClient, TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber, simulatedContainers } from "../support/references";

/** Fixed, so the journeys are where this file says they are whenever it runs. */
const NOW = "2026-11-20T12:00:00.000Z";
/** Delivered before NOW, its last move a DROP at the consignee (test/api/tracking.test.ts's carrier). */
const DELIVERED_WITH_DROP = "MSCU1000491";
/** A delivered sandbox box (src/app/sandbox-world.ts). */
const SANDBOX_DELIVERED = "SBXU1000029";
const HIDDEN_CODES = ["DROP", "STUF", "STRP", "INSP", "RSEA", "RMVD"];

let app: TestApp;
let org: OrgWithKey;
let mcp: Client;
let transshipped: string;
let cancelled: string;
let unknown: string;

/**
 * A box of the carrier's own prefix whose journey changes vessel at a hub, not aboard a sailing ship at
 * NOW (compat's map pin moves along the sea route while a ship sails, by design, where the other
 * surfaces give the last event's place).
 */
function transshippedContainer(): string {
  const now = Date.parse(NOW);
  for (let serial = 100_000; serial < 110_000; serial++) {
    const number = containerNumber("MSCU", serial);
    const shipment = shipmentFor("MSCU", number, "equipment", new Date(NOW));
    if (!shipment || shipment.cancelled || shipment.transshipmentPorts.length === 0) continue;
    const sailing = shipment.plan.legs.some((_, i) => {
      const leg = sailingOf(shipment.plan, i, shipment.timeline.actual)!;
      return now >= leg.actualDeparture && now < leg.actualArrival;
    });
    if (!sailing) return number;
  }
  throw new Error("no transshipped MSCU container in the simulator world");
}

/** A booking the carrier cancelled before NOW, before any box left the depot (about one in seventy). */
function cancelledBooking(): string {
  let tried = 0;
  for (const shipment of knownShipments("CMDU", new Date(NOW))) {
    const cancelledAt = shipment.bookedAt.getTime() + (shipment.plan.cancelledRel ?? Infinity);
    if (cancelledAt <= Date.parse(NOW)) return shipment.carrierBookingReference;
    if (++tried >= 2_000) break;
  }
  throw new Error("no cancelled CMDU booking in the simulator world");
}

beforeAll(async () => {
  app = await startTestApp({ env: TRACKING_ENV, clock: new ManualClock(NOW) });
  org = await app.fixtures.organization({ plan: "professional" });
  mcp = await httpClient(app, org.key);
  transshipped = transshippedContainer();
  cancelled = cancelledBooking();
  const found = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { unknown: 1 });
  unknown = found.unknown[0]!;
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const v1 = async (path: string, key: string | null = org.key) => {
  const res = await fetch(`${app.url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const tool = async (name: string, reference: string) => {
  const result = await callTool(mcp, name, { reference });
  return { isError: result.isError ?? false, data: result.structuredContent as Record<string, any> };
};

const SHIPMENT = `query($reference: String!) {
  shipment(id: $reference) {
    status eta ata failed
    document {
      status ata position { lat lng }
      route { pod { localDateTime instant actual } }
      voyageLegs { status from { unLocode } to { unLocode } vessel { name } voyage }
      containers { number status
        events { eventCode localDateTime instant actual }
        everything: events(includeHidden: true) { eventCode }
      }
    }
  }
}`;

/** What every surface says about one tracked container, in one vocabulary. */
interface Facts {
  status: string;
  /** `CODE local-time` per event shown, in order. */
  events: string[];
  etaLocal: string | null;
  arrived: boolean;
  position: { lat: number; lng: number } | null;
}

/** The same facts with instants, where a surface gives them. */
interface Instants {
  events: string[];
  eta: string | null;
  ata: string | null;
}

const shown = (code: string, local: string | null) => `${code} ${local}`;

async function everySurface(reference: string) {
  // v1 tracks (takes the slot and stores the document); the others read what it stored.
  const v1Answer = await v1(`/api/v1/container/${reference}`);
  expect(v1Answer.status, JSON.stringify(v1Answer.body)).toBe(200);
  const d = v1Answer.body.data;
  const gqlAnswer = await graphql(app, org.key, SHIPMENT, { reference });
  expect(gqlAnswer.body.errors).toBeUndefined();
  const s = (gqlAnswer.body.data as any).shipment;
  const gqlBox = s.document.containers.find((c: { number: string }) => c.number === reference);
  const compat = await compatGet(app, org.key, "/tracking", { number: reference, route: "true" });
  expect(compat.status).toBe(200);
  const c = compat.body.data;
  const compatBox = c.containers.find((x: { number: string }) => x.number === reference);
  const timeline = await tool("get_shipment_timeline", reference);
  const status = await tool("get_shipment_status", reference);
  expect([timeline.isError, status.isError]).toEqual([false, false]);
  const mcpBox = timeline.data.containers.find((x: { number: string }) => x.number === reference);

  const facts: Record<string, Facts> = {
    graphql: {
      status: s.status,
      events: gqlBox.events.map((e: any) => shown(e.eventCode, e.localDateTime)),
      etaLocal: s.document.route.pod.localDateTime,
      arrived: s.ata !== null,
      position: s.document.position,
    },
    v1: {
      status: d.status,
      events: d.events_table
        .filter((e: any) => e.container_number === reference)
        .map((e: any) => shown(e.event_code, e.date)),
      etaLocal: d.eta,
      arrived: d.eta_history_table.at(-1)?.is_actual === 1,
      position: d.latitude === null ? null : { lat: d.latitude, lng: d.longitude },
    },
    compat: {
      status: c.metadata.status,
      events: compatBox.events.map((e: any) => shown(e.event_code, e.date ?? null)),
      etaLocal: c.route.pod.date,
      arrived: c.route.pod.actual === true,
      position: c.route_data.pin ? { lat: c.route_data.pin[0], lng: c.route_data.pin[1] } : null,
    },
    mcp: {
      status: timeline.data.status,
      events: mcpBox.events.map((e: any) => shown(e.eventCode, e.local)),
      etaLocal: status.data.etaLocal,
      arrived: status.data.ata !== null,
      position: status.data.position,
    },
  };
  const instants: Record<string, Instants> = {
    graphql: {
      events: gqlBox.events.map((e: any) => shown(e.eventCode, e.instant)),
      eta: s.eta,
      ata: s.ata,
    },
    v1: {
      events: d.events_table
        .filter((e: any) => e.container_number === reference)
        .map((e: any) => shown(e.event_code, e.date_utc)),
      eta: s.eta,
      ata: s.ata,
    },
    mcp: {
      events: mcpBox.events.map((e: any) => shown(e.eventCode, e.at)),
      eta: status.data.eta,
      ata: status.data.ata,
    },
  };
  // The sea legs, where a surface shows them (MCP shows vessels and voyages per event, not legs).
  const legs: Record<string, string[]> = {
    graphql: s.document.voyageLegs.map(
      (l: any) => `${l.from?.unLocode}>${l.to?.unLocode} ${l.vessel?.name} ${l.voyage} ${l.status}`,
    ),
    v1: d.voyage_plan_table.map(
      (l: any) =>
        `${l.origin_locode}>${l.destination_locode} ${l.vessel_name} ${l.voyage} ${String(l.status).toUpperCase()}`,
    ),
  };
  return {
    facts,
    instants,
    legs,
    hidden: gqlBox.everything.map((e: { eventCode: string }) => e.eventCode),
  };
}

/** Every surface's facts equal GraphQL's, shown per surface when they do not. */
function expectAgreement<T>(bySurface: Record<string, T>) {
  const core = bySurface.graphql;
  for (const [surface, facts] of Object.entries(bySurface)) expect(facts, surface).toEqual(core);
}

describe("a container delivered with a DROP at the consignee", () => {
  it("shows the same events, status, ETA, arrival and position everywhere, the DROP nowhere", async () => {
    const { facts, instants, legs, hidden } = await everySurface(DELIVERED_WITH_DROP);
    // The core keeps the DROP (delivery is decided from it) and shows it only when asked by name.
    expect(hidden).toContain("DROP");
    expect(facts.graphql!.status).toBe("DELIVERED");
    expect(facts.graphql!.arrived).toBe(true);
    expect(facts.graphql!.events.length).toBeGreaterThan(4);
    for (const code of HIDDEN_CODES) expect(facts.graphql!.events.join()).not.toContain(code);
    expectAgreement(facts);
    expectAgreement(instants);
    expect(legs.graphql!.length).toBeGreaterThan(0);
    expectAgreement(legs);
  });
});

describe("a container transshipped at a hub", () => {
  it("shows the same events on both vessels, status, ETA, arrival and position everywhere", async () => {
    const { facts, instants, legs } = await everySurface(transshipped);
    const doc = await graphql(
      app,
      org.key,
      `query($r: String!) { shipment(id: $r) { document { transshipmentLocationKeys } } }`,
      { r: transshipped },
    );
    expect((doc.body.data as any).shipment.document.transshipmentLocationKeys).not.toEqual([]);
    // Two sea legs at least: a load and a discharge on each side of the hub.
    expect(facts.graphql!.events.filter((e) => e.startsWith("LOAD")).length).toBeGreaterThan(1);
    expectAgreement(facts);
    expectAgreement(instants);
    // One leg on each side of the hub, the same on GraphQL and v1's voyage plan.
    expect(legs.graphql!.length).toBeGreaterThan(1);
    expectAgreement(legs);
  });
});

describe("a booking the carrier cancelled", () => {
  it("is cancelled on every surface, with no boxes and no arrival", async () => {
    // Only GraphQL tracks a booking as a booking: v1 tracks containers and bills of lading, and
    // compat looks a booking up through the bill-of-lading path (compat spec rule 7), where this
    // carrier has no record. v1 and MCP read what GraphQL stored.
    const tracked = await graphql(
      app,
      org.key,
      `mutation($r: String!) { track(reference: $r, type: booking, carrier: "CMDU") { __typename } }`,
      { r: cancelled },
    );
    expect(tracked.body.data).toEqual({ track: { __typename: "TrackSuccess" } });
    const stored = await v1(`/api/v1/shipments/${cancelled}?include=full`);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    const s = (await graphql(app, org.key, SHIPMENT, { reference: cancelled })).body.data as any;
    const timeline = await tool("get_shipment_timeline", cancelled);
    const status = await tool("get_shipment_status", cancelled);
    const bySurface = {
      graphql: {
        status: s.shipment.status,
        boxes: s.shipment.document.containers.length,
        ata: s.shipment.ata,
      },
      v1: {
        status: stored.body.data.status,
        boxes: stored.body.data.document.containers_table.length,
        ata: stored.body.data.ata ?? null,
      },
      mcp: { status: status.data.status, boxes: timeline.data.containers.length, ata: status.data.ata },
    };
    expect(bySurface.graphql).toEqual({ status: "CANCELLED", boxes: 0, ata: null });
    expectAgreement(bySurface);
    expect(stored.body.data.is_active).toBe(0);
  });
});

describe("a container no carrier knows", () => {
  it("is not found on every surface, with nothing invented", async () => {
    const answer = await v1(`/api/v1/container/${unknown}`);
    expect(answer.status).toBe(404);
    expect(answer.body.data.error).toBe("not_found");
    const s = (await graphql(app, org.key, SHIPMENT, { reference: unknown })).body.data as any;
    expect(s.shipment).toMatchObject({ failed: true, document: null, ata: null });
    const compat = await compatGet(app, org.key, "/tracking", { number: unknown });
    // The compat vocabulary's "not found" when the carrier was detected, not named.
    expect(compat.body).toMatchObject({ status: "error", message: "AUTO_CANT_FIND_INFO" });
    const timeline = await tool("get_shipment_timeline", unknown);
    expect(timeline).toMatchObject({ isError: false, data: { failed: true, containers: [] } });
    const status = await tool("get_shipment_status", unknown);
    expect(status.data).toMatchObject({
      failed: true,
      eta: null,
      ata: null,
      position: null,
      lastEvent: null,
    });
  });
});

// Neither delivered box of the sandbox's frozen world ends with a DROP (its carrier's journeys end at
// the empty return), so the sandbox is held to itself: the live answer and the stored shipment.
describe("the sandbox's delivered container", () => {
  it("shows the same events, status, ETA and position by number and by shipment", async () => {
    const live = (await v1(`/api/v1/sandbox/container/${SANDBOX_DELIVERED}`, null)).body.data;
    const stored = (await v1(`/api/v1/sandbox/shipments/${SANDBOX_DELIVERED}?include=full`, null)).body.data;
    const events = (table: any[]) => table.map((e) => `${e.event_code} ${e.date} ${e.date_utc}`);
    const byNumber = {
      status: live.status,
      eta: live.eta,
      position: { latitude: live.latitude, longitude: live.longitude },
      events: events(live.events_table),
    };
    const byShipment = {
      status: stored.status,
      eta: stored.eta,
      position: stored.document.last_position,
      events: events(stored.document.events_table),
    };
    expect(byNumber.status).toBe("DELIVERED");
    expect(byNumber.events.length).toBeGreaterThan(4);
    expect(byShipment).toEqual(byNumber);
  });
});
