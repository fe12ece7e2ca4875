/**
 * Issue 34, item 4: every time a client reads says which clock it is on (docs/decisions/times.md).
 * Shipments tracked through the carrier simulator over real HTTP; the port-local `YYYY-MM-DD HH:MM:SS`
 * fields stay as the contract has them, and their UTC companions (v1 `_utc`), offsets (GraphQL and
 * MCP `utcOffset`) must denote the same instant in the port of discharge's own time zone.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getShipmentStatus } from "../../facades/mcp/tools/get-shipment-status.tool";
import { callTool, inMemoryClient, TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { wallClockIn } from "../support/wall-clock";

let app: TestApp;
let org: OrgWithKey;
let mcp: Client;
/** v1 tracking documents of the boxes tracked, by container number. */
const tracked = new Map<string, Record<string, any>>();

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization({ plan: "professional" });
  // Where boxes discharge follows the world's timetable and the day: boxes are tracked until both
  // kinds of port of discharge are among them, one off UTC with a catalogue zone and one without.
  const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 60 });
  const docs = () => [...tracked.values()].filter((doc) => doc.eta);
  for (const number of known) {
    const res = await fetch(`${app.url}/api/v1/container/${number}`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    expect(res.status).toBe(200);
    tracked.set(number, (await res.json()).data);
    const unzoned = docs().some((doc) => !podZone(doc));
    const offUtc = docs().some((doc) => podZone(doc) && offsetIn(doc.eta_utc, podZone(doc)) !== "+00:00");
    if (tracked.size >= 6 && unzoned && offUtc) break;
  }
  mcp = await inMemoryClient(app, org.key);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const get = async (path: string) =>
  (await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${org.key}` } })).json();

/** The zone's offset from UTC at an instant, `+01:00` (`+00:00` for UTC). */
function offsetIn(instant: string, timeZone: string): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(new Date(instant))
    .find((p) => p.type === "timeZoneName")!.value;
  return name === "GMT" ? "+00:00" : name.slice(3);
}

/** The port of discharge's time zone, from the document's own locations table (null when not known). */
const podZone = (doc: Record<string, any>): string =>
  doc.locations_table.find((l: { role: string }) => l.role === "pod").timezone;

/**
 * Boxes whose port of discharge has a known zone that is not UTC: there a naive reading of `eta` is
 * hours off.
 */
function offUtcBoxes(): [string, Record<string, any>][] {
  const boxes = [...tracked].filter(
    ([, doc]) => doc.eta && podZone(doc) && offsetIn(doc.eta_utc, podZone(doc)) !== "+00:00",
  );
  expect(boxes.length, "a tracked box discharges at a port off UTC").toBeGreaterThan(0);
  return boxes;
}

describe("v1", () => {
  it("gives the tracking document's port-local eta a UTC companion denoting the same instant", () => {
    for (const [, doc] of offUtcBoxes()) {
      expect(doc.eta).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(doc.eta_utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
      expect(wallClockIn(doc.eta_utc, podZone(doc))).toBe(doc.eta);
      // Read naively as UTC, the local text is a different instant: the companion is what tells them apart.
      expect(Date.parse(`${doc.eta.replace(" ", "T")}Z`)).not.toBe(Date.parse(doc.eta_utc));
    }
  });

  it("does the same on the stored shipment (eta and ata), in the list and on the single read", async () => {
    const list = await get("/api/v1/shipments?pageSize=100");
    for (const [number, doc] of offUtcBoxes()) {
      const { data } = await get(`/api/v1/shipments/${number}`);
      const listed = list.data.find((s: { reference_number: string }) => s.reference_number === number);
      for (const summary of [data, listed]) {
        expect(summary.eta_utc).toBe(doc.eta_utc);
        if (summary.eta === null) expect(summary.eta_utc).toBeNull();
        else expect(wallClockIn(summary.eta_utc, podZone(doc))).toBe(summary.eta);
        if (summary.ata === null) expect(summary.ata_utc).toBeNull();
        else expect(wallClockIn(summary.ata_utc, podZone(doc))).toBe(summary.ata);
      }
    }
  });

  it("keeps the tables' field counts: their clocks are the rows' own companions and the locations' zones", () => {
    for (const [, doc] of offUtcBoxes()) {
      for (const row of doc.eta_history_table) expect(wallClockIn(row.eta_utc, podZone(doc))).toBe(row.eta);
      for (const row of doc.events_table.filter((e: { date: string | null }) => e.date)) {
        const zone = doc.locations_table.find((l: { id: number }) => l.id === row.location_id)?.timezone;
        if (zone) expect(wallClockIn(row.date_utc, zone)).toBe(row.date);
      }
      expect(new Set(doc.voyage_plan_table.map((r: object) => Object.keys(r).length))).toEqual(
        new Set(doc.voyage_plan_table.length ? [9] : []),
      );
    }
  });
});

const SHIPMENT = `query($id: String!) { shipment(id: $id) {
  eta ata
  summary { arrivalLocalDateTime arrival arrivalUtcOffset ataLocalDateTime ata ataUtcOffset }
  document {
    ata ataLocalDateTime ataUtcOffset
    route { portOfDischarge { localDateTime instant utcOffset } }
    etaHistory { eta localDateTime utcOffset }
  }
} }`;

async function shipmentOf(number: string) {
  const { body } = await graphql(app, org.key, SHIPMENT, { id: number });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return (body.data as any).shipment;
}

describe("GraphQL", () => {
  it("puts the port's offset beside every port-local time, computed by the core from the same pair", async () => {
    for (const [number, doc] of offUtcBoxes()) {
      const zone = podZone(doc);
      const s = await shipmentOf(number);
      const pod = s.document.route.portOfDischarge;
      expect(pod.localDateTime).toBe(doc.eta);
      expect(pod.utcOffset).toBe(offsetIn(pod.instant, zone));
      expect(pod.utcOffset).not.toBe("+00:00");
      expect(s.summary).toMatchObject({
        arrivalLocalDateTime: doc.eta,
        arrival: s.eta,
        arrivalUtcOffset: pod.utcOffset,
      });
      for (const r of s.document.etaHistory) expect(r.utcOffset).toBe(offsetIn(r.eta, zone));
      if (s.summary.ataLocalDateTime) {
        expect(s.summary.ata).toBe(s.ata);
        expect(s.summary.ataUtcOffset).toBe(offsetIn(s.ata, zone));
        expect(s.document.ataUtcOffset).toBe(s.summary.ataUtcOffset);
      } else {
        expect([s.summary.ata, s.summary.ataUtcOffset, s.document.ataUtcOffset]).toEqual([null, null, null]);
      }
    }
  });

  it("says the offset a port-local time was written with even where the port's zone is not in the catalogue", async () => {
    const unzoned = [...tracked].filter(([, doc]) => doc.eta && !podZone(doc));
    expect(unzoned.length, "a tracked box discharges at a port without a catalogue zone").toBeGreaterThan(0);
    for (const [number, doc] of unzoned) {
      const pod = (await shipmentOf(number)).document.route.portOfDischarge;
      const offset = pod.utcOffset as string;
      expect(offset).toMatch(/^[+-]\d\d:\d\d$/);
      // The local reading is the instant moved by that offset.
      const minutes =
        (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
      const shifted = new Date(Date.parse(doc.eta_utc) + minutes * 60_000).toISOString();
      expect(`${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`).toBe(doc.eta);
    }
  });

  it("gives a summary stored before its instants were kept the same instants, from the shipment row", async () => {
    const [number] = offUtcBoxes()[0]!;
    const before = await shipmentOf(number);
    const row = await app.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, reference: number },
    });
    const { arrival: _arrival, ata: _ata, ...older } = row.summary as Record<string, unknown>;
    expect(_arrival).toBe(before.summary.arrival);
    await app.services.db.prisma.shipment.update({
      where: { id: row.id },
      data: { summary: older as never },
    });
    const after = await shipmentOf(number);
    expect(after.summary).toEqual(before.summary);
  });

  it("describes the clock of each new field in the printed schema", async () => {
    const { body } = await graphql(
      app,
      org.key,
      `{ __type(name: "ShipmentSummary") { fields { name description } } }`,
    );
    const fields = (body.data as any).__type.fields as { name: string; description: string }[];
    expect(fields.find((f) => f.name === "arrivalUtcOffset")!.description).toMatch(/offset from UTC/);
    expect(fields.find((f) => f.name === "arrival")!.description).toMatch(/UTC/);
  });
});

describe("MCP", () => {
  it("get_shipment_status carries the offset beside each local time, and validates against its output schema", async () => {
    for (const [number, doc] of offUtcBoxes()) {
      const result = await callTool(mcp, "get_shipment_status", { reference: number });
      expect(result.isError).toBeFalsy();
      const out = getShipmentStatus.output.parse(result.structuredContent) as any;
      const zone = podZone(doc);
      expect(out.etaLocal).toBe(doc.eta);
      expect(out.etaUtcOffset).toBe(offsetIn(out.eta, zone));
      expect(out.portOfDischarge.utcOffset).toBe(out.etaUtcOffset);
      expect(wallClockIn(out.portOfDischarge.at, zone)).toBe(out.portOfDischarge.local);
      for (const event of [out.lastEvent, out.nextEvent].filter(Boolean)) {
        if (event.local) expect(event.utcOffset).toMatch(/^[+-]\d\d:\d\d$/);
      }
    }
  });

  it("list_my_shipments and get_shipment_timeline say the clock of their local times too", async () => {
    const listed = (await callTool(mcp, "list_my_shipments", { pageSize: 100 })).structuredContent as any;
    const listedOffUtc = offUtcBoxes().map(([number, doc]) => {
      const s = listed.shipments.find((item: { reference: string }) => item.reference === number);
      expect(s.etaLocal).toBe(doc.eta);
      expect(s.etaUtcOffset).toBe(offsetIn(s.eta, podZone(doc)));
      return number;
    });
    expect(listedOffUtc.length).toBeGreaterThan(0);
    const [number, doc] = offUtcBoxes()[0]!;
    const timeline = (await callTool(mcp, "get_shipment_timeline", { reference: number }))
      .structuredContent as any;
    expect(timeline.etaHistory.length).toBeGreaterThan(0);
    for (const r of timeline.etaHistory) expect(r.utcOffset).toBe(offsetIn(r.eta, podZone(doc)));
  });
});
