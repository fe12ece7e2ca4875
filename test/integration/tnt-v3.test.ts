/**
 * Per-carrier Track & Trace version (issue 24 items 3 and 4): a registry entry with `"tntVersion": "3.0"`
 * is asked at `/v3/events` with the 3.0 query, header and cursor paging, and the simulator answers it in
 * the 3.0 shape from the same world. The journey a user reads is the one T&T 2.2 gives; the simulator's
 * 3.0 answers satisfy the official 3.0 schema; a 3.0 error body is a clean refusal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { knownShipments, type Shipment } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { buildRegistry, carrierRegistryFileSchema } from "../../src/upstream/carriers/carrier-registry";
import { createDcsaTntAdapter } from "../../src/upstream/carriers/dcsa-tnt.adapter";
import { compatGet, SIMULATOR_ENV } from "../compat/support";
import { SHARED } from "../simulator/support";
import { startTestApp, type TestApp } from "../support/app";

const AT = "2026-11-20T12:00:00Z";
const oney = (tntVersion: "2.2" | "3.0") => ({
  name: "Ocean Network Express",
  adapter: "dcsa-tnt-2.2",
  baseUrl: null,
  tntVersion,
  // Three events a page, so a journey takes several pages.
  pageSize: 3,
  auth: { kind: "none" },
});

async function appWith(tntVersion: "2.2" | "3.0"): Promise<TestApp> {
  const registry = join(mkdtempSync(join(tmpdir(), "quayside-tnt3-")), "carriers.registry.json");
  writeFileSync(registry, JSON.stringify({ carriers: { ONEY: oney(tntVersion) } }));
  return startTestApp({
    env: { ...SIMULATOR_ENV, QUAYSIDE_CARRIER_REGISTRY: registry, QUAYSIDE_CARRIER_TIMEOUT_MS: "15000" },
    clock: new ManualClock(AT),
  });
}

let v3: TestApp;
let v2: TestApp;
beforeAll(async () => {
  v3 = await appWith("3.0");
  v2 = await appWith("2.2");
}, 180_000);
afterAll(async () => {
  await v3?.stop();
  await v2?.stop();
});

/** A ONEY shipment with several events reported and more to come. */
function shipmentUnderWay(): Shipment {
  const now = Date.parse(AT);
  let tried = 0;
  for (const shipment of knownShipments("ONEY", new Date(AT))) {
    if (
      !shipment.cancelled &&
      shipment.bookedAt.getTime() < now - 30 * 86_400_000 &&
      shipment.completesAt.getTime() > now
    ) {
      return shipment;
    }
    if (++tried >= 2_000) break;
  }
  throw new Error("no ONEY shipment under way");
}

/** What a user reads of a tracking answer (compat API), without the moment it was fetched. */
async function journey(app: TestApp, number: string, type: "BL" | "CT") {
  const org = await app.fixtures.organization({ plan: "business" });
  const answer = await compatGet(app, org.key, "/tracking", {
    number,
    type,
    sealine: "ONEY",
    force_update: "true",
  });
  if (answer.body.status !== "success") return { refused: answer.body.message };
  const { metadata: _metadata, ...rest } = answer.body.data as { metadata: unknown };
  return rest;
}

async function requestsReaching(app: TestApp): Promise<number> {
  const state = (await (await fetch(`${app.simulator!.url}/_admin/state`)).json()) as {
    requests: Record<string, number>;
  };
  return state.requests.ONEY ?? 0;
}

