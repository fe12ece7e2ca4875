/**
 * Disruptions on v1 and its sandbox copy (spec v1 section 2.12, section 4.1 rule 10): every filter
 * and error rule, matching to a tracked shipment, `affected`, tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_DISRUPTION_IDS } from "../../src/app/sandbox-disruptions";
import type { FeedItem } from "../../src/domain/disruptions/normalise";
import { findPort } from "../../src/domain/ports/port-directory";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { trackActiveShipment } from "../support/disruptions";
import { openApiChecker } from "../support/openapi";

let app: TestApp;
let business: OrgWithKey;
let other: OrgWithKey;
let reference: string;
let dischargeName: string;
let checker: ReturnType<typeof openApiChecker>;

async function get(path: string, key?: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const body = (await res.json()) as Record<string, any>;
  return { res, body };
}

function item(publisher: string, hoursAgo: number, title: string, summary: string): FeedItem {
  return {
    sourceId: publisher,
    publisher,
    guid: `${publisher}-${title}`,
    link: `https://news.example/${encodeURIComponent(publisher)}/${encodeURIComponent(title)}`,
    title,
    summary,
    publishedAt: new Date(Date.now() - hoursAgo * 3_600_000),
  };
}

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
  business = await app.fixtures.organization({ plan: "business" });
  other = await app.fixtures.organization({ plan: "business" });
  const active = await trackActiveShipment(app, business, 430_000);
  reference = active.reference;
  const exposure = active.exposure;
  const podLocode = exposure.portOfDischarge!;
  dischargeName = (findPort(podLocode)?.name ?? podLocode).replace(/\s*\(.*\)$/, "");
  const source = (publisher: string) => ({ id: publisher, publisher, kind: "news", authoritative: false });
  // A storm at the shipment's port of discharge, reported by three publishers (corroborated: +1).
  for (const [publisher, hours] of [
    ["Harbour Wire", 10],
    ["Quay Ledger", 8],
    ["Box Trade Daily", 6],
  ] as const) {
    await app.services.disruptions.ingest(source(publisher), [
      item(
        publisher,
        hours,
        `Storm closes the Port of ${dischargeName}`,
        `Terminals at the Port of ${dischargeName} suspended operations.`,
      ),
    ]);
  }
  // Unrelated: freight rates (no entities), and a resolved labour dispute at Felixstowe.
  await app.services.disruptions.ingest(source("Freight Index Weekly"), [
    item(
      "Freight Index Weekly",
      5,
      "Asia-Europe spot rates climb for a third week",
      "Index compilers report higher spot rates.",
    ),
  ]);
  await app.services.disruptions.ingest(source("Harbour Wire"), [
    item(
      "Harbour Wire",
      30,
      "Dockworkers strike at the Port of Felixstowe",
      "A walkout halted container handling at the Port of Felixstowe.",
    ),
    item(
      "Harbour Wire",
      20,
      "Felixstowe strike ends; terminals reopened",
      "Dockworkers at the Port of Felixstowe returned to work.",
    ),
  ]);
  checker = openApiChecker((await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as never);
}, 180_000);
afterAll(() => app?.stop());

describe("GET /disruptions", () => {
  it("lists active disruptions most severe first, with service-written headlines, sources and affected", async () => {
    const { res, body } = await get("/disruptions", business.key);
    expect(res.status).toBe(200);
    const again = await fetch(`${app.url}/api/v1/disruptions`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(await checker.check("get", "/disruptions", again)).toEqual([]);
    expect(body).toMatchObject({ success: true, page: 1, page_size: 25 });
    const storm = body.data[0];
    expect(storm.category).toBe("weather");
    expect(storm.severity).toBe(4);
    expect(storm.status).toBe("active");
    expect(storm.headline).toContain(dischargeName);
    expect(storm.sources).toHaveLength(3);
    expect(new Set(storm.sources.map((s: any) => s.publisher)).size).toBe(3);
    expect(storm.affected).toEqual({ count: 1, references: [reference] });
    const severities = body.data.map((d: any) => d.severity);
    expect(severities).toEqual([...severities].sort((a: number, b: number) => b - a));
    expect(body.data.every((d: any) => d.status === "active")).toBe(true);
  });

  it("filters by minimum severity, category, port, country and status, combined with AND", async () => {
    const severe = await get("/disruptions?severity=4", business.key);
    expect(severe.body.data.every((d: any) => d.severity >= 4)).toBe(true);
    expect(severe.body.total).toBeGreaterThan(0);
    const market = await get("/disruptions?category=container_market", business.key);
    expect(market.body.data.map((d: any) => d.category)).toEqual(["container_market"]);
    const storm = (await get("/disruptions?severity=4", business.key)).body.data[0];
    const port = storm.entities.ports[0];
    const byPort = await get(`/disruptions?port=${port.toLowerCase()}`, business.key);
    expect(byPort.body.data.map((d: any) => d.id)).toEqual([storm.id]);
    const none = await get(`/disruptions?port=${port}&category=labor`, business.key);
    expect(none.body).toMatchObject({ total: 0, data: [] });
    const resolved = await get("/disruptions?status=resolved", business.key);
    expect(resolved.body.data.map((d: any) => d.category)).toEqual(["labor"]);
    expect(resolved.body.data[0].entities.ports).toEqual(["GBFXT"]);
    expect(resolved.body.data[0].resolved_at).not.toBeNull();
    const future = await get("/disruptions?since=2999-01-01T00:00:00Z", business.key);
    expect(future.body.total).toBe(0);
    const paged = await get("/disruptions?page=2&page_size=1", business.key);
    expect(paged.body).toMatchObject({ page: 2, page_size: 1 });
    expect(paged.body.data).toHaveLength(1);
  });

  it.each(BAD_FILTERS)(
    "refuses %s with 400 invalid_parameter naming %s, before the plan",
    async (query, param) => {
      for (const key of [business.key, (await starterKey()).key]) {
        const { res, body } = await get(`/disruptions?${query}`, key);
        expect(res.status).toBe(400);
        expect(body.data).toEqual({ error: "invalid_parameter", param });
      }
    },
  );
});

/** Every bad-value rule of rule 10, with the parameter the 400 names. */
const BAD_FILTERS: [string, string][] = [
  ["severity=0", "severity"],
  ["severity=5", "severity"],
  ["severity=high", "severity"],
  ["severity=2.5", "severity"],
  ["category=fire", "category"],
  ["port=SHANGHAI", "port"],
  ["carrier=MAE", "carrier"],
  ["country=CHN", "country"],
  ["status=open", "status"],
  ["since=yesterday", "since"],
  ["page=0", "page"],
  ["page=x", "page"],
  ["page_size=0", "page_size"],
  ["page_size=101", "page_size"],
];

