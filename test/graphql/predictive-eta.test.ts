/**
 * Predictive ETA on the GraphQL core: tracked through the carrier simulator at a fixed time, read on
 * the shipment and on its document, kept as a snapshot per hour and document version, gated by plan,
 * and the domain's `podArrivalP50` for other code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const NOW = "2026-11-20T12:00:00.000Z";
const HOUR_MS = 3_600_000;
const clock = new ManualClock(NOW);
let app: TestApp;
let professional: OrgWithKey;
let starter: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  professional = await app.fixtures.organization({ plan: "professional" });
  starter = await app.fixtures.organization({ plan: "starter" });
}, 120_000);
afterAll(() => app?.stop());

const ETA = "predictiveEta { p50 p80 source confidence computedAt horizonHours }";
const TRACK = `mutation($reference: String!) { track(reference: $reference) { __typename } }`;
const READ = `query($id: String!) { shipment(id: $id) {
  id eta predictiveEtaEnabled ${ETA}
  document { predictiveEtaEnabled ${ETA} }
} }`;

async function trackAndRead(org: OrgWithKey, reference: string) {
  const tracked = await graphql(app, org.key, TRACK, { reference });
  expect((tracked.body.data as any).track.__typename).toBe("TrackSuccess");
  const { body } = await graphql(app, org.key, READ, { id: reference });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return (body.data as any).shipment;
}

const snapshots = (shipmentId: string) =>
  app.services.db.prisma.predictiveEtaSnapshot.findMany({
    where: { shipmentId },
    orderBy: { computedAt: "asc" },
  });

describe("a container at sea on a professional plan (MSCU1000090)", () => {
  it("has a predicted arrival window after now, the same on the shipment and its document", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(professional, "MSCU1000090");
    const eta = shipment.predictiveEta;
    expect(shipment.predictiveEtaEnabled).toBe(true);
    expect(eta).not.toBeNull();
    expect(Date.parse(eta.p50)).toBeGreaterThan(Date.parse(NOW));
    expect(Date.parse(eta.p80)).toBeGreaterThanOrEqual(Date.parse(eta.p50));
    expect(["model", "blend", "carrier"]).toContain(eta.source);
    expect(["high", "medium", "low"]).toContain(eta.confidence);
    expect(eta.computedAt).toBe(NOW);
    expect(shipment.document.predictiveEta).toEqual(eta);
    // The prediction stays near the carrier's ETA: days, not weeks, apart.
    expect(Math.abs(Date.parse(eta.p50) - Date.parse(shipment.eta)) / HOUR_MS).toBeLessThan(14 * 24);
  });

  it("keeps one snapshot per hour: a read in the same hour reuses it, a later hour adds one", async () => {
    clock.set(NOW);
    const first = await trackAndRead(professional, "MSCU1000090");
    const again = await trackAndRead(professional, "MSCU1000090");
    expect(again.predictiveEta).toEqual(first.predictiveEta);
    const kept = await snapshots(first.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      p50: new Date(first.predictiveEta.p50),
      p80: new Date(first.predictiveEta.p80),
      source: first.predictiveEta.source,
      confidence: first.predictiveEta.confidence,
    });
    expect(kept[0]!.carrierEta).not.toBeNull();

    clock.set(new Date(Date.parse(NOW) + 2 * HOUR_MS).toISOString());
    const later = await trackAndRead(professional, "MSCU1000090");
    expect(later.predictiveEta.computedAt).toBe(new Date(Date.parse(NOW) + 2 * HOUR_MS).toISOString());
    const all = await snapshots(first.id);
    expect(all).toHaveLength(2);
    expect(all[1]!.horizonHours).toBeLessThan(all[0]!.horizonHours);
  });

  it("gives other code the current p50 through podArrivalP50, and nothing to another organisation", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(professional, "MSCU1000090");
    const p50 = await app.services.eta.podArrivalP50(professional.organizationId, shipment.id);
    expect(p50?.toISOString()).toBe(shipment.predictiveEta.p50);
    expect(await app.services.eta.podArrivalP50(starter.organizationId, shipment.id)).toBeNull();
  });
});

describe("plans and journeys without a prediction", () => {
  it("is off on the starter plan: enabled false, no prediction, nothing kept", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(starter, "MSCU1000090");
    expect(shipment.predictiveEtaEnabled).toBe(false);
    expect(shipment.predictiveEta).toBeNull();
    expect(shipment.document.predictiveEta).toBeNull();
    expect(await snapshots(shipment.id)).toHaveLength(0);
  });

  it("is null once the vessel has arrived (a delivered container, MSCU1001121)", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(professional, "MSCU1001121");
    expect(shipment.predictiveEtaEnabled).toBe(true);
    expect(shipment.predictiveEta).toBeNull();
  });
});
