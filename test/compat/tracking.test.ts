import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { billOfLadingOf, simulatedContainers } from "../support/references";
import {
  containerDataSchema,
  danglingReferences,
  historyDocumentSchema,
  historyListSchema,
  refusalEnvelope,
  routeDataSchema,
  successEnvelope,
  trackingDataSchema,
} from "./compat-schema";
import { compatGet, freshContainer, SIMULATOR_ENV, seedDocument, storedContent } from "./support";

let app: TestApp;
let org: OrgWithKey;
let known: string[];
let unknown: string[];
let simulatorUrl: string;
/** A real stored document to shape seeded ones from. */
let base: TrackingDocument;

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  simulatorUrl = app.simulator!.url;
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known, unknown } = await simulatedContainers(simulatorUrl, "MSCU", "MSCU", { known: 14, unknown: 2 }));
  const first = await compatGet(app, org.key, "/tracking", { number: known[13] });
  expect(first.body.message).toBe("OK");
  base = await storedContent(app, org.organizationId, "MSCU", known[13]!);
});
afterAll(() => app?.stop());

const track = (params: Record<string, string | undefined>, key = org.key) =>
  compatGet(app, key, "/tracking", params);

/** Validates a success answer field by field and returns its data. */
function expectValidTracking<S extends z.ZodType = typeof trackingDataSchema>(
  answer: { status: number; body: unknown },
  schema?: S,
): z.output<S> {
  expect(answer.status).toBe(200);
  const envelope = successEnvelope.parse(answer.body);
  const data = (schema ?? trackingDataSchema).parse(envelope.data) as z.output<S>;
  expect(danglingReferences(data as never)).toEqual([]);
  return data;
}

