/**
 * Predictive ETA on the GraphQL core: tracked through the carrier simulator at a fixed time, read on
 * the shipment and on its document, computed by the eta worker (never by a read) and kept as a snapshot
 * per computation, cleared by a new version, gated by plan,
 * and the domain's `podArrivalP50` for other code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
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

describe("a container at sea on a professional plan (MSCU1000130)", () => {
  it("has a predicted arrival window after now, the same on the shipment and its document", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(professional, "MSCU1000130");
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

  it("is computed by the eta worker, not by reads: one snapshot per computation, again after an hour", async () => {
    clock.set(NOW);
    const first = await trackAndRead(professional, "MSCU1000130");
    // Before the worker: the read computes it in memory and stores nothing.
    expect(first.predictiveEta.computedAt).toBe(NOW);
    expect(await snapshots(first.id)).toHaveLength(0);

    expect(await app.services.eta.computeDue()).toBeGreaterThanOrEqual(1);
    const again = await trackAndRead(professional, "MSCU1000130");
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
    // Nothing is due again within the hour, and reads keep nothing.
    expect(await app.services.eta.computeDue()).toBe(0);
    await trackAndRead(professional, "MSCU1000130");
    expect(await snapshots(first.id)).toHaveLength(1);

    const later = new Date(Date.parse(NOW) + 2 * HOUR_MS).toISOString();
    clock.set(later);
    // Served from the row until the worker has computed the new hour's.
    expect((await trackAndRead(professional, "MSCU1000130")).predictiveEta.computedAt).toBe(NOW);
    expect(await app.services.eta.computeDue()).toBeGreaterThanOrEqual(1);
    expect((await trackAndRead(professional, "MSCU1000130")).predictiveEta.computedAt).toBe(later);
    const all = await snapshots(first.id);
    expect(all).toHaveLength(2);
    expect(all[1]!.horizonHours).toBeLessThan(all[0]!.horizonHours);
  });

  it("never serves the previous version's prediction once a new version is stored", async () => {
    const now = new Date(Date.parse(NOW) + 2 * HOUR_MS).toISOString();
    clock.set(now);
    const before = await trackAndRead(professional, "MSCU1000130");
    await app.services.eta.computeDue();
    const row = () => app.services.db.prisma.shipment.findUniqueOrThrow({ where: { id: before.id } });
    const { documentId } = await row();
    const [latest] = await app.services.documents.latestOfMany([documentId!]);
    // The carrier moves its ETA by two days: a new version of the document, served from the store.
    const content = latest!.content;
    const moved = new Date(Date.parse(content.route.pod.instant!) + 48 * HOUR_MS).toISOString();
    const stored = await app.services.documents.record(
      {
        organizationId: professional.organizationId,
        carrierScac: latest!.document.carrierScac,
        referenceType: latest!.document.referenceType,
        referenceKey: latest!.document.referenceKey,
      },
      { ...content, route: { ...content.route, pod: { ...content.route.pod, instant: moved } } },
    );
    expect(stored.changed).toBe(true);
    // Tracked again within the freshness window: served from the store, the new version.
    const served = await graphql(
      app,
      professional.key,
      `mutation { track(reference: "MSCU1000130", mode: SERVE_FRESH) { __typename } }`,
    );
    expect((served.body.data as any).track.__typename).toBe("TrackSuccess");
    const after = (await graphql(app, professional.key, READ, { id: "MSCU1000130" })).body.data!
      .shipment as any;
    expect(after.eta).toBe(moved);
    // The write that served the new version cleared the row's prediction and made it due at once.
    expect((await row()).predictedEta).toBeNull();
    expect((await row()).etaDueAt?.toISOString()).toBe(now);
    // What a read serves meanwhile is the new version's, computed in memory; the worker then keeps it.
    expect(after.predictiveEta).not.toEqual(before.predictiveEta);
    await app.services.eta.computeDue();
    expect((await row()).predictedEta).toMatchObject({ kind: "predicted", versionId: stored.version.id });
    const read = (await graphql(app, professional.key, READ, { id: "MSCU1000130" })).body.data!
      .shipment as any;
    expect(read.predictiveEta).toEqual(after.predictiveEta);
  });

  it("is what compat's pod.predictive_eta shows when the carrier gives no arrival date", async () => {
    clock.set(NOW);
    const before = await trackAndRead(professional, "MSCU1000130");
    const { documentId } = await app.services.db.prisma.shipment.findUniqueOrThrow({
      where: { id: before.id },
    });
    const [latest] = await app.services.documents.latestOfMany([documentId!]);
    const content = latest!.content;
    await app.services.documents.record(
      {
        organizationId: professional.organizationId,
        carrierScac: latest!.document.carrierScac,
        referenceType: latest!.document.referenceType,
        referenceKey: latest!.document.referenceKey,
      },
      {
        ...content,
        route: { ...content.route, pod: { ...content.route.pod, instant: null, localDateTime: null } },
      },
    );
    await graphql(
      app,
      professional.key,
      `mutation { track(reference: "MSCU1000130", mode: SERVE_FRESH) { __typename } }`,
    );
    await app.services.eta.computeDue();
    const { body } = await graphql(
      app,
      professional.key,
      `query ($id: String!) { shipment(id: $id) { predictiveEta { p50 source } document { podPredictedArrival { instant localDateTime basis } } } }`,
      { id: "MSCU1000130" },
    );
    const shipment = (body.data as any).shipment;
    if (shipment.predictiveEta) {
      // A trusted position gives the model a prediction without the carrier's date: its p50.
      expect(shipment.predictiveEta.source).toBe("model");
      expect(shipment.document.podPredictedArrival).toMatchObject({
        instant: shipment.predictiveEta.p50,
        basis: "predictive_eta",
      });
    } else {
      // A position the model does not trust (issue 34: in a world whose ship sails another loop, its
      // course points away from the next call) and no carrier date to fall back to: no prediction, and
      // compat shows the departure estimate.
      expect(shipment.document.podPredictedArrival).toMatchObject({ basis: "departure_estimate" });
    }
    const compat = await compatGet(app, professional.key, "/tracking", {
      number: "MSCU1000130",
      sealine: "MSCU",
    });
    expect(compat.body.data.route.pod).toMatchObject({
      date: null,
      predictive_eta: shipment.document.podPredictedArrival.localDateTime,
    });
  });

  it("gives other code the current p50 through podArrivalP50, and nothing to another organisation", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(professional, "MSCU1000130");
    const p50 = await app.services.eta.podArrivalP50(professional.organizationId, shipment.id);
    expect(p50?.toISOString()).toBe(shipment.predictiveEta.p50);
    expect(await app.services.eta.podArrivalP50(starter.organizationId, shipment.id)).toBeNull();
  });
});

describe("plans and journeys without a prediction", () => {
  it("is off on the starter plan: enabled false, no prediction, nothing kept", async () => {
    clock.set(NOW);
    const shipment = await trackAndRead(starter, "MSCU1000130");
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
