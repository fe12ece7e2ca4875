/**
 * Issue 21 on every surface: one shipment followed through the simulator's clock from the water to
 * after the empty return shows the predicted arrival narrowing, the terminal's facts changing, and the
 * same demurrage and detention on GraphQL, v1 and MCP (within_free_time, then closed); contract terms through GraphQL, validated and per organisation;
 * the plan gate; the seeded tariffs citing their sources; no D&D on v1 tracking documents.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DcsaEquipmentEvent } from "../../simulator/dcsa-types";
import { eventsFor, knownShipments, type Shipment, shipmentFor } from "../../simulator/world/world";
import { openDatabase } from "../../src/db/database";
import { ContractTermsInput } from "../../src/domain/demurrage/contract-terms";
import { DndService } from "../../src/domain/demurrage/dnd.service";
import { ManualClock } from "../../src/lib/clock";
import { SIMULATOR_ENV } from "../compat/support";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const DAY = 86_400_000;
const START = "2026-11-20T12:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let journey: { shipment: Shipment; box: string; discharged: number; gatedOut: number; returned: number };

/** A one-box MSC shipment still on the water at START that is later discharged, gated out and returned empty. */
function followedShipment() {
  const start = new Date(START);
  let tried = 0;
  for (const shipment of knownShipments("MSCU", start)) {
    if (++tried > 3_000) break;
    if (shipment.cancelled || shipment.containers.length !== 1) continue;
    const box = shipment.containers[0]!.equipmentReference;
    const all = eventsFor(shipment, new Date(shipment.completesAt.getTime() + DAY), {
      equipmentReference: box,
    })
      .filter((e): e is DcsaEquipmentEvent => e.eventType === "EQUIPMENT" && e.eventClassifierCode === "ACT")
      .sort((a, b) => Date.parse(a.eventDateTime) - Date.parse(b.eventDateTime));
    const pod = shipment.portOfDischarge.unLocode;
    const disc = all.find(
      (e) => e.equipmentEventTypeCode === "DISC" && e.eventLocation.UNLocationCode === pod,
    );
    if (!disc) continue;
    const discharged = Date.parse(disc.eventDateTime);
    const out = all.find(
      (e) =>
        e.equipmentEventTypeCode === "GTOT" &&
        e.emptyIndicatorCode === "LADEN" &&
        Date.parse(e.eventDateTime) > discharged,
    );
    const back =
      out &&
      all.find(
        (e) =>
          e.equipmentEventTypeCode === "GTIN" &&
          e.emptyIndicatorCode === "EMPTY" &&
          Date.parse(e.eventDateTime) > Date.parse(out.eventDateTime),
      );
    if (!out || !back) continue;
    // Far enough ahead that the box is at sea a week before discharge, and already known then.
    const before = discharged - 7 * DAY;
    if (
      before < start.getTime() ||
      shipmentFor("MSCU", box, "equipment", new Date(before))?.key !== shipment.key
    )
      continue;
    return {
      shipment,
      box,
      discharged,
      gatedOut: Date.parse(out.eventDateTime),
      returned: Date.parse(back.eventDateTime),
    };
  }
  throw new Error("no one-box MSC shipment to follow in the simulator world");
}