function expectRefusal(answer: { status: number; body: unknown; headers: Headers }, message: string) {
  expect(answer.status).toBe(200);
  const refusal = refusalEnvelope.parse(answer.body);
  expect(refusal.message).toBe(message);
  expect(answer.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  return refusal;
}

describe("GET /tracking", () => {
  it("answers a tracked container that validates field by field against section 2", async () => {
    const answer = await track({ number: known[0], route: "true" });
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(answer.headers.get(header)).toMatch(/^\d+$/);
    }
    const data = expectValidTracking(answer);
    expect(answer.body.message).toBe("OK");
    expect(data.metadata).toMatchObject({
      type: "CT",
      number: known[0],
      sealine: "MSCU",
      sealine_name: expect.stringMatching(/MSC/),
      from_cache: false,
      api_calls: { total: null, remaining: null },
      unique_shipments: { total: 500 },
    });
    expect(data.metadata.api_calls.used).toBeGreaterThanOrEqual(1);
    expect(data.metadata.unique_shipments.used + data.metadata.unique_shipments.remaining).toBe(500);
    expect(data.metadata).not.toHaveProperty("stale_reason");
    expect(data.metadata).not.toHaveProperty("last_synced_at");
    // Ids are positions: 1..n, and the same document numbers them the same way every time.
    expect(data.locations!.map((l) => l.id)).toEqual(data.locations!.map((_l, i) => i + 1));
    expect(data.containers[0]!.number).toBe(known[0]);
    expect(data.containers[0]!.events.map((e) => e.order_id)).toEqual(
      data.containers[0]!.events.map((_e, i) => i + 1),
    );
    expect(data.vessels!.every((v) => v.call_sign === null && v.flag === null)).toBe(true);
    expect(data.route.pol.location).not.toBeNull();
    expect(data.route.pod.date).toMatch(/^\d{4}-/);
    // The carrier gave an arrival date, so there is nothing to predict.
    expect(data.route.pod.predictive_eta).toBeNull();
    expect(data.route_data!.route!.length).toBeGreaterThanOrEqual(1);
  });

  it("serves the stored document for 12 hours: from_cache, the same updated_at, cache_expires 12 hours on", async () => {
    const first = expectValidTracking(await track({ number: known[1] }));
    const second = expectValidTracking(await track({ number: known[1] }));
    expect(first.metadata.from_cache).toBe(false);
    expect(second.metadata.from_cache).toBe(true);
    expect(second.metadata.updated_at).toBe(first.metadata.updated_at);
    const expires = Date.parse(`${second.metadata.cache_expires!.replace(" ", "T")}Z`);
    const updated = Date.parse(`${second.metadata.updated_at!.replace(" ", "T")}Z`);
    expect(expires - updated).toBe(12 * 3_600_000);
    // An ordinary cache hit is not stale.
    expect(second.metadata).not.toHaveProperty("stale_reason");
    expect(second.metadata.api_calls.used).toBe(first.metadata.api_calls.used! + 1);
  });

  it("adds route_data only with route=true: SEA legs along the sea route, LAND legs, and the pin; ais is never returned", async () => {
    const without = await track({ number: known[2], ais: "true" });
    expect(expectValidTracking(without)).not.toHaveProperty("route_data");
    const withRoute = await track({ number: known[2], route: "true", ais: "true" });
    const data = expectValidTracking(withRoute);
    const routeData = routeDataSchema.parse(data.route_data);
    expect(JSON.stringify(withRoute.body)).not.toMatch(/"ais"/);
    const sea = routeData.route!.filter((s) => s.type === "SEA");
    expect(sea.length).toBeGreaterThanOrEqual(1);
    for (const leg of sea) {
      expect(leg.transport_type).toBe("VESSEL");
      // A sea route, not a straight line: it has the calls at its ends and turns in between.
      expect(leg.path.length).toBeGreaterThan(2);
      expect(leg.path[0]).toEqual([leg.from.lat, leg.from.lng]);
      expect(leg.path.at(-1)![0]).toBe(leg.to.lat);
      expect(leg.vessel?.call_sign).toBeNull();
    }
    const pol = data.locations!.find((l) => l.id === data.route.pol.location)!;
    expect(sea[0]!.from.locode).toBe(pol.locode);
    for (const leg of routeData.route!.filter((s) => s.type === "LAND")) {
      expect(leg.path).toHaveLength(2);
      expect(leg).not.toHaveProperty("vessel");
    }
    expect(routeData.pin).toHaveLength(2);
  });

  it("answers a bill of lading, a booking (as BK) and a combined <bill-of-lading>/<container> value", async () => {
    const bl = await billOfLadingOf(simulatorUrl, "MSCU", known[3]!);
    const asBl = expectValidTracking(await track({ number: bl, type: "BL" }));
    expect(asBl.metadata).toMatchObject({ type: "BL", number: bl });
    expect(asBl.containers.map((c) => c.number)).toContain(known[3]);

    const asBooking = expectValidTracking(await track({ number: bl, type: "BK" }));
    expect(asBooking.metadata).toMatchObject({ type: "BK", number: bl });

    const detected = expectValidTracking(await track({ number: bl }));
    expect(detected.metadata.type).toBe("BL");

    const combined = expectValidTracking(await track({ number: `${bl}/${known[3]}` }));
    expect(combined.metadata).toMatchObject({ type: "BL", number: bl });
    expect(combined.containers.map((c) => c.number)).toEqual([known[3]]);
  });

  it("tracking one container through compat and v1 spends one shipment slot", async () => {
    const fresh = await app.fixtures.organization();
    const compat = expectValidTracking(await track({ number: known[4] }, fresh.key));
    expect(compat.metadata.unique_shipments.used).toBe(1);
    const v1 = await fetch(`${app.url}/api/v1/container/${known[4]}`, {
      headers: { authorization: `Bearer ${fresh.key}` },
    });
    expect(v1.status).toBe(200);
    const again = expectValidTracking(await track({ number: known[4] }, fresh.key));
    expect(again.metadata.unique_shipments.used).toBe(1);
    // And the other way round: v1 first, then compat.
    await fetch(`${app.url}/api/v1/container/${known[5]}`, {
      headers: { authorization: `Bearer ${fresh.key}` },
    });
    const after = expectValidTracking(await track({ number: known[5] }, fresh.key));
    expect(after.metadata.unique_shipments.used).toBe(2);
    // v1 just fetched it into the shared store, so compat serves that document.
    expect(after.metadata.from_cache).toBe(true);
    expect(
      await app.services.db.prisma.shipmentSlot.count({ where: { organizationId: fresh.organizationId } }),
    ).toBe(2);
  });
});

