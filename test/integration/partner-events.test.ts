/**
 * Issue 41 item 2: a partner (a trucker, a rail feed, a warehouse) posts the events after the port.
 * One shipment of the simulator, discharged, whose carrier has not reported the gate-out yet: the
 * partner's gate-out, arrival at the warehouse and empty return close detention and set the delivery
 * (`closed_at`, `deliveredAt`) on GraphQL and v1, each event named with its source; a carrier poll
 * keeps them; a replayed event changes nothing; a forged or stale signed webhook is refused.
 */
import AxeBuilder from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DcsaEquipmentEvent } from "../../simulator/dcsa-types";
import { eventsFor, knownShipments, shipmentFor } from "../../simulator/world/world";
import { partnerSignature } from "../../src/domain/partners/partner-signature";
import { ManualClock } from "../../src/lib/clock";
import { SIMULATOR_ENV } from "../compat/support";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { hasChromium, launchChromium } from "../support/browser";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = "2026-11-20T12:00:00.000Z";

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let box: string;
let pod: string;
/** An hour after the discharge: the carrier's gate-out is still more than a day away. */
let trackedAt: number;

/** A one-box MSC shipment discharged after START whose carrier gate-out comes more than a day later. */
function dischargedBox() {
  let tried = 0;
  for (const shipment of knownShipments("MSCU", new Date(START))) {
    if (++tried > 3_000) break;
    if (shipment.cancelled || shipment.containers.length !== 1) continue;
    const number = shipment.containers[0]!.equipmentReference;
    const actuals = eventsFor(shipment, new Date(shipment.completesAt.getTime() + DAY), {
      equipmentReference: number,
    })
      .filter((e): e is DcsaEquipmentEvent => e.eventType === "EQUIPMENT" && e.eventClassifierCode === "ACT")
      .sort((a, b) => Date.parse(a.eventDateTime) - Date.parse(b.eventDateTime));
    const port = shipment.portOfDischarge.unLocode;
    const disc = actuals.find(
      (e) => e.equipmentEventTypeCode === "DISC" && e.eventLocation.UNLocationCode === port,
    );
    if (!disc || Date.parse(disc.eventDateTime) < Date.parse(START)) continue;
    const discharged = Date.parse(disc.eventDateTime);
    const out = actuals.find(
      (e) => e.equipmentEventTypeCode === "GTOT" && Date.parse(e.eventDateTime) > discharged,
    );
    if (out && Date.parse(out.eventDateTime) < discharged + 2 * DAY) continue;
    if (shipmentFor("MSCU", number, "equipment", new Date(discharged + HOUR))?.key !== shipment.key) continue;
    return { number, port, discharged };
  }
  throw new Error("no discharged one-box MSC shipment in the simulator world");
}

