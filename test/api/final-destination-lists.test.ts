/**
 * Issue 41: the predicted arrival at the final destination beyond the port of discharge on the v1
 * shipment list (page and delta mode) and on compat's `route.postpod`, as on the tracking document
 * (docs/decisions/final-destination-eta.md). A simulator box carried on by truck, with a partner's
 * truck position two thirds of the way, beside a box whose journey ends at the port.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownShipments, shipmentFor } from "../../simulator/world/world";
import { wallClock } from "../../src/domain/routes/placed-locations";
import { ManualClock } from "../../src/lib/clock";
import { compatGet, SIMULATOR_ENV } from "../compat/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { truckedOnBox } from "../support/trucked-box";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = "2026-11-20T12:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let trucked: string;
const portToPort: string[] = [];
/** Two more boxes whose journey goes on beyond the port (the newest rows of the list with `trucked`). */
const alsoBeyond: string[] = [];

/**
 * One-box MSC shipments known to the carrier at `at`: whose journey ends at the port of discharge, or
 * that go on beyond it and are still days from the end.
 */
function boxes(at: Date, count: number, beyondPort: boolean, except: string): string[] {
  const found: string[] = [];
  for (const shipment of knownShipments("MSCU", new Date(START))) {
    if (shipment.cancelled || shipment.containers.length !== 1) continue;
    if ((shipment.plan.destination !== undefined) !== beyondPort) continue;
    if (beyondPort && shipment.completesAt.getTime() < at.getTime() + 10 * DAY) continue;
    const number = shipment.containers[0]!.equipmentReference;
    if (number === except) continue;
    if (shipmentFor("MSCU", number, "equipment", at)?.key !== shipment.key) continue;
    found.push(number);
    if (found.length === count) return found;
  }
  throw new Error(`not enough one-box MSC shipments (beyond the port: ${beyondPort}) in the simulator world`);
}

async function v1(path: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(app, org.key, query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as Record<string, any>;
}

const between = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, share: number) => ({
  lat: a.lat + (b.lat - a.lat) * share,
  lng: a.lng + (b.lng - a.lng) * share,
});

const READ = `query ($id: String!) {
  shipment(id: $id) {
    finalDestinationEta { p50 localDateTime source }
    document {
      route {
        portOfDischarge { instant location { lat lng } }
        placeOfDelivery { location { key lat lng } }
      }
      placedLocations { key timeZone }
    }
  }
}`;