describe("GET /container, /reference and /route", () => {
  it("/container answers one `container` object instead of containers[]", async () => {
    const answer = await compatGet(app, org.key, "/container", { number: known[0] });
    const data = expectValidTracking(answer, containerDataSchema);
    expect(data.container!.number).toBe(known[0]);
    expect(data).not.toHaveProperty("containers");
    expect(data.metadata.type).toBe("CT");
  });

  it("/reference answers a bill of lading as BL by default, a booking as BK, and refuses type CT", async () => {
    const bl = await billOfLadingOf(simulatorUrl, "MSCU", known[6]!);
    const asBl = expectValidTracking(await compatGet(app, org.key, "/reference", { number: bl }));
    expect(asBl.metadata.type).toBe("BL");
    const asBk = expectValidTracking(await compatGet(app, org.key, "/reference", { number: bl, type: "BK" }));
    expect(asBk.metadata.type).toBe("BK");
    expectRefusal(await compatGet(app, org.key, "/reference", { number: bl, type: "CT" }), "WRONG_TYPE");
  });

  it("/route answers the legs and the pin, and needs number, type and sealine", async () => {
    const answer = await compatGet(app, org.key, "/route", { number: known[0], type: "CT", sealine: "MSCU" });
    expect(answer.body).toMatchObject({ status: "success", message: "OK" });
    const data = routeDataSchema.parse(answer.body.data);
    expect(data.route!.some((leg) => leg.type === "SEA")).toBe(true);
    expect(answer.body.data).not.toHaveProperty("ais");
    // sealine may be auto, but must be there.
    expect(
      (await compatGet(app, org.key, "/route", { number: known[0], type: "CT", sealine: "auto" })).body
        .message,
    ).toBe("OK");
    for (const missing of ["type", "sealine", "number"]) {
      const params: Record<string, string> = { number: known[0]!, type: "CT", sealine: "MSCU" };
      delete params[missing];
      expectRefusal(await compatGet(app, org.key, "/route", params), "WRONG_PARAMETERS");
    }
  });
});

