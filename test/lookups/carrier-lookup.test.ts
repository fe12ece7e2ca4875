import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/domain/limits/fixed-window";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  // The embedded simulator connects every carrier (a lookup never calls one): only lines this
  // deployment can track are candidates.
  app = await startTestApp({ env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0" } });
  org = await app.fixtures.organization({ plan: "starter" });
  // The organisation's own tracking history: ONE answered it for this box before; MSC for two boxes
  // of a lessor's prefix (TGHU). (Another organisation's history is never evidence:
  // test/security/tenant-evidence.test.ts.)
  const prisma = app.services.db.prisma;
  const answered = (
    carrierScac: string,
    referenceKey: string,
    referenceType: "container" | "bl" = "container",
  ) =>
    prisma.carrierDocument.create({
      data: {
        organizationId: org.organizationId,
        carrierScac,
        referenceType,
        referenceKey,
        latestVersion: 1,
        lastSyncedAt: new Date(),
      },
    });
  await answered("ONEY", "CSQU3054383");
  await answered("MSCU", "TGHU1234567");
  await answered("MSCU", "TGHU7654321");
  await answered("CMDU", "TGHU1111111");
});
afterAll(() => app?.stop());

const lookup = (query: string, key = org.key) =>
  fetch(`${app.url}/api/v1/carriers/lookup?${query}`, { headers: { authorization: `Bearer ${key}` } });

describe("GET /api/v1/carriers/lookup", () => {
  it("answers the section 2.11 result: carrier, candidates with confidence, sources_unavailable, cached", async () => {
    const res = await lookup("number=MEDUFR030802");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lookup-limit")).toBe("1000");
    expect(res.headers.get("x-lookup-remaining")).toBe("999");
    expect(Number(res.headers.get("x-lookup-reset"))).toBe(
      Math.ceil((Math.floor(Date.now() / DAY_MS) + 1) * 86_400),
    );
    const { success, data } = await res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      reference_number: "MEDUFR030802",
      type: "Bill of Lading",
      carrier: {
        scac: "MSCU",
        name: expect.stringMatching(/MSC/),
        slug: "msc",
        status: "active",
        confidence: "high",
        source: "spec",
      },
      candidates: [expect.objectContaining({ scac: "MSCU", confidence: "high", source: "spec" })],
      sources_unavailable: [],
      cached: false,
    });
  });

  it("ranks tracking history first (high) and infers the type: 4 letters and 7 digits is a container", async () => {
    const { data } = await (await lookup("number=CSQU3054383")).json();
    expect(data.type).toBe("Container");
    expect(data.carrier).toMatchObject({ scac: "ONEY", confidence: "high", source: "history" });
    // CSQU is also a Hapag-Lloyd owner prefix: bic, medium.
    expect(data.candidates.map((c: { scac: string; source: string }) => `${c.scac}:${c.source}`)).toEqual([
      "ONEY:history",
      "HLCU:bic",
    ]);
  });

  it("has no confidence floor: a lessor's box gets the low prefix-popularity winner", async () => {
    const { data } = await (await lookup("number=TGHU0000013&type=container")).json();
    expect(data.carrier).toMatchObject({ scac: "MSCU", confidence: "low", source: "prefix-popularity" });
    expect(data.candidates.map((c: { scac: string }) => c.scac)).toEqual(["MSCU", "CMDU"]);
  });

  it("answers a null carrier with no candidates when nothing points anywhere (still 200)", async () => {
    const res = await lookup("number=ZZQQ1234567890&type=bl");
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ carrier: null, candidates: [], sources_unavailable: [] });
  });

  it("serves a repeat from the cache: cached, free, and without X-Lookup-* headers", async () => {
    const first = await lookup("number=HLCUSEL251063157");
    const remaining = Number(first.headers.get("x-lookup-remaining"));
    const repeat = await lookup("number=hlcu-sel251063157&type=bl");
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).data).toMatchObject({ cached: true, carrier: { scac: "HLCU" } });
    for (const header of ["x-lookup-limit", "x-lookup-remaining", "x-lookup-reset"]) {
      expect(repeat.headers.get(header)).toBeNull();
    }
    const next = await lookup("number=ONEYAARD05774700");
    expect(Number(next.headers.get("x-lookup-remaining"))).toBe(remaining - 1);
  });

  it("refuses a malformed number or type with 400", async () => {
    const bad = await lookup("number=MSCU1234560");
    expect(bad.status).toBe(400);
    expect((await bad.json()).data).toMatchObject({ error: "invalid_reference", param: "number" });
    const missing = await lookup("type=bl");
    expect(missing.status).toBe(400);
    expect((await missing.json()).data).toMatchObject({ error: "invalid_parameter", param: "number" });
    const type = await lookup("number=MEDUFR030802&type=booking");
    expect((await type.json()).data).toMatchObject({ error: "invalid_parameter", param: "type" });
  });

  it("creates no shipment and no slot", async () => {
    const prisma = app.services.db.prisma;
    expect(await prisma.shipment.count({ where: { organizationId: org.organizationId } })).toBe(0);
    expect(await prisma.shipmentSlot.count({ where: { organizationId: org.organizationId } })).toBe(0);
  });

  it("allows 1,000 a day per key, then 429 carrier_lookup_limit_exceeded (not rate_limit_exceeded)", async () => {
    const other = await app.fixtures.organization({ plan: "business" });
    await app.services.limiter.consume(`lookups:carrier:${other.keyId}`, 1000, DAY_MS, 999);
    const last = await lookup("number=MEDUAI047070", other.key);
    expect(last.status).toBe(200);
    expect(last.headers.get("x-lookup-remaining")).toBe("0");
    const over = await lookup("number=MEDUF5399896", other.key);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("x-lookup-limit")).toBe("1000");
    expect(over.headers.get("x-lookup-remaining")).toBe("0");
    const body = await over.json();
    expect(body.data).toMatchObject({ error: "carrier_lookup_limit_exceeded", limit: 1000, remaining: 0 });
    // A cached repeat still answers, and the per-minute limit is untouched by the daily one.
    const repeat = await lookup("number=MEDUAI047070", other.key);
    expect(repeat.status).toBe(200);
    expect((await repeat.json()).data.cached).toBe(true);
  });

  it("is the same lookup on GraphQL", async () => {
    const { body } = await graphql(
      app,
      org.key,
      `{ carrierLookup(number: "PABV123456", type: bl) { __typename ... on CarrierLookup { carrier { scac confidence source } cached allowance { kind limit } } } }`,
    );
    expect(body.data?.carrierLookup).toEqual({
      __typename: "CarrierLookup",
      carrier: { scac: "PCIU", confidence: "medium", source: "bl_prefix" },
      cached: false,
      allowance: { kind: "CARRIER", limit: 1000 },
    });
  });
});
