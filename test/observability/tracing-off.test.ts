import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { startOtlpReceiver } from "../support/otlp-receiver";

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let app: TestApp;
let org: OrgWithKey;
const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // The OpenTelemetry exporter reads this variable by itself when it is built: pointing it at a live
  // receiver shows that with no endpoint in Quayside's configuration nothing is built or sent.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  app = await startTestApp({ env: { OTEL_SERVICE_NAME: "quayside-off" } });
  org = await app.fixtures.organization({ plan: "professional" });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
});

describe("tracing off (the default)", () => {
  it("exports nothing and adds no trace ids to the logs, whatever traceparent a caller sends", async () => {
    expect(app.tracing).toBeNull();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    for (const path of ["/api/v1/shipments", `/compat/info/sealines?api_key=${org.key}`]) {
      const res = await fetch(`${app.url}${path}`, {
        headers: { authorization: `Bearer ${org.key}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      });
      expect(res.status).toBe(200);
    }
    await app.stop();
    expect(receiver.connections()).toBe(0);
    const completed = app.logs.filter((l) => l.msg === "request completed");
    expect(completed.length).toBe(2);
    for (const line of completed) {
      expect(line).not.toHaveProperty("trace_id");
      expect(line).not.toHaveProperty("span_id");
    }
    expect(app.rawLogs.join("\n")).not.toContain(traceId);
  });
});
