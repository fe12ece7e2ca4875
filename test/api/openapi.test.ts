import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_ONLY_ROUTES, V1_ROUTES, type V1RouteName } from "../../facades/v1/contract/routes";
import { PartnerEventsBody, SANDBOX_PARTNER_SOURCE_ID } from "../../facades/v1/contract/schemas";
import { SANDBOX_DISRUPTION_IDS } from "../../src/app/sandbox-disruptions";
import { DAY_MS, MINUTE_MS } from "../../src/domain/limits/fixed-window";
import { DEFAULT_SCHEDULE_CARRIERS } from "../../src/upstream/schedules/schedule-gateway";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { openApiChecker } from "../support/openapi";
import { startReceiver } from "../support/receiver";
import { billOfLadingOf, simulatedContainers } from "../support/references";

let app: TestApp;
/** An app with ZIMU under maintenance. */
let underMaintenance: TestApp;
let org: OrgWithKey;
let document: any;
let checker: ReturnType<typeof openApiChecker>;
let known: string[];
let unknown: string[];
/** A bill of lading the simulated MSC issued (a made-up one is not found). */
let billOfLading: string;
let disruptionId: string;
/** A partner source of the organisation, for the routes that name one. */
let partnerSourceId: string;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  // For the 502 a carrier under maintenance answers, an app of its own: the carrier's status is read
  // at start, and a sandbox world built with it differs from the run's, so the app above would build
  // its own (a dozen seconds of CPU) instead of loading the run's.
  underMaintenance = await startTestApp({
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_CARRIER_STATUS: "ZIMU=maintenance" },
  });
  org = await app.fixtures.organization({ plan: "business" });
  ({ known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 3,
    unknown: 1,
    start: 420_000,
  }));
  billOfLading = await billOfLadingOf(app.simulator!.url, "MSCU", known[1]!);
  await app.services.disruptions.ingest(
    { id: "harbour-wire", publisher: "Harbour Wire", kind: "news", authoritative: false },
    [
      {
        sourceId: "harbour-wire",
        publisher: "Harbour Wire",
        guid: "openapi-sample",
        link: "https://news.example/typhoon-shanghai",
        title: "Typhoon closes the Port of Shanghai",
        summary: "Terminals suspended operations as the storm approached.",
        publishedAt: new Date(),
      },
    ],
  );
  disruptionId = (
    await app.services.disruptions.list({
      severity: 1,
      category: null,
      port: null,
      carrier: null,
      country: null,
      status: "active",
      since: null,
      page: 1,
      pageSize: 1,
    })
  ).items[0]!.id;
  const created = await graphql(
    app,
    org.key,
    `mutation { createPartnerSource(name: "OpenAPI Drayage") { source { id } } }`,
  );
  partnerSourceId = (created.body.data as any).createPartnerSource.source.id;
  document = await (await fetch(`${app.url}/api/v1/openapi.json`)).json();
  checker = openApiChecker(document);
}, 120_000);
afterAll(async () => {
  await underMaintenance?.stop();
  await app?.stop();
});

interface Sample {
  path: string;
  body?: unknown;
  /** Arranges what the request needs first; a path it answers replaces `path`. */
  before?: () => Promise<string | undefined>;
}

/**
 * One of the organisation's shipments that still moves, whose carrier last answered 13 hours ago
 * (past the 12-hour refresh gap), so a refresh asks the carrier again.
 */
const answeredLongAgo = async () => {
  const prisma = app.services.db.prisma;
  const moving = await prisma.shipment.findFirstOrThrow({
    where: {
      organizationId: org.organizationId,
      deletedAt: null,
      failedAt: null,
      status: { notIn: ["DELIVERED", "CANCELLED"] },
    },
  });
  await prisma.shipment.update({
    where: { id: moving.id },
    data: { lastSyncedAt: new Date(Date.now() - 13 * 3_600_000) },
  });
  return `/shipments/${moving.reference}/refresh`;
};

/**
 * One request per route, in an order that works (the shipment is tracked before it is read and
 * untracked last). Typed by route name, and a test checks at run time that none is missing.
 */