describe("a carrier set to T&T 3.0 in the registry", () => {
  it("tracks a known B/L and box through /v3/events to the same journey as T&T 2.2", async () => {
    const shipment = shipmentUnderWay();
    const box = shipment.containers[0]!.equipmentReference;
    for (const [number, type] of [
      [shipment.transportDocumentReference, "BL"],
      [box, "CT"],
    ] as const) {
      const before = await requestsReaching(v3);
      const viaV3 = (await journey(v3, number, type)) as { containers?: { events: unknown[] }[] };
      expect(viaV3, `${type} ${number}`).not.toHaveProperty("refused");
      // More events than one page holds: the cursor was followed.
      expect(viaV3.containers!.flatMap((c) => c.events).length).toBeGreaterThan(3);
      expect(await requestsReaching(v3)).toBeGreaterThan(before + 1);
      expect(viaV3).toEqual(await journey(v2, number, type));
    }
  }, 120_000);

  it("the 3.0 client sends API-Version 3.0.0 and milestone eventTypes, and each cursor with the original query", async () => {
    const number = shipmentUnderWay().transportDocumentReference;
    const sent: { url: URL; apiVersion: string | null }[] = [];
    const adapter = createDcsaTntAdapter({
      scac: "ONEY",
      baseUrl: `${v3.simulator!.url}/ONEY`,
      tntVersion: "3.0",
      auth: { kind: "none" },
      pageSize: 3,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        sent.push({ url: new URL(String(input)), apiVersion: headers.get("api-version") });
        return fetch(input, init);
      },
    });
    const outcome = await adapter.fetchEvents({ scac: "ONEY", reference: number, referenceType: "bl" });
    expect(outcome).toMatchObject({ kind: "found", truncated: false });
    const { events, pages } = outcome as { events: unknown[]; pages: number };
    expect(pages).toBe(sent.length);
    expect(sent.length).toBeGreaterThan(1);
    expect(events.length).toBeGreaterThan(3);
    for (const [index, request] of sent.entries()) {
      expect(request.url.pathname).toBe("/ONEY/v3/events");
      expect(request.apiVersion).toBe("3.0.0");
      const query = Object.fromEntries(request.url.searchParams);
      expect(query).toMatchObject({
        transportDocumentReference: number,
        eventTypes: "SHIPMENT,TRANSPORT,EQUIPMENT",
        limit: "3",
      });
      expect("cursor" in query).toBe(index > 0);
    }
  }, 60_000);

  it("is answered in the 3.0 way: { events }, API-Version 3.0.0, Next-Page-Cursor taken back as cursor", async () => {
    const number = shipmentUnderWay().transportDocumentReference;
    const base = `${v3.simulator!.url}/ONEY/v3/events?transportDocumentReference=${number}`;
    const first = await fetch(`${base}&eventTypes=SHIPMENT,TRANSPORT,EQUIPMENT&limit=3`);
    expect(first.status).toBe(200);
    expect(first.headers.get("api-version")).toBe("3.0.0");
    const cursor = first.headers.get("next-page-cursor");
    expect(cursor).toBeTruthy();
    expect(first.headers.get("next-page")).toBeNull();
    const page = (await first.json()) as { events: { eventClassification: unknown }[] };
    expect(page.events).toHaveLength(3);
    expect(page.events[0]).toHaveProperty("eventClassification");
    const second = await fetch(
      `${base}&eventTypes=SHIPMENT,TRANSPORT,EQUIPMENT&limit=3&cursor=${encodeURIComponent(cursor!)}`,
    );
    const next = (await second.json()) as { events: { eventID: string }[] };
    expect(next.events.length).toBeGreaterThan(0);
    expect(next.events.map((e) => e.eventID)).not.toContain((page.events[0] as { eventID?: string }).eventID);
  }, 60_000);
});

// -----------------------------------------------------------------------------------------------------

const TNT3_SPEC = resolve(
  SHARED,
  "reference/dcsa/Conformance-Gateway/tnt/src/main/resources/standards/tnt/schemas/TNT_v3.0.0.yaml",
);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
type Schema = Record<string, unknown>;

/**
 * The official 3.0 schemas, with one tightening: an object schema accepts no property it does not
 * declare (the file leaves that open, so a misspelt field would otherwise pass).
 */
function tnt3Validators() {
  const document = parse(readFileSync(TNT3_SPEC, "utf8")) as { components: { schemas: Schema } };
  const closed = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(closed);
    if (typeof node !== "object" || node === null) return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === "$ref" ? String(value).replace("#/", "tnt3#/") : closed(value);
    }
    if (out.type === "object" && out.properties && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    return out;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "tnt3", components: closed(document.components) } as Schema);
  const check = (name: string) => {
    const validate = ajv.getSchema(`tnt3#/components/schemas/${name}`)!;
    return (body: unknown) =>
      validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  };
  return { events: check("GetEventsResponse"), error: check("GetEventsError") };
}

