import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/**
 * Issue 38: the webhook workbench a developer expects from Stripe, through GraphQL: what each attempt
 * got back (status, the start of the body, a failure in words), when the next attempt is due, the
 * request's headers, resending a delivery, deleting an endpoint, and the events with what they mean.
 */
let app: TestApp;
let org: OrgWithKey;
const clock = new ManualClock("2026-11-22T10:00:00Z");

/** A receiver that answers each request with the status and body the test sets. */
async function scriptedReceiver() {
  const answer = { status: 200, body: "" };
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    answer,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  org = await app.fixtures.organization();
});
afterAll(() => app?.stop());

const deliver = () => app.workers.webhooks.runOnce();
async function createEndpoint(url: string, key = org.key): Promise<string> {
  const res = await graphql(
    app,
    key,
    `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
    { input: { url, events: ["*"] } },
  );
  return (res.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id;
}
async function sendTest(endpointId: string): Promise<string> {
  const res = await graphql(app, org.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
    id: endpointId,
  });
  return (res.body.data!.sendTestWebhook as { id: string }).id;
}
const DETAIL = `query($id: ID!) { webhookDelivery(id: $id) {
  id event status body retryAt requestHeaders { name value }
  attemptLog { responseStatus responseExcerpt error failure } } }`;
interface Detail {
  id: string;
  event: string;
  status: string;
  body: string;
  retryAt: string | null;
  requestHeaders: { name: string; value: string }[];
  attemptLog: {
    responseStatus: number | null;
    responseExcerpt: string | null;
    error: string | null;
    failure: string | null;
  }[];
}
async function detail(id: string, key = org.key): Promise<Detail | null> {
  const res = await graphql(app, key, DETAIL, { id });
  return res.body.data?.webhookDelivery as Detail | null;
}

describe("a delivery's detail", () => {
  it("shows the request's headers and body, the answer's status and body, a failure in words and the next attempt", async () => {
    const receiver = await scriptedReceiver();
    try {
      receiver.answer.status = 500;
      receiver.answer.body = `{"error":"database is down"}${"x".repeat(3000)}`;
      const id = await sendTest(await createEndpoint(receiver.url));
      await deliver();
      const seen = (await detail(id))!;
      expect(seen.status).toBe("pending");
      expect(seen.requestHeaders).toEqual(
        expect.arrayContaining([
          { name: "content-type", value: "application/json" },
          { name: "x-service-event", value: "webhook.test" },
          { name: "x-service-delivery", value: id },
        ]),
      );
      expect(receiver.bodies[0]).toBe(seen.body);
      const [attempt] = seen.attemptLog;
      expect(attempt!.responseStatus).toBe(500);
      expect(attempt!.responseExcerpt?.startsWith('{"error":"database is down"}')).toBe(true);
      expect(attempt!.responseExcerpt).toHaveLength(1024);
      expect(attempt!.failure).toBe("The endpoint's server failed while handling the delivery (HTTP 500).");
      // The first retry is 30 s after the attempt.
      expect(seen.retryAt).toBe(new Date(clock.now().getTime() + 30_000).toISOString());

      receiver.answer.status = 200;
      receiver.answer.body = "thanks";
      clock.advance(30_001);
      await deliver();
      const done = (await detail(id))!;
      expect(done.status).toBe("delivered");
      expect(done.retryAt).toBeNull();
      expect(done.attemptLog[1]).toMatchObject({
        responseStatus: 200,
        responseExcerpt: "thanks",
        failure: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it("says in words that nothing answered, not the network's ECONNREFUSED", async () => {
    const gone = await scriptedReceiver();
    await gone.close();
    const id = await sendTest(await createEndpoint(gone.url));
    await deliver();
    const [attempt] = (await detail(id))!.attemptLog;
    expect(attempt!.error).toMatch(/ECONNREFUSED/);
    expect(attempt!.failure).toBe(
      "Nothing answered at the endpoint's address: its server refused the connection (is it running, on that port?).",
    );
    expect(attempt!.failure).not.toMatch(/ECONN|127\.0\.0\.1/);
  });

  it("is not found for another organisation", async () => {
    const receiver = await scriptedReceiver();
    try {
      const id = await sendTest(await createEndpoint(receiver.url));
      const other = await app.fixtures.organization();
      expect(await detail(id, other.key)).toBeNull();
    } finally {
      await receiver.close();
    }
  });
});

describe("resending", () => {
  it("sends a delivered delivery again with the same body as a new delivery, and refuses one still being tried", async () => {
    const receiver = await scriptedReceiver();
    try {
      const id = await sendTest(await createEndpoint(receiver.url));
      const RESEND = "mutation($id: ID!) { resendWebhookDelivery(id: $id) { id status event body } }";
      const early = await graphql(app, org.key, RESEND, { id });
      expect(early.body.errors?.[0]?.message).toBe(
        "This delivery is still being tried; it can be sent again once it is delivered or has failed.",
      );
      await deliver();
      expect(receiver.bodies).toHaveLength(1);
      const resent = await graphql(app, org.key, RESEND, { id });
      const copy = resent.body.data!.resendWebhookDelivery as { id: string; status: string; body: string };
      expect(copy.id).not.toBe(id);
      expect(copy.status).toBe("pending");
      await deliver();
      expect(receiver.bodies).toHaveLength(2);
      expect(receiver.bodies[1]).toBe(receiver.bodies[0]);
      expect((await detail(copy.id))!.status).toBe("delivered");

      const other = await app.fixtures.organization();
      const foreign = await graphql(app, other.key, RESEND, { id });
      expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    } finally {
      await receiver.close();
    }
  });
});

describe("deleting an endpoint", () => {
  it("removes it with its deliveries; nothing more is sent to it; another organisation cannot", async () => {
    const receiver = await scriptedReceiver();
    try {
      const endpointId = await createEndpoint(receiver.url);
      const pending = await sendTest(endpointId);
      const DELETE = "mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }";
      const other = await app.fixtures.organization();
      const foreign = await graphql(app, other.key, DELETE, { id: endpointId });
      expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

      const deleted = await graphql(app, org.key, DELETE, { id: endpointId });
      expect(deleted.body.data?.deleteWebhookEndpoint).toBe(endpointId);
      await deliver();
      expect(receiver.bodies).toHaveLength(0);
      expect(await detail(pending)).toBeNull();
      const listed = await graphql(app, org.key, "{ webhookEndpoints { id } }");
      expect((listed.body.data!.webhookEndpoints as { id: string }[]).map((e) => e.id)).not.toContain(
        endpointId,
      );
    } finally {
      await receiver.close();
    }
  });
});

describe("the event catalogue", () => {
  it("names every event with what it means, and which an endpoint may subscribe to", async () => {
    const res = await graphql(app, org.key, "{ webhookEvents { name description subscribable } }");
    const events = res.body.data!.webhookEvents as {
      name: string;
      description: string;
      subscribable: boolean;
    }[];
    expect(events.map((e) => e.name)).toEqual([
      "shipment.updated",
      "shipment.vessel_arrived",
      "shipment.arrived",
      "eta.changed",
      "discovery.recovered",
      "webhook.test",
    ]);
    expect(events.find((e) => e.name === "eta.changed")).toEqual({
      name: "eta.changed",
      description: "The arrival at the port of discharge moved (never on the first one).",
      subscribable: true,
    });
    expect(events.find((e) => e.name === "webhook.test")?.subscribable).toBe(false);
  });
});