const live = (): Record<V1RouteName, Sample> => ({
  carriers: { path: "/carriers?search=maersk" },
  carrierLookup: { path: `/carriers/lookup?number=${known[1]}` },
  ports: { path: "/ports?search=rotterdam" },
  portCongestionBoard: { path: "/ports/congestion" },
  portCongestion: { path: "/ports/CNSHA/congestion" },
  vesselTrack: { path: "/vessel/track?imo=9811000&mmsi=353136000" },
  schedules: { path: "/voyage/schedules?origin=CNSHA&destination=NLRTM&date=2026-12-01" },
  trackContainer: { path: `/container/${known[0]}` },
  trackBillOfLading: { path: `/bl/${billOfLading}?sealine=MSCU` },
  trackBulk: { path: "/track", body: { shipments: [{ type: "container", number: known[2] }] } },
  accountUsage: { path: "/account/usage" },
  listShipments: { path: "/shipments?pageSize=5" },
  readShipment: { path: `/shipments/${known[0]}?include=full` },
  retryFailed: { path: "/shipments/retry-failed", body: {} },
  updateShipment: { path: `/shipments/${known[0]}`, body: { customer: "ACME Imports" } },
  shareShipment: { path: `/shipments/${known[0]}/share` },
  unshareShipment: { path: `/shipments/${known[0]}/share` },
  refreshShipment: { path: "/shipments/{moving}/refresh", before: answeredLongAgo },
  listDisruptions: { path: "/disruptions?severity=1&page_size=5" },
  readDisruption: { path: `/disruptions/${disruptionId}` },
  shipmentDisruptions: { path: `/shipments/${known[0]}/disruptions` },
  listPartnerSources: { path: "/partner-sources" },
  createPartnerSource: { path: "/partner-sources", body: { name: "Rotterdam Drayage BV" } },
  rotatePartnerSourceSecret: { path: `/partner-sources/${partnerSourceId}/rotate` },
  postPartnerEvents: {
    path: `/partner-sources/${partnerSourceId}/events`,
    body: { events: [partnerEvent(known[0]!), { event_id: "bad-1", event_type: "PARCEL" }] },
  },
  removePartnerSource: { path: `/partner-sources/${partnerSourceId}` },
  untrackShipment: { path: `/shipments/${known[0]}` },
});

/** A truck's departure from the terminal, an hour ago, of the shipment tracked first. */
const partnerEvent = (shipment: string) => ({
  event_id: "openapi-1",
  event_type: "TRANSPORT",
  event_code: "DEPA",
  mode_of_transport: "TRUCK",
  event_date_time: new Date(Date.now() - 3_600_000).toISOString(),
  reference: shipment,
  location: { name: "Terminal truck gate", latitude: 51.95, longitude: 4.05 },
});

type SandboxRouteName = V1RouteName | keyof typeof SANDBOX_ONLY_ROUTES;
const SANDBOX_ROUTES = { ...V1_ROUTES, ...SANDBOX_ONLY_ROUTES };

const sandbox = (receiverUrl: string): Record<SandboxRouteName, Sample> => ({
  ...live(),
  fireWebhook: { path: "/webhooks/fire", body: { url: receiverUrl, event: "eta.changed" } },
  trackContainer: { path: "/container/MSCU1234566" },
  trackBillOfLading: { path: "/bl/MAEU123456789" },
  trackBulk: {
    path: "/track",
    body: {
      shipments: [
        { type: "container", number: "SBXU1234563" },
        { type: "container", number: "SBXU0000003" },
      ],
    },
  },
  carrierLookup: { path: "/carriers/lookup?number=MSCU1234566" },
  readShipment: { path: "/shipments/SHP-1000?include=full" },
  updateShipment: { path: "/shipments/SBXU1004493", body: { customer: "ACME Imports" } },
  shareShipment: { path: "/shipments/SHP-1001/share" },
  unshareShipment: { path: "/shipments/SHP-1001/share" },
  untrackShipment: { path: "/shipments/SHP-1002" },
  listShipments: { path: "/shipments" },
  readDisruption: { path: `/disruptions/${SANDBOX_DISRUPTION_IDS[0]}` },
  shipmentDisruptions: { path: "/shipments/SHP-1000/disruptions" },
  rotatePartnerSourceSecret: { path: `/partner-sources/${SANDBOX_PARTNER_SOURCE_ID}/rotate` },
  postPartnerEvents: {
    path: `/partner-sources/${SANDBOX_PARTNER_SOURCE_ID}/events`,
    body: PartnerEventsBody.meta()?.example,
  },
  removePartnerSource: { path: `/partner-sources/${SANDBOX_PARTNER_SOURCE_ID}` },
  refreshShipment: { path: "/shipments/SHP-1000/refresh" },
});