let starter: OrgWithKey | undefined;
async function starterKey(): Promise<OrgWithKey> {
  starter ??= await app.fixtures.organization({ plan: "starter" });
  return starter;
}

describe("plan gating and the feature switch", () => {
  it("answers 403 plan_required on a plan without disruptions, never a partial list", async () => {
    const { key } = await starterKey();
    for (const path of ["/disruptions", `/disruptions/${SANDBOX_DISRUPTION_IDS[0]}`]) {
      const { res, body } = await get(path, key);
      expect(res.status).toBe(403);
      expect(body.data).toEqual({ error: "plan_required", feature: "disruptions", min_plan: "business" });
      expect(body).not.toHaveProperty("total");
    }
  });

  it("answers 403 feature_disabled when the organisation switched disruptions off", async () => {
    const org = await app.services.accounts.createOrganization({
      name: "Switched off",
      plan: "business",
      developerMode: true,
      features: { disruptions: false },
    });
    const user = await app.services.accounts.createUser({
      organizationId: org.id,
      email: "off@example.com",
      role: "owner",
    });
    const { rawKey } = await app.services.accounts.createApiKey({ userId: user.id });
    // A shipment of its own, so /shipments/{id}/disruptions gets past visibility to the switch.
    const tracked = await get(`/container/${reference}`, rawKey);
    expect(tracked.res.status).toBe(200);
    const storm = (await get("/disruptions?severity=4", business.key)).body.data[0];
    for (const path of ["/disruptions", `/disruptions/${storm.id}`, `/shipments/${reference}/disruptions`]) {
      const { res, body } = await get(path, rawKey);
      expect(res.status, path).toBe(403);
      expect(body.data, path).toEqual({ error: "feature_disabled", feature: "disruptions" });
    }
    // A bad filter is still answered first; an unknown shipment is still not found.
    const bad = await get("/disruptions?severity=9", rawKey);
    expect(bad.body.data).toEqual({ error: "invalid_parameter", param: "severity" });
    expect((await get("/shipments/SHP-999999/disruptions", rawKey)).res.status).toBe(404);
  });
});