beforeAll(async () => {
  clock = new ManualClock(START);
  // The test drives the terminal checks itself (checkDue): a worker ticking on real time beside it
  // could claim the box first and leave the read to race its lookup.
  app = await startTestApp({ env: { ...SIMULATOR_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  journey = followedShipment();
}, 120_000);
afterAll(() => app?.stop());

const v1 = async (key: string, path: string) => {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

const ETA_AND_TERMINAL = `query ($id: String!) {
  shipment(id: $id) {
    predictiveEta { p50 p80 }
    terminal { containerNumber state facts { holds { type } } }
  }
}`;

/** The predicted arrival and the terminal record, as GraphQL, v1 and MCP each answer them. */
async function etaAndTerminal(key: string, box: string, shipmentId: string) {
  const gql = await graphql(app, key, ETA_AND_TERMINAL, { id: box });
  expect(gql.body.errors).toBeUndefined();
  const shipment = gql.body.data!.shipment as Record<string, any>;
  const read = (await v1(key, `/shipments/${shipmentId}`)).body.data;
  const client = await httpClient(app, key);
  try {
    const status = (await callTool(client, "get_shipment_status", { reference: box }))
      .structuredContent as Record<string, any>;
    const eta = (e: { p50: string; p80: string } | null | undefined) =>
      e ? { p50: new Date(e.p50).toISOString(), p80: new Date(e.p80).toISOString() } : null;
    const terminal = (items: Record<string, any>[] | null | undefined) =>
      items?.map((t) => ({
        container: t.containerNumber ?? t.container_number,
        status: String(t.state ?? t.status).toLowerCase(),
        holds: (t.facts?.holds ?? t.holds ?? []).map((h: { type: string }) => String(h.type).toLowerCase()),
      })) ?? null;
    return {
      eta: {
        graphql: eta(shipment.predictiveEta),
        v1: eta(read.predictive_eta),
        mcp: eta(status.predictiveEta),
      },
      terminal: {
        graphql: terminal(shipment.terminal),
        v1: terminal(read.terminal),
        mcp: terminal(status.terminal),
      },
    };
  } finally {
    await client.close();
  }
}

const spreadOf = (eta: { p50: string; p80: string } | null) =>
  eta ? Date.parse(eta.p80) - Date.parse(eta.p50) : Number.NaN;

const DND_QUERY = `query ($id: String!) {
  shipmentDnd(id: $id) {
    __typename
    ... on ShipmentDnd {
      shipmentId
      containers { container demurrage { status chargeType lastFreeDay clockStartedAt } detention { status lastFreeDay accruedCost } }
      risk { status chargeType lastFreeDay daysRemaining accruedCost currency termsSource confidence container }
    }
    ... on PlanRequired { minPlan }
  }
}`;

/** The shipment's D&D as GraphQL, v1 and MCP each answer it, in the fields all three share. */
async function everySurface(key: string, box: string) {
  const gql = await graphql(app, key, DND_QUERY, { id: box });
  expect(gql.body.errors).toBeUndefined();
  const dnd = gql.body.data!.shipmentDnd as Record<string, any>;
  const read = await v1(key, `/shipments/${dnd.shipmentId}`);
  expect(read.status).toBe(200);
  const client = await httpClient(app, key);
  try {
    const tool = (await callTool(client, "get_dnd_status", { reference: box })).structuredContent as Record<
      string,
      any
    >;
    const pick = (r: Record<string, any>) => ({
      status: r.status,
      chargeType: r.chargeType ?? r.charge_type,
      lastFreeDay: r.lastFreeDay ?? r.last_free_day,
      accruedCost: r.accruedCost ?? r.accrued_cost,
      termsSource: r.termsSource ?? r.terms_source,
    });
    return {
      graphql: pick(dnd.risk),
      v1: pick(read.body.data.demurrage_risk),
      mcp: pick(tool.summary),
      dnd,
      tool,
    };
  } finally {
    await client.close();
  }
}

describe("a shipment followed from before discharge to the empty return", () => {
  it("narrows the ETA, changes the terminal's facts and moves D&D from within_free_time to closed, identically on GraphQL, v1 and MCP", async () => {
    const { box, discharged, returned } = journey;
    // A week out: a predicted arrival window, the same on every surface.
    clock.set(discharged - 7 * DAY);
    expect((await v1(org.key, `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const { shipmentId } = (await everySurface(org.key, box)).dnd;
    const weekOut = await etaAndTerminal(org.key, box, shipmentId);
    expect(weekOut.eta.graphql).not.toBeNull();
    expect(weekOut.eta.v1).toEqual(weekOut.eta.graphql);
    expect(weekOut.eta.mcp).toEqual(weekOut.eta.graphql);

    clock.set(discharged - 2 * DAY);
    expect((await v1(org.key, `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const before = await everySurface(org.key, box);
    expect(before.graphql).toEqual(before.v1);
    expect(before.graphql).toEqual(before.mcp);
    expect(before.graphql).toMatchObject({
      status: "within_free_time",
      chargeType: "demurrage",
      accruedCost: 0,
    });
    expect(before.dnd.containers[0]).toMatchObject({
      container: box,
      detention: null,
      demurrage: { clockStartedAt: null },
    });
    expect(before.tool.containers[0].detention).toBeNull();
    // Two days out the window is narrower; the terminal has not answered for the box yet.
    const twoDaysOut = await etaAndTerminal(org.key, box, shipmentId);
    expect(twoDaysOut.eta.v1).toEqual(twoDaysOut.eta.graphql);
    expect(twoDaysOut.eta.mcp).toEqual(twoDaysOut.eta.graphql);
    expect(spreadOf(twoDaysOut.eta.graphql)).toBeLessThan(spreadOf(weekOut.eta.graphql));
    expect(twoDaysOut.terminal.graphql).toEqual([{ container: box, status: "finding", holds: [] }]);
    expect(twoDaysOut.terminal.v1).toEqual(twoDaysOut.terminal.graphql);
    expect(twoDaysOut.terminal.mcp).toEqual(twoDaysOut.terminal.graphql);

    // A day after discharge: the vessel is in (no prediction any more) and the terminal knows the box.
    clock.set(discharged + DAY);
    expect((await v1(org.key, `/container/${box}?sealine=MSCU`)).status).toBe(200);
    await app.services.terminals.checkDue(25);
    const atTerminal = await etaAndTerminal(org.key, box, shipmentId);
    expect(atTerminal.eta).toEqual({ graphql: null, v1: null, mcp: null });
    expect(atTerminal.terminal.graphql).toMatchObject([{ container: box, status: "found" }]);
    expect(atTerminal.terminal.v1).toEqual(atTerminal.terminal.graphql);
    expect(atTerminal.terminal.mcp).toEqual(atTerminal.terminal.graphql);

    // After the empty return (fetched again: the stored document is older than 12 hours by then).
    clock.set(returned + DAY);
    expect((await v1(org.key, `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const after = await everySurface(org.key, box);
    expect(after.graphql).toEqual(after.v1);
    expect(after.graphql).toEqual(after.mcp);
    expect(after.graphql).toMatchObject({ status: "closed", chargeType: "detention" });
    expect(after.dnd.containers[0].demurrage).toMatchObject({
      status: "closed",
      clockStartedAt: new Date(discharged).toISOString(),
    });
    expect(after.dnd.containers[0].detention.status).toBe("closed");
  });
});

describe("the plan gate and the tracking document", () => {
  it("a plan without predictive ETA gets no demurrage_risk on v1 and a plan_required answer elsewhere", async () => {
    const starter = await app.fixtures.organization({ plan: "starter" });
    const { box } = journey;
    expect((await v1(starter.key, `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const list = await v1(starter.key, "/shipments");
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty("demurrage_risk");
    const gql = await graphql(app, starter.key, DND_QUERY, { id: box });
    expect(gql.body.data!.shipmentDnd).toEqual({ __typename: "PlanRequired", minPlan: "professional" });
    const client = await httpClient(app, starter.key);
    try {
      const refused = await callTool(client, "get_dnd_status", { reference: box });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("professional");
    } finally {
      await client.close();
    }
  });

  it("v1 lists carry demurrage_risk on professional, and tracking documents never carry a D&D estimate", async () => {
    expect((await v1(org.key, `/container/${journey.box}?sealine=MSCU`)).status).toBe(200);
    const list = await v1(org.key, "/shipments");
    expect(list.body.data[0].demurrage_risk).toMatchObject({ containers: 1, container: journey.box });
    const doc = await v1(org.key, `/container/${journey.box}?sealine=MSCU`);
    expect(JSON.stringify(doc.body)).not.toMatch(/demurrage|detention|last_free_day|free_days|return_by/i);
  });

  it("another organisation's reference is not found on GraphQL and MCP", async () => {
    const other = await app.fixtures.organization({ plan: "professional" });
    const gql = await graphql(app, other.key, DND_QUERY, { id: journey.box });
    expect(gql.body.data!.shipmentDnd).toEqual({ __typename: "ShipmentNotFound" });
    const client = await httpClient(app, other.key);
    try {
      const refused = await callTool(client, "get_dnd_status", { reference: journey.box });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/is tracked by your organisation|not tracked/i);
    } finally {
      await client.close();
    }
  });
});

const ADD = `mutation ($input: DndContractTermsInput!) {
  addDndContractTerms(input: $input) { id carrierScac portLocode countryCode chargeType freeDays freeDayBasis clockStart clockEnd slabs { fromDay toDay rate } currency sourceNote }
}`;
const LIST = "{ dndContractTerms { id freeDays } }";

describe("contract terms through GraphQL", () => {
  const terms = {
    carrierScac: "mscu",
    chargeType: "detention",
    freeDays: 30,
    freeDayBasis: "calendar",
    slabs: [
      { fromDay: 1, toDay: 5, rate: 50 },
      { fromDay: 6, rate: 90 },
    ],
    currency: "usd",
    effectiveFrom: "2020-01-01",
    note: "Our 2026 service contract",
  };

  it("are stored validated, win over published tariffs at once, and stay the organisation's own", async () => {
    const mine = await app.fixtures.organization({ plan: "professional" });
    // The followed box, tracked by this organisation after its return: detention on the published
    // terms first, which the process now keeps for QUAYSIDE_CONTRACT_TERMS_CACHE_SECONDS.
    expect((await v1(mine.key, `/container/${journey.box}?sealine=MSCU`)).status).toBe(200);
    const risk = async () =>
      (
        (await graphql(app, mine.key, DND_QUERY, { id: journey.box })).body.data!.shipmentDnd as Record<
          string,
          any
        >
      ).risk;
    const published = await risk();
    expect(published.termsSource).not.toBe("contract");
    const added = await graphql(app, mine.key, ADD, { input: terms });
    expect(added.body.errors).toBeUndefined();
    const row = added.body.data!.addDndContractTerms as Record<string, any>;
    expect(row).toMatchObject({
      carrierScac: "MSCU",
      portLocode: null,
      chargeType: "detention",
      clockStart: "GTOT",
      clockEnd: "EMPTY_RETURN",
      currency: "USD",
      slabs: [
        { fromDay: 1, toDay: 5, rate: 50 },
        { fromDay: 6, toDay: null, rate: 90 },
      ],
      sourceNote: "Our 2026 service contract",
    });
    // Detention now on the contract, at the next read.
    expect(await risk()).toMatchObject({
      chargeType: "detention",
      termsSource: "contract",
      confidence: "high",
      accruedCost: 0,
    });

    const stranger = await app.fixtures.organization({ plan: "professional" });
    expect((await graphql(app, stranger.key, LIST)).body.data).toEqual({ dndContractTerms: [] });
    const steal = await graphql(
      app,
      stranger.key,
      "mutation ($id: ID!) { removeDndContractTerms(id: $id) }",
      { id: row.id },
    );
    expect(steal.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await graphql(app, mine.key, LIST)).body.data).toEqual({
      dndContractTerms: [{ id: row.id, freeDays: 30 }],
    });
    const removed = await graphql(app, mine.key, "mutation ($id: ID!) { removeDndContractTerms(id: $id) }", {
      id: row.id,
    });
    expect(removed.body.data).toEqual({ removeDndContractTerms: true });
    expect((await graphql(app, mine.key, LIST)).body.data).toEqual({ dndContractTerms: [] });
    expect(await risk()).toEqual(published);
  });

  it("written through another process, reach this one within QUAYSIDE_CONTRACT_TERMS_CACHE_SECONDS", async () => {
    const mine = await app.fixtures.organization({ plan: "professional" });
    expect((await graphql(app, mine.key, LIST)).body.data).toEqual({ dndContractTerms: [] });
    // Another server on the same database: its own DndService, its own process memory.
    const target = app.services.config.database;
    const second = target.kind === "postgres" ? await openDatabase(target) : null;
    try {
      const other = new DndService({
        prisma: second?.prisma ?? app.services.db.prisma,
        clock,
        sql: second?.prepared,
      });
      const stored = await other.addContractTerms(
        mine.organizationId,
        ContractTermsInput.parse({ ...terms, slabs: [{ fromDay: 1, toDay: null, rate: 50 }] }),
      );
      clock.advance(4_000);
      expect((await graphql(app, mine.key, LIST)).body.data).toEqual({ dndContractTerms: [] });
      clock.advance(1_000);
      expect((await graphql(app, mine.key, LIST)).body.data).toEqual({
        dndContractTerms: [{ id: stored.id, freeDays: 30 }],
      });
    } finally {
      await second?.close();
    }
  });

  it.each([
    [{ freeDays: -1 }, "freeDays is not negative"],
    [{ currency: "dollars" }, "currency is an ISO 4217 code"],
    [{ slabs: [{ fromDay: 2, rate: 10 }] }, "slab 1 must start on day 1"],
    [
      {
        slabs: [
          { fromDay: 1, rate: 10 },
          { fromDay: 2, rate: 20 },
        ],
      },
      "only the last slab may be open",
    ],
    [{ effectiveFrom: "2026-02-30" }, "not a calendar date"],
    [{ portLocode: "DEHAM", countryCode: "NL" }, "portLocode is not in countryCode"],
    [{ carrierScac: "M1" }, "carrierScac is a 2 to 4 letter SCAC"],
  ])("refuses %j with a clear BAD_USER_INPUT", async (change, message) => {
    const res = await graphql(app, org.key, ADD, { input: { ...terms, ...change } });
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.body.errors?.[0]?.message).toContain(message);
  });

  it("a view-only key cannot store terms", async () => {
    const viewer = await app.fixtures.organization({ plan: "professional", viewOnly: true });
    const res = await graphql(app, viewer.key, ADD, { input: terms });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
  });
});

describe("the seeded tariff table", () => {
  it("holds the published figures, every row citing its source", async () => {
    const res = await graphql(
      app,
      org.key,
      "{ dndPublishedTariffs { id carrierScac portLocode chargeType equipment freeDays freeDayBasis chargeDayBasis slabs { fromDay toDay rate } currency sourceUrl sourceNote isEstimate } }",
    );
    expect(res.body.errors).toBeUndefined();
    const rows = res.body.data!.dndPublishedTariffs as Record<string, any>[];
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const row of rows) {
      expect(row.sourceUrl, row.id).toMatch(/^https:\/\//);
      expect(row.sourceNote.length, row.id).toBeGreaterThan(30);
    }
    expect(rows.find((r) => r.id === "pub-maeu-uslax-imp-dem-dry")).toMatchObject({
      carrierScac: "MAEU",
      freeDays: 4,
      freeDayBasis: "working",
      chargeDayBasis: "calendar",
      slabs: [
        { fromDay: 1, toDay: 4, rate: 235 },
        { fromDay: 5, toDay: 9, rate: 285 },
        { fromDay: 10, toDay: null, rate: 335 },
      ],
    });
    expect(rows.find((r) => r.id === "pub-maeu-sgsin-imp-comb-dry40")).toMatchObject({
      chargeType: "combined",
      freeDays: 5,
      currency: "SGD",
      slabs: [
        { fromDay: 1, toDay: 5, rate: 85 },
        { fromDay: 6, toDay: 15, rate: 110 },
        { fromDay: 16, toDay: null, rate: 140 },
      ],
    });
  });
});
