/**
 * DCSA event subscriptions on the simulator: the 2.2 and 3.0 endpoints, pushes signed with the
 * subscription's secret as the clock moves, and the push faults (late, duplicate, bad signature).
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { eventsFor, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { containersOf } from "./support";

const NOW = "2026-11-20T12:00:00Z";
const DAY = 86_400_000;

interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

let simulator: RunningSimulator;
let receiver: Server;
let callbackUrl: string;
const received: Received[] = [];
const clock = new ManualClock(NOW);
const secretBytes = randomBytes(32);
const secret = secretBytes.toString("base64");

/** A MSC box on its way at NOW, with events still to come in the next ten days. */
function boxUnderway(): string {
  for (const box of containersOf("MSCU", 400, 3)) {
    const shipment = shipmentFor("MSCU", box, "equipment", new Date(NOW));
    if (!shipment) continue;
    const before = eventsFor(shipment, new Date(NOW), { equipmentReference: box }).length;
    const after = eventsFor(shipment, new Date(Date.parse(NOW) + 10 * DAY), {
      equipmentReference: box,
    }).length;
    if (before > 0 && after > before) return box;
  }
  throw new Error("no box underway");
}

const box = boxUnderway();

function eventsAt(at: string): string[] {
  const shipment = shipmentFor("MSCU", box, "equipment", new Date(at))!;
  return eventsFor(shipment, new Date(at), { equipmentReference: box }).map(
    (e) => `${e.eventID}@${e.eventCreatedDateTime}`,
  );
}

beforeAll(async () => {
  simulator = await startSimulator({ clock, pushIntervalMs: 0 });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/push`;
});

afterAll(async () => {
  await simulator.close();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  simulator.faults.clear();
  clock.set(NOW);
});

async function subscribe(version: "v2" | "v3", body: Record<string, unknown>) {
  return fetch(`${simulator.url}/MSCU/${version}/event-subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function moveClock(ms: number): Promise<void> {
  const res = await fetch(`${simulator.url}/_admin/clock`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(res.status).toBe(200);
}

function signatureOf(body: string, key: Buffer = secretBytes): string {
  return `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;
}

describe("2.2 event subscriptions", () => {
  it("creates, reads, rotates the secret of and deletes a subscription; the secret is never echoed", async () => {
    const created = await subscribe("v2", { callbackUrl, secret, equipmentReference: box });
    expect(created.status).toBe(201);
    expect(created.headers.get("api-version")).toBe("2.2.0");
    const subscription = (await created.json()) as Record<string, unknown>;
    expect(subscription).toMatchObject({ callbackUrl, equipmentReference: box });
    expect(subscription).not.toHaveProperty("secret");
    const url = `${simulator.url}/MSCU/v2/event-subscriptions/${subscription.subscriptionID}`;
    expect(((await (await fetch(url)).json()) as Record<string, unknown>).subscriptionID).toBe(
      subscription.subscriptionID,
    );
    const rotate = await fetch(`${url}/secret`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret: randomBytes(40).toString("base64") }),
    });
    expect(rotate.status).toBe(204);
    expect((await fetch(url, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(url)).status).toBe(404);
  });

  it("refuses a subscription without a callback, with a short secret or without a reference, in the 2.2 error shape", async () => {
    const res = await subscribe("v2", { secret: randomBytes(8).toString("base64") });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { message: string }[] };
    const messages = body.errors.map((e) => e.message).join(" ");
    expect(messages).toContain("callbackUrl");
    expect(messages).toContain("32 to 64 bytes");
    expect(messages).toContain("equipmentReference");
  });

  it("pushes the events the clock's move created, signed with the subscription's secret, and only those", async () => {
    const created = (await (
      await subscribe("v2", { callbackUrl, secret, equipmentReference: box })
    ).json()) as {
      subscriptionID: string;
    };
    await moveClock(10 * DAY);
    expect(received.length).toBe(1);
    const push = received[0]!;
    expect(push.headers["notification-signature"]).toBe(signatureOf(push.body));
    expect(push.headers["subscription-id"]).toBe(created.subscriptionID);
    expect(push.headers["api-version"]).toBe("2.2.0");
    const events = JSON.parse(push.body) as { eventID: string; eventCreatedDateTime: string }[];
    expect(events.length).toBeGreaterThan(0);
    // Only what the query at subscription time did not answer yet.
    const pushed = new Set(events.map((e) => `${e.eventID}@${e.eventCreatedDateTime}`));
    for (const before of eventsAt(NOW)) expect(pushed.has(before)).toBe(false);
    // Nothing new, nothing pushed.
    await moveClock(1000);
    expect(received.length).toBe(1);
    await fetch(`${simulator.url}/MSCU/v2/event-subscriptions/${created.subscriptionID}`, {
      method: "DELETE",
    });
  });

  it.each([
    ["push-duplicate", 2, true],
    ["push-bad-signature", 1, false],
    ["push-late", 0, true],
  ] as const)("fault %s: %i pushes, signature valid: %s", async (mode, pushes, signed) => {
    const created = (await (
      await subscribe("v2", { callbackUrl, secret, equipmentReference: box })
    ).json()) as {
      subscriptionID: string;
    };
    simulator.faults.set("MSCU", mode === "push-late" ? { mode, delayMs: 30 * DAY } : { mode });
    await moveClock(10 * DAY);
    expect(received.length).toBe(pushes);
    for (const push of received) {
      expect(push.headers["notification-signature"] === signatureOf(push.body)).toBe(signed);
    }
    if (mode === "push-duplicate") expect(received[0]!.body).toBe(received[1]!.body);
    await fetch(`${simulator.url}/MSCU/v2/event-subscriptions/${created.subscriptionID}`, {
      method: "DELETE",
    });
  });
});

describe("3.0 event subscriptions", () => {
  it("pushes { events } in the 3.0 shape with API-Version 3.0.0", async () => {
    const res = await subscribe("v3", { callbackUrl, secret, equipmentReference: box });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { subscriptionID: string };
    await moveClock(10 * DAY);
    expect(received.length).toBe(1);
    const push = received[0]!;
    expect(push.headers["api-version"]).toBe("3.0.0");
    expect(push.headers["notification-signature"]).toBe(signatureOf(push.body));
    const body = JSON.parse(push.body) as { events: { eventClassification: unknown }[] };
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events[0]).toHaveProperty("eventClassification");
    // A 2.2 list does not show a 3.0 subscription.
    const list = (await (await fetch(`${simulator.url}/MSCU/v2/event-subscriptions`)).json()) as unknown[];
    expect(list).toEqual([]);
    await fetch(`${simulator.url}/MSCU/v3/event-subscriptions/${created.subscriptionID}`, {
      method: "DELETE",
    });
  });
});
