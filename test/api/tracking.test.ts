import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedContent } from "../compat/support";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { billOfLadingOf, billOfLadingWithBoxes, simulatedContainers } from "../support/references";

let app: TestApp;
let org: OrgWithKey;
let known: string[];
let unknown: string[];
let simulatorUrl: string;

const TRACKING_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_CARRIER_TIMEOUT_MS: "3000",
};

beforeAll(async () => {
  app = await startTestApp({ env: TRACKING_ENV });
  simulatorUrl = app.simulator!.url;
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known, unknown } = await simulatedContainers(simulatorUrl, "MSCU", "MSCU", { known: 9, unknown: 2 }));
});
afterAll(() => app?.stop());

const get = (path: string, key = org.key) =>
  fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const slotsOf = (orgId: string) =>
  app.services.db.prisma.shipmentSlot.count({ where: { organizationId: orgId } });

describe("GET /api/v1/container/{number}", () => {
  it("answers the full tracking document fetched over HTTP from the carrier", async () => {
    const res = await get(`/api/v1/container/${known[0]}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-refresh-hint")).toMatch(/read=\/api\/v1\/shipments\/SHP-\d+/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    const { success, data } = await res.json();
    expect(success).toBe(true);
    expect(data).toMatchObject({
      reference_number: known[0],
      sealine: "MSCU",
      sealine_name: expect.stringMatching(/MSC/),
      carrier: { sealine: "MSCU", provided: false },
      shipment_type: "Container",
      is_failed_shipment: 0,
      status: expect.stringMatching(/^(PLANNED|IN_TRANSIT|DELIVERED)$/),
      eta: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(data.number_of_containers).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(data.route_json).length).toBeGreaterThanOrEqual(2);
    const counts = (table: string) => new Set((data[table] as object[]).map((r) => Object.keys(r).length));
    expect(counts("voyage_plan_table")).toEqual(new Set([9]));
    expect(counts("containers_table")).toEqual(new Set([6]));
    expect(counts("locations_table")).toEqual(new Set([11]));
    expect(counts("facilities_table")).toEqual(new Set([7]));
    expect(counts("eta_history_table")).toEqual(new Set([6]));
    expect(counts("vessels_table")).toEqual(new Set([11]));
    for (const n of counts("events_table")) expect([20, 24]).toContain(n);
    expect(data.containers_table[0]).toEqual(
      expect.objectContaining({
        container_number: known[0],
        iso_code: expect.stringMatching(/^[0-9L][0-9A-Z]{3}$/),
      }),
    );
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/quayside_carrier_calls_total\{scac="MSCU",outcome="found"\} \d+/);
    // A truck leg carries no vessel fields; a vessel event carries all four.
    const withVessel = data.events_table.find((e: Record<string, unknown>) => "vessel_imo" in e);
    expect(withVessel.vessel_imo).toBeGreaterThan(1_000_000);
  });

  it("honours a sealine hint, ignores an unknown 4-character code, and refuses a malformed one", async () => {
    const named = await (await get(`/api/v1/container/${known[1]}?sealine=mscu`)).json();
    expect(named.data.carrier).toEqual({ sealine: "MSCU", provided: true });
    const ignored = await get(`/api/v1/container/${known[1]}?sealine=ZZZZ`);
    expect(ignored.status).toBe(200);
    expect((await ignored.json()).data.carrier).toEqual({ sealine: "MSCU", provided: false });
    for (const bad of ["MSC", "MSCUX", "MS-U"]) {
      const res = await get(`/api/v1/container/${known[1]}?sealine=${bad}`);
      expect(res.status).toBe(400);
      expect((await res.json()).data).toMatchObject({ error: "invalid_parameter", param: "sealine" });
    }
  });

  it("refuses a malformed number with 400 and changes nothing", async () => {
    const before = await slotsOf(org.organizationId);
    for (const bad of ["MSCU1234565", "NOT-A-CONTAINER!", "x"]) {
      const res = await get(`/api/v1/container/${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).data.error).toBe("invalid_reference");
    }
    expect(await slotsOf(org.organizationId)).toBe(before);
  });

  it("ten simultaneous tracks of one new reference cost one slot and make one shipment", async () => {
    const fresh = await app.fixtures.organization();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => get(`/api/v1/container/${known[2]}`, fresh.key)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await slotsOf(fresh.organizationId)).toBe(1);
    const shipments = await app.services.db.prisma.shipment.count({
      where: { organizationId: fresh.organizationId },
    });
    expect(shipments).toBe(1);
    // Tracking it again later is free.
    expect((await get(`/api/v1/container/${known[2]}`, fresh.key)).status).toBe(200);
    expect(await slotsOf(fresh.organizationId)).toBe(1);
  });

  it("answers 402 shipment_limit_reached when the cycle's slots are used, before asking the carrier", async () => {
    const small = await app.fixtures.organization({ plan: "free" });
    const orgRow = await app.services.db.prisma.organization.findUniqueOrThrow({
      where: { id: small.organizationId },
    });
    await app.services.db.prisma.shipmentSlot.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        organizationId: small.organizationId,
        cycleStart: orgRow.cycleStartedAt,
        referenceKey: `FILLER${i}`,
      })),
    });
    const res = await get(`/api/v1/container/${known[3]}`, small.key);
    expect(res.status).toBe(402);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await res.json()).data).toMatchObject({
      error: "shipment_limit_reached",
      limit: 25,
      used: 25,
      usageApi: "/api/v1/account/usage",
    });
  });

  it("answers 404 with what was tried, the read endpoint and the discovery fields", async () => {
    const free = await app.fixtures.organization({ plan: "free" });
    const res = await get(`/api/v1/container/${unknown[0]}?sealine=MSCU`, free.key);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.data).toMatchObject({
      error: "not_found",
      tried: ["MSCU"],
      discovery: "not_eligible",
      discovery_reason: "plan",
      read_endpoint: expect.stringMatching(/^\/api\/v1\/shipments\/SHP-\d+$/),
      hint: expect.any(String),
      upgrade: {
        feature: "carrier_discovery",
        min_plan: "professional",
        message: expect.any(String),
        url: expect.any(String),
      },
    });
    // A paid plan without discovery gets the reason but is never sold an upgrade.
    const starter = await app.fixtures.organization({ plan: "starter" });
    const paid = await (await get(`/api/v1/container/${unknown[0]}?sealine=MSCU`, starter.key)).json();
    expect(paid.data.discovery_reason).toBe("plan");
    expect(paid.data).not.toHaveProperty("upgrade");
    // The failed shipment can be read back at the read endpoint, and costs no slot.
    const readBack = await get(body.data.read_endpoint, free.key);
    expect(readBack.status).toBe(200);
    expect(await slotsOf(free.organizationId)).toBe(0);
  });
});

