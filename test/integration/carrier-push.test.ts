/**
 * Issue 41 item 1, DCSA carrier push end to end on one manual clock: a carrier of the registry with
 * `push` on gets a subscription for a tracked box; the simulator pushes the box's next milestone as
 * the clock moves; the customer's webhook gets it without Quayside asking the carrier. A replayed push
 * and a forged one change nothing; untracking removes the subscription at the carrier.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { eventsFor, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { containersOf } from "../simulator/support";
import { answerHits, graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";

const NOW = "2026-11-20T12:00:00Z";
const DAY = 86_400_000;
const clock = new ManualClock(NOW);

let simulator: RunningSimulator;
let app: TestApp;
let org: OrgWithKey;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let shipmentId: string;
let shipmentName: string;

/** A ONE box on its way at NOW, and when its next event is created. */
function boxUnderway(): { box: string; nextEventAt: number } {
  for (const box of containersOf("ONEY", 400, 5)) {
    const shipment = shipmentFor("ONEY", box, "equipment", new Date(NOW));
    if (!shipment) continue;
    const now = Date.parse(NOW);
    const known = eventsFor(shipment, new Date(NOW), { equipmentReference: box });
    const later = eventsFor(shipment, new Date(now + 10 * DAY), { equipmentReference: box });
    const seen = new Set(known.map((e) => e.eventID));
    const next = later
      .filter((e) => !seen.has(e.eventID) && e.eventClassifierCode === "ACT")
      .map((e) => Date.parse(e.eventCreatedDateTime))
      .filter((at) => at > now)
      .sort((a, b) => a - b)[0];
    if (known.length > 0 && next !== undefined) return { box, nextEventAt: next };
  }
  throw new Error("no ONE box underway");
}
const { box, nextEventAt } = boxUnderway();

async function carrierRequests(): Promise<number> {
  const state = (await (await fetch(`${simulator.url}/_admin/state`)).json()) as {
    requests: Record<string, number>;
  };
  return state.requests.ONEY ?? 0;
}

async function versions(): Promise<number> {
  return app.services.db.prisma.documentVersion.count({
    where: { document: { organizationId: org.organizationId, carrierScac: "ONEY" } },
  });
}

async function deliveries(): Promise<number> {
  return app.services.db.prisma.webhookDelivery.count({ where: { organizationId: org.organizationId } });
}

