/**
 * Issue 41 items 2 (the predictive ETA to the final destination) and 3 (inland legs on the maps).
 * One shipment of the simulator whose journey goes on by truck beyond its port of discharge: tracked
 * right after the discharge, its arrival at the final destination is the port's arrival plus the default
 * dwell and transit; a partner's truck positions, posted as the manual clock moves, replace the default
 * with the distance left at the documented speed, on GraphQL, v1, MCP and the dashboard; the dashboard
 * map and the public share page draw the truck's leg from the positions, and draw none without them.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haversineKm } from "../../src/domain/routes/sea-route";
import { ManualClock } from "../../src/lib/clock";
import { SIMULATOR_ENV } from "../compat/support";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";
import { truckedOnBox } from "../support/trucked-box";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = "2026-11-20T12:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let box: string;
let shipmentId: string;
let sourceId: string;
let discharged: number;
let browser: Browser | undefined;
const PASSWORD = "door-to-door-walk-1";

beforeAll(async () => {
  clock = new ManualClock(START);
  app = await startTestApp({ env: { ...SIMULATOR_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  const found = truckedOnBox(START);
  box = found.number;
  discharged = found.discharged;
  clock.set(discharged + HOUR);
  expect((await v1("GET", `/container/${box}?sealine=MSCU`)).status).toBe(200);
  const created = await gql(`mutation { createPartnerSource(name: "Meseta Trucking") { source { id } } }`);
  sourceId = created.createPartnerSource.source.id;
  await app.services.accounts.createUser({
    organizationId: org.organizationId,
    email: `ops-${org.organizationId.slice(0, 8)}@example.com`,
    role: "owner",
    password: PASSWORD,
  });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function v1(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(app, org.key, query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as Record<string, any>;
}

const READ = `query ($id: String!) {
  shipment(id: $id) {
    name
    predictiveEta { p50 }
    finalDestinationEta { p50 p80 source confidence computedAt place remainingKm mode }
    document {
      route { portOfDischarge { instant actual location { name lat lng } } placeOfDelivery { instant actual location { name lat lng } } }
      inlandLegs { mode path { lat lng } from to }
    }
  }
}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Post one truck position fix, `share` of the way from the port to the destination, at the clock's time. */
async function truckAt(eventId: string, point: { lat: number; lng: number }) {
  const posted = await gql(
    `mutation ($sourceId: ID!, $events: [PartnerEventInput!]!) {
      postPartnerEvents(sourceId: $sourceId, events: $events) { results { outcome message } }
    }`,
    {
      sourceId,
      events: [
        {
          eventId,
          eventType: "POSITION",
          eventDateTime: iso(clock.now().getTime()),
          shipment: box,
          modeOfTransport: "TRUCK",
          latitude: point.lat,
          longitude: point.lng,
        },
      ],
    },
  );
  expect(posted.postPartnerEvents.results).toEqual([{ outcome: "APPLIED", message: null }]);
}

const between = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, share: number) => ({
  lat: a.lat + (b.lat - a.lat) * share,
  lng: a.lng + (b.lng - a.lng) * share,
});

async function signIn(page: Page) {
  await page.goto(`${app.url}/dashboard/sign-in`);
  await page.getByLabel("E-mail address").fill(`ops-${org.organizationId.slice(0, 8)}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${app.url}/dashboard`);
}

async function axe(page: Page, where: string) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  expect(results.violations.map((v) => `${where}: ${v.id}`)).toEqual([]);
}

