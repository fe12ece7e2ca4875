/**
 * The tracking facts of the core as a client reads them: `track` through the carrier simulator at a
 * fixed time, then the typed fields every surface renders (voyage legs, location roles, ETA changes,
 * last actual event, milestones, what the document has to show), with no surface in between.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const NOW = "2026-11-20T12:00:00.000Z";
const clock = new ManualClock(NOW);
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  // No background work: a scheduled refresh moving the clock's shipments between two tracks would
  // take the second fetch's change for itself.
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
}, 120_000);
afterAll(() => app?.stop());

const TRACK = `mutation($reference: String!, $type: ReferenceType, $carrier: String) {
  track(reference: $reference, type: $type, carrier: $carrier) {
    __typename
    ... on TrackSuccess { changes { kind etaFrom etaTo statusFrom statusTo } document {
      status isActive contentState isDelayed ata ataLocalDateTime transshipmentLocationKeys
      route {
        placeOfReceipt { location { key role } }
        portOfLoading { location { key role } }
        portOfDischarge { location { key role } localDateTime actual }
        placeOfDelivery { location { key role } }
      }
      locations { key role lat lng }
      facilities { locode locodeCountryCode location { key } }
      vessels { key name voyages voyageLegs { sequence } }
      voyageLegs {
        sequence status voyage vessel { key name }
        from { key role } to { key role }
        departure { eventCode actual instant } arrival { eventCode actual instant }
      }
      etaHistory { eta changeHours }
      lastMilestone { eventCode actual instant location { key } }
      nextMilestone { eventCode actual instant location { key } }
      containers {
        number
        lastActualEvent { eventCode localDateTime }
        events { eventCode actual instant localDateTime isDateFromCarrier legType modeOfTransport kind }
        everything: events(includeHidden: true) { eventCode actual }
      }
      routePoints { lat lng }
      pin { lat lng }
      routeSegments { kind modeOfTransport vessel { name } from { key lat lng } to { key } path { lat lng } }
    } }
  }
}`;

async function track(reference: string, more: { type?: string; carrier?: string } = {}) {
  const { body } = await graphql(app, org.key, TRACK, { reference, ...more });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  const outcome = (body.data as any).track;
  expect(outcome.__typename).toBe("TrackSuccess");
  // What changed since the organisation's previous version comes with the document it changed.
  return { ...outcome.document, changes: outcome.changes };
}

const roleOf = (doc: any, key: string) => doc.locations.find((l: any) => l.key === key).role;

describe("a container delivered with a DROP at the consignee (MSCU1030053)", () => {
  it("is over: one completed voyage, every place in its role, the DROP never its last event", async () => {
    clock.set(NOW);
    const doc = await track("MSCU1030053");
    expect([doc.status, doc.isActive, doc.contentState]).toEqual(["DELIVERED", false, "OK"]);
    expect(doc.locations.map((l: any) => l.role)).toEqual([
      "PLACE_OF_RECEIPT",
      "PORT_OF_LOADING",
      "PORT_OF_DISCHARGE",
      "PLACE_OF_DELIVERY",
    ]);
    expect(doc.route.portOfLoading.location.role).toBe("PORT_OF_LOADING");
    expect(doc.route.placeOfDelivery.location.role).toBe("PLACE_OF_DELIVERY");
    expect(doc.ataLocalDateTime).toBe(doc.route.portOfDischarge.localDateTime);

    expect(doc.voyageLegs).toHaveLength(1);
    const [leg] = doc.voyageLegs;
    expect(leg).toMatchObject({
      sequence: 1,
      status: "COMPLETED",
      from: { key: doc.route.portOfLoading.location.key, role: "PORT_OF_LOADING" },
      to: { key: doc.route.portOfDischarge.location.key, role: "PORT_OF_DISCHARGE" },
      departure: { eventCode: "DEPA", actual: true },
      arrival: { eventCode: "ARRI", actual: true, instant: doc.ata },
    });
    const vessel = doc.vessels.find((v: any) => v.key === leg.vessel.key);
    expect(vessel).toMatchObject({ voyages: [leg.voyage], voyageLegs: [{ sequence: 1 }] });

    const [box] = doc.containers;
    // The carrier reported a DROP; the core keeps it out of every event list a client reads.
    expect(box.everything.map((e: any) => e.eventCode)).toContain("DROP");
    expect(box.events.map((e: any) => e.eventCode)).not.toContain("DROP");
    const lastShown = box.events.filter((e: any) => e.actual).at(-1);
    expect(box.lastActualEvent).toEqual({
      eventCode: lastShown.eventCode,
      localDateTime: lastShown.localDateTime,
    });
    expect(doc.lastMilestone).toMatchObject({ eventCode: lastShown.eventCode, actual: true });
    expect(doc.nextMilestone).toBeNull();
    expect(box.events.every((e: any) => e.isDateFromCarrier === (e.localDateTime !== null))).toBe(true);
    expect(new Set(box.events.map((e: any) => e.legType))).toEqual(new Set(["SEA", "LAND"]));
  });

  it("draws the journey: its calls in order, land to the port, the sea leg on the voyage's vessel", async () => {
    clock.set(NOW);
    const doc = await track("MSCU1030053");
    const calls = ["placeOfReceipt", "portOfLoading", "portOfDischarge", "placeOfDelivery"].map((end) =>
      doc.locations.find((l: any) => l.key === doc.route[end].location.key),
    );
    expect(doc.routePoints).toEqual(calls.map((l: any) => ({ lat: l.lat, lng: l.lng })));
    expect(doc.routeSegments.map((s: any) => [s.kind, s.modeOfTransport, s.vessel?.name ?? null])).toEqual([
      ["LAND", "TRUCK", null],
      ["SEA", "VESSEL", doc.voyageLegs[0].vessel.name],
      ["LAND", "TRUCK", null],
    ]);
    for (const segment of doc.routeSegments) {
      expect(segment.path[0]).toEqual({ lat: segment.from.lat, lng: segment.from.lng });
    }
    expect(doc.routeSegments[1].path.length).toBeGreaterThan(2);
    // Delivered: the pin stands where the box last was (the port it went back to empty).
    const last = doc.locations.find((l: any) => l.key === doc.lastMilestone.location.key);
    expect(doc.pin).toEqual({ lat: last.lat, lng: last.lng });
    for (const facility of doc.facilities) {
      expect(facility.location.key).toBe(facility.locode);
      expect(facility.locodeCountryCode).toBe(facility.locode.slice(0, 2));
    }
  });
});

describe("a container transshipped twice, at sea now (MSCU1000758)", () => {
  it("has a completed, a sailing and a planned leg joined at the hubs, and the next arrival ahead", async () => {
    clock.set(NOW);
    const doc = await track("MSCU1000758");
    expect(doc.voyageLegs.map((l: any) => l.status)).toEqual(["COMPLETED", "SAILING", "PLANNED"]);
    for (const [i, leg] of doc.voyageLegs.entries()) {
      expect(leg.sequence).toBe(i + 1);
      if (i > 0) expect(leg.from.key).toBe(doc.voyageLegs[i - 1].to.key);
    }
    expect(doc.voyageLegs.slice(1).map((l: any) => l.from.key)).toEqual(doc.transshipmentLocationKeys);
    for (const key of doc.transshipmentLocationKeys) expect(roleOf(doc, key)).toBe("TRANSSHIPMENT");
    expect(new Set(doc.voyageLegs.map((l: any) => l.vessel.key)).size).toBe(3);

    const sailing = doc.voyageLegs[1];
    expect(doc.lastMilestone).toMatchObject({
      eventCode: "DEPA",
      actual: true,
      instant: sailing.departure.instant,
    });
    expect(doc.nextMilestone).toMatchObject({
      eventCode: "ARRI",
      actual: false,
      instant: sailing.arrival.instant,
    });
    expect(Date.parse(doc.nextMilestone.instant)).toBeGreaterThan(Date.parse(NOW));
    expect([doc.status, doc.isActive, doc.contentState, doc.ata]).toEqual(["IN_TRANSIT", true, "OK", null]);
    expect(doc.ataLocalDateTime).toBeNull();
    // Between two calls, so the pin is at sea: at no place of the journey.
    const places = doc.locations.map((l: any) => `${l.lat},${l.lng}`);
    expect(places).not.toContain(`${doc.pin.lat},${doc.pin.lng}`);
  });
});

describe("a container whose arrival slipped between two fetches (MSCU1038521)", () => {
  it("keeps both ETAs, the second with the hours it moved, and is delayed", async () => {
    clock.set("2026-11-15T12:00:00.000Z");
    const first = await track("MSCU1038521");
    expect(first.etaHistory.map((r: any) => r.changeHours)).toEqual([0]);
    expect(first.isDelayed).toBe(false);
    expect(first.changes).toEqual([]);
    clock.set(NOW);
    const second = await track("MSCU1038521");
    const [before, after] = second.etaHistory;
    expect(second.etaHistory).toHaveLength(2);
    expect(before).toEqual(first.etaHistory[0]);
    // The world moves this arrival 41 hours later between the two fetches.
    expect(after.changeHours).toBe(41);
    expect(Date.parse(after.eta) - Date.parse(before.eta)).toBe(41 * 3_600_000);
    expect(second.isDelayed).toBe(true);
    expect(second.changes).toContainEqual({
      kind: "ETA",
      etaFrom: before.eta,
      etaTo: after.eta,
      statusFrom: null,
      statusTo: null,
    });
  });
});

describe("a bill of lading the shipper cancelled (MEDUAM814688)", () => {
  it("is cancelled and shows nothing: no leg, no milestone, no place", async () => {
    clock.set(NOW);
    const doc = await track("MEDUAM814688", { type: "bl" });
    expect([doc.status, doc.isActive, doc.contentState]).toEqual(["CANCELLED", false, "CANCELLED"]);
    expect([doc.voyageLegs, doc.routePoints, doc.routeSegments, doc.etaHistory]).toEqual([[], [], [], []]);
    expect([doc.lastMilestone, doc.nextMilestone, doc.pin]).toEqual([null, null, null]);
  });
});