describe("GET /api/v1/bl/{number}", () => {
  it("answers a bill of lading with every container on it", async () => {
    const bl = await billOfLadingOf(simulatorUrl, "MSCU", known[4]!);
    const res = await get(`/api/v1/bl/${encodeURIComponent(bl)}`);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.shipment_type).toBe("Bill of Lading");
    expect(data.containers_table.map((c: { container_number: string }) => c.container_number)).toContain(
      known[4],
    );
  });
});

describe("when the carrier is down", () => {
  it("serves the stored document with the reason and last sync, or 502 when nothing is stored", async () => {
    expect((await get(`/api/v1/container/${known[5]}`)).status).toBe(200);
    app.simulator!.faults.set("MSCU", { mode: "down" });
    try {
      const stale = await get(`/api/v1/container/${known[5]}`);
      expect(stale.status).toBe(200);
      const { data } = await stale.json();
      expect(data.stale_reason).toMatch(/could not be reached/);
      expect(data.last_synced_at).toEqual(expect.any(String));

      const never = await get(`/api/v1/container/${known[6]}`);
      expect(never.status).toBe(502);
      expect(never.headers.get("retry-after")).toBeTruthy();
      expect((await never.json()).data).toMatchObject({ error: "carrier_unreachable", sealine: "MSCU" });
    } finally {
      app.simulator!.faults.clear("MSCU");
    }
  });
});