/**
 * Sandbox answers that are refusals by the world's rules: its clock stands still at the moment its
 * shipments were last synced, so a refresh is always inside the refresh gap (429 refresh_too_soon).
 */
const SANDBOX_REFUSALS: Record<string, number> = { refreshShipment: 429 };

async function exercise(
  prefix: "" | "/sandbox",
  name: string,
  route: { method: string; path: string },
  sample: Sample,
  key?: string,
) {
  const path = (await sample.before?.()) ?? sample.path;
  const res = await fetch(`${app.url}/api/v1${prefix}${path}`, {
    method: route.method.toUpperCase(),
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(sample.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: sample.body === undefined ? undefined : JSON.stringify(sample.body),
  });
  const problems = await checker.check(route.method, `${prefix}${route.path}`, res);
  return { name, status: res.status, problems };
}

describe("port congestion access on v1 (spec rule 9)", () => {
  it("answers plan_required, not feature_disabled, to a plan without port congestion whose switch is off too", async () => {
    const starter = await app.fixtures.organization({ plan: "starter" });
    await app.services.db.prisma.organization.update({
      where: { id: starter.organizationId },
      data: { featureSwitches: { port_congestion: false } },
    });
    for (const [template, path] of [
      ["/ports/congestion", "/ports/congestion"],
      ["/ports/{locode}/congestion", "/ports/CNSHA/congestion"],
    ] as const) {
      const res = await fetch(`${app.url}/api/v1${path}`, {
        headers: { authorization: `Bearer ${starter.key}` },
      });
      expect(await checker.check("get", template, res.clone())).toEqual([]);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { data: unknown }).data).toEqual({
        error: "plan_required",
        feature: "port_congestion",
        min_plan: "professional",
      });
    }
  });
});