beforeAll(async () => {
  clock = new ManualClock(START);
  app = await startTestApp({ env: { ...SIMULATOR_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  const found = truckedOnBox(START);
  trucked = found.number;
  // The boxes ending at their port are tracked first: the list's newest rows go on beyond it.
  clock.set(found.discharged + HOUR - 60_000);
  portToPort.push(...boxes(clock.now(), 2, false, trucked));
  for (const box of portToPort) expect((await v1(`/container/${box}?sealine=MSCU`)).status).toBe(200);
  clock.set(found.discharged + HOUR);
  alsoBeyond.push(...boxes(clock.now(), 2, true, trucked));
  for (const box of [...alsoBeyond, trucked])
    expect((await v1(`/container/${box}?sealine=MSCU`)).status).toBe(200);

  // Two days after the discharge a partner's truck reports itself two thirds of the way.
  clock.set(found.discharged + 2 * DAY);
  const { route } = (await gql(READ, { id: trucked })).shipment.document;
  const created = await gql(`mutation { createPartnerSource(name: "Meseta Trucking") { source { id } } }`);
  const posted = await gql(
    `mutation ($sourceId: ID!, $events: [PartnerEventInput!]!) {
      postPartnerEvents(sourceId: $sourceId, events: $events) { results { outcome message } }
    }`,
    {
      sourceId: created.createPartnerSource.source.id,
      events: [
        {
          eventId: "truck-1",
          eventType: "POSITION",
          eventDateTime: clock.now().toISOString(),
          shipment: trucked,
          modeOfTransport: "TRUCK",
          ...(({ lat, lng }) => ({ latitude: lat, longitude: lng }))(
            between(route.portOfDischarge.location, route.placeOfDelivery.location, 2 / 3),
          ),
        },
      ],
    },
  );
  expect(posted.postPartnerEvents.results).toEqual([{ outcome: "APPLIED", message: null }]);
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

describe("v1 shipment list: final_destination_eta on each summary that has one", () => {
  it("the box carried on by truck shows the same final_destination_eta as its tracking document, after the port's arrival; a box ending at the port has none", async () => {
    const document = await v1(`/container/${trucked}?sealine=MSCU`);
    expect(document.status).toBe(200);
    const expected = document.body.data.final_destination_eta;
    expect(expected).toMatchObject({ source: "partner_position", confidence: "high", mode: "truck" });

    const list = await v1("/shipments?pageSize=50");
    expect(list.status).toBe(200);
    const rows = new Map<string, Record<string, any>>(
      list.body.data.map((row: Record<string, any>) => [row.reference_number, row]),
    );
    const row = rows.get(trucked)!;
    expect(row.final_destination_eta).toEqual(expected);
    expect(Date.parse(row.final_destination_eta.p50)).toBeGreaterThan(Date.parse(row.eta_utc));
    for (const box of portToPort) {
      expect(rows.get(box)).toBeDefined();
      expect(rows.get(box)).not.toHaveProperty("final_destination_eta");
      // predictive_eta is still there (the plan has it): only the journey beyond the port is absent.
      expect(rows.get(box)).toHaveProperty("predictive_eta");
    }

    // Delta mode carries the same summaries.
    const delta = await v1(`/shipments?updated_since=${encodeURIComponent(START)}`);
    expect(delta.status).toBe(200);
    const deltaRow = delta.body.data.find((r: Record<string, any>) => r.reference_number === trucked);
    expect(deltaRow.final_destination_eta).toEqual(expected);
  });

  it("a kept list answer does not outlive the estimate: three hours on, the same fix's confidence has dropped", async () => {
    const at = (await v1("/shipments?pageSize=50")).body.data.find(
      (r: Record<string, any>) => r.reference_number === trucked,
    );
    expect(at.final_destination_eta.confidence).toBe("high");
    const now = clock.now().getTime();
    clock.set(now + 3 * HOUR);
    try {
      const later = (await v1("/shipments?pageSize=50")).body.data.find(
        (r: Record<string, any>) => r.reference_number === trucked,
      );
      expect(later.final_destination_eta.confidence).toBe("medium");
      expect(later.final_destination_eta.computed_at).toBe(new Date(now + 3 * HOUR).toISOString());
    } finally {
      clock.set(now);
    }
  });

  it("asking a page for the final destination ETA adds the same statements for three rows as for one", async () => {
    await app.workers.stop();
    await app.carrierPush.worker.stop();
    // Each alias is a new operation text, so the answer cache never serves one of them.
    let serial = 0;
    const measure = async (pageSize: number, fields: string) => {
      const before = app.services.db.statements.count;
      const data = await gql(
        `{ p${++serial}: shipments(pageSize: ${pageSize}) { items { reference predictiveEta { p50 } ${fields} } } }`,
      );
      const { items } = Object.values(data)[0] as { items: { reference: string }[] };
      // Every measured row is one whose journey goes on beyond the port: each would read for it.
      expect(items).toHaveLength(pageSize);
      for (const { reference } of items) expect([...alsoBeyond, trucked]).toContain(reference);
      return app.services.db.statements.count - before;
    };
    // What else runs in the background only ever adds, so the fewest of five is the request's own.
    const fewest = async (pageSize: number, fields = "") => {
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) runs.push(await measure(pageSize, fields));
      return Math.min(...runs);
    };
    // The predictive ETA to the port is the list's already (and shared with this field per request):
    // what the final destination adds is its own reads, one statement each for the whole page.
    const added = async (pageSize: number) =>
      (await fewest(pageSize, "finalDestinationEta { p50 source }")) - (await fewest(pageSize));
    await measure(3, "finalDestinationEta { p50 }"); // warm: the key's row and the documents' versions are held
    const one = await added(1);
    expect(one).toBeGreaterThan(0);
    expect(await added(3)).toBe(one);
  });
});

describe("compat /tracking: route.postpod.predictive_eta", () => {
  it("the box carried on by truck has our predicted arrival at its place of delivery, its wall clock there, after the port's", async () => {
    const core = (await gql(READ, { id: trucked })).shipment;
    const eta = core.finalDestinationEta;
    expect(eta.source).toBe("partner_position");
    const deliveryKey = core.document.route.placeOfDelivery.location.key;
    const zone = core.document.placedLocations.find((p: { key: string }) => p.key === deliveryKey).timeZone;
    expect(eta.localDateTime).toBe(wallClock(new Date(eta.p50), zone));

    const answer = await compatGet(app, org.key, "/tracking", { number: trucked, sealine: "MSCU" });
    expect(answer.status).toBe(200);
    const { pod, postpod } = answer.body.data.route;
    expect(postpod.predictive_eta).toBe(eta.localDateTime);
    expect(Date.parse(eta.p50)).toBeGreaterThan(Date.parse(core.document.route.portOfDischarge.instant));
    // The port's own entry is as before: the carrier dated the arrival, so nothing of ours there.
    expect(pod.predictive_eta).toBeNull();
  });

  it("a box whose journey ends at the port has no predictive_eta on postpod (the contract's route point)", async () => {
    const answer = await compatGet(app, org.key, "/tracking", { number: portToPort[0]!, sealine: "MSCU" });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.data.route.postpod).sort()).toEqual(["actual", "date", "location"]);
  });
});
