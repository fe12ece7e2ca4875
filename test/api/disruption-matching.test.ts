/**
 * Matching on v1 (issue 20): a disruption naming the shipment's carrier, a country it calls, or a
 * chokepoint its remaining sea route passes lists on GET /shipments/{id}/disruptions with `carrier`,
 * `country` or `lane_interest`; a shipment that does not call there or pass there does not list it;
 * and a shipment touched by more than ten active disruptions lists the ten most severe.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShipmentExposure } from "../../src/domain/disruptions/matching";
import type { FeedItem } from "../../src/domain/disruptions/normalise";
import { findPort } from "../../src/domain/ports/port-directory";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { trackActiveShipment } from "../support/disruptions";

/** Country names the press uses, for the countries the simulator's MSC boxes call. */
const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  CN: "China",
  ES: "Spain",
  FR: "France",
  AU: "Australia",
  PT: "Portugal",
  TH: "Thailand",
  MY: "Malaysia",
  SE: "Sweden",
  NL: "the Netherlands",
  US: "the United States",
  BR: "Brazil",
  KR: "South Korea",
};
/** A report per chokepoint, each in its own words (so none joins another). */
const CHOKEPOINT_NEWS: Readonly<Record<string, [string, string]>> = {
  suez_canal: [
    "Suez Canal transits suspended after a grounding",
    "Canal authorities halted convoys through the Suez Canal while tugs work to free the vessel.",
  ],
  bab_el_mandeb: [
    "Missile attack on a container ship in the Bab el-Mandeb",
    "A vessel was struck by a drone while transiting the Bab el-Mandeb strait.",
  ],
  malacca_strait: [
    "Haze and squalls slow traffic in the Strait of Malacca",
    "Pilots reported restricted visibility in the Strait of Malacca.",
  ],
  gibraltar_strait: [
    "Tanker collision blocks the western approach to Gibraltar Strait",
    "Salvors are working to clear the wreck; transits wait off Tangier.",
  ],
  taiwan_strait: [
    "Military drills close sea lanes in the Taiwan Strait",
    "Ships were told to avoid exercise zones across the Taiwan Strait.",
  ],
};
const LANES = ["suez_canal", "bab_el_mandeb"];

let app: TestApp;
let shipper: OrgWithKey;
/** Passes Suez and Bab el-Mandeb on the sea route still ahead, and calls a country we can name. */
let lane: { reference: string; exposure: ShipmentExposure };
/** Passes neither and calls none of the lane box's named country. */
let control: { reference: string; exposure: ShipmentExposure };
let country: string;
let published = 0;

const portName = (locode: string) => (findPort(locode)?.name ?? locode).replace(/\s*\(.*\)$/, "");

async function ingest(publisher: string, title: string, summary: string): Promise<string[]> {
  published++;
  const item: FeedItem = {
    sourceId: publisher,
    publisher,
    guid: `matching-${published}`,
    link: `https://news.example/matching/${published}`,
    title,
    summary,
    // Distinct times, minutes apart, so "most recently updated" orders every tie of severity.
    publishedAt: new Date(Date.now() - (120 - published) * 60_000),
  };
  const report = await app.services.disruptions.ingest(
    { id: publisher, publisher, kind: "news", authoritative: false },
    [item],
  );
  expect(report.accepted, title).toBe(1);
  return report.events;
}

async function get(path: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${shipper.key}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function listed(reference: string): Promise<{ id: string; match_types: string[]; severity: number }[]> {
  const { status, body } = await get(`/shipments/${reference}/disruptions`);
  expect(status).toBe(200);
  return body.data;
}

let suezId: string;
let mscId: string;
let maerskId: string;
let tariffId: string;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
  shipper = await app.fixtures.organization({ plan: "business" });
  lane = await trackActiveShipment(app, shipper, 500_000, {
    tries: 40,
    accept: (e) =>
      [...LANES, "malacca_strait"].every((c) => e.chokepoints.includes(c)) &&
      e.countries.some((c) => c in COUNTRY_NAMES),
  });
  country = lane.exposure.countries.find((c) => c in COUNTRY_NAMES)!;
  control = await trackActiveShipment(app, shipper, 600_000, {
    tries: 40,
    accept: (e) => !LANES.some((c) => e.chokepoints.includes(c)) && !e.countries.includes(country),
  });

  [suezId] = (await ingest("Harbour Wire", ...CHOKEPOINT_NEWS.suez_canal!)) as [string];
  [mscId] = (await ingest(
    "Box Trade Daily",
    "MSC announces blank sailings on its Asia-Europe loop",
    "The carrier confirmed a service suspension for four weeks, citing weak bookings.",
  )) as [string];
  [maerskId] = (await ingest(
    "Liner Notes",
    "Maersk skips calls in a transpacific rotation change",
    "The line said the schedule change lasts until the new year.",
  )) as [string];
  [tariffId] = (await ingest(
    "Quay Ledger",
    `${COUNTRY_NAMES[country]} raises import tariffs on steel and aluminium`,
    "New duties take effect next month, the trade ministry said.",
  )) as [string];
}, 600_000);
afterAll(() => app?.stop());