describe("GET /disruptions/{id}", () => {
  it("answers one disruption in the list item's shape", async () => {
    const listed = (await get("/disruptions?severity=4", business.key)).body.data[0];
    const { res, body } = await get(`/disruptions/${listed.id}`, business.key);
    expect(res.status).toBe(200);
    expect(body.data).toEqual(listed);
  });

  it.each(["00000000-0000-4000-8000-999999999999", "not-an-id"])(
    "answers 404 disruption_not_found for %s",
    async (id) => {
      const { res, body } = await get(`/disruptions/${id}`, business.key);
      expect(res.status).toBe(404);
      expect(body.data).toEqual({ error: "disruption_not_found" });
    },
  );

  it("answers 404 disruption_not_found for a disruption this world does not publish (the sandbox's)", async () => {
    const { res, body } = await get(`/disruptions/${SANDBOX_DISRUPTION_IDS[0]}`, business.key);
    expect(res.status).toBe(404);
    expect(body.data).toEqual({ error: "disruption_not_found" });
  });

  it("finds a disruption by its id in any case", async () => {
    const listed = (await get("/disruptions?severity=4", business.key)).body.data[0];
    const { res, body } = await get(`/disruptions/${listed.id.toUpperCase()}`, business.key);
    expect(res.status).toBe(200);
    expect(body.data.id).toBe(listed.id);
  });

  it("counts only the caller's own shipments in affected", async () => {
    const listed = (await get("/disruptions?severity=4", other.key)).body.data[0];
    expect(listed.affected).toEqual({ count: 0, references: [] });
  });
});

describe("GET /shipments/{id}/disruptions", () => {
  it("lists the active disruptions touching the shipment with match_types", async () => {
    const { res, body } = await get(`/shipments/${reference}/disruptions`, business.key);
    expect(res.status).toBe(200);
    expect(body.reference).toBe(reference);
    expect(body.shipment_id).toMatch(/^SHP-\d+$/);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].match_types).toContain("pod");
    expect(body.data[0].category).toBe("weather");
  });

  it("answers 404 (never 403) for another account's shipment, and for an unknown one", async () => {
    for (const [key, id] of [
      [other.key, reference],
      [business.key, "SHP-999999"],
      [(await starterKey()).key, reference],
    ] as const) {
      const { res, body } = await get(`/shipments/${id}/disruptions`, key);
      expect(res.status).toBe(404);
      expect(body.data.error).toBe("shipment_not_found");
    }
  });
});