describe("the journey beyond the port: final destination ETA and inland legs", () => {
  let port: { lat: number; lng: number };
  let destination: { lat: number; lng: number };
  let shareUrl: string;

  it("before any partner position: the port's arrival plus 72 hours at the port and the transit, confidence low, no inland leg", async () => {
    const read = (await gql(READ, { id: box })).shipment;
    shipmentId = read.name;
    const route = read.document.route;
    expect(route.portOfDischarge.actual).toBe(true);
    expect(route.placeOfDelivery.location.name).not.toBe(route.portOfDischarge.location.name);
    expect(route.placeOfDelivery.actual).not.toBe(true);
    port = route.portOfDischarge.location;
    destination = route.placeOfDelivery.location;
    const km = haversineKm(port, destination);
    const eta = read.finalDestinationEta;
    expect(eta).toMatchObject({
      source: "inland_default",
      confidence: "low",
      place: route.placeOfDelivery.location.name,
      remainingKm: Math.round(km),
      mode: "TRUCK",
      computedAt: iso(clock.now().getTime()),
    });
    const expected = Date.parse(route.portOfDischarge.instant) + 72 * HOUR + ((km * 1.3) / 55) * HOUR;
    expect(Math.abs(Date.parse(eta.p50) - expected)).toBeLessThan(1_000);
    expect(Date.parse(eta.p80)).toBeGreaterThan(Date.parse(eta.p50));
    expect(read.document.inlandLegs).toEqual([]);

    // The public share page, made now, shows the carrier's journey only.
    const created = await v1("POST", `/shipments/${shipmentId}/share`);
    expect(created.status).toBe(201);
    shareUrl = created.body.data.url;
    const shared = await gql(`query ($t: String!) { sharedShipment(token: $t) { inlandLegs { mode } } }`, {
      t: shareUrl.split("/").at(-1),
    });
    expect(shared.sharedShipment.inlandLegs).toEqual([]);
  });

  it.skipIf(!hasChromium)(
    "the dashboard map and the share page draw no inland leg without partner positions, and pass axe",
    async () => {
      const page = await (await browser!.newContext()).newPage();
      await signIn(page);
      await page.goto(`${app.url}/dashboard/shipments/${shipmentId}`);
      expect(await page.locator("svg.route-map path.route").count()).toBe(1);
      expect(await page.locator("svg.route-map path.inland").count()).toBe(0);
      expect(await page.getByTestId("final-destination-eta").textContent()).toMatch(/estimated by default/);
      await axe(page, "shipment without positions");
      // The page has no script of its own; axe needs one to run, so JavaScript stays on.
      const share = await (await browser!.newContext()).newPage();
      expect((await share.goto(shareUrl))?.status()).toBe(200);
      expect(await share.locator("svg.route-map path.route").count()).toBe(1);
      expect(await share.locator("svg.route-map path.inland").count()).toBe(0);
      await axe(share, "share page without positions");
    },
    120_000,
  );

  it("a truck position moving closer replaces the default: the distance left at 55 km/h (times 1.3) from the fix, on GraphQL, v1 and MCP", async () => {
    // Two days after the discharge the truck is on the road, a third of the way.
    clock.set(discharged + 2 * DAY);
    const first = between(port, destination, 1 / 3);
    await truckAt("truck-1", first);
    const firstRead = (await gql(READ, { id: box })).shipment.finalDestinationEta;
    const firstKm = haversineKm(first, destination);
    expect(firstRead).toMatchObject({
      source: "partner_position",
      confidence: "high",
      remainingKm: Math.round(firstKm),
    });
    const firstP50 = clock.now().getTime() + ((firstKm * 1.3) / 55) * HOUR;
    expect(Math.abs(Date.parse(firstRead.p50) - firstP50)).toBeLessThan(1_000);

    // An hour later it is two thirds of the way: less distance, an earlier predicted arrival.
    clock.set(discharged + 2 * DAY + HOUR);
    const second = between(port, destination, 2 / 3);
    await truckAt("truck-2", second);
    const read = (await gql(READ, { id: box })).shipment;
    const eta = read.finalDestinationEta;
    const km = haversineKm(second, destination);
    expect(eta).toMatchObject({
      source: "partner_position",
      confidence: "high",
      remainingKm: Math.round(km),
    });
    const p50 = clock.now().getTime() + ((km * 1.3) / 55) * HOUR;
    expect(Math.abs(Date.parse(eta.p50) - p50)).toBeLessThan(1_000);
    expect(eta.remainingKm).toBeLessThan(firstRead.remainingKm);
    expect(Date.parse(eta.p50)).toBeLessThan(Date.parse(firstRead.p50));
    expect(Date.parse(eta.p80) - Date.parse(eta.p50)).toBe(
      Math.round(Math.max(HOUR, 0.3 * (p50 - clock.now().getTime()))),
    );

    // The leg drawn: from the port of discharge through both positions, by truck.
    expect(read.document.inlandLegs).toEqual([
      {
        mode: "TRUCK",
        path: [
          { lat: port.lat, lng: port.lng },
          { lat: first.lat, lng: first.lng },
          { lat: second.lat, lng: second.lng },
        ],
        from: iso(discharged + 2 * DAY),
        to: iso(discharged + 2 * DAY + HOUR),
      },
    ]);

    // Three hours later without a new fix, the same fix is older: the window stands, the confidence drops.
    clock.set(discharged + 2 * DAY + 4 * HOUR);
    const older = (await gql(READ, { id: box })).shipment.finalDestinationEta;
    expect(older.confidence).toBe("medium");
    clock.set(discharged + 2 * DAY + HOUR);

    // v1: the tracking document carries it beside predictive_eta.
    const tracked = await v1("GET", `/container/${box}?sealine=MSCU`);
    expect(tracked.status).toBe(200);
    expect(tracked.body.data.final_destination_eta).toEqual({
      p50: eta.p50,
      p80: eta.p80,
      source: "partner_position",
      confidence: "high",
      computed_at: iso(clock.now().getTime()),
      place: eta.place,
      remaining_km: eta.remainingKm,
      mode: "truck",
    });

    // MCP: get_shipment_status.
    const client = await httpClient(app, org.key);
    try {
      const status = await callTool(client, "get_shipment_status", { reference: box });
      expect((status.structuredContent as Record<string, unknown>).finalDestinationEta).toEqual({
        p50: eta.p50,
        p80: eta.p80,
        source: "partner_position",
        confidence: "high",
        computedAt: eta.computedAt,
        place: eta.place,
        remainingKm: eta.remainingKm,
        mode: "truck",
      });
    } finally {
      await client.close();
    }
  });

  it.skipIf(!hasChromium)(
    "the dashboard map and the share page draw the truck's leg from the posted positions, and pass axe",
    async () => {
      const page = await (await browser!.newContext()).newPage();
      await signIn(page);
      await page.goto(`${app.url}/dashboard/shipments/${shipmentId}`);
      const leg = page.locator("svg.route-map path.inland.truck");
      expect(await leg.count()).toBe(1);
      // Three points: the port and both fixes (M, then two L segments).
      expect((await leg.getAttribute("d"))?.match(/[ML]/g)?.length).toBeGreaterThanOrEqual(3);
      expect(await page.getByTestId("final-destination-eta").textContent()).toMatch(
        /from the truck's position, \d+ km to go/,
      );
      await axe(page, "shipment with an inland leg");
      // The page has no script of its own; axe needs one to run, so JavaScript stays on.
      const share = await (await browser!.newContext()).newPage();
      expect((await share.goto(shareUrl))?.status()).toBe(200);
      expect(await share.locator("svg.route-map path.inland.truck").count()).toBe(1);
      expect(await share.getByText("Truck").count()).toBeGreaterThanOrEqual(1);
      await axe(share, "share page with an inland leg");
    },
    120_000,
  );

  it("another organisation's view of the same box has no inland leg from this organisation's partner", async () => {
    const other = await app.fixtures.organization({ plan: "professional" });
    const res = await fetch(`${app.url}/api/v1/container/${box}?sealine=MSCU`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    const body = (await res.json()) as Record<string, any>;
    expect(body.data.final_destination_eta.source).toBe("inland_default");
    const legs = await graphql(
      app,
      other.key,
      `query ($id: String!) { shipment(id: $id) { document { inlandLegs { mode } } } }`,
      {
        id: box,
      },
    );
    expect((legs.body.data as any).shipment.document.inlandLegs).toEqual([]);
  });
});
