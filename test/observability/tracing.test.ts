import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { postJsonRpc, TRACKING_ENV, toolsCall } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver";
import { startReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";

const SERVER = 2; // OTLP SpanKind: SPAN_KIND_SERVER
const CLIENT = 3;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let app: TestApp;
let org: OrgWithKey;
let known: string[];

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  app = await startTestApp({
    env: {
      ...TRACKING_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "quayside-under-test",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      QUAYSIDE_WEBHOOK_INTERVAL_MS: "100",
    },
  });
  org = await app.fixtures.organization({ plan: "professional" });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 2, unknown: 0 }));
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

/** Every span of one trace that reached the receiver, once the server span is in. */
async function traceOf(traceId: string): Promise<ReceivedSpan[]> {
  await app.tracing!.flush();
  await receiver.waitFor((s) => s.traceId === traceId && s.kind === SERVER);
  return receiver.spans.filter((s) => s.traceId === traceId);
}

/** The spans under `root` (children, grandchildren ...). */
function descendants(spans: ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const below = new Set([root.spanId]);
  const found: ReceivedSpan[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const span of spans) {
      if (!below.has(span.spanId) && below.has(span.parentSpanId)) {
        below.add(span.spanId);
        found.push(span);
        grew = true;
      }
    }
  }
  return found;
}

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  it("continues an incoming traceparent on a v1 read, with the GraphQL operation, SQL and the carrier call below it", async () => {
    const traceId = hex(16);
    const callerSpanId = hex(8);
    const res = await fetch(`${app.url}/api/v1/container/${known[0]}`, {
      headers: { authorization: `Bearer ${org.key}`, traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");

    const spans = await traceOf(traceId);
    const server = spans.find((s) => s.kind === SERVER)!;
    expect(server.parentSpanId).toBe(callerSpanId);
    expect(server.name).toBe("GET /api/v1/container/:number");
    expect(server.attributes).toMatchObject({
      "quayside.surface": "v1",
      "http.route": "/api/v1/container/:number",
      "http.response.status_code": 200,
      "http.request.method": "GET",
    });
    expect(server.resource["service.name"]).toBe("quayside-under-test");
    // The query string (where compat keys travel) is never recorded.
    expect(JSON.stringify(spans)).not.toContain(org.key);

    const below = descendants(spans, server);
    const operation = below.find((s) => s.attributes["graphql.operation.name"] !== undefined);
    expect(operation).toBeDefined();
    expect(operation!.parentSpanId).toBe(server.spanId);
    expect(operation!.attributes["quayside.surface"]).toBe("v1");
    const sql = below.filter((s) => s.attributes["db.system.name"] === "postgresql");
    expect(sql.length).toBeGreaterThan(1);
    expect(sql.every((s) => s.kind === CLIENT)).toBe(true);
    expect(sql.some((s) => descendants(spans, operation!).includes(s))).toBe(true);
    expect(sql.map((s) => s.attributes["db.query.text"]).join("\n")).toMatch(/SELECT/);
    const carrier = below.find((s) => s.name === "carrier.track MSCU");
    expect(carrier?.attributes).toMatchObject({
      "quayside.carrier.scac": "MSCU",
      "quayside.carrier.outcome": "found",
    });

    // The request's log lines carry the trace and its server span.
    const line = app.logs.find((l) => l.requestId === requestId && l.msg === "request completed");
    expect(line).toMatchObject({ trace_id: traceId, span_id: server.spanId });
  });

  it("starts a new trace when the caller sends none, and ignores a malformed traceparent", async () => {
    const res = await fetch(`${app.url}/api/v1/shipments`, {
      headers: { authorization: `Bearer ${org.key}`, traceparent: "00-not-a-trace-01" },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");
    const line = app.logs.find((l) => l.requestId === requestId && l.msg === "request completed")!;
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const spans = await traceOf(String(line.trace_id));
    const server = spans.find((s) => s.kind === SERVER)!;
    expect(server.parentSpanId).toBe("");
    expect(server.attributes["http.route"]).toBe("/api/v1/shipments");
  });

  it("gives a compat call and an MCP call server spans named by their surface", async () => {
    const compatTrace = hex(16);
    const compat = await fetch(`${app.url}/compat/info/sealines?api_key=${org.key}`, {
      headers: { traceparent: `00-${compatTrace}-${hex(8)}-01` },
    });
    expect(compat.status).toBe(200);
    const mcpTrace = hex(16);
    const mcp = await postJsonRpc(app, toolsCall(1, "list_my_shipments", {}), {
      authorization: `Bearer ${org.key}`,
      traceparent: `00-${mcpTrace}-${hex(8)}-01`,
    });
    expect(mcp.status).toBe(200);

    const compatSpans = await traceOf(compatTrace);
    const compatServer = compatSpans.find((s) => s.kind === SERVER)!;
    expect(compatServer.attributes["quayside.surface"]).toBe("compat");
    expect(compatServer.attributes["url.path"]).toBe("/compat/info/sealines");
    expect(JSON.stringify(compatSpans)).not.toContain(org.key);

    const mcpSpans = await traceOf(mcpTrace);
    const mcpServer = mcpSpans.find((s) => s.kind === SERVER)!;
    expect(mcpServer.attributes).toMatchObject({ "quayside.surface": "mcp", "http.route": "/api/mcp" });
    const tool = descendants(mcpSpans, mcpServer).find((s) => s.attributes["graphql.operation.name"]);
    expect(tool?.attributes["quayside.surface"]).toBe("mcp");
  });

  it("traces a GraphQL request with its operation span named by type and name", async () => {
    const traceId = hex(16);
    const res = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${org.key}`,
        traceparent: `00-${traceId}-${hex(8)}-01`,
      },
      body: JSON.stringify({ query: "query WhoAmI { viewer { organization { name } } }" }),
    });
    expect(res.status).toBe(200);
    const spans = await traceOf(traceId);
    const server = spans.find((s) => s.kind === SERVER)!;
    expect(server.attributes["quayside.surface"]).toBe("graphql");
    const operation = spans.find((s) => s.name === "query WhoAmI");
    expect(operation?.parentSpanId).toBe(server.spanId);
  });

  it("traces each webhook delivery inside its delivery lane's trace", async () => {
    const hooks = await startReceiver();
    try {
      const created = await graphql(
        app,
        org.key,
        "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
        { input: { url: hooks.url, events: ["*"] } },
      );
      const id = (created.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id;
      const sent = await graphql(app, org.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
        id,
      });
      const deliveryId = (sent.body.data!.sendTestWebhook as { id: string }).id;
      // The running webhook worker delivers it.
      const until = Date.now() + 20_000;
      while (hooks.received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(hooks.received).toHaveLength(1);
      await app.tracing!.flush();
      const delivery = await receiver.waitFor(
        (s) => s.name === "webhook.deliver" && s.attributes["quayside.webhook.delivery_id"] === deliveryId,
      );
      expect(delivery.kind).toBe(CLIENT);
      expect(delivery.attributes).toMatchObject({
        "quayside.webhook.endpoint_id": id,
        "quayside.webhook.outcome": "delivered",
        "http.response.status_code": 200,
      });
      // The lane ends after recording the attempt and giving its lease back: exported in a later batch.
      const lane = await receiver.waitFor((s) => s.spanId === delivery.parentSpanId);
      expect(lane.name).toBe("job webhooks");
      expect(lane.parentSpanId).toBe("");
      expect(lane.attributes["quayside.webhook.endpoint_id"]).toBe(id);
    } finally {
      await hooks.close();
    }
  });

  it("traces background work as traces of their own", async () => {
    await app.workers.refresh.runOnce();
    await app.tracing!.flush();
    const job = await receiver.waitFor((s) => s.name === "job refresh");
    expect(job.parentSpanId).toBe("");
    expect(job.attributes["quayside.job"]).toBe("refresh");
  });
});

describe("tracing configuration", () => {
  it("is off unless an endpoint is set, appends /v1/traces to the general endpoint, and lets the traces endpoint win", () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: "x" }).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toMatchObject({
      endpoint: "http://collector:4318/v1/traces",
      serviceName: "quayside",
      sampleRatio: 1,
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
        OTEL_EXPORTER_OTLP_HEADERS: "api-key=s%3Dcret,x-team=ops",
      }).tracing,
    ).toMatchObject({
      endpoint: "https://traces.example/otlp",
      headers: { "api-key": "s=cret", "x-team": "ops" },
    });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }).tracing,
    ).toBeNull();
  });

  it("refuses what it cannot honour with a message naming the variable", () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });
});