describe("parameters", () => {
  it("sealine empty, auto, absent, lower-case or an alternative code all find the carrier", async () => {
    for (const sealine of [undefined, "", "auto", "AUTO", "mscu", "MEDU"]) {
      const data = expectValidTracking(await track({ number: known[7], sealine }));
      expect(data.metadata.sealine).toBe("MSCU");
    }
  });

  it("type empty or absent is detected; CT, BL and BK are accepted in any case", async () => {
    for (const type of [undefined, "", "ct", "CT"]) {
      expect(expectValidTracking(await track({ number: known[7], type })).metadata.type).toBe("CT");
    }
  });

  it("refuses a type that is not CT, BL or BK with WRONG_TYPE", async () => {
    for (const type of ["XX", "container", "B"]) {
      const refusal = expectRefusal(await track({ number: known[7], type }), "WRONG_TYPE");
      expect(refusal.detail).toMatch(/CT, BL or BK/);
    }
  });

  it("refuses a sealine that is not a 4-character code with WRONG_SEALINE, and an unknown code with SEALINE_NOT_SUPPORTED", async () => {
    for (const sealine of ["MSC", "MSCUX", "MS-U"]) {
      expectRefusal(await track({ number: known[7], sealine }), "WRONG_SEALINE");
    }
    const before = await app.services.db.prisma.shipmentSlot.count({
      where: { organizationId: org.organizationId },
    });
    expectRefusal(await track({ number: freshContainer(), sealine: "ZZZZ" }), "SEALINE_NOT_SUPPORTED");
    expect(
      await app.services.db.prisma.shipmentSlot.count({ where: { organizationId: org.organizationId } }),
    ).toBe(before);
    // A number the organisation tracks, whose stored answer the read would serve: refused the same,
    // whether the stored answer's read or the check before a forced track finds the code unknown.
    expectValidTracking(await track({ number: known[13], sealine: "MSCU" }));
    for (const force_update of ["false", "true"]) {
      expectRefusal(
        await track({ number: known[13], sealine: "ZZZZ", force_update }),
        "SEALINE_NOT_SUPPORTED",
      );
    }
    expectValidTracking(await track({ number: known[13], sealine: "MSCU" }));
  });

  it("refuses a missing, empty, repeated or over-long number, and malformed booleans, with WRONG_PARAMETERS", async () => {
    expectRefusal(await track({}), "WRONG_PARAMETERS");
    expectRefusal(await track({ number: "" }), "WRONG_PARAMETERS");
    expectRefusal(await track({ number: "x".repeat(101) }), "WRONG_PARAMETERS");
    const repeated = await fetch(
      `${app.url}/compat/tracking?api_key=${org.key}&number=${known[7]}&number=${known[8]}`,
    );
    expect((await repeated.json()).message).toBe("WRONG_PARAMETERS");
    for (const name of ["force_update", "route", "ais"]) {
      expectRefusal(await track({ number: known[7], [name]: "yes" }), "WRONG_PARAMETERS");
    }
  });

  it("WRONG_NUMBER for a number that is not valid as its type; AUTO_CANT_DETECT_TYPE when no type fits", async () => {
    // Container-shaped with a wrong check digit: a mistyped container, whatever the type says.
    const typo = expectRefusal(await track({ number: "MSCU1234565" }), "WRONG_NUMBER");
    expect(typo.detail).toMatch(/check digit/i);
    expectRefusal(await track({ number: "NOT A BL!", type: "BL" }), "WRONG_NUMBER");
    expectRefusal(await track({ number: "ABC", type: "CT" }), "WRONG_NUMBER");
    const undetectable = expectRefusal(await track({ number: "??!!" }), "AUTO_CANT_DETECT_TYPE");
    expect(undetectable.detail).toMatch(/type/);
  });

  it("force_update=true fetches from the carrier although the stored document is fresh", async () => {
    await track({ number: known[8] });
    const cached = expectValidTracking(await track({ number: known[8] }));
    expect(cached.metadata.from_cache).toBe(true);
    const forced = expectValidTracking(await track({ number: known[8], force_update: "true" }));
    expect(forced.metadata.from_cache).toBe(false);
  });
});