describe("the sandbox copies", () => {
  const sandbox = async (path: string) => {
    const res = await fetch(`${app.url}/api/v1/sandbox${path}`);
    return { res, body: (await res.json()) as Record<string, any> };
  };
  /** Every sandbox shipment's disruption list (SHP-1000 to SHP-1007). */
  const sandboxShipmentLists = async () => {
    const lists: { id: string; data: any[] }[] = [];
    for (let n = 1000; n < 1008; n++) {
      const { res, body } = await sandbox(`/shipments/SHP-${n}/disruptions`);
      expect(res.status).toBe(200);
      lists.push({ id: `SHP-${n}`, data: body.data });
    }
    return lists;
  };

  it("answer 200 with the sandbox world's disruptions, touching its shipments", async () => {
    const list = await sandbox("/disruptions");
    expect(list.res.status).toBe(200);
    expect(list.body.mode).toBe("sandbox");
    expect(list.body.total).toBeGreaterThanOrEqual(3);
    expect(SANDBOX_DISRUPTION_IDS).toContain(list.body.data[0].id);
    const one = await sandbox(`/disruptions/${list.body.data[0].id}`);
    expect(one.res.status).toBe(200);
    expect(one.body.data.id).toBe(list.body.data[0].id);
    // The world's news is about the ports and carrier of its first shipment still in transit, which
    // one that is follows the world's calendar: some sandbox shipment lists it, with how it matches.
    const lists = await sandboxShipmentLists();
    const touching = lists.find((l) => l.data.length > 0);
    expect(touching, "no sandbox shipment lists a disruption").toBeDefined();
    expect(touching!.data[0].match_types.length).toBeGreaterThan(0);
    const resolved = await sandbox("/disruptions?status=resolved");
    expect(resolved.body.total).toBeGreaterThan(0);
  }, 120_000);

  it.each(BAD_FILTERS)("refuses %s with the live 400 body naming %s", async (query, param) => {
    const { res, body } = await sandbox(`/disruptions?${query}`);
    expect(res.status).toBe(400);
    expect(body.data).toEqual({ error: "invalid_parameter", param });
    const live = await get(`/disruptions?${query}`, business.key);
    expect(body.data).toEqual(live.body.data);
  });

  it("filters like live: minimum severity, category, port, carrier, country, status, since, pages, ANDed", async () => {
    const all = (await sandbox("/disruptions?page_size=100")).body;
    expect(all.total).toBeGreaterThanOrEqual(4);
    const ids = (body: Record<string, any>) => body.data.map((d: any) => d.id);
    const expected = (keep: (d: any) => boolean) => all.data.filter(keep).map((d: any) => d.id);

    const top = Math.max(...all.data.map((d: any) => d.severity));
    const severe = (await sandbox(`/disruptions?severity=${top}&page_size=100`)).body;
    expect(ids(severe)).toEqual(expected((d) => d.severity >= top));
    expect(severe.total).toBeLessThan(all.total);

    const market = (await sandbox("/disruptions?category=container_market")).body;
    expect(ids(market)).toEqual(expected((d) => d.category === "container_market"));
    expect(market.total).toBe(1);

    const port = all.data.find((d: any) => d.entities.ports.length > 0).entities.ports[0];
    const byPort = (await sandbox(`/disruptions?port=${port.toLowerCase()}&page_size=100`)).body;
    expect(byPort.total).toBeGreaterThan(0);
    expect(ids(byPort)).toEqual(expected((d) => d.entities.ports.includes(port)));

    const carrierEvent = all.data.find((d: any) => d.entities.carriers.length > 0);
    const scac = carrierEvent.entities.carriers[0];
    const byCarrier = (await sandbox(`/disruptions?carrier=${scac.toLowerCase()}`)).body;
    expect(ids(byCarrier)).toEqual([carrierEvent.id]);
    expect((await sandbox(`/disruptions?carrier=${scac}&category=labor`)).body).toMatchObject({
      total: 0,
      data: [],
    });
    const carried = (await sandboxShipmentLists())
      .flatMap((l) => l.data)
      .find((d: any) => d.id === carrierEvent.id);
    expect(carried?.match_types).toContain("carrier");

    // The sandbox's news names ports, chokepoints and carriers, no country: the filter still applies.
    const countries = all.data.flatMap((d: any) => d.entities.countries);
    const country = countries[0] ?? "ZZ";
    expect(ids((await sandbox(`/disruptions?country=${country.toLowerCase()}&page_size=100`)).body)).toEqual(
      expected((d) => d.entities.countries.includes(country)),
    );

    const resolved = (await sandbox("/disruptions?status=resolved")).body;
    expect(resolved.total).toBeGreaterThan(0);
    expect(resolved.data.every((d: any) => d.status === "resolved" && d.resolved_at !== null)).toBe(true);
    expect(ids(resolved).filter((id: string) => ids(all).includes(id))).toEqual([]);

    expect((await sandbox("/disruptions?since=2999-01-01T00:00:00Z")).body).toMatchObject({
      total: 0,
      data: [],
    });
    const newest = all.data
      .map((d: any) => d.last_updated)
      .sort()
      .at(-1);
    const recent = (await sandbox(`/disruptions?since=${newest}&page_size=100`)).body;
    expect(ids(recent)).toEqual(expected((d) => d.last_updated >= newest));

    const second = (await sandbox("/disruptions?page=2&page_size=1")).body;
    expect(second).toMatchObject({ page: 2, page_size: 1, total: all.total });
    expect(ids(second)).toEqual([all.data[1].id]);
    expect((await sandbox("/disruptions")).body.page_size).toBe(25);
  }, 120_000);

  it("answers 404 disruption_not_found for an unknown id, and for a live disruption, as live", async () => {
    for (const id of [
      "00000000-0000-4000-8000-999999999999",
      "not-an-id",
      (await get("/disruptions?severity=4", business.key)).body.data[0].id,
    ]) {
      const { res, body } = await sandbox(`/disruptions/${id}`);
      expect(res.status, id).toBe(404);
      expect(body.data, id).toEqual({ error: "disruption_not_found" });
    }
  });
});
