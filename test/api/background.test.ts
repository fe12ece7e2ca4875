import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { migratedServiceDatabase } from "../support/data-folder";
import { databaseEnvironment } from "../support/database";
import { startReceiver } from "../support/receiver";
import { simulatedContainers } from "../support/references";

const DAY = 86_400_000;
const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } signingSecret } }`;

let app: TestApp;
const clock = new ManualClock("2026-11-22T10:00:00Z");

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
    },
  });
});
afterAll(() => app?.stop());

async function drain(worker: { runOnce(): Promise<{ full: boolean }> }) {
  for (let i = 0; i < 50 && (await worker.runOnce()).full; i++);
}

describe("scheduled refresh and domain events", () => {
  it("turns ETA and status changes in the carrier's data into the right events, in order, for each shipment", async () => {
    const org = await app.fixtures.organization();
    const receiver = await startReceiver();
    try {
      await graphql(app, org.key, CREATE, { input: { url: receiver.url, events: ["*"] } });
      const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
        known: 12,
        start: 700_000,
      });
      const tracked = await (
        await fetch(`${app.url}/api/v1/track`, {
          method: "POST",
          headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
          body: JSON.stringify({
            shipments: known.map((number) => ({ type: "container", number, sealine: "MSCU" })),
          }),
        })
      ).json();
      expect(tracked.tracked).toBe(known.length);
      const list = await (
        await fetch(`${app.url}/api/v1/shipments?pageSize=100`, {
          headers: { authorization: `Bearer ${org.key}` },
        })
      ).json();
      // Shipments whose vessel had not reached the port of discharge when first tracked.
      const moving = (list.data as { reference_number: string; status: string; ata: string | null }[])
        .filter((s) => s.status !== "DELIVERED" && s.ata === null)
        .map((s) => s.reference_number);
      expect(moving.length).toBeGreaterThan(2);

      // Sixty days of the world, a refresh pass each day; nothing fires for a shipment's first answer.
      for (let day = 0; day < 60; day++) {
        clock.advance(DAY);
        await drain(app.workers.refresh);
        await drain(app.workers.webhooks);
      }
      const events = receiver.received.map(
        (r) => JSON.parse(r.body) as { event: string; created: number; data: Record<string, unknown> },
      );
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) {
        expect(e.data).toEqual({
          shipment_id: expect.stringMatching(/^SHP-\d+$/),
          reference_number: expect.any(String),
          carrier: "MSCU",
          status: expect.any(String),
          previous_status: expect.any(String),
          eta: expect.stringMatching(/Z$/),
          previous_eta: e.event === "eta.changed" ? expect.stringMatching(/Z$/) : expect.anything(),
          ata: e.data.ata === null ? null : expect.stringMatching(/Z$/),
        });
      }
      const byShipment = new Map<string, string[]>();
      for (const e of events)
        byShipment.set(String(e.data.reference_number), [
          ...(byShipment.get(String(e.data.reference_number)) ?? []),
          e.event,
        ]);
      let delivered = 0;
      for (const reference of moving) {
        const sequence = byShipment.get(reference) ?? [];
        if (!sequence.includes("shipment.arrived")) continue;
        delivered++;
        // The vessel reaches the port of discharge before the box is delivered, and delivery is last.
        expect(sequence.indexOf("shipment.vessel_arrived")).toBeGreaterThanOrEqual(0);
        expect(sequence.indexOf("shipment.vessel_arrived")).toBeLessThan(
          sequence.indexOf("shipment.arrived"),
        );
        expect(sequence.at(-1)).toBe("shipment.arrived");
      }
      expect(delivered).toBeGreaterThan(0);
      for (const e of events.filter((x) => x.event === "eta.changed"))
        expect(e.data.eta).not.toBe(e.data.previous_eta);
      expect(events.some((e) => e.event === "shipment.updated" || e.event === "eta.changed")).toBe(true);
      // Delivered shipments stop: nothing is scheduled for them any more.
      const scheduled = await app.services.db.prisma.shipment.findMany({
        where: { organizationId: org.organizationId, status: "DELIVERED" },
      });
      expect(scheduled.every((s) => s.nextRefreshAt === null)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});

describe("carrier discovery", () => {
  it("after a 404 under the wrong carrier, finds the right one in the background and fires discovery.recovered", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    const receiver = await startReceiver();
    try {
      await graphql(app, org.key, CREATE, { input: { url: receiver.url, events: ["discovery.recovered"] } });
      const { known } = await simulatedContainers(app.simulator!.url, "MAEU", "MSKU", {
        known: 1,
        start: 900_000,
      });
      const res = await fetch(`${app.url}/api/v1/container/${known[0]}?sealine=MSCU`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body.data).toMatchObject({ discovery: "queued", tried: ["MSCU"] });
      expect(body.data).not.toHaveProperty("discovery_reason");

      await drain(app.workers.discovery);
      await drain(app.workers.webhooks);
      const read = await (
        await fetch(`${app.url}${body.data.read_endpoint}`, {
          headers: { authorization: `Bearer ${org.key}` },
        })
      ).json();
      expect(read.data).toMatchObject({ sealine: "MAEU", discovery: { status: "recovered" } });
      expect(read.data.status).not.toBe("UNKNOWN");
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
        event: "discovery.recovered",
        data: {
          reference_number: known[0],
          type: "Container",
          carrier: "MAEU",
          carrier_name: expect.stringMatching(/Maersk/),
          shipment_id: expect.stringMatching(/^SHP-/),
        },
      });
    } finally {
      await receiver.close();
    }
  });

  it("retry-failed queues failed shipments of the last 7 days once per 15 minutes, and skips plans without discovery", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    const starter = await app.fixtures.organization({ plan: "starter" });
    const { unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      unknown: 2,
      start: 950_000,
    });
    for (const key of [org.key, starter.key]) {
      for (const n of unknown)
        await fetch(`${app.url}/api/v1/container/${n}?sealine=MSCU`, {
          headers: { authorization: `Bearer ${key}` },
        });
    }
    const post = (key: string, body?: unknown) =>
      fetch(`${app.url}/api/v1/shipments/retry-failed`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const first = await post(org.key, {});
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ success: true, examined: 2, queued: 2, skipped: 0 });
    const again = await post(org.key);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(800);
    const skipped = await (await post(starter.key, { shipment_ids: ["SHP-999999", "not-mine"] })).json();
    expect(skipped).toMatchObject({ examined: 0, queued: 0, skipped: 0 });
    clock.advance(16 * 60_000);
    const starterAll = await (await post(starter.key)).json();
    expect(starterAll).toMatchObject({ examined: 2, queued: 0, skipped: 2, skipped_reason: "plan" });
    const usage = await (
      await fetch(`${app.url}/api/v1/account/usage`, { headers: { authorization: `Bearer ${org.key}` } })
    ).json();
    expect(usage.data.used).toBe(0); // no slot for a retry, nor for a 404
  });

  it("retry-failed names the organisation's own switch, not the plan, when it turned discovery off", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    await app.services.db.prisma.organization.update({
      where: { id: org.organizationId },
      data: { featureSwitches: { carrier_discovery: false } },
    });
    const { unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      unknown: 1,
      start: 960_000,
    });
    const headers = { authorization: `Bearer ${org.key}` };
    const notFound = await fetch(`${app.url}/api/v1/container/${unknown[0]}?sealine=MSCU`, { headers });
    expect((await notFound.json()).data).toMatchObject({
      discovery: "not_eligible",
      discovery_reason: "disabled",
    });
    const res = await fetch(`${app.url}/api/v1/shipments/retry-failed`, { method: "POST", headers });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      success: true,
      examined: 1,
      queued: 0,
      skipped: 1,
      skipped_reason: "disabled",
    });
  });
});

describe("at-least-once across a crash", () => {
  it("a process killed after the change and before the send delivers after restart", async () => {
    const receiver = await startReceiver();
    // Migrated already, and on PGlite a folder in memory (a fresh one on the temporary folder's disk
    // ran initdb and every migration in the first child): the crash is the subject, not a first start.
    const target = await migratedServiceDatabase();
    const env = {
      ...(process.env as Record<string, string>),
      ...databaseEnvironment(target),
      PORT: "0",
      QUAYSIDE_SIMULATOR: "off",
      QUAYSIDE_LOG_LEVEL: "silent",
      QUAYSIDE_DEMO_KEY: "crash_test_key_0123456789",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      QUAYSIDE_WEBHOOK_INTERVAL_MS: "200",
      // A data folder builds the sandbox world at start by default: seconds of CPU in each child.
      // Nothing here asks the sandbox.
      QUAYSIDE_SANDBOX_WORLD: "first-request",
    };
    const start = async (workers: "on" | "off") => {
      const child = spawn("node", ["bin/quayside.mjs", "serve"], {
        env: { ...env, QUAYSIDE_WORKERS: workers },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      return { child, url };
    };
    const first = await start("off");
    try {
      const created = await graphql(first, env.QUAYSIDE_DEMO_KEY, CREATE, {
        input: { url: receiver.url, events: ["*"] },
      });
      const id = (created.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id;
      await graphql(first, env.QUAYSIDE_DEMO_KEY, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
        id,
      });
      first.child.kill("SIGKILL");
      await new Promise((r) => first.child.once("exit", r));
      expect(receiver.received).toHaveLength(0);

      const second = await start("on");
      try {
        for (let i = 0; i < 150 && receiver.received.length === 0; i++)
          await new Promise((r) => setTimeout(r, 200));
        expect(receiver.received).toHaveLength(1);
        expect(JSON.parse(receiver.received[0]!.body).event).toBe("webhook.test");
      } finally {
        second.child.kill("SIGTERM");
      }
    } finally {
      first.child.kill("SIGKILL");
      await receiver.close();
      if (target.kind === "pglite") rmSync(target.dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