describe("messages", () => {
  it("SEALINE_HASNT_PROVIDE_INFO when the named carrier has no record; AUTO_CANT_FIND_INFO when no detected carrier has", async () => {
    const named = expectRefusal(
      await track({ number: unknown[0], sealine: "MSCU" }),
      "SEALINE_HASNT_PROVIDE_INFO",
    );
    expect(named.detail).toMatch(/MSCU/);
    const auto = expectRefusal(await track({ number: unknown[1] }), "AUTO_CANT_FIND_INFO");
    expect(auto.detail).toMatch(/MSCU/);
  });

  it("SEALINE_NOT_SUPPORT_SHIPMENT_TYPE when the named carrier cannot track that type of number", async () => {
    // HMM resolves only combined <booking>/<container> values.
    const refusal = expectRefusal(
      await track({ number: known[9], sealine: "HDMU" }),
      "SEALINE_NOT_SUPPORT_SHIPMENT_TYPE",
    );
    expect(refusal.detail).toMatch(/HDMU/);
  });

  it("SEALINE_NO_RESPONSE names the carrier that is down in data.metadata.sealine, with a real Retry-After", async () => {
    // CMA CGM and Hapag-Lloyd here, not MSC: a carrier's Retry-After keeps the service off it for that
    // long (issue 24 item 5), and the other tests of this file track with MSC.
    app.simulator!.faults.set("CMDU", { mode: "rate-limited", retryAfterSeconds: 42 });
    try {
      const answer = await track({ number: freshContainer("CMAU"), sealine: "CMDU" });
      const refusal = expectRefusal(answer, "SEALINE_NO_RESPONSE");
      expect(refusal.data).toEqual({ metadata: { sealine: "CMDU" } });
      expect(answer.headers.get("retry-after")).toBe("42");
      // The carrier asked for 42 s: the next lookup is refused the same way without asking it.
      app.simulator!.faults.clear("CMDU");
      const cooling = await track({ number: freshContainer("CMAU"), sealine: "CMDU" });
      expectRefusal(cooling, "SEALINE_NO_RESPONSE");
      expect(Number(cooling.headers.get("retry-after"))).toBeGreaterThan(30);
      app.simulator!.faults.set("HLCU", { mode: "down" });
      const down = await track({ number: freshContainer("HLXU"), sealine: "HLCU" });
      expectRefusal(down, "SEALINE_NO_RESPONSE");
      expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      app.simulator!.faults.clear("CMDU");
      app.simulator!.faults.clear("HLCU");
    }
  });

  it("serves the stored document with stale_reason and last_synced_at when the carrier cannot be reached", async () => {
    const first = expectValidTracking(await track({ number: known[10] }));
    app.simulator!.faults.set("MSCU", { mode: "down" });
    try {
      const stale = expectValidTracking(await track({ number: known[10], force_update: "true" }));
      expect(stale.metadata.from_cache).toBe(true);
      expect(stale.metadata.stale_reason).toMatch(/could not be reached/);
      expect(stale.metadata.last_synced_at).toBe(first.metadata.updated_at);
    } finally {
      app.simulator!.faults.clear("MSCU");
    }
  });

  it("NO_CONTAINERS, NO_EVENTS and SEALINE_CANCELED_SHIPMENT are success answers about a real shipment", async () => {
    const noContainers = freshContainer();
    await seedDocument(app, org.organizationId, base, noContainers, (doc) => {
      doc.containers = [];
    });
    const a = await track({ number: noContainers, sealine: "MSCU" });
    expect(a.body.message).toBe("NO_CONTAINERS");
    expect(expectValidTracking(a).containers).toEqual([]);
    const single = await compatGet(app, org.key, "/container", { number: noContainers });
    expect(single.body.message).toBe("NO_CONTAINERS");
    expect(expectValidTracking(single, containerDataSchema).container).toBeNull();

    const noEvents = freshContainer();
    await seedDocument(app, org.organizationId, base, noEvents, (doc) => {
      for (const c of doc.containers) c.events = [];
    });
    const b = await track({ number: noEvents, sealine: "MSCU" });
    expect(b.body.message).toBe("NO_EVENTS");
    expect(expectValidTracking(b).containers[0]!.events).toEqual([]);

    const cancelled = freshContainer();
    await seedDocument(app, org.organizationId, base, cancelled, (doc) => {
      doc.status = "CANCELLED";
      for (const c of doc.containers) c.status = "CANCELLED";
    });
    const c = await track({ number: cancelled, sealine: "MSCU" });
    expect(c.body.message).toBe("SEALINE_CANCELED_SHIPMENT");
    expect(expectValidTracking(c).metadata.status).toBe("CANCELLED");
  });

  it("WRONG_PARAMETERS for an unknown path (HTTP 200) and any verb but GET (HTTP 405, with the rate headers)", async () => {
    const unknownPath = await fetch(`${app.url}/compat/no-such-operation?api_key=${org.key}`);
    expect(unknownPath.status).toBe(200);
    expect(refusalEnvelope.parse(await unknownPath.json()).message).toBe("WRONG_PARAMETERS");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${app.url}/compat/tracking?api_key=${org.key}&number=${known[0]}`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(refusalEnvelope.parse(await res.json()).message).toBe("WRONG_PARAMETERS");
    }
  });

  it("UNEXPECTED_ERROR with HTTP 200 for anything unforeseen, and nothing internal in it", async () => {
    const original = app.services.history.list;
    app.services.history.list = async () => {
      throw new Error("relation tracking_lookups exploded at /work/main/src/secret.ts:42");
    };
    try {
      const answer = await compatGet(app, org.key, "/history", { number: known[0], type: "CT" });
      const refusal = expectRefusal(answer, "UNEXPECTED_ERROR");
      expect(JSON.stringify(refusal)).not.toMatch(/exploded|secret|tracking_lookups/);
    } finally {
      app.services.history.list = original;
    }
  });
});

describe("absence rules", () => {
  it("a truck leg has no vessel key; a sea leg whose vessel is unknown has vessel null; an undated event has no date key", async () => {
    const number = freshContainer();
    await seedDocument(app, org.organizationId, base, number, (doc) => {
      const events = doc.containers[0]!.events;
      const seaEvent = events.find((e) => e.legType === "sea" && e.eventCode === "LOAD")!;
      seaEvent.vesselKey = null;
      const last = events.at(-1)!;
      last.localDateTime = null;
      last.instant = null;
      last.utcOffset = null;
    });
    const data = expectValidTracking(await track({ number, sealine: "MSCU" }));
    const events = data.containers[0]!.events;
    const truck = events.filter((e) => e.transport_type === "TRUCK");
    expect(truck.length).toBeGreaterThan(0);
    for (const e of truck) expect(e).not.toHaveProperty("vessel");
    const load = events.find((e) => e.event_code === "LOAD" && e.type === "sea")!;
    expect(load).toHaveProperty("vessel", null);
    const undated = events.at(-1)!;
    expect(undated).not.toHaveProperty("date");
    expect(undated.is_date_from_sealine).toBe(false);
    for (const e of events.slice(0, -1)) expect(e.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("predictive_eta is computed on pod only when the carrier gave no arrival date, and only for plans with predictive ETA", async () => {
    const number = freshContainer();
    const withoutArrival = (doc: TrackingDocument) => {
      const pod = doc.route.pod.locationKey;
      doc.route.pod = { ...doc.route.pod, localDateTime: null, instant: null, actual: null };
      for (const e of doc.containers[0]!.events) {
        if (
          e.locationKey === pod ||
          (doc.route.postpod.locationKey && e.locationKey === doc.route.postpod.locationKey)
        ) {
          e.localDateTime = null;
          e.instant = null;
          e.actual = false;
        }
      }
    };
    await seedDocument(app, org.organizationId, base, number, withoutArrival);
    const data = expectValidTracking(await track({ number, sealine: "MSCU" }));
    expect(data.route.pod.date).toBeNull();
    expect(data.route.pod.predictive_eta).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const pol = base.route.pol.instant!;
    // After the departure, and within a plausible sailing time.
    const eta = Date.parse(`${data.route.pod.predictive_eta!.replace(" ", "T")}Z`);
    expect(eta).toBeGreaterThan(Date.parse(pol));
    expect(eta - Date.parse(pol)).toBeLessThan(90 * 86_400_000);
    for (const point of ["prepol", "pol", "postpod"] as const)
      expect(data.route[point]).not.toHaveProperty("predictive_eta");
    // The core's field behind it, and what it rests on.
    const core = await graphql(
      app,
      org.key,
      `query ($id: String!) { shipment(id: $id) { predictiveEta { p50 } document { podPredictedArrival { instant localDateTime basis } } } }`,
      { id: number },
    );
    const shipment = (core.body.data as any).shipment;
    // No vessel position here and no carrier date: nothing for the model, so the departure estimate.
    expect(shipment.predictiveEta).toBeNull();
    expect(shipment.document.podPredictedArrival).toMatchObject({
      localDateTime: data.route.pod.predictive_eta,
      basis: "departure_estimate",
    });

    const starter = await app.fixtures.organization({ plan: "starter" });
    // Each organisation's store is its own: the same carrier answer, stored for the starter too.
    await seedDocument(app, starter.organizationId, base, number, withoutArrival);
    const withoutFeature = expectValidTracking(await track({ number, sealine: "MSCU" }, starter.key));
    expect(withoutFeature.route.pod.predictive_eta).toBeNull();
  });
});

describe("GET /history", () => {
  it("lists one entry per call with an integer id, the lower-case SCAC and the date, oldest first", async () => {
    const fresh = await app.fixtures.organization();
    for (let i = 0; i < 3; i++) await track({ number: known[11] }, fresh.key);
    const answer = await compatGet(app, fresh.key, "/history", { number: known[11], type: "CT" });
    expect(answer.body.message).toBe("OK");
    const data = historyListSchema.parse(answer.body.data);
    expect(data.requests).toHaveLength(3);
    expect(data.requests!.map((r) => r.sealine)).toEqual(["mscu", "mscu", "mscu"]);
    const ids = data.requests!.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(data.metadata).toMatchObject({ type: "CT", number: known[11], sealine: "MSCU" });
    // A sealine narrows the list; a refusal is not an entry.
    const other = await compatGet(app, fresh.key, "/history", {
      number: known[11],
      type: "CT",
      sealine: "MAEU",
    });
    expectRefusal(other, "DONT_TRACKED");
  });

  it("history-by-id returns the exact stored document that call was answered with, in the reduced shape", async () => {
    const fresh = await app.fixtures.organization();
    const number = freshContainer();
    await seedDocument(app, fresh.organizationId, base, number, (doc) => {
      doc.containers[0]!.events[0]!.description = "First version of the story";
    });
    await track({ number, sealine: "MSCU" }, fresh.key);
    // The carrier's story changes; the next call is answered with the new version.
    await seedDocument(app, fresh.organizationId, base, number, (doc) => {
      doc.containers[0]!.events[0]!.description = "Second version of the story";
    });
    await track({ number, sealine: "MSCU" }, fresh.key);
    const list = historyListSchema.parse(
      (await compatGet(app, fresh.key, "/history", { number, type: "CT" })).body.data,
    );
    expect(list.requests).toHaveLength(2);
    const [firstCall, secondCall] = list.requests!;

    const first = await compatGet(app, fresh.key, "/history", {
      number,
      type: "CT",
      id: String(firstCall!.id),
    });
    expect(first.body.message).toBe("OK");
    const firstDoc = historyDocumentSchema.parse(first.body.data);
    expect(danglingReferences(firstDoc as never)).toEqual([]);
    expect(firstDoc.containers[0]!.events[0]!.description).toBe("First version of the story");
    const second = historyDocumentSchema.parse(
      (await compatGet(app, fresh.key, "/history", { number, type: "CT", id: String(secondCall!.id) })).body
        .data,
    );
    expect(second.containers[0]!.events[0]!.description).toBe("Second version of the story");
    // Dates in UTC with +00; no timezone on locations.
    expect(firstDoc.containers[0]!.events[0]!.date).toMatch(/\+00$/);
    expect(firstDoc.locations![0]).not.toHaveProperty("timezone");
  });

  it("DONT_TRACKED for a number never tracked, another organisation's id, or an id of another number", async () => {
    expectRefusal(
      await compatGet(app, org.key, "/history", { number: freshContainer(), type: "CT" }),
      "DONT_TRACKED",
    );
    const stranger = await app.fixtures.organization();
    await track({ number: known[12] }, stranger.key);
    const theirs = historyListSchema.parse(
      (await compatGet(app, stranger.key, "/history", { number: known[12], type: "CT" })).body.data,
    );
    const theirId = String(theirs.requests![0]!.id);
    expectRefusal(
      await compatGet(app, org.key, "/history", { number: known[12], type: "CT", id: theirId }),
      "DONT_TRACKED",
    );
    expectRefusal(
      await compatGet(app, stranger.key, "/history", { number: known[0], type: "CT", id: theirId }),
      "DONT_TRACKED",
    );
  });

  it("needs number and type; refuses a malformed id or type", async () => {
    expectRefusal(await compatGet(app, org.key, "/history", { number: known[0] }), "WRONG_PARAMETERS");
    expectRefusal(await compatGet(app, org.key, "/history", { type: "CT" }), "WRONG_PARAMETERS");
    expectRefusal(
      await compatGet(app, org.key, "/history", { number: known[0], type: "CT", id: "abc" }),
      "WRONG_PARAMETERS",
    );
    expectRefusal(await compatGet(app, org.key, "/history", { number: known[0], type: "ZZ" }), "WRONG_TYPE");
    expectRefusal(
      await compatGet(app, org.key, "/history", { number: "MSCU1234565", type: "CT" }),
      "WRONG_NUMBER",
    );
  });
});