describe("the OpenAPI 3.1 document", () => {
  it("is a valid OpenAPI 3.1 document with every route, its sandbox copy and the webhook payloads", async () => {
    await SwaggerParser.validate(structuredClone(document));
    expect(document.openapi).toBe("3.1.0");
    for (const route of Object.values(V1_ROUTES)) {
      expect(document.paths[route.path]?.[route.method], route.path).toBeDefined();
      expect(document.paths[`/sandbox${route.path}`]?.[route.method], route.path).toBeDefined();
    }
    expect(document.paths["/sandbox/webhooks/fire"].post).toBeDefined();
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [
        "discovery.recovered",
        "eta.changed",
        "shipment.arrived",
        "shipment.updated",
        "shipment.vessel_arrived",
        "webhook.test",
      ].sort(),
    );
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.paths["/sandbox/shipments"].get.security).toEqual([]);
    const headers = document.paths["/shipments"].get.responses["200"].headers;
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
    );
    const lookup = document.paths["/vessel/track"].get.responses["429"].headers;
    expect(Object.keys(lookup)).toEqual(expect.arrayContaining(["Retry-After", "X-Lookup-Limit"]));
    // Its server is this deployment.
    expect(document.servers[0].url).toBe(`${app.url}/api/v1`);
  });

  it("has a sample for every route: live for each v1 route, sandbox for each sandbox route", () => {
    const liveSamples: Record<string, Sample | undefined> = live();
    const sandboxSamples: Record<string, Sample | undefined> = sandbox("https://example.com/hooks");
    expect(
      Object.keys(V1_ROUTES).filter((name) => !liveSamples[name]),
      "v1 routes without a live sample",
    ).toEqual([]);
    expect(
      Object.keys(SANDBOX_ROUTES).filter((name) => !sandboxSamples[name]),
      "sandbox routes without a sandbox sample",
    ).toEqual([]);
  });

  it("describes every real answer of every live endpoint", async () => {
    const samples = live();
    const results = [];
    // The sample order (tracked first, untracked last), not the contract's.
    for (const name of Object.keys(samples) as V1RouteName[]) {
      results.push(await exercise("", name, V1_ROUTES[name], samples[name], org.key));
    }
    for (const r of results) expect(r.problems, `${r.name} (${r.status})`).toEqual([]);
    expect(results.filter((r) => r.status >= 300).map((r) => `${r.name} ${r.status}`)).toEqual([]);
  }, 120_000);

  it("describes every real answer of every sandbox endpoint", async () => {
    const receiver = await startReceiver();
    const results = [];
    try {
      const samples = sandbox(receiver.url);
      for (const [name, route] of Object.entries(SANDBOX_ROUTES)) {
        results.push(await exercise("/sandbox", name, route, samples[name as SandboxRouteName]));
      }
    } finally {
      await receiver.close();
    }
    for (const r of results) expect(r.problems, `${r.name} (${r.status})`).toEqual([]);
    expect(
      results
        .filter((r) => r.status >= 300 && SANDBOX_REFUSALS[r.name] !== r.status)
        .map((r) => `${r.name} ${r.status}`),
    ).toEqual([]);
    expect(results.find((r) => r.name === "refreshShipment")?.status).toBe(429);
  }, 120_000);

  it("describes the error answers, each by its own named body: admission, bad input, limits, not found, reserved references", async () => {
    const prisma = app.services.db.prisma;
    const plan = (code: "free" | "starter" | "business") => app.fixtures.organization({ plan: code });
    const request = (method: string, path: string, key?: string, body?: unknown) =>
      fetch(`${app.url}/api/v1${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    // Keys whose windows and allowances are spent before they ask.
    const rateSpent = await plan("free");
    // The key window is a fixed minute: spent again right before each request that needs it spent,
    // so a minute boundary crossed while the other cases run cannot reset it.
    const spendRateWindow = () => app.services.limiter.consume(`key:${rateSpent.keyId}`, 30, MINUTE_MS, 30);
    const lookupsSpent = await plan("free");
    await app.services.limiter.consume(`lookups:vessel_schedule:${lookupsSpent.keyId}`, 100, DAY_MS, 100);
    const carrierLookupsSpent = await plan("business");
    await app.services.limiter.consume(`lookups:carrier:${carrierLookupsSpent.keyId}`, 1000, DAY_MS, 1000);
    // A shipment of the organisation that still moves, synced within the refresh gap.
    const moving = await prisma.shipment.findFirstOrThrow({
      where: {
        organizationId: org.organizationId,
        deletedAt: null,
        failedAt: null,
        status: { notIn: ["DELIVERED", "CANCELLED"] },
      },
    });
    // A retry-failed run, so the next one within 15 minutes is too soon.
    const retried = await plan("business");
    expect((await request("POST", "/shipments/retry-failed", retried.key, {})).status).toBe(202);
    // Organisations tracking a shipment whose customer they then cannot set.
    const free = await plan("free");
    const switchedOff = await plan("starter");
    const features = {
      ...((await prisma.organization.findUniqueOrThrow({ where: { id: switchedOff.organizationId } }))
        .featureSwitches as object),
      customers: false,
    };
    await prisma.organization.update({
      where: { id: switchedOff.organizationId },
      data: { featureSwitches: features },
    });
    const full = await plan("starter");
    await prisma.customer.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        organizationId: full.organizationId,
        name: `C${i}`,
        nameKey: `c${i}`,
      })),
    });
    // A plan with port congestion whose organisation switched it off.
    const congestionOff = await plan("business");
    await prisma.organization.update({
      where: { id: congestionOff.organizationId },
      data: { featureSwitches: { port_congestion: false } },
    });
    for (const o of [free, switchedOff, full]) {
      expect((await request("GET", `/container/${known[2]}`, o.key)).status).toBe(200);
    }

    type Case = [
      component: string,
      method: string,
      template: string,
      path: string,
      key?: string,
      body?: unknown,
    ];
    const cases: Case[] = [
      ["Error", "GET", "/shipments", "/shipments", undefined],
      ["Error", "GET", "/shipments/{id}", "/shipments/SHP-999999", org.key],
      ["Error", "GET", "/ports", "/ports?search=a", org.key],
      ["Error", "POST", "/track", "/track", org.key, { shipments: [] }],
      ["Error", "PATCH", "/shipments/{id}", "/shipments/SHP-1", org.key, { reference_number: "X" }],
      ["Error", "GET", "/vessel/track", "/vessel/track?imo=1", org.key],
      ["Error", "GET", "/disruptions", "/disruptions?severity=9", org.key],
      [
        "DisruptionNotFoundError",
        "GET",
        "/disruptions/{id}",
        "/disruptions/00000000-0000-4000-8000-000000000000",
        org.key,
      ],
      ["RateLimitError", "GET", "/carriers", "/carriers", rateSpent.key],
      [
        "LookupLimitError",
        "GET",
        "/vessel/track",
        "/vessel/track?imo=9839430&mmsi=355000001",
        lookupsSpent.key,
      ],
      [
        "CarrierLookupLimitError",
        "GET",
        "/carriers/lookup",
        `/carriers/lookup?number=${known[1]}`,
        carrierLookupsSpent.key,
      ],
      ["RetryTooSoonError", "POST", "/shipments/retry-failed", "/shipments/retry-failed", retried.key, {}],
      ["VesselNotFoundError", "GET", "/vessel/track", "/vessel/track?imo=9000003&mmsi=999999999", org.key],
      ["Error", "GET", "/ports/{locode}/congestion", "/ports/X/congestion", org.key],
      ["PortNotFoundError", "GET", "/ports/{locode}/congestion", "/ports/ZZZZZ/congestion", org.key],
      ["PlanRequiredError", "GET", "/ports/congestion", "/ports/congestion", free.key],
      ["PlanRequiredError", "GET", "/ports/{locode}/congestion", "/ports/CNSHA/congestion", free.key],
      ["FeatureDisabledError", "GET", "/ports/congestion", "/ports/congestion", congestionOff.key],
      [
        "FeatureDisabledError",
        "GET",
        "/ports/{locode}/congestion",
        "/ports/CNSHA/congestion",
        congestionOff.key,
      ],
      ["TrackingNotFoundError", "GET", "/container/{number}", `/container/${unknown[0]}`, free.key],
      // Tracked (or refreshed) moments ago: inside the refresh gap; and a delivered box, not moving.
      [
        "RefreshTooSoonError",
        "POST",
        "/shipments/{id}/refresh",
        `/shipments/${moving.reference}/refresh`,
        org.key,
      ],
      [
        "RefreshNotAllowedError",
        "POST",
        "/shipments/{id}/refresh",
        `/shipments/${known[2]}/refresh`,
        free.key,
      ],
      [
        "PlanRequiredError",
        "PATCH",
        "/shipments/{id}",
        `/shipments/${known[2]}`,
        free.key,
        { customer: "Acme" },
      ],
      [
        "FeatureDisabledError",
        "PATCH",
        "/shipments/{id}",
        `/shipments/${known[2]}`,
        switchedOff.key,
        { customer: "Acme" },
      ],
      [
        "CustomerLimitError",
        "PATCH",
        "/shipments/{id}",
        `/shipments/${known[2]}`,
        full.key,
        { customer: "One too many" },
      ],
      [
        "UnsupportedReferenceTypeError",
        "GET",
        "/container/{number}",
        `/container/${known[1]}?sealine=HDMU`,
        org.key,
      ],
      ["TrackingNotFoundError", "GET", "/sandbox/container/{number}", "/sandbox/container/SBXU0000003"],
      ["Error", "GET", "/sandbox/container/{number}", "/sandbox/container/NOT-A-REFERENCE"],
      ["ShipmentLimitError", "GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4020008"],
      ["PaymentOverdueError", "GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4029999"],
      ["RateLimitError", "GET", "/sandbox/container/{number}", "/sandbox/container/SBXU4290003"],
      [
        "RateLimitError",
        "POST",
        "/sandbox/track",
        "/sandbox/track",
        undefined,
        { shipments: [{ type: "container", number: "SBXU4290003" }] },
      ],
      ["CarrierUnreachableError", "GET", "/sandbox/bl/{number}", "/sandbox/bl/SBXU5020002"],
      ["Error", "GET", "/sandbox/shipments/{id}", "/sandbox/shipments/SHP-999"],
      [
        "Error",
        "POST",
        "/sandbox/webhooks/fire",
        "/sandbox/webhooks/fire",
        undefined,
        { url: "ftp://example.com", event: "eta.changed" },
      ],
    ];
    const matched = new Map<string, number>();
    const check = async (component: string, method: string, template: string, res: Response) => {
      const body = await res.clone().json();
      const label = `${component}: ${method} ${res.url} (${res.status}) ${JSON.stringify(body)}`;
      expect(res.status, label).toBeGreaterThanOrEqual(400);
      expect(await checker.check(method, template, res), label).toEqual([]);
      expect(checker.matches(component, body), label).toEqual([]);
      matched.set(component, (matched.get(component) ?? 0) + 1);
      return body;
    };
    for (const [component, method, template, path, key, body] of cases) {
      if (key === rateSpent.key) await spendRateWindow();
      await check(component, method, template, await request(method, path, key, body));
    }

    // A carrier under maintenance (ZIMU there).
    const maintained = await underMaintenance.fixtures.organization({ plan: "business" });
    await check(
      "CarrierUnavailableError",
      "GET",
      "/container/{number}",
      await fetch(`${underMaintenance.url}/api/v1/container/${known[1]}?sealine=ZIMU`, {
        headers: { authorization: `Bearer ${maintained.key}` },
      }),
    );

    // Both forms of a key-window 429: a higher plan buys more (free), none does (the sandbox's business).
    await spendRateWindow();
    const upgrade = await check(
      "RateLimitError",
      "GET",
      "/carriers",
      await request("GET", "/carriers", rateSpent.key),
    );
    expect(upgrade.data).toMatchObject({ plan: "free", upgrade: { next_plan: "starter" } });
    const contact = await check(
      "RateLimitError",
      "GET",
      "/sandbox/container/{number}",
      await request("GET", "/sandbox/container/SBXU4290003"),
    );
    expect(contact.data).toMatchObject({ plan: "business", contactUrl: expect.any(String) });

    // The free plan's not-found offers the plan with carrier discovery.
    const notFound = await check(
      "TrackingNotFoundError",
      "GET",
      "/container/{number}",
      await request("GET", `/container/${unknown[0]}`, free.key),
    );
    expect(notFound.data).toMatchObject({ discovery: "not_eligible", discovery_reason: "plan", upgrade: {} });

    // Every schedule provider failing.
    for (const scac of DEFAULT_SCHEDULE_CARRIERS) {
      app.simulator!.faults.set(scac, { mode: "server-error", status: 503 });
    }
    try {
      const date = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);
      const path = `/voyage/schedules?origin=CNSHA&destination=USLGB&date=${date}`;
      await check(
        "ProviderUnavailableError",
        "GET",
        "/voyage/schedules",
        await request("GET", path, org.key),
      );
    } finally {
      app.simulator!.faults.clear();
    }

    // The sandbox's per-address window of webhook fires (5 a minute), then the live address's
    // window of failed authentications; the last, since it refuses this address every key.
    let fire: Response | undefined;
    for (let i = 0; i < 10 && fire?.status !== 429; i++) {
      fire = await request("POST", "/sandbox/webhooks/fire", undefined, {
        url: "ftp://example.com",
        event: "eta.changed",
      });
    }
    await check("SandboxRateLimitError", "POST", "/sandbox/webhooks/fire", fire!);
    let refused: Response | undefined;
    for (let i = 0; i < 30 && refused?.status !== 429; i++) {
      refused = await request("GET", "/shipments", "not-a-key");
    }
    try {
      await check("AuthThrottledError", "GET", "/shipments", refused!);
    } finally {
      app.services.counters.clear?.();
    }

    // Every error body of the document was answered for real.
    const components = Object.keys(document.components.schemas).filter((name) => /Error$/.test(name));
    expect(components.filter((name) => !matched.has(name))).toEqual([]);
  }, 120_000);
});
