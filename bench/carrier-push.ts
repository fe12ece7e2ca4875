/**
 * Carrier push harness (issue 41; docs/decisions/carrier-push.md): one simulated week of ONE's boxes
 * underway, tracked by a real service (PGlite in memory) against the simulator on one manual clock,
 * run twice: polling only, then with DCSA push on. Every simulated hour the simulator pushes what the
 * hour made happen (push mode), the refresh worker polls what is due, the push worker reconciles, and
 * the webhook worker delivers. Reported: carrier requests per mode (events polls and subscription
 * calls), milestones that reached the webhook, and the wall-clock time from the simulator's push to
 * the webhook's arrival.
 *
 *   npx tsx bench/carrier-push.ts [--boxes 12] [--days 7]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { startSimulator } from "../simulator/server";
import { containerNumber } from "../simulator/world/iso6346";
import { eventsFor, shipmentFor } from "../simulator/world/world";
import { startServer } from "../src/app/server";
import { loadConfig } from "../src/config";
import { ManualClock } from "../src/lib/clock";

const START = "2026-11-20T12:00:00Z";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const { values } = parseArgs({
  options: { boxes: { type: "string", default: "12" }, days: { type: "string", default: "7" } },
});
const BOXES = Number(values.boxes);
const DAYS = Number(values.days);

/** ONE boxes with events before START and more in the week after: the ones a push can tell about. */
function boxesUnderway(count: number): string[] {
  const found: string[] = [];
  for (let serial = 100_000; found.length < count && serial < 400_000; serial += 977) {
    const box = containerNumber("ONEU", serial);
    const shipment = shipmentFor("ONEY", box, "equipment", new Date(START));
    if (!shipment) continue;
    const before = eventsFor(shipment, new Date(START), { equipmentReference: box }).length;
    const after = eventsFor(shipment, new Date(Date.parse(START) + DAYS * DAY), {
      equipmentReference: box,
    }).length;
    if (before > 0 && after > before) found.push(box);
  }
  return found;
}

interface ModeResult {
  mode: string;
  carrierRequests: number;
  subscriptionCalls: number;
  pushes: number;
  webhooks: number;
  pushToWebhookMs: number[];
}

async function run(push: boolean, boxes: readonly string[]): Promise<ModeResult> {
  const clock = new ManualClock(START);
  const simulator = await startSimulator({ clock, pushIntervalMs: 0 });
  let webhooks = 0;
  let lastWebhookAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      webhooks++;
      lastWebhookAt = performance.now();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const server = await startServer(
    loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      QUAYSIDE_DEMO: "false",
      QUAYSIDE_SIMULATOR: "off",
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_LOG_LEVEL: "silent",
      QUAYSIDE_DATA_DIR: "memory://",
      QUAYSIDE_DISRUPTION_FEEDS: "off",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      QUAYSIDE_CARRIER_ONEY_BASE_URL: `${simulator.url}/ONEY`,
      QUAYSIDE_CARRIER_ONEY_PUSH: push ? "on" : "off",
    }),
    { clock },
  );
  const latencies: number[] = [];
  try {
    const { accounts, webhooks: hooks } = server.services;
    const org = await accounts.createOrganization({ name: "Bench", plan: "business", developerMode: true });
    const user = await accounts.createUser({
      organizationId: org.id,
      email: "bench@example.com",
      role: "owner",
    });
    const { rawKey } = await accounts.createApiKey({ userId: user.id });
    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${rawKey}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
    };
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await gql(
      "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
      { input: { url: hook, events: ["*"] } },
    );
    void hooks;
    for (const box of boxes) {
      await gql(
        `mutation($r: String!) { track(reference: $r, type: container, carrier: "ONEY") { __typename } }`,
        {
          r: box,
        },
      );
    }
    await server.carrierPush.worker.runOnce();
    const requestsAtStart = await requestsOf(simulator.url);
    for (let hour = 1; hour <= DAYS * 24; hour++) {
      clock.set(new Date(Date.parse(START) + hour * HOUR));
      if (push) {
        const before = webhooks;
        const started = performance.now();
        const posts = await simulator.subscriptions.deliver();
        await server.workers.webhooks.runOnce();
        if (posts > 0 && webhooks > before) latencies.push(lastWebhookAt - started);
      }
      for (let i = 0; i < 10 && (await server.workers.refresh.runOnce()).full; i++);
      if (push && hour % 6 === 0) await server.carrierPush.worker.runOnce();
      await server.workers.webhooks.runOnce();
    }
    const requests = (await requestsOf(simulator.url)) - requestsAtStart;
    const subscriptionCalls = push ? await subscriptionCallsOf(server) : 0;
    return {
      mode: push ? "push + safety-net polls" : "polling only",
      carrierRequests: requests,
      subscriptionCalls,
      pushes: simulator.subscriptions.pushes().length,
      webhooks,
      pushToWebhookMs: latencies,
    };
  } finally {
    await server.stop();
    await simulator.close();
    await new Promise((r) => receiver.close(r));
  }
}

async function requestsOf(url: string): Promise<number> {
  const state = (await (await fetch(`${url}/_admin/state`)).json()) as { requests: Record<string, number> };
  return state.requests.ONEY ?? 0;
}

/** Renewals only (the creation came before the week's count started): one GET per subscription per 6 h. */
async function subscriptionCallsOf(server: Awaited<ReturnType<typeof startServer>>): Promise<number> {
  return server.services.db.prisma.carrierSubscription.count();
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const boxes = boxesUnderway(BOXES);
const polling = await run(false, boxes);
const pushing = await run(true, boxes);
console.log(`${boxes.length} ONE boxes underway, ${DAYS} simulated days, hourly steps\n`);
for (const r of [polling, pushing]) {
  console.log(
    `${r.mode.padEnd(24)} carrier requests ${String(r.carrierRequests).padStart(5)}  pushes ${String(r.pushes).padStart(4)}  webhooks ${String(r.webhooks).padStart(4)}`,
  );
}
const saved = polling.carrierRequests - pushing.carrierRequests;
console.log(
  `\ncarrier requests saved: ${saved} of ${polling.carrierRequests} (${((100 * saved) / polling.carrierRequests).toFixed(0)}%)`,
);
console.log(
  `push to webhook (wall clock, ${pushing.pushToWebhookMs.length} pushes): p50 ${percentile(pushing.pushToWebhookMs, 50).toFixed(0)} ms, p95 ${percentile(pushing.pushToWebhookMs, 95).toFixed(0)} ms, max ${Math.max(...pushing.pushToWebhookMs).toFixed(0)} ms`,
);
console.log(`subscriptions held at the end: ${pushing.subscriptionCalls}`);
