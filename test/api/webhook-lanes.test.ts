import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { startTimedReceiver } from "../support/receiver";

/**
 * Issue 27 item 3, on the real clock with real receivers on loopback: the 10-second acknowledgement
 * limit is a total deadline, and each endpoint is served on its own, so a slow one delays nobody.
 */
const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`;
const SEND_TEST = "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }";

async function createEndpoint(app: TestApp, key: string, url: string): Promise<string> {
  const res = await graphql(app, key, CREATE, { input: { url, events: ["*"] } });
  return (res.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id;
}
async function sendTest(app: TestApp, key: string, endpointId: string): Promise<string> {
  const res = await graphql(app, key, SEND_TEST, { id: endpointId });
  return (res.body.data!.sendTestWebhook as { id: string }).id;
}

/**
 * A raw TCP receiver that reads the request and then answers one byte every 250 ms for 40 s: either
 * the status line itself (`status`) or, after a prompt 200 and its headers, the body (`body`). Never
 * idle long enough for a socket idle timeout.
 */
async function startTricklingReceiver(part: "status" | "body") {
  // The status line and a long header, a byte at a time: 230 bytes would take about a minute.
  const answer =
    part === "status"
      ? `HTTP/1.1 200 OK\r\nx-trickle: ${"a".repeat(200)}\r\ncontent-length: 0\r\n\r\n`
      : "x".repeat(1_000);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.once("data", () => {
      if (part === "body") socket.write("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n");
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= 160) return clearInterval(timer);
        socket.write(answer[i++ % answer.length]!);
      }, 250);
      socket.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe("the acknowledgement deadline", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
    });
  });
  afterAll(() => app?.stop());

  it("cuts a receiver that trickles bytes at 10 s: a trickled status line fails, a status given in time stands", async () => {
    const org = await app.fixtures.organization();
    const tricklingStatus = await startTricklingReceiver("status");
    const tricklingBody = await startTricklingReceiver("body");
    try {
      const silent = await createEndpoint(app, org.key, tricklingStatus.url);
      const slowBody = await createEndpoint(app, org.key, tricklingBody.url);
      const failing = await sendTest(app, org.key, silent);
      const answered = await sendTest(app, org.key, slowBody);
      const started = Date.now();
      await app.workers.webhooks.runOnce();
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(9_900);
      expect(elapsed).toBeLessThan(12_000); // both endpoints at once, each cut at its deadline

      const attempts = await app.services.db.prisma.webhookAttempt.findMany({
        where: { deliveryId: { in: [failing, answered] } },
        include: { delivery: true },
      });
      const byDelivery = new Map(attempts.map((a) => [a.deliveryId, a]));
      expect(byDelivery.get(failing)).toMatchObject({
        responseStatus: null,
        error: "no answer within 10 s",
        delivery: { status: "pending", attempts: 1 },
      });
      expect(byDelivery.get(failing)!.durationMs).toBeLessThan(11_000);
      expect(byDelivery.get(answered)).toMatchObject({
        responseStatus: 200,
        error: null,
        delivery: { status: "delivered", attempts: 1 },
      });
      expect(byDelivery.get(answered)!.durationMs).toBeLessThan(11_000);
    } finally {
      await tricklingStatus.close();
      await tricklingBody.close();
    }
  }, 60_000);
});

describe("lanes per endpoint", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        QUAYSIDE_WORKERS: "on",
        QUAYSIDE_WEBHOOK_INTERVAL_MS: "200",
        QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      },
    });
  });
  afterAll(() => app?.stop());

  it("an endpoint answering in 8 s delays neither another tenant's endpoint nor the same tenant's other one", async () => {
    const receiver = await startTimedReceiver((path) => (path === "/slow" ? 8_000 : 0));
    try {
      const slowTenant = await app.fixtures.organization();
      const otherTenant = await app.fixtures.organization();
      const slow = await createEndpoint(app, slowTenant.key, receiver.url("/slow"));
      const sameTenant = await createEndpoint(app, slowTenant.key, receiver.url("/same-tenant"));
      const otherTenants = await createEndpoint(app, otherTenant.key, receiver.url("/other-tenant"));
      for (let i = 0; i < 4; i++) await sendTest(app, slowTenant.key, slow);
      // The slow endpoint's first delivery is in flight: its lane is busy for the next 32 s.
      for (let i = 0; i < 100 && receiver.arrivals.length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(receiver.arrivals.map((a) => a.path)).toEqual(["/slow"]);

      const latencies: number[] = [];
      for (let i = 0; i < 6; i++) {
        const [key, endpoint, path] =
          i % 2 === 0
            ? [otherTenant.key, otherTenants, "/other-tenant"]
            : [slowTenant.key, sameTenant, "/same-tenant"];
        const sentAt = Date.now();
        const id = await sendTest(app, key, endpoint);
        let arrival: { at: number } | undefined;
        for (let n = 0; n < 300 && !arrival; n++) {
          await new Promise((r) => setTimeout(r, 20));
          arrival = receiver.arrivals.find((a) => a.deliveryId === id && a.path === path);
        }
        expect(arrival, `delivery ${i} to ${path}`).toBeDefined();
        latencies.push(arrival!.at - sentAt);
      }
      // The worker looks for due deliveries every 200 ms; a lane starts at once.
      expect(Math.max(...latencies)).toBeLessThan(1_500);
      // Meanwhile the slow endpoint still had one delivery open at a time.
      expect(receiver.mostOpen.get("/slow")).toBe(1);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