describe("matching a disruption to the shipments it touches", () => {
  it("lists a canal or strait event on a shipment whose remaining sea route passes it (lane_interest)", async () => {
    const suez = await get(`/disruptions/${suezId}`);
    expect(suez.body.data).toMatchObject({
      category: "chokepoint",
      entities: { ports: [], carriers: [], countries: [], chokepoints: ["suez_canal"] },
    });
    const onLane = (await listed(lane.reference)).find((d) => d.id === suezId);
    expect(onLane?.match_types).toEqual(["lane_interest"]);
    expect((await listed(control.reference)).map((d) => d.id)).not.toContain(suezId);
    expect(suez.body.data.affected).toEqual({ count: 1, references: [lane.reference] });
  });

  it("lists a carrier's news on that carrier's shipments (carrier), not another carrier's", async () => {
    const msc = await get(`/disruptions/${mscId}`);
    expect(msc.body.data).toMatchObject({
      category: "carrier_ops",
      entities: { ports: [], carriers: ["MSCU"], countries: [], chokepoints: [] },
    });
    for (const shipment of [lane, control]) {
      const list = await listed(shipment.reference);
      expect(list.find((d) => d.id === mscId)?.match_types, shipment.reference).toEqual(["carrier"]);
      expect(
        list.map((d) => d.id),
        shipment.reference,
      ).not.toContain(maerskId);
    }
    expect((await get(`/disruptions/${maerskId}`)).body.data.entities.carriers).toEqual(["MAEU"]);
  });

  it("lists a country's news on a shipment calling that country (country), not on one that does not", async () => {
    const tariff = await get(`/disruptions/${tariffId}`);
    expect(tariff.body.data).toMatchObject({
      category: "tariff_trade",
      entities: { ports: [], carriers: [], countries: [country], chokepoints: [] },
    });
    expect((await listed(lane.reference)).find((d) => d.id === tariffId)?.match_types).toEqual(["country"]);
    expect((await listed(control.reference)).map((d) => d.id)).not.toContain(tariffId);
  });

  it("filters the list by carrier (positive: the carrier's news only) and by country", async () => {
    const msc = await get("/disruptions?carrier=mscu");
    expect(msc.status).toBe(200);
    expect(msc.body.data.map((d: any) => d.id)).toEqual([mscId]);
    expect((await get("/disruptions?carrier=MAEU")).body.data.map((d: any) => d.id)).toEqual([maerskId]);
    const both = await get(`/disruptions?carrier=MSCU&category=carrier_ops&country=${country}`);
    expect(both.body).toMatchObject({ total: 0, data: [] });
    const byCountry = await get(`/disruptions?country=${country.toLowerCase()}`);
    expect(byCountry.body.data.map((d: any) => d.id)).toEqual([tariffId]);
  });

  it("lists at most ten, the most severe first, when more than ten active disruptions touch a shipment", async () => {
    const name = COUNTRY_NAMES[country]!;
    for (const chokepoint of lane.exposure.chokepoints) {
      const news = CHOKEPOINT_NEWS[chokepoint];
      if (news && chokepoint !== "suez_canal") await ingest("Harbour Wire", ...news);
    }
    await ingest(
      "Customs Today",
      `${name} brings in new customs declaration rules for importers`,
      "The customs authority requires additional data fields from importers.",
    );
    await ingest(
      "Road Freight News",
      `Truck drivers strike across ${name}, stranding containers at ports`,
      "Hauliers blocked roads to the container terminals in a national walkout over fuel prices.",
    );
    await ingest(
      "Freight Index Weekly",
      `Container spot rates from ${name} climb for a third week`,
      "Index compilers report higher spot rates.",
    );
    await ingest(
      "Security Watch",
      `Armed groups attack bunker fuel depots serving ships in ${name}`,
      "Officials said several depots supplying vessels were set alight overnight.",
    );
    await ingest(
      "Road Freight News",
      `Floods across ${name} cut rail and road links to ports`,
      "Heavy rain left highways and rail lines to the container terminals under water.",
    );
    const loading = portName(lane.exposure.portOfLoading!);
    await ingest(
      "Harbour Wire",
      `Dockworkers strike at the Port of ${loading}`,
      `A walkout halted container handling at the Port of ${loading}.`,
    );
    const discharge = portName(lane.exposure.portOfDischarge!);
    await ingest(
      "Storm Desk",
      `Storm closes the Port of ${discharge}`,
      `Terminals at the Port of ${discharge} suspended operations.`,
    );

    const all = await get("/disruptions?page_size=100");
    const touching = all.body.data.filter((d: any) => d.affected.references.includes(lane.reference));
    expect(touching.length, JSON.stringify(lane.exposure)).toBeGreaterThan(10);
    const list = await listed(lane.reference);
    expect(list).toHaveLength(10);
    // The same order as GET /disruptions (most severe, then most recently updated), cut at ten.
    expect(list.map((d) => d.id)).toEqual(touching.slice(0, 10).map((d: any) => d.id));
    const severities = list.map((d) => d.severity);
    expect(severities).toEqual([...severities].sort((a, b) => b - a));
    expect(Math.min(...severities)).toBeGreaterThanOrEqual(
      Math.max(...touching.slice(10).map((d: any) => d.severity)),
    );
  });
});