describe("GET /api/v1/shipments/{id}", () => {
  it("reads the stored shipment by container number, any spelling, or by its SHP id, without a carrier call", async () => {
    const tracked = await (await get(`/api/v1/container/${known[7]}`)).json();
    const hint = tracked.data;
    app.simulator!.faults.set("MSCU", { mode: "down" });
    try {
      const spelled = `${known[7]!.slice(0, 4).toLowerCase()} ${known[7]!.slice(4, 8)}-${known[7]!.slice(8)}`;
      for (const id of [known[7]!, spelled]) {
        const res = await get(`/api/v1/shipments/${encodeURIComponent(id)}`);
        expect(res.status).toBe(200);
        const { data } = await res.json();
        expect(data).toMatchObject({
          reference_number: known[7],
          sealine: "MSCU",
          customers: [],
        });
        // The box's terminal record (test/integration/terminal-records.test.ts pins its states).
        for (const item of data.terminal ?? []) expect(item.container_number).toBe(known[7]);
        expect(data.name).toMatch(/^SHP-\d+$/);
        expect(typeof data.refresh_eligible_now).toBe("boolean");
        const byName = await get(`/api/v1/shipments/${data.name}`);
        expect((await byName.json()).data.reference_number).toBe(known[7]);
      }
      const full = await (await get(`/api/v1/shipments/${known[7]}?include=full`)).json();
      expect(full.data.mode).toBe("stored");
      expect(full.data.cached_at).toEqual(expect.any(String));
      expect(full.data.document.containers_table).toEqual(hint.containers_table);
    } finally {
      app.simulator!.faults.clear("MSCU");
    }
  });

  it("answers 404 for another organisation's shipment, by number and by id", async () => {
    const other = await app.fixtures.organization();
    const mine = await (await get(`/api/v1/shipments/${known[7]}`)).json();
    for (const id of [known[7]!, mine.data.name]) {
      const res = await get(`/api/v1/shipments/${id}`, other.key);
      expect(res.status).toBe(404);
      expect(JSON.stringify(await res.json())).not.toContain(known[7]!.slice(4));
    }
  });
});

describe("the containers table of a stored shipment", () => {
  it("dates a box's last event from the events shown: a hidden DROP after them does not count", async () => {
    await get(`/api/v1/container/${known[8]}`);
    const doc = await storedContent(app, org.organizationId, "MSCU", known[8]!);
    const box = doc.containers[0]!;
    const shown = box.events.findLast((e) => e.emitted)!;
    shown.actual = true;
    box.events.push({
      ...shown,
      eventCode: "DROP",
      emitted: false,
      statusCode: null,
      description: "Dropped off",
      localDateTime: "2030-01-01 08:00:00",
      utcOffset: "+00:00",
      instant: "2030-01-01T08:00:00.000Z",
    });
    await app.services.documents.record(
      {
        organizationId: org.organizationId,
        carrierScac: "MSCU",
        referenceType: "container",
        referenceKey: known[8]!,
      },
      doc,
    );
    const { data } = await (await get(`/api/v1/shipments/${known[8]}?include=full`)).json();
    expect(data.document.events_table.map((e: { event_code: string }) => e.event_code)).not.toContain("DROP");
    expect(data.document.containers_table[0].last_event_date).toBe(shown.localDateTime);
  });
});

describe("GraphQL shipment query", () => {
  it("resolves a shipment with all its containers and events in a constant number of SQL statements", async () => {
    // Constant means the same with one container as with several: the bill of lading must carry more.
    const { billOfLading: bl, containers } = await billOfLadingWithBoxes(simulatorUrl, "MSCU", "MSCU", 3);
    for (const path of [`/api/v1/container/${known[0]}`, `/api/v1/bl/${encodeURIComponent(bl)}`]) {
      expect((await get(path)).status).toBe(200);
    }
    const query = `query($id: String!) { shipment(id: $id) { name status document { containers { number events { eventCode location { name } vessel { name } } } } } }`;
    const measure = async (id: string) => {
      const before = app.services.db.statements.count;
      const res = await fetch(`${app.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.key}` },
        body: JSON.stringify({ query, variables: { id } }),
      });
      const body = await res.json();
      return {
        statements: app.services.db.statements.count - before,
        containers: body.data.shipment.document.containers.length,
        events: body.data.shipment.document.containers.flatMap((c: { events: unknown[] }) => c.events).length,
      };
    };
    // The statement counter is the process's: a background job (a refresh, a webhook tick) that runs
    // during a request adds to it. The workers are stopped for the measure (this is the file's last
    // test): in a loaded CI run (2299d4e) all ten runs counted 17 where a quiet run counts 4, most
    // likely each meeting a round of the workers' ticks. What else runs in the background only ever
    // adds, so the fewest of five is the request's own.
    await app.workers.stop();
    await app.carrierPush.worker.stop();
    const fewest = async (id: string) => {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await measure(id));
      return runs.reduce((a, b) => (b.statements < a.statements ? b : a));
    };
    await measure(known[0]!); // the key's row is then cached in both measured requests
    const single = await fewest(known[0]!);
    const many = await fewest(bl);
    expect(single.containers).toBe(1);
    expect(many.containers).toBe(containers.length);
    expect(many.events).toBeGreaterThan(single.events);
    expect(many.statements).toBe(single.statements);
    expect(single.statements).toBeLessThanOrEqual(4);
  });
});
