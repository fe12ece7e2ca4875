import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { postJsonRpc, TRACKING_ENV, toolsCall } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";

const clock = new ManualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 5_000));
let app: TestApp;
let org: OrgWithKey;
let known: string[];

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 8, unknown: 0 }));
});
afterAll(() => app?.stop());

const scrape = async () => {
  const res = await fetch(`${app.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};

/** The value of the one sample of `name` carrying every label given (in any order); undefined if none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{([^}]*)\}/.exec(line)?.[1] ?? "";
    if (Object.entries(labels).every(([k, v]) => labelText.split(",").includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return undefined;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${org.key}`, ...headers } });

describe("GET /metrics after real traffic", () => {
  it("counts request latency by route and surface on every surface", async () => {
    expect((await get("/api/v1/shipments")).status).toBe(200);
    expect((await fetch(`${app.url}/compat/info/sealines?api_key=${org.key}`)).status).toBe(200);
    expect((await graphql(app, org.key, "{ viewer { organization { name } } }")).status).toBe(200);
    expect(
      (await postJsonRpc(app, toolsCall(1, "list_my_shipments", {}), { authorization: `Bearer ${org.key}` }))
        .status,
    ).toBe(200);
    expect((await fetch(`${app.url}/api/v1/sandbox/shipments`)).status).toBe(200);
    expect((await fetch(`${app.url}/share/no-such-token`)).status).toBe(404);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    const text = await scrape();
    const histogram = "quayside_http_request_duration_seconds_count";
    expect(sample(text, histogram, { route: "/api/v1/shipments", surface: "v1", status: "200" })).toBe(1);
    expect(sample(text, histogram, { route: "/compat/info/sealines", surface: "compat" })).toBe(1);
    expect(sample(text, histogram, { route: "/graphql", surface: "graphql", method: "POST" })).toBe(1);
    expect(sample(text, histogram, { route: "/api/mcp", surface: "mcp", method: "POST" })).toBe(1);
    expect(sample(text, histogram, { route: "/api/v1/sandbox/shipments", surface: "sandbox" })).toBe(1);
    expect(sample(text, histogram, { surface: "share", status: "404" })).toBe(1);
    expect(sample(text, histogram, { route: "/healthz", surface: "other" })).toBe(1);
    expect(sample(text, "quayside_http_requests_total", { route: "/api/v1/shipments", surface: "v1" })).toBe(
      1,
    );
    // A bucket of the same series: the histogram a latency panel plots.
    expect(text).toMatch(
      /quayside_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/v1\/shipments",method="GET",status="200",surface="v1"\} 1/,
    );
  });

  it("counts carrier calls and their latency per SCAC and outcome", async () => {
    expect((await get(`/api/v1/container/${known[0]}`)).status).toBe(200);
    const text = await scrape();
    expect(sample(text, "quayside_carrier_calls_total", { scac: "MSCU", outcome: "found" })).toBe(1);
    expect(
      sample(text, "quayside_carrier_call_duration_seconds_count", { scac: "MSCU", outcome: "found" }),
    ).toBe(1);
    expect(
      sample(text, "quayside_carrier_call_duration_seconds_sum", { scac: "MSCU", outcome: "found" }),
    ).toBeGreaterThan(0);
  });

  it("reports hits and misses of the key, document version and GraphQL document caches", async () => {
    expect((await get(`/api/v1/container/${known[0]}`)).status).toBe(200);
    const before = await scrape();
    const count = (text: string, cache: string, result: string) =>
      sample(text, "quayside_cache_lookups_total", { cache, result }) ?? 0;
    // The same key on every request, the same stored document read twice, the same GraphQL text twice.
    const query = "query Documents { shipments { items { document { ata } } } }";
    const first = await graphql(app, org.key, query);
    const second = await graphql(app, org.key, query);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.data).toEqual(first.body.data);
    expect(JSON.stringify(first.body.data)).toMatch(/"ata"/);
    const read = await scrape();
    // The version stored by the tracking call is held: each GraphQL read finds it in the cache.
    expect(count(read, "document_version", "hit") - count(before, "document_version", "hit")).toBe(2);
    expect(count(read, "document_version", "miss")).toBe(count(before, "document_version", "miss"));
    expect(count(read, "graphql_document", "miss") - count(before, "graphql_document", "miss")).toBe(1);
    expect(count(read, "graphql_document", "hit") - count(before, "graphql_document", "hit")).toBe(1);
    expect((await get("/api/v1/shipments")).status).toBe(200);
    expect((await get("/api/v1/shipments")).status).toBe(200);
    const after = await scrape();
    expect(count(after, "api_key", "hit") - count(before, "api_key", "hit")).toBe(4);
    // The lists' predicted arrival and demurrage read the same held version: never a miss.
    expect(count(after, "document_version", "miss")).toBe(count(before, "document_version", "miss"));
  });

  it("reports webhook delivery outcomes and latency, and the queue's depth and oldest due age", async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 503));
    try {
      const created = await graphql(
        app,
        org.key,
        "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
        { input: { url: receiver.url, events: ["*"] } },
      );
      const id = (created.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id;
      const sent = await graphql(app, org.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
        id,
      });
      expect(sent.body.errors).toBeUndefined();

      // Due now and not yet sent: one waiting, due for 90 s once the clock moves on.
      clock.advance(90_000);
      let text = await scrape();
      expect(sample(text, "quayside_queue_depth", { queue: "webhook_deliveries" })).toBe(1);
      expect(
        sample(text, "quayside_queue_oldest_due_age_seconds", { queue: "webhook_deliveries" }),
      ).toBeCloseTo(90, 0);

      await app.workers.webhooks.runOnce(); // the receiver answers 503: a retry, later
      text = await scrape();
      expect(sample(text, "quayside_webhook_delivery_duration_seconds_count", { outcome: "retry" })).toBe(1);
      expect(sample(text, "quayside_webhook_attempts_total", { outcome: "retry" })).toBe(1);
      expect(sample(text, "quayside_queue_depth", { queue: "webhook_deliveries" })).toBe(1);
      // Waiting for its retry, so not due: nothing is overdue.
      expect(sample(text, "quayside_queue_oldest_due_age_seconds", { queue: "webhook_deliveries" })).toBe(0);

      healthy = true;
      clock.advance(60 * 60_000);
      await app.workers.webhooks.runOnce();
      text = await scrape();
      expect(receiver.received).toHaveLength(1);
      expect(sample(text, "quayside_webhook_delivery_duration_seconds_count", { outcome: "delivered" })).toBe(
        1,
      );
      expect(sample(text, "quayside_webhook_attempts_total", { outcome: "delivered" })).toBe(1);
      expect(sample(text, "quayside_queue_depth", { queue: "webhook_deliveries" })).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("reports shipments overdue for a refresh with the age of the oldest", async () => {
    const before = await scrape();
    expect(sample(before, "quayside_queue_depth", { queue: "refresh_due" })).toBe(0);
    expect(sample(before, "quayside_queue_oldest_due_age_seconds", { queue: "refresh_due" })).toBe(0);
    // Track boxes until one is still travelling (a delivered one is not refreshed).
    const scheduled = () =>
      app.services.db.prisma.shipment.findFirst({
        where: { organizationId: org.organizationId, nextRefreshAt: { not: null } },
        select: { nextRefreshAt: true },
      });
    for (const number of known.slice(1)) {
      if (await scheduled()) break;
      expect((await get(`/api/v1/container/${number}`)).status).toBe(200);
    }
    const next = await scheduled();
    expect(next?.nextRefreshAt).toBeInstanceOf(Date);
    // The refresh worker is off: move past the shipment's refresh time by ten minutes.
    clock.advance(next!.nextRefreshAt!.getTime() - clock.now().getTime() + 600_000);
    const after = await scrape();
    expect(sample(after, "quayside_queue_depth", { queue: "refresh_due" })).toBe(1);
    expect(sample(after, "quayside_queue_oldest_due_age_seconds", { queue: "refresh_due" })).toBeCloseTo(
      600,
      0,
    );
    expect(sample(after, "quayside_queue_depth", { queue: "discovery" })).toBe(0);
  });

  it("names every quayside metric by Prometheus conventions", async () => {
    const text = await scrape();
    const types = new Map<string, string>();
    for (const match of text.matchAll(/^# TYPE (quayside_\w+) (\w+)$/gm)) types.set(match[1]!, match[2]!);
    expect(types.size).toBeGreaterThan(10);
    for (const [name, type] of types) {
      expect(name).toMatch(/^quayside_[a-z0-9_]+$/);
      if (type === "counter") expect(name).toMatch(/_total$/);
      if (type === "histogram") expect(name).toMatch(/_seconds$|_bytes$/);
      // prom-client's process and Node.js metrics are named by prom-client.
      if (type === "gauge" && !name.startsWith("quayside_nodejs_")) expect(name).not.toMatch(/_total$/);
    }
  });
});