/** The v1 stored read of the tracked box (the answer cache serves it when it holds one). */
async function v1Shipment(): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}/api/v1/shipments/${shipmentName}`, {
    headers: { authorization: `Bearer ${org.key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

beforeAll(async () => {
  simulator = await startSimulator({ clock, pushIntervalMs: 0 });
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_CARRIER_ONEY_BASE_URL: `${simulator.url}/ONEY`,
      QUAYSIDE_CARRIER_ONEY_PUSH: "on",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  receiver = await startReceiver();
  const endpoint = await graphql(
    app,
    org.key,
    `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
    { input: { url: receiver.url, events: ["*"] } },
  );
  expect(endpoint.body.errors).toBeUndefined();
  const tracked = await graphql(
    app,
    org.key,
    `mutation($r: String!) { track(reference: $r, type: container, carrier: "ONEY") {
       __typename ... on TrackSuccess { shipment { id name } } } }`,
    { r: box },
  );
  const track = tracked.body.data?.track as { __typename: string; shipment: { id: string; name: string } };
  expect(track.__typename).toBe("TrackSuccess");
  shipmentId = track.shipment.id;
  shipmentName = track.shipment.name;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await receiver?.close();
});

describe("carrier push", () => {
  it("subscribes for the tracked box at the carrier and stretches its poll", async () => {
    // Read (and kept by the answer cache) before the subscription exists: no carrier push yet. The
    // prediction is stored first, as the eta worker would (one computed on the read is not kept).
    while ((await app.services.eta.computeDue(100)) > 0) {}
    const before = await v1Shipment();
    expect(before.carrier_push).toBeUndefined();
    const hits = await answerHits(app);
    expect(await v1Shipment()).toEqual(before);
    expect((await answerHits(app)) - hits, "the second read is the kept answer").toBe(1);
    await app.carrierPush.worker.runOnce();
    const held = simulator.subscriptions.list("ONEY");
    expect(held).toHaveLength(1);
    expect(held[0]!.filters).toEqual({ equipmentReference: box });
    expect(held[0]!.callbackUrl).toMatch(new RegExp(`^${app.url}/carrier-push/`));
    const shipment = await app.services.db.prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
    // 12 hours unstretched; the safety net waits four times as long.
    expect(shipment.nextRefreshAt!.getTime() - shipment.lastSyncedAt!.getTime()).toBeGreaterThanOrEqual(
      4 * 4 * 3_600_000,
    );
    // The same read now: the kept answer was dropped when the carrier accepted the subscription and
    // the poll was stretched, so the v1 answer shows both.
    const after = await v1Shipment();
    expect(after.carrier_push).toMatchObject({
      covered: true,
      status: "active",
      poll_stretch: 4,
      next_poll_at: shipment.nextRefreshAt!.toISOString(),
    });
  });

  it("a pushed milestone reaches the customer's webhook within seconds and without a carrier poll", async () => {
    const before = { requests: await carrierRequests(), versions: await versions() };
    clock.set(new Date(nextEventAt + 60_000));
    const started = performance.now();
    expect(await simulator.subscriptions.deliver()).toBe(1);
    expect(simulator.subscriptions.pushes().at(-1)?.status).toBe(204);
    await app.workers.webhooks.runOnce();
    const elapsedMs = performance.now() - started;
    expect(receiver.received.length).toBeGreaterThan(0);
    const events = receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event);
    expect(events).toContain("shipment.vessel_arrived");
    expect(elapsedMs).toBeLessThan(5_000);
    expect(await carrierRequests()).toBe(before.requests);
    expect(await versions()).toBe(before.versions + 1);
  });

  it("a replayed push and a forged one change nothing", async () => {
    const row = await app.services.db.prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "ONEY" },
    });
    const shipment = shipmentFor("ONEY", box, "equipment", clock.now())!;
    const pushed = eventsFor(shipment, clock.now(), { equipmentReference: box }).filter(
      (e) => Date.parse(e.eventCreatedDateTime) > Date.parse(NOW),
    );
    expect(pushed.length).toBeGreaterThan(0);
    const before = { versions: await versions(), deliveries: await deliveries() };
    const post = (body: string, signature: string, subscriptionId = row.subscriptionId!) =>
      fetch(`${app.url}/carrier-push/${row.callbackToken}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "notification-signature": signature,
          "subscription-id": subscriptionId,
        },
        body,
      });
    const sign = (body: string) =>
      `sha256=${createHmac("sha256", Buffer.from(app.services.secrets.open(row.secret), "base64"))
        .update(body)
        .digest("hex")}`;

    const replay = JSON.stringify(pushed);
    expect((await post(replay, sign(replay))).status).toBe(204);

    const forgedEvent = {
      ...pushed[0]!,
      eventID: "forged-0001",
      eventCreatedDateTime: clock.now().toISOString(),
    };
    const forged = JSON.stringify([forgedEvent]);
    expect((await post(forged, `sha256=${"0".repeat(64)}`)).status).toBe(401);
    expect((await post(forged, sign(forged), "another-subscription")).status).toBe(404);

    expect(await versions()).toBe(before.versions);
    expect(await deliveries()).toBe(before.deliveries);
  });

  it("untracking the box removes the subscription at the carrier", async () => {
    const untracked = await graphql(
      app,
      org.key,
      `mutation($id: String!) { untrackShipment(id: $id) { __typename } }`,
      { id: shipmentName },
    );
    expect(untracked.body.data?.untrackShipment).not.toEqual({ __typename: "ShipmentNotFound" });
    await app.carrierPush.worker.runOnce();
    expect(simulator.subscriptions.list("ONEY")).toHaveLength(0);
    expect(await app.services.db.prisma.carrierSubscription.count()).toBe(0);
  });
});