beforeAll(async () => {
  clock = new ManualClock(START);
  app = await startTestApp({
    env: { ...SIMULATOR_ENV, QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
    clock,
  });
  org = await app.fixtures.organization({ plan: "professional" });
  const found = dischargedBox();
  box = found.number;
  pod = found.port;
  trackedAt = found.discharged + HOUR;
  clock.set(trackedAt);
}, 120_000);
afterAll(() => app?.stop());

const v1 = async (key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

const gql = async (query: string, variables: Record<string, unknown> = {}, key = org.key) => {
  const res = await graphql(app, key, query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as Record<string, any>;
};

const CREATE = `mutation ($name: String!) { createPartnerSource(name: $name) { source { id name } signingSecret } }`;
const POST = `mutation ($sourceId: ID!, $events: [PartnerEventInput!]!) {
  postPartnerEvents(sourceId: $sourceId, events: $events) { results { index eventId outcome shipmentId message } }
}`;
const READ = `query ($id: String!) {
  shipment(id: $id) {
    name status
    document { version deliveredAt containers { number events { eventCode emptyIndicator actual instant source { kind name eventId } } } }
  }
  shipmentDnd(id: $id) {
    ... on ShipmentDnd { containers { container demurrage { status clockStoppedAt } detention { status clockStartedAt clockStoppedAt } } }
  }
}`;

const iso = (ms: number) => new Date(ms).toISOString();

describe("a partner's events on GraphQL", () => {
  let sourceId: string;
  let shipmentId: string;
  const gateOut = () => trackedAt + 10 * 60_000;
  const atWarehouse = () => trackedAt + 2 * HOUR;
  const emptyBack = () => trackedAt + 6 * HOUR;
  const events = () => [
    {
      eventId: "hh-1",
      eventType: "EQUIPMENT",
      eventCode: "GTOT",
      emptyIndicatorCode: "LADEN",
      eventDateTime: iso(gateOut()),
      shipment: box,
      unLocationCode: pod,
    },
    {
      eventId: "hh-2",
      eventType: "TRANSPORT",
      eventCode: "ARRI",
      modeOfTransport: "TRUCK",
      facilityTypeCode: "CLOC",
      eventDateTime: iso(atWarehouse()),
      shipment: box,
      locationName: "Consignee DC",
    },
    {
      eventId: "hh-3",
      eventType: "EQUIPMENT",
      eventCode: "GTIN",
      emptyIndicatorCode: "EMPTY",
      eventDateTime: iso(emptyBack()),
      shipment: box,
      locationName: "Empty depot",
    },
  ];

  beforeAll(async () => {
    expect((await v1(org.key, "GET", `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const created = (await gql(CREATE, { name: "Harbour Haulage" })).createPartnerSource;
    sourceId = created.source.id;
    expect(created.signingSecret).toMatch(/^psec_/);
    const hook = await graphql(
      app,
      org.key,
      `mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/hook", events: ["*"] }) { endpoint { id } } }`,
    );
    expect(hook.body.errors).toBeUndefined();
  }, 60_000);

  it("gate-out, warehouse arrival and empty return close detention and set deliveredAt, each event named with its source", async () => {
    const before = await gql(READ, { id: box });
    shipmentId = before.shipment.name;
    expect(before.shipment.document.deliveredAt).toBeNull();
    expect(before.shipmentDnd.containers[0].detention).toBeNull();

    clock.set(trackedAt + 7 * HOUR);
    const posted = (await gql(POST, { sourceId, events: events() })).postPartnerEvents.results;
    expect(posted.map((r: any) => r.outcome)).toEqual(["APPLIED", "APPLIED", "APPLIED"]);
    expect(posted[0].shipmentId).toBe(shipmentId);

    const after = await gql(READ, { id: box });
    expect(after.shipment.status).toBe("DELIVERED");
    expect(after.shipment.document.deliveredAt).toBe(iso(atWarehouse()));
    const partnerEvents = after.shipment.document.containers[0].events.filter(
      (e: any) => e.source.kind === "PARTNER",
    );
    expect(partnerEvents.map((e: any) => [e.eventCode, e.source.name, e.source.eventId])).toEqual([
      ["GTOT", "Harbour Haulage", "hh-1"],
      ["ARRI", "Harbour Haulage", "hh-2"],
      ["GTIN", "Harbour Haulage", "hh-3"],
    ]);
    const clocks = after.shipmentDnd.containers[0];
    expect(clocks.demurrage).toMatchObject({ status: "closed", clockStoppedAt: iso(gateOut()) });
    expect(clocks.detention).toMatchObject({
      status: "closed",
      clockStartedAt: iso(gateOut()),
      clockStoppedAt: iso(emptyBack()),
    });

    // v1 reads the same facts: closed_at is the delivery, the clocks are closed, the rows name the partner.
    const read = await v1(org.key, "GET", `/shipments/${shipmentId}?include=full`);
    expect(read.status).toBe(200);
    expect(read.body.data.demurrage_risk).toMatchObject({ status: "closed", charge_type: "detention" });
    const stored = read.body.data.document;
    const tracked = await v1(org.key, "GET", `/container/${box}?sealine=MSCU`);
    expect(tracked.body.data.closed_at).toBe(iso(atWarehouse()));
    expect(
      stored.events_table
        .filter((e: any) => e.source)
        .map((e: any) => [e.event_code, e.source.kind, e.source.name, e.source.event_id]),
    ).toEqual([
      ["GTOT", "partner", "Harbour Haulage", "hh-1"],
      ["ARRI", "partner", "Harbour Haulage", "hh-2"],
      ["GTIN", "partner", "Harbour Haulage", "hh-3"],
    ]);

    // The change went out as a poll's would: the delivery is a shipment.arrived webhook in the outbox.
    const outbox = await app.services.db.prisma.webhookDelivery.findMany({
      where: { organizationId: org.organizationId },
    });
    expect(outbox.map((d) => d.event)).toContain("shipment.arrived");
  });

  it("a replayed batch changes nothing: every event is a duplicate and no version is written", async () => {
    const version = (await gql(READ, { id: box })).shipment.document.version;
    const outbox = await app.services.db.prisma.webhookDelivery.count({
      where: { organizationId: org.organizationId },
    });
    const replay = (await gql(POST, { sourceId, events: events() })).postPartnerEvents.results;
    expect(replay.map((r: any) => r.outcome)).toEqual(["DUPLICATE", "DUPLICATE", "DUPLICATE"]);
    expect((await gql(READ, { id: box })).shipment.document.version).toBe(version);
    expect(
      await app.services.db.prisma.webhookDelivery.count({ where: { organizationId: org.organizationId } }),
    ).toBe(outbox);
  });

  it("a bad event is refused alone with a clear reason, and changes nothing", async () => {
    const version = (await gql(READ, { id: box })).shipment.document.version;
    const results = (
      await gql(POST, {
        sourceId,
        events: [
          {
            eventId: "bad-1",
            eventType: "EQUIPMENT",
            eventCode: "LOAD",
            eventDateTime: iso(trackedAt),
            shipment: box,
            unLocationCode: pod,
          },
          {
            eventId: "bad-2",
            eventType: "EQUIPMENT",
            eventCode: "GTOT",
            eventDateTime: iso(trackedAt),
            shipment: "SHP-999999",
            unLocationCode: pod,
          },
          { eventId: "bad-3", eventType: "POSITION", eventDateTime: "yesterday", shipment: box },
        ],
      })
    ).postPartnerEvents.results;
    expect(results.map((r: any) => r.outcome)).toEqual(["INVALID", "INVALID", "INVALID"]);
    expect(results[0].message).toMatch(/GTOT, GTIN, PICK or DROP/);
    expect(results[1].message).toMatch(/SHP-999999 is not tracked by your organisation/);
    expect(results[2].message).toMatch(/event_date_time/);
    expect((await gql(READ, { id: box })).shipment.document.version).toBe(version);
  });

  it("a carrier poll keeps the partner's events on the stored document", async () => {
    expect((await v1(org.key, "GET", `/container/${box}?sealine=MSCU`)).status).toBe(200);
    const after = await gql(READ, { id: box });
    expect(after.shipment.document.deliveredAt).toBe(iso(atWarehouse()));
    expect(
      after.shipment.document.containers[0].events.filter((e: any) => e.source.kind === "PARTNER"),
    ).toHaveLength(3);
  });

  it("MCP's timeline names who reported each event: the partner's by its source, the carrier's by its SCAC", async () => {
    const mcp = await httpClient(app, org.key);
    try {
      const result = await callTool(mcp, "get_shipment_timeline", { reference: box });
      expect(result.isError ?? false).toBe(false);
      const events = (result.structuredContent as any).containers[0].events as any[];
      expect(
        events
          .filter((e) => e.source.kind === "partner")
          .map((e) => [e.eventCode, e.source.name, e.source.eventId]),
      ).toEqual([
        ["GTOT", "Harbour Haulage", "hh-1"],
        ["ARRI", "Harbour Haulage", "hh-2"],
        ["GTIN", "Harbour Haulage", "hh-3"],
      ]);
      const partner = events.find((e) => e.source.kind === "partner")!;
      expect(partner.source.partnerSourceId).toBe(sourceId);
      const carrier = events.find((e) => e.source.kind === "carrier")!;
      expect(carrier.source).toEqual({ kind: "carrier", name: "MSCU", partnerSourceId: null, eventId: null });
    } finally {
      await mcp.close();
    }
  });

  it("the dashboard's timeline marks the partner's events with their source", async () => {
    const email = `ops-${org.organizationId.slice(0, 8)}@example.com`;
    const password = "partner-events-walk-1";
    await app.services.accounts.createUser({
      organizationId: org.organizationId,
      email,
      role: "owner",
      password,
    });
    const form = await fetch(`${app.url}/dashboard/sign-in`);
    const visitor = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
    const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: visitor, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
    });
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const page = await fetch(`${app.url}/dashboard/shipments/${shipmentId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const rows = [...(await page.text()).matchAll(/<tr class="(?:actual|estimated)">.*?<\/tr>/g)].map(
      (m) => m[0],
    );
    const marked = rows.filter((r) => r.includes("Reported by Harbour Haulage"));
    expect(marked).toHaveLength(3);
    expect(rows.length).toBeGreaterThan(marked.length);
  });

  it.skipIf(!hasChromium)(
    "the dashboard's partner sources page lists, adds (secret once), rotates and removes with confirmation, and passes axe",
    async () => {
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext()).newPage();
        const axe = async (where: string) => {
          const results = await new AxeBuilder({ page })
            .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
            .analyze();
          expect(results.violations.map((v) => `${where}: ${v.id}`)).toEqual([]);
        };
        await page.goto(`${app.url}/dashboard/sign-in`);
        await page.getByLabel("E-mail address").fill(`ops-${org.organizationId.slice(0, 8)}@example.com`);
        await page.getByLabel("Password").fill("partner-events-walk-1");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${app.url}/dashboard`);
        await page
          .getByRole("navigation", { name: "Dashboard" })
          .getByRole("link", { name: "Partner sources" })
          .click();
        await page.waitForURL(`${app.url}/dashboard/partners`);
        const row = page.getByRole("row", { name: /Harbour Haulage/ });
        await expect.poll(() => row.count()).toBe(1);
        expect(await row.textContent()).not.toContain("None yet");
        await axe("partner sources");

        await page.getByLabel("Name, shown on its events").fill("Night Trucking");
        await page.getByRole("button", { name: "Add source" }).click();
        expect(await page.getByTestId("new-secret").textContent()).toMatch(/^psec_/);
        await axe("source added");
        await page.goto(`${app.url}/dashboard/partners`);
        expect(await page.getByTestId("new-secret").count()).toBe(0);

        await page.getByRole("link", { name: "Rotate the secret of Night Trucking…" }).click();
        await axe("rotate confirmation");
        await page.getByRole("button", { name: "Rotate the secret of Night Trucking" }).click();
        expect(await page.getByTestId("new-secret").textContent()).toMatch(/^psec_/);

        await page.getByRole("link", { name: "Remove Night Trucking…" }).click();
        await page.getByRole("button", { name: "Remove Night Trucking" }).click();
        expect(await page.getByRole("row", { name: /Night Trucking/ }).count()).toBe(0);
        expect(await page.getByRole("row", { name: /Harbour Haulage/ }).count()).toBe(1);

        await page.goto(`${app.url}/dashboard/shipments/${shipmentId}`);
        expect(await page.getByText("Reported by Harbour Haulage").count()).toBe(3);
        await axe("shipment with partner events");
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it("another organisation cannot post to this source", async () => {
    const other = await app.fixtures.organization({ plan: "professional" });
    const res = await graphql(app, other.key, POST, { sourceId, events: events() });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("the signed webhook refuses a forged or stale signature and changes nothing", async () => {
    const created = (await gql(CREATE, { name: "Rail feed" })).createPartnerSource;
    const body = JSON.stringify({
      events: [
        {
          event_id: "rail-1",
          event_type: "TRANSPORT",
          event_code: "DEPA",
          mode_of_transport: "RAIL",
          event_date_time: iso(trackedAt + 3 * HOUR),
          shipment_id: box,
          location: { name: "Rail ramp" },
        },
      ],
    });
    const now = String(Math.floor(clock.now().getTime() / 1000));
    const send = (timestamp: string, signature: string) =>
      fetch(`${app.url}/api/inbound/partners/${created.source.id}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-quayside-timestamp": timestamp,
          "x-quayside-signature": signature,
        },
        body,
      });
    const version = (await gql(READ, { id: box })).shipment.document.version;
    const forged = await send(now, partnerSignature("psec_not-the-secret", now, body));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ success: false, data: { error: "invalid_signature" } });
    const stale = String(Number(now) - 600);
    expect((await send(stale, partnerSignature(created.signingSecret, stale, body))).status).toBe(401);
    expect((await gql(READ, { id: box })).shipment.document.version).toBe(version);

    const genuine = await send(now, partnerSignature(created.signingSecret, now, body));
    expect(genuine.status).toBe(200);
    const answer = (await genuine.json()) as any;
    expect(answer.data.results[0]).toMatchObject({
      event_id: "rail-1",
      outcome: "applied",
    });
    const events = (await gql(READ, { id: box })).shipment.document.containers[0].events;
    expect(events.find((e: any) => e.source.eventId === "rail-1")?.source.name).toBe("Rail feed");
  });
});

describe("partner sources and events on v1", () => {
  let forwarder: OrgWithKey;
  let source: Record<string, any>;
  let shipmentId: string;
  const railDeparture = () => ({
    event_id: "rf-1",
    event_type: "TRANSPORT",
    event_code: "DEPA",
    mode_of_transport: "RAIL",
    event_date_time: iso(trackedAt + 3 * HOUR),
    reference: box,
    location: { name: "Maasvlakte rail ramp", latitude: 51.96, longitude: 4.02 },
  });
  const batch = () => [
    railDeparture(),
    { ...railDeparture(), event_id: "rf-2", event_code: "LOAD" },
    { ...railDeparture(), event_id: "rf-3", location: { name: "Ramp", latitude: "51.9", longitude: 4 } },
    42,
  ];
  const version = async () =>
    (await gql(READ, { id: box }, forwarder.key)).shipment.document.version as number;

  beforeAll(async () => {
    forwarder = await app.fixtures.organization({ plan: "professional" });
    const tracked = await v1(forwarder.key, "GET", `/container/${box}?sealine=MSCU`);
    expect(tracked.status).toBe(200);
    shipmentId = (await gql(READ, { id: box }, forwarder.key)).shipment.name;
  }, 60_000);

  it("creates a source with its secret shown once, lists it, and refuses a bad name", async () => {
    const created = await v1(forwarder.key, "POST", "/partner-sources", { name: "Rail feed BV" });
    expect(created.status).toBe(201);
    source = created.body.data;
    expect(source).toMatchObject({ name: "Rail feed BV", last_event_at: null });
    expect(source.signing_secret).toMatch(/^psec_/);
    expect(source.inbound_url).toBe(`${app.url}/api/inbound/partners/${source.id}`);

    const listed = await v1(forwarder.key, "GET", "/partner-sources");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: source.id,
        name: "Rail feed BV",
        created_at: source.created_at,
        last_event_at: null,
        inbound_url: source.inbound_url,
      },
    ]);

    for (const body of [{ name: "" }, {}, { name: 7 }]) {
      const refused = await v1(forwarder.key, "POST", "/partner-sources", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toMatchObject({
        success: false,
        data: { error: "invalid_parameter", param: "name" },
      });
    }
  });

  it("answers each event of a batch on its own: the good one joins the timeline with its source, bad ones say which field", async () => {
    const before = await version();
    const posted = await v1(forwarder.key, "POST", `/partner-sources/${source.id}/events`, {
      events: batch(),
    });
    expect(posted.status).toBe(200);
    const results = posted.body.data.results;
    expect(results.map((r: any) => [r.index, r.event_id, r.outcome])).toEqual([
      [0, "rf-1", "applied"],
      [1, "rf-2", "invalid"],
      [2, "rf-3", "invalid"],
      [3, null, "invalid"],
    ]);
    expect(results[0]).toMatchObject({ shipment_id: shipmentId, message: null });
    expect(results[1].message).toMatch(/DEPA or ARRI/);
    expect(results[2].message).toBe("latitude must be a number.");
    expect(results[3].message).toMatch(/event_id is required/);
    expect(await version()).toBe(before + 1);

    const read = await v1(forwarder.key, "GET", `/shipments/${shipmentId}?include=full`);
    const rows = read.body.data.document.events_table.filter((e: any) => e.source);
    expect(rows.map((e: any) => [e.source.name, e.source.event_id])).toEqual([["Rail feed BV", "rf-1"]]);
    const listed = await v1(forwarder.key, "GET", "/partner-sources");
    expect(listed.body.data[0].last_event_at).not.toBeNull();
  });

  it("a replayed batch changes nothing: the kept event is a duplicate and no version is written", async () => {
    const before = await version();
    const replay = await v1(forwarder.key, "POST", `/partner-sources/${source.id}/events`, {
      events: batch(),
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.results.map((r: any) => r.outcome)).toEqual([
      "duplicate",
      "invalid",
      "invalid",
      "invalid",
    ]);
    expect(await version()).toBe(before);
  });

  it("refuses a body that is not a batch of 1 to 100 events, whole", async () => {
    for (const body of [
      {},
      { events: [] },
      { events: "rf-1" },
      { events: Array.from({ length: 101 }, railDeparture) },
    ]) {
      const refused = await v1(forwarder.key, "POST", `/partner-sources/${source.id}/events`, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        success: false,
        data: { error: "malformed_body", param: "events" },
      });
    }
  });

  it("another organisation's source answers not found on every route, and nothing changes", async () => {
    const before = await version();
    for (const [method, path, body] of [
      ["POST", `/partner-sources/${source.id}/events`, { events: [railDeparture()] }],
      [
        "POST",
        `/partner-sources/${source.id}/events`,
        { events: [{ ...railDeparture(), location: { latitude: "x" } }] },
      ],
      ["POST", `/partner-sources/${source.id}/rotate`, undefined],
      ["DELETE", `/partner-sources/${source.id}`, undefined],
    ] as const) {
      const res = await v1(org.key, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: { error: "not_found" } });
    }
    expect((await v1(org.key, "GET", "/partner-sources")).body.data.map((s: any) => s.id)).not.toContain(
      source.id,
    );
    expect((await v1(forwarder.key, "POST", "/partner-sources/not-a-source/rotate")).status).toBe(404);
    expect(await version()).toBe(before);
  });

  it("rotating the secret stops the old one at once; removing the source stops its posts", async () => {
    const rotated = await v1(forwarder.key, "POST", `/partner-sources/${source.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.id).toBe(source.id);
    expect(rotated.body.data.signing_secret).toMatch(/^psec_/);
    expect(rotated.body.data.signing_secret).not.toBe(source.signing_secret);
    const body = JSON.stringify({ events: [{ ...railDeparture(), event_id: "rf-9" }] });
    const now = String(Math.floor(clock.now().getTime() / 1000));
    const signed = (secret: string) =>
      fetch(source.inbound_url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-quayside-timestamp": now,
          "x-quayside-signature": partnerSignature(secret, now, body),
        },
        body,
      });
    expect((await signed(source.signing_secret)).status).toBe(401);
    expect((await signed(rotated.body.data.signing_secret)).status).toBe(200);

    const removed = await v1(forwarder.key, "DELETE", `/partner-sources/${source.id}`);
    expect(removed).toMatchObject({ status: 200, body: { success: true, removed: true, id: source.id } });
    expect((await v1(forwarder.key, "GET", "/partner-sources")).body.data).toEqual([]);
    const after = await v1(forwarder.key, "POST", `/partner-sources/${source.id}/events`, {
      events: [{ ...railDeparture(), event_id: "rf-10" }],
    });
    expect(after.status).toBe(404);
    // The events it sent stay on the timeline.
    const read = await v1(forwarder.key, "GET", `/shipments/${shipmentId}?include=full`);
    expect(
      read.body.data.document.events_table.filter((e: any) => e.source).map((e: any) => e.source.event_id),
    ).toEqual(["rf-1", "rf-9"]);
  });
});
