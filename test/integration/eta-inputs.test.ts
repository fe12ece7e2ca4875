/**
 * Issue 34 on the service's own path: the eta worker reads the vessel's position from the position
 * providers (here the AIS store, asked before the simulator), and a position the model must not trust
 * falls back to the carrier's ETA with the reason, on GraphQL, v1 and the kept snapshot; kept snapshots
 * are scored once a version with the arrival is stored, and the scorecard shows them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyProgress } from "../../src/domain/eta/journey-progress";
import { placeLocations } from "../../src/domain/routes/placed-locations";
import { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const NOW = "2026-11-20T12:00:00.000Z";
const HOUR_MS = 3_600_000;
const REFERENCE = "MSCU1000130";
const clock = new ManualClock(NOW);
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  const feed = path.join(mkdtempSync(path.join(tmpdir(), "eta-ais-")), "feed.nmea");
  writeFileSync(feed, "");
  app = await startTestApp({
    env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off", QUAYSIDE_AIS_FEED: `file:${feed}` },
    clock,
  });
  org = await app.fixtures.organization({ plan: "professional" });
}, 120_000);
afterAll(() => app?.stop());

const READ = `query($id: String!) { shipment(id: $id) {
  id predictiveEta { p50 p80 source confidence fallbackReason }
} }`;

async function v1Container() {
  const res = await fetch(`${app.url}/api/v1/container/${REFERENCE}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data;
}

async function readShipment() {
  const { body } = await graphql(app, org.key, READ, { id: REFERENCE });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return (body.data as any).shipment;
}

/** The tracked document, the vessel sailing with the box and the calls it left and is bound for. */
async function journey() {
  const row = await app.services.db.prisma.shipment.findFirstOrThrow({
    where: { organizationId: org.organizationId, referenceKey: REFERENCE },
  });
  const [latest] = await app.services.documents.latestOfMany([row.documentId!]);
  const progress = journeyProgress(latest!.content);
  const places = new Map(placeLocations(latest!.content).map((p) => [p.key, p]));
  return { row, latest: latest!, progress, left: places.get(progress.sailing!.departedFrom)! };
}

/** The AIS store's report of the vessel: what the eta worker reads first. */
async function reportPosition(
  vessel: { imo: string | number | null; name: string | null },
  at: { lat: number; lng: number },
  positionAt: string,
) {
  const imo = vessel.imo === null ? null : String(vessel.imo).padStart(7, "0");
  const report = {
    imo,
    name: vessel.name,
    lat: at.lat,
    lon: at.lng,
    speed: 16,
    positionAt: new Date(positionAt),
  };
  await app.services.db.prisma.vesselPosition.upsert({
    where: { mmsi: "563000001" },
    create: { mmsi: "563000001", ...report },
    update: report,
  });
}

describe("a position the model must not trust", () => {
  it("falls back to the carrier with the reason when the vessel is reported off its planned leg", async () => {
    clock.set(NOW);
    await v1Container();
    const { row, progress, left } = await journey();
    expect(progress.sailing, "the box is aboard a sailing vessel").not.toBeNull();
    // Across the globe from the call it left, nowhere near the leg its voyage plan names; read after
    // the sources' five-minute cache of the simulator's fix (the first read asked it) has lapsed.
    const antipode = { lat: -left.lat!, lng: left.lng! > 0 ? left.lng! - 180 : left.lng! + 180 };
    const reported = new Date(Date.parse(NOW) + 10 * 60_000).toISOString();
    await reportPosition(progress.sailing!.vessel, antipode, reported);
    clock.set(reported);
    await app.services.eta.computeDue();

    const eta = (await readShipment()).predictiveEta;
    expect(eta).toMatchObject({ source: "carrier", confidence: "low", fallbackReason: "off_planned_leg" });
    expect((await v1Container()).predictive_eta).toMatchObject({
      source: "carrier",
      confidence: "low",
      fallback_reason: "off_planned_leg",
    });
    const kept = await app.services.db.prisma.predictiveEtaSnapshot.findMany({
      where: { shipmentId: row.id },
    });
    expect(kept.map((k) => k.fallbackReason)).toEqual(["off_planned_leg"]);
  });

  it("falls back when the newest fix is older than its usefulness (stale)", async () => {
    const later = new Date(Date.parse(NOW) + 2 * HOUR_MS).toISOString();
    clock.set(later);
    const { progress, left } = await journey();
    // On the leg (at the call it left), but reported 20 hours ago.
    await reportPosition(
      progress.sailing!.vessel,
      { lat: left.lat!, lng: left.lng! },
      new Date(Date.parse(later) - 20 * HOUR_MS).toISOString(),
    );
    await app.services.eta.computeDue();
    const eta = (await readShipment()).predictiveEta;
    expect(eta).toMatchObject({ source: "carrier", confidence: "low", fallbackReason: "stale_position" });
  });
});

describe("production scoring", () => {
  it("scores every kept snapshot once a version with the arrival is stored, and the scorecard shows them", async () => {
    const { row, latest } = await journey();
    const before = await app.services.db.prisma.predictiveEtaSnapshot.findMany({
      where: { shipmentId: row.id },
    });
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.every((s) => s.scoredAt === null)).toBe(true);

    const arrivedAt = new Date(Date.parse(NOW) + 5 * 24 * HOUR_MS);
    clock.set(new Date(arrivedAt.getTime() + HOUR_MS).toISOString());
    const content = latest.content;
    await app.services.documents.record(
      {
        organizationId: org.organizationId,
        carrierScac: latest.document.carrierScac,
        referenceType: latest.document.referenceType,
        referenceKey: latest.document.referenceKey,
      },
      {
        ...content,
        ata: arrivedAt.toISOString(),
        route: {
          ...content.route,
          pod: { ...content.route.pod, instant: arrivedAt.toISOString(), actual: true },
        },
      },
    );
    await app.services.db.prisma.shipment.update({ where: { id: row.id }, data: { etaDueAt: clock.now() } });
    await app.services.eta.computeDue();

    const scored = await app.services.db.prisma.predictiveEtaSnapshot.findMany({
      where: { shipmentId: row.id },
    });
    for (const s of scored) {
      expect(s.ata?.toISOString()).toBe(arrivedAt.toISOString());
      expect(s.p50ErrorHours).toBeCloseTo(Math.abs(s.p50.getTime() - arrivedAt.getTime()) / HOUR_MS, 3);
      expect(s.carrierErrorHours).toBeCloseTo(
        Math.abs(s.carrierEta!.getTime() - arrivedAt.getTime()) / HOUR_MS,
        3,
      );
      expect(s.beforeP50).toBe(arrivedAt <= s.p50);
      expect(s.beforeP80).toBe(arrivedAt <= s.p80);
    }
    const card = await app.services.eta.scorecard();
    expect(card.reduce((n, c) => n + c.predictions, 0)).toBe(scored.length);
    expect(card.every((c) => c.source === "carrier")).toBe(true);
  });

  it("deletes snapshots past their retention", async () => {
    const row = await app.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, referenceKey: REFERENCE },
    });
    clock.set(new Date(Date.parse(NOW) + 200 * 24 * HOUR_MS).toISOString());
    const pruned = await app.services.eta.pruneKept(180, true);
    expect(pruned?.snapshots).toBeGreaterThanOrEqual(2);
    expect(await app.services.db.prisma.predictiveEtaSnapshot.count({ where: { shipmentId: row.id } })).toBe(
      0,
    );
  });
});
