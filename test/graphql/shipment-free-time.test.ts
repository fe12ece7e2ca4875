/**
 * Issue 38 / 37 item 2: each shipment's last free days and holds are kept on its row when their
 * inputs change (a new version, terminal facts, the organisation's contract terms), and the list's
 * exceptions "last free day soon", "last free day passed" and "on hold" compare them with the core's
 * clock: at Rotterdam (UTC+1 in December) a last free day passes at 23:00 UTC, not at UTC midnight.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  shipmentsAwaitingFreeTime,
  shipmentsHoldingBox,
  summaryListsBox,
} from "../../src/domain/shipments/shipment-free-time";
import { Prisma } from "../../src/generated/prisma/client";
import { onAnswersChanged } from "../../src/lib/answer-changes";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { rotterdamArrivals } from "../support/rotterdam-arrival";

const START = "2026-12-01T12:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;

const { documentOf, carrierAnswers, agreeRotterdamTerms } = rotterdamArrivals(() => ({ app, org, clock }));

const ON_WATER = "MSCU1000006";
const DUE_SOON = "MSCU2000002";
const OVERDUE = "MSCU3000008";

const SEARCH = `query ($filter: ShipmentFilter, $sort: ShipmentSort) {
  shipmentSearch(filter: $filter, sort: $sort, pageSize: 20) {
    total
    items {
      reference
      holds { container type status }
      freeTime { lastFreeDay lastFreeDaySoon lastFreeDayPassed containers { container demurrageLastFreeDay running overdue } }
    }
  }
}`;

interface Item {
  reference: string;
  holds: { container: string; type: string; status: string }[];
  freeTime: {
    lastFreeDay: string | null;
    lastFreeDaySoon: boolean;
    lastFreeDayPassed: boolean;
    containers: {
      container: string;
      demurrageLastFreeDay: string | null;
      running: string | null;
      overdue: boolean;
    }[];
  } | null;
}

async function search(filter: Record<string, unknown> = {}, sort?: string) {
  const { body } = await graphql(app, org.key, SEARCH, { filter, ...(sort ? { sort } : {}) });
  expect(body.errors).toBeUndefined();
  const page = (body.data as { shipmentSearch: { total: number; items: Item[] } }).shipmentSearch;
  return { total: page.total, references: page.items.map((i) => i.reference).sort(), items: page.items };
}

const ADD_TERMS = `mutation ($input: DndContractTermsInput!) { addDndContractTerms(input: $input) { id } }`;

beforeAll(async () => {
  clock = new ManualClock(START);
  app = await startTestApp({ env: { QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  await agreeRotterdamTerms();
  await carrierAnswers(ON_WATER, null);
  await carrierAnswers(DUE_SOON, "2026-11-29T10:00:00.000Z");
  await carrierAnswers(OVERDUE, "2026-11-20T10:00:00.000Z");
  // The rows were written straight to the table, as a database from before the columns: filled at start.
  await app.services.freeTime.backfill();
}, 120_000);
afterAll(() => app?.stop());
// Each test sets the clock it reads; none inherits another's.
beforeEach(() => clock.set(START));

describe("free time and holds kept on the shipment row", () => {
  it("keeps each box's last free day and the shipment's earliest of a running clock", async () => {
    const { items } = await search();
    const byRef = new Map(items.map((i) => [i.reference, i]));
    expect(byRef.get(DUE_SOON)!.freeTime).toMatchObject({
      lastFreeDay: "2026-12-03",
      lastFreeDaySoon: true,
      lastFreeDayPassed: false,
      containers: [
        { container: DUE_SOON, demurrageLastFreeDay: "2026-12-03", running: "demurrage", overdue: false },
      ],
    });
    expect(byRef.get(OVERDUE)!.freeTime).toMatchObject({
      lastFreeDay: "2026-11-24",
      lastFreeDayPassed: true,
    });
    // Not discharged: no clock runs, so no exception, though a day is projected from the ETA.
    expect(byRef.get(ON_WATER)!.freeTime).toMatchObject({ lastFreeDay: null, lastFreeDaySoon: false });
  });

  it("filters soon and passed on the core's clock across Rotterdam's midnight, and sorts by last free day", async () => {
    expect((await search({ lastFreeDaySoon: true })).references).toEqual([DUE_SOON]);
    expect((await search({ lastFreeDayPassed: true })).references).toEqual([OVERDUE]);
    expect((await search({ lastFreeDaySoon: false })).total).toBe(2);
    // 22:30 UTC on Dec 3 is 23:30 in Rotterdam: still the last free day.
    clock.set("2026-12-03T22:30:00.000Z");
    expect((await search({ lastFreeDaySoon: true })).references).toEqual([DUE_SOON]);
    expect((await search({ lastFreeDayPassed: true })).references).toEqual([OVERDUE]);
    // 23:30 UTC, still Dec 3 in UTC, is 00:30 on Dec 4 in Rotterdam: passed.
    clock.set("2026-12-03T23:30:00.000Z");
    expect((await search({ lastFreeDaySoon: true })).total).toBe(0);
    expect((await search({ lastFreeDayPassed: true })).references).toEqual([DUE_SOON, OVERDUE]);
    expect((await search({ lastFreeDayPassed: false })).references).toEqual([ON_WATER]);
    const due = (await search()).items.find((i) => i.reference === DUE_SOON)!;
    expect(due.freeTime?.containers).toEqual([
      { container: DUE_SOON, demurrageLastFreeDay: "2026-12-03", running: "demurrage", overdue: true },
    ]);
    const sorted = await search({}, "LAST_FREE_DAY");
    expect(sorted.items.map((i) => i.reference)).toEqual([OVERDUE, DUE_SOON, ON_WATER]);
    clock.set(START);
  });

  it("a contract terms change recomputes the organisation's rows", async () => {
    // Seven more free days for this organisation at Rotterdam: the due-soon box is no longer due soon.
    const { body } = await graphql(app, org.key, ADD_TERMS, {
      input: {
        carrierScac: "MSCU",
        portLocode: "NLRTM",
        chargeType: "demurrage",
        freeDays: 11,
        freeDayBasis: "calendar",
        slabs: [{ fromDay: 1, toDay: null, rate: 100 }],
        currency: "EUR",
        effectiveFrom: "2026-02-01",
      },
    });
    expect(body.errors).toBeUndefined();
    const due = (await search()).items.find((i) => i.reference === DUE_SOON)!;
    expect(due.freeTime?.lastFreeDay).toBe("2026-12-10");
    // ... and the overdue one, discharged Nov 20, now has until Dec 2: due soon, no longer overdue.
    expect((await search({ lastFreeDaySoon: true })).references).toEqual([OVERDUE]);
    expect((await search({ lastFreeDayPassed: true })).total).toBe(0);
  });

  it("a new version that discharges the box starts its clock on the row", async () => {
    clock.set("2026-12-02T09:00:00.000Z");
    await carrierAnswers(ON_WATER, "2026-12-02T08:00:00.000Z");
    const row = (await search()).items.find((i) => i.reference === ON_WATER)!;
    expect(row.freeTime?.containers[0]).toMatchObject({ running: "demurrage" });
    expect(row.freeTime?.lastFreeDay).toBe("2026-12-13");
    clock.set(START);
  });

  it("a terminal hold puts the shipment on hold until it is released or grows too old", async () => {
    clock.set("2026-12-02T10:00:00.000Z");
    expect((await search({ onHold: true })).total).toBe(0);
    const doc = documentOf(DUE_SOON, "2026-11-29T10:00:00.000Z");
    await app.services.terminals.recordCarrierSignals(doc, (box) =>
      box === DUE_SOON
        ? [{ kind: "hold", holdType: "customs", at: "2026-12-02T09:00:00.000Z", code: "HOLD/CUS" }]
        : [],
    );
    const held = await search({ onHold: true });
    expect(held.references).toEqual([DUE_SOON]);
    expect(held.items[0]!.holds).toEqual([{ container: DUE_SOON, type: "customs", status: "hold" }]);
    expect((await search({ onHold: false })).total).toBe(2);
    // The carrier's word is a day old and nobody has confirmed it since: no longer current.
    clock.set("2026-12-03T10:00:01.000Z");
    expect((await search({ onHold: true })).total).toBe(0);
    clock.set("2026-12-02T11:00:00.000Z");
    await app.services.terminals.recordCarrierSignals(doc, (box) =>
      box === DUE_SOON
        ? [
            { kind: "hold", holdType: "customs", at: "2026-12-02T09:00:00.000Z", code: "HOLD/CUS" },
            {
              kind: "release",
              holdType: "customs",
              at: "2026-12-02T10:30:00.000Z",
              code: "CUSTOMS_RELEASED",
            },
          ]
        : [],
    );
    expect((await search({ onHold: true })).total).toBe(0);
  });

  it("a carrier answer that says nothing new about a box already followed recomputes no shipment", async () => {
    clock.set("2026-12-02T12:00:00.000Z");
    const doc = documentOf(DUE_SOON, "2026-11-29T10:00:00.000Z");
    // The first answer registered the box at its terminal; the same answer again changes nothing.
    await app.services.terminals.recordCarrierSignals(doc, () => []);
    const heard: unknown[] = [];
    const stop = onAnswersChanged(async (change) => {
      heard.push(change);
    });
    try {
      await app.services.terminals.recordCarrierSignals(doc, () => []);
    } finally {
      stop();
    }
    expect(heard).toEqual([]);
  });

  it("computes the shipments of one bill of lading once, whatever their number", async () => {
    const { prisma } = app.services.db;
    const row = await prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference: DUE_SOON },
    });
    // The same document followed under nine more references of this organisation (its booking, its bill
    // of lading, the box under other spellings): one set of inputs.
    const copies = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        prisma.shipment.create({
          data: {
            organizationId: org.organizationId,
            addedByUserId: org.userId,
            referenceType: "booking",
            reference: `BKG-FREE-${i}`,
            referenceKey: `BKGFREE${i}`,
            carrierScac: "MSCU",
            documentId: row.documentId,
            status: "IN_TRANSIT",
            summary: row.summary as never,
          },
        }),
      ),
    );
    const statementsOf = async (ids: string[]) => {
      const before = app.services.db.statements.count;
      await app.services.freeTime.recompute(ids);
      return app.services.db.statements.count - before;
    };
    const one = await statementsOf([row.id]);
    const ten = await statementsOf([row.id, ...copies.map((c) => c.id)]);
    expect(ten).toBe(one);
    const kept = await prisma.shipment.findMany({
      where: { id: { in: [row.id, ...copies.map((c) => c.id)] } },
      select: { freeTime: true, dndValidUntil: true },
    });
    expect(new Set(kept.map((k) => JSON.stringify(k))).size).toBe(1);
    expect((kept[0]!.freeTime as { lastFreeDay: string | null }).lastFreeDay).not.toBeNull();
    await prisma.shipment.deleteMany({ where: { id: { in: copies.map((c) => c.id) } } });
  });
});

describe("the shipments holding a box", () => {
  it("are found through the index on the summary's boxes, not by reading every shipment", async () => {
    const { prisma } = app.services.db;
    // The planner picks a scan (or the live-rows index) for a table this small; with scans priced out,
    // the bare condition shows the index when its expression matches the index's, and cannot otherwise.
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRaw<Record<string, string>[]>(
        Prisma.sql`EXPLAIN SELECT id FROM shipments WHERE ${summaryListsBox(DUE_SOON)}`,
      );
    });
    expect(plan.map((row) => Object.values(row)[0]).join("\n")).toContain(
      "shipments_summary_container_numbers_idx",
    );
    const held = await prisma.$queryRaw<{ id: string }[]>(shipmentsHoldingBox(DUE_SOON));
    const rows = await prisma.shipment.findMany({ where: { reference: DUE_SOON, deletedAt: null } });
    expect(rows.length).toBeGreaterThan(0);
    expect(held.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it("of an organisation, unset or older than their last write, are found through indexes of their own", async () => {
    const { prisma } = app.services.db;
    const plan = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRaw<Record<string, string>[]>(
        Prisma.sql`EXPLAIN ${shipmentsAwaitingFreeTime([org.organizationId])}`,
      );
    });
    const text = plan.map((row) => Object.values(row)[0]).join("\n");
    expect(text).toContain("shipments_free_time_unset_idx");
    expect(text).toContain("shipments_free_time_stale_idx");
  });
});