describe("the simulator's T&T 3.0 answers", () => {
  it("validate against the official 3.0 schema (events of every type, every page, and errors)", async () => {
    const validate = tnt3Validators();
    // The schema is not vacuous: a 2.2 event and a misspelt 3.0 field are refused.
    expect(validate.events({ events: [{ eventType: "SHIPMENT" }] })).not.toEqual([]);
    expect(validate.events({ events: [{ eventClassification: { eventTypCode: "SHIPMENT" } }] })).not.toEqual(
      [],
    );
    const shipment = shipmentUnderWay();
    const seenTypes = new Set<string>();
    for (const filter of [
      `transportDocumentReference=${shipment.transportDocumentReference}`,
      `carrierBookingReference=${shipment.carrierBookingReference}`,
      `equipmentReference=${shipment.containers[0]!.equipmentReference}`,
    ]) {
      let url: string | null = `${v3.simulator!.url}/ONEY/v3/events?${filter}&limit=4`;
      let pages = 0;
      while (url) {
        const res: Response = await fetch(url);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { events: { eventClassification: { eventTypeCode: string } }[] };
        expect(validate.events(body)).toEqual([]);
        for (const event of body.events) seenTypes.add(event.eventClassification.eventTypeCode);
        const cursor = res.headers.get("next-page-cursor");
        url = cursor
          ? `${v3.simulator!.url}/ONEY/v3/events?${filter}&limit=4&cursor=${encodeURIComponent(cursor)}`
          : null;
        pages += 1;
      }
      expect(pages).toBeGreaterThan(1);
    }
    expect([...seenTypes].sort()).toEqual(["EQUIPMENT", "SHIPMENT", "TRANSPORT"]);

    const bad = await fetch(`${v3.simulator!.url}/ONEY/v3/events?limit=0`);
    expect(bad.status).toBe(400);
    const error = await bad.json();
    expect(error).toMatchObject({ feedbackElements: [{ severity: "ERROR" }] });
    expect(validate.error(error)).toEqual([]);
  }, 60_000);
});

describe("a T&T 3.0 error body", () => {
  it("degrades to a clean refusal: a 500 is the carrier not answering, without the carrier's words", async () => {
    const number = shipmentUnderWay().transportDocumentReference;
    const admin = `${v3.simulator!.url}/_admin/faults/ONEY`;
    const set = await fetch(admin, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mode: "server-error", status: 500 }),
    });
    expect(set.status).toBe(200);
    try {
      const raw = await fetch(`${v3.simulator!.url}/ONEY/v3/events?transportDocumentReference=${number}`);
      expect(raw.status).toBe(500);
      expect(await raw.json()).toMatchObject({ feedbackElements: [{ severity: "ERROR" }] });
      const org = await v3.fixtures.organization({ plan: "business" });
      const answer = await compatGet(v3, org.key, "/tracking", {
        number,
        type: "BL",
        sealine: "ONEY",
        force_update: "true",
      });
      expect(answer.body).toMatchObject({ status: "error", message: "SEALINE_NO_RESPONSE" });
      expect(JSON.stringify(answer.body)).not.toMatch(/simulated|feedbackElements|failing/i);
    } finally {
      await fetch(admin, { method: "DELETE" });
    }
  }, 60_000);

  it("a B/L the carrier never issued is 'no information', as under 2.2, not a broken carrier", async () => {
    const answer = await journey(v3, "ONEY00000000", "BL");
    expect(answer).toEqual({ refused: "SEALINE_HASNT_PROVIDE_INFO" });
    expect(answer).toEqual(await journey(v2, "ONEY00000000", "BL"));
  }, 60_000);
});

describe("tntVersion in the registry file", () => {
  const file = (extra: Record<string, unknown>) =>
    carrierRegistryFileSchema.safeParse({ carriers: { ONEY: { ...oney("2.2"), ...extra } } });

  it("defaults to 2.2 at /v2/events; 3.0 goes to /v3/events; other versions are refused", () => {
    const { tntVersion: _omit, ...plain } = oney("2.2");
    const parsed = carrierRegistryFileSchema.parse({ carriers: { ONEY: plain } });
    const live = buildRegistry(parsed, { env: { QUAYSIDE_CARRIER_ONEY_BASE_URL: "https://one.example" } });
    expect(live.get("ONEY")).toMatchObject({ tntVersion: "2.2", eventsPath: "/v2/events" });
    const three = buildRegistry(carrierRegistryFileSchema.parse({ carriers: { ONEY: oney("3.0") } }), {
      env: { QUAYSIDE_CARRIER_ONEY_BASE_URL: "https://one.example" },
    });
    expect(three.get("ONEY")).toMatchObject({ tntVersion: "3.0", eventsPath: "/v3/events" });
    // Embedded mode asks the simulator in the entry's version too.
    const simulated = buildRegistry(carrierRegistryFileSchema.parse({ carriers: { ONEY: oney("3.0") } }), {
      env: {},
      simulatorUrl: "http://127.0.0.1:4010",
    });
    expect(simulated.get("ONEY")).toMatchObject({
      baseUrl: "http://127.0.0.1:4010/ONEY",
      eventsPath: "/v3/events",
    });
    expect(file({ tntVersion: "3.1" }).success).toBe(false);
    expect(file({ tntVersion: 3 }).success).toBe(false);
  });
});
