/**
 * Issue 37 item 2: each box's full D&D schedule (free days, last free day, overrun and its cost, days
 * remaining, the projection) is kept on the shipment row when its inputs change, valid until the port's
 * next midnight, and a read serves it instead of assessing again: the same answer, without reading the
 * terminal records or walking the days. Past the midnight a read assesses on the spot (the same answer
 * as ever) until the `dnd` worker keeps the new day's schedule. Rotterdam is UTC+1 in December, so its
 * day turns at 23:00 UTC.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { rotterdamArrivals } from "../support/rotterdam-arrival";

const START = "2026-12-01T12:00:00.000Z";
/** The first instant of Dec 2 at Rotterdam. */
const ROTTERDAM_MIDNIGHT = "2026-12-01T23:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;

const { carrierAnswers, agreeRotterdamTerms } = rotterdamArrivals(() => ({ app, org, clock }));

const BOX = "MSCU2000002";

const DND = `query ($id: String!) {
  shipmentDnd(id: $id) {
    __typename
    ... on ShipmentDnd {
      containers { container demurrage { status lastFreeDay daysRemaining overrunDays accruedCost nextDailyRate projectedPickup projectedCost termsSource } }
      risk { status daysRemaining lastFreeDay containers }
    }
  }
}`;

const ADD_TERMS = `mutation ($input: DndContractTermsInput!) { addDndContractTerms(input: $input) { id } }`;

/** The answer of `shipmentDnd` and the SQL the read sent. */
async function readDnd() {
  const captured: string[] = [];
  app.services.db.statements.capture = captured;
  try {
    const { body } = await graphql(app, org.key, DND, { id: BOX });
    expect(body.errors).toBeUndefined();
    return { dnd: (body.data as { shipmentDnd: Record<string, unknown> }).shipmentDnd, sql: captured };
  } finally {
    app.services.db.statements.capture = null;
  }
}

/** The schedule kept on the row now. */
async function kept() {
  const row = await app.services.db.prisma.shipment.findFirstOrThrow({
    where: { organizationId: org.organizationId, reference: BOX },
    select: { id: true, dndSchedule: true, dndValidUntil: true },
  });
  return row;
}

/** The same read with the kept schedule taken away: what assessing on the spot answers. */
async function assessedOnTheSpot() {
  const { id, dndSchedule, dndValidUntil } = await kept();
  const { prisma } = app.services.db;
  await prisma.$executeRaw`UPDATE shipments SET dnd_schedule = NULL WHERE id = ${id}`;
  try {
    return (await readDnd()).dnd;
  } finally {
    await prisma.shipment.update({
      where: { id },
      data: { dndSchedule: dndSchedule as never, dndValidUntil },
    });
  }
}

beforeAll(async () => {
  clock = new ManualClock(START);
  app = await startTestApp({ env: { QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  await agreeRotterdamTerms();
  await carrierAnswers(BOX, "2026-11-29T10:00:00.000Z");
  await app.services.freeTime.backfill();
  // The eta worker stores the row's prediction (a read of a row without one predicts on the spot, so
  // nothing is kept before it); storing it says so, and the schedule is kept with it.
  const { id } = await kept();
  await app.services.eta.compute([id]);
}, 120_000);
afterAll(() => app?.stop());
beforeEach(() => clock.set(START));

describe("the D&D schedule kept on the shipment row", () => {
  it("is kept when its inputs change and served without assessing again, with the same answer", async () => {
    const row = await kept();
    expect(row.dndValidUntil?.toISOString()).toBe(ROTTERDAM_MIDNIGHT);
    const { dnd, sql } = await readDnd();
    expect(dnd).toMatchObject({
      __typename: "ShipmentDnd",
      containers: [
        {
          container: BOX,
          demurrage: {
            status: "at_risk",
            lastFreeDay: "2026-12-03",
            daysRemaining: 2,
            termsSource: "contract",
          },
        },
      ],
      risk: { status: "at_risk", daysRemaining: 2, lastFreeDay: "2026-12-03", containers: 1 },
    });
    // Served from the row: the terminal records the assessment reads per box were not read.
    expect(sql.filter((s) => s.includes("terminal_records"))).toEqual([]);
    expect(await assessedOnTheSpot()).toEqual(dnd);
  });

  it("holds until the port's midnight; past it the read counts the new day, and the worker keeps it", async () => {
    clock.set("2026-12-01T22:59:59.000Z");
    expect((await readDnd()).dnd).toMatchObject({ risk: { daysRemaining: 2 } });
    clock.set(ROTTERDAM_MIDNIGHT);
    const past = await readDnd();
    expect(past.dnd).toMatchObject({ risk: { daysRemaining: 1, lastFreeDay: "2026-12-03" } });
    // The kept schedule has passed its boundary: assessed on the spot, reading the terminal records.
    expect(past.sql.some((s) => s.includes("terminal_records"))).toBe(true);
    expect(await app.services.freeTime.recomputeDue()).toBe(1);
    expect((await kept()).dndValidUntil?.toISOString()).toBe("2026-12-02T23:00:00.000Z");
    const next = await readDnd();
    expect(next.dnd).toEqual(past.dnd);
    expect(next.sql.filter((s) => s.includes("terminal_records"))).toEqual([]);
    expect(await app.services.freeTime.recomputeDue()).toBe(0);
  });

  it("is kept again when the contract terms change, and the read shows the new terms at once", async () => {
    const before = (await kept()).dndSchedule as { inputs: string };
    const { body } = await graphql(app, org.key, ADD_TERMS, {
      input: {
        carrierScac: "MSCU",
        portLocode: "NLRTM",
        chargeType: "demurrage",
        freeDays: 10,
        freeDayBasis: "calendar",
        slabs: [{ fromDay: 1, toDay: null, rate: 150 }],
        currency: "EUR",
        effectiveFrom: "2026-01-01",
      },
    });
    expect(body.errors).toBeUndefined();
    // Kept again from the new terms (their ids are among its inputs), and served as assessed.
    expect(((await kept()).dndSchedule as { inputs: string }).inputs).not.toBe(before.inputs);
    const { dnd, sql } = await readDnd();
    expect(dnd).toMatchObject({ __typename: "ShipmentDnd", risk: { containers: 1 } });
    expect(sql.filter((s) => s.includes("terminal_records"))).toEqual([]);
    expect(await assessedOnTheSpot()).toEqual(dnd);
  });
});
