/**
 * The inbound side of issue 41 hardened. Carrier push, the cases the first tests left out, through the simulator's real HTTP pushes
 * on one manual clock: a DCSA 3.0 carrier's push is applied as a new version like a 2.2 one; a push
 * that arrives after the freshness window is acknowledged and changes nothing; a subscription the
 * carrier lost is noticed at renewal, its box polled at the normal cadence while the carrier refuses
 * to take it again, and registered again once it does; each state shown on GraphQL, v1 and the
 * dashboard. A partner source's signed inbound webhook has its own rate window. Shared secrets are
 * sealed at rest, rows from before sealed at start, and every signature still verifies.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { eventsFor, shipmentFor } from "../../simulator/world/world";
import { sealStoredSecrets } from "../../src/app/seal-secrets";
import { partnerSignature } from "../../src/domain/partners/partner-signature";
import { PARTNER_INBOUND_PER_MINUTE } from "../../src/http/gate";
import { ManualClock } from "../../src/lib/clock";
import { RENEW_AFTER_MS, SAFETY_NET_STRETCH } from "../../src/upstream/carriers/carrier-push";
import { containersOf } from "../simulator/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const NOW = "2026-11-20T12:00:00Z";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new ManualClock(NOW);

let simulator: RunningSimulator;
let app: TestApp;
let org: OrgWithKey;
const taken = new Set<string>();

/**
 * A box of `scac` on its way at the clock's time, not used by another test, and when its next actual
 * event is created (more than `leadMs` ahead, within ten days).
 */
function boxUnderway(scac: string, leadMs = HOUR): { box: string; nextEventAt: number } {
  const now = clock.now().getTime();
  for (const box of containersOf(scac, 400, 5)) {
    if (taken.has(box)) continue;
    const shipment = shipmentFor(scac, box, "equipment", new Date(now));
    if (!shipment) continue;
    const known = eventsFor(shipment, new Date(now), { equipmentReference: box });
    const later = eventsFor(shipment, new Date(now + 10 * DAY), { equipmentReference: box });
    const seen = new Set(known.map((e) => e.eventID));
    const next = later
      // A vessel's actual arrival or departure: the box is still at sea or in port, not delivered.
      .filter((e) => !seen.has(e.eventID) && e.eventClassifierCode === "ACT" && e.eventType === "TRANSPORT")
      .map((e) => Date.parse(e.eventCreatedDateTime))
      .filter((at) => at > now + leadMs)
      .sort((a, b) => a - b)[0];
    if (known.length > 0 && next !== undefined) {
      taken.add(box);
      return { box, nextEventAt: next };
    }
  }
  throw new Error(`no ${scac} box underway`);
}

async function track(box: string, scac: string): Promise<string> {
  return (await trackNamed(box, scac)).id;
}

async function trackNamed(box: string, scac: string): Promise<{ id: string; name: string }> {
  const tracked = await graphql(
    app,
    org.key,
    `mutation($r: String!, $c: String!) { track(reference: $r, type: container, carrier: $c) {
       __typename ... on TrackSuccess { shipment { id name } } } }`,
    { r: box, c: scac },
  );
  const answer = tracked.body.data?.track as {
    __typename: string;
    shipment?: { id: string; name: string };
  };
  expect(answer.__typename).toBe("TrackSuccess");
  return answer.shipment!;
}

interface PushState {
  covered: boolean;
  status: string;
  lastPushAt: string | null;
  pollStretch: number;
  pollEveryHours: number;
  nextPollAt: string | null;
}

let owner: { email: string; password: string } | undefined;

/** A signed-in dashboard session of the organisation's owner (a new one each time: the clock moves). */
async function dashboardCookie(): Promise<string> {
  if (!owner) {
    owner = { email: `ops-${org.organizationId.slice(0, 8)}@example.com`, password: "carrier-push-walk-1" };
    await app.services.accounts.createUser({ organizationId: org.organizationId, role: "owner", ...owner });
  }
  const { email, password } = owner;
  const form = await fetch(`${app.url}/dashboard/sign-in`);
  const visitor = (form.headers.get("set-cookie") ?? "").split(";")[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const signedIn = await fetch(`${app.url}/dashboard/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: visitor, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
  return (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!;
}

/** The shipment's push state as GraphQL, v1 and the dashboard page show it. */
async function pushShown(shipment: { id: string; name: string }) {
  const read = await graphql(
    app,
    org.key,
    `query($id: String!) { shipment(id: $id) { scheduledRefreshAt
       carrierPush { covered status lastPushAt pollStretch pollEveryHours nextPollAt } } }`,
    { id: shipment.name },
  );
  expect(read.body.errors).toBeUndefined();
  const core = read.body.data?.shipment as {
    scheduledRefreshAt: string | null;
    carrierPush: PushState | null;
  };
  const v1 = (await (
    await fetch(`${app.url}/api/v1/shipments/${shipment.name}`, {
      headers: { authorization: `Bearer ${org.key}` },
    })
  ).json()) as { data: Record<string, unknown> };
  const page = await fetch(`${app.url}/dashboard/shipments/${shipment.name}`, {
    headers: { cookie: await dashboardCookie() },
  });
  expect(page.status).toBe(200);
  const line = /<p class="muted" data-carrier-push="[a-z]+">.*?<\/p>/.exec(await page.text())?.[0] ?? null;
  return {
    graphql: core.carrierPush,
    scheduledRefreshAt: core.scheduledRefreshAt,
    v1: v1.data,
    dashboard: line,
  };
}

async function carrierRequests(scac: string): Promise<number> {
  const state = (await (await fetch(`${simulator.url}/_admin/state`)).json()) as {
    requests: Record<string, number>;
  };
  return state.requests[scac] ?? 0;
}

async function versionsOf(box: string): Promise<number> {
  return app.services.db.prisma.documentVersion.count({
    where: { document: { organizationId: org.organizationId, referenceKey: box } },
  });
}

async function fault(scac: string, body: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${simulator.url}/_admin/faults/${scac}`, {
    method: body ? "PUT" : "DELETE",
    headers: { "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status).toBeLessThan(300);
}

async function nextPollGap(shipmentId: string): Promise<number> {
  const shipment = await app.services.db.prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
  return shipment.nextRefreshAt!.getTime() - shipment.lastSyncedAt!.getTime();
}

beforeAll(async () => {
  simulator = await startSimulator({ clock, pushIntervalMs: 0 });
  // ONE on T&T 2.2 and Hapag-Lloyd on 3.0, both with push on, both answered by the simulator.
  const registry = join(mkdtempSync(join(tmpdir(), "quayside-push-")), "carriers.registry.json");
  const entry = (name: string, tntVersion: "2.2" | "3.0") => ({
    name,
    adapter: "dcsa-tnt-2.2",
    baseUrl: null,
    tntVersion,
    auth: { kind: "none" },
    push: {},
  });
  writeFileSync(
    registry,
    JSON.stringify({
      carriers: { ONEY: entry("Ocean Network Express", "2.2"), HLCU: entry("Hapag-Lloyd", "3.0") },
    }),
  );
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_CARRIER_REGISTRY: registry,
      QUAYSIDE_CARRIER_ONEY_BASE_URL: `${simulator.url}/ONEY`,
      QUAYSIDE_CARRIER_HLCU_BASE_URL: `${simulator.url}/HLCU`,
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
});

describe("carrier push, hardened", () => {
  it("a DCSA 3.0 carrier's push is received and applied as a new version, like a 2.2 one", async () => {
    const { box, nextEventAt } = boxUnderway("HLCU");
    await track(box, "HLCU");
    await app.carrierPush.worker.runOnce();
    const held = simulator.subscriptions.list("HLCU");
    expect(held.map((s) => [s.version, s.filters])).toEqual([["v3", { equipmentReference: box }]]);

    // The shared secret is sealed at rest: the row does not hold what the carrier signs with.
    const row = await app.services.db.prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "HLCU", referenceKey: box },
    });
    const carrierSecret = held[0]!.secret.toString("base64");
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(carrierSecret);
    expect(app.services.secrets.open(row.secret)).toBe(carrierSecret);
    const before = { requests: await carrierRequests("HLCU"), versions: await versionsOf(box) };
    clock.set(new Date(nextEventAt + 60_000));
    expect(await simulator.subscriptions.deliver()).toBeGreaterThan(0);
    // 3.0 is acknowledged as the redesign's POST /events answers: 200 with feedbackElements.
    expect(simulator.subscriptions.pushes().at(-1)).toMatchObject({ scac: "HLCU", status: 200 });
    expect(await versionsOf(box)).toBe(before.versions + 1);
    expect(await carrierRequests("HLCU")).toBe(before.requests);
  });

  it("a push older than the freshness window is acknowledged and changes nothing", async () => {
    const { box, nextEventAt } = boxUnderway("ONEY");
    const shipmentId = await track(box, "ONEY");
    await app.carrierPush.worker.runOnce();
    expect(simulator.subscriptions.list("ONEY").map((s) => s.filters)).toContainEqual({
      equipmentReference: box,
    });
    const shipmentBefore = await app.services.db.prisma.shipment.findUniqueOrThrow({
      where: { id: shipmentId },
    });
    const before = { requests: await carrierRequests("ONEY"), versions: await versionsOf(box) };
    // The carrier holds the event back for 25 hours: it arrives a day and an hour after it happened.
    await fault("ONEY", { mode: "push-late", delayMs: 25 * HOUR });
    try {
      clock.set(new Date(nextEventAt + 25 * HOUR + 60_000));
      expect(await simulator.subscriptions.deliver()).toBeGreaterThan(0);
      const pushed = simulator.subscriptions.pushes().at(-1)!;
      // Acknowledged, so the carrier does not push it again for ever; the poll reads it in time.
      expect(pushed).toMatchObject({ scac: "ONEY", status: 204 });
      expect(await simulator.subscriptions.deliver()).toBe(0);
    } finally {
      await fault("ONEY", null);
    }
    expect(await versionsOf(box)).toBe(before.versions);
    const shipmentAfter = await app.services.db.prisma.shipment.findUniqueOrThrow({
      where: { id: shipmentId },
    });
    expect(shipmentAfter.status).toBe(shipmentBefore.status);
    const row = await app.services.db.prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "ONEY", referenceKey: box },
    });
    expect(row.lastPushAt).toBeNull();
    expect(await carrierRequests("ONEY")).toBe(before.requests);
  });

  it("a subscription the carrier lost is registered again, the box polled at its normal cadence meanwhile", async () => {
    // Its next milestone comes after the renewal, so the new subscription is the one that pushes it.
    const { box, nextEventAt } = boxUnderway("ONEY", RENEW_AFTER_MS + 2 * HOUR);
    const shipment = await trackNamed(box, "ONEY");
    const shipmentId = shipment.id;
    // Before any subscription: polled only, and no surface claims otherwise.
    const polled = await pushShown(shipment);
    expect(polled.graphql).toBeNull();
    expect(polled.v1).not.toHaveProperty("carrier_push");
    expect(polled.dashboard).toBeNull();
    await app.carrierPush.worker.runOnce();
    const first = simulator.subscriptions.list("ONEY").find((s) => s.filters.equipmentReference === box)!;
    expect(first).toBeDefined();
    const normalGap = 12 * HOUR;
    expect(await nextPollGap(shipmentId)).toBeGreaterThanOrEqual(SAFETY_NET_STRETCH * 4 * HOUR);
    const active = await pushShown(shipment);
    expect(active.graphql).toEqual({
      covered: true,
      status: "ACTIVE",
      lastPushAt: null,
      pollStretch: SAFETY_NET_STRETCH,
      pollEveryHours: 48,
      nextPollAt: active.scheduledRefreshAt,
    });
    expect(active.v1.carrier_push).toEqual({
      covered: true,
      status: "active",
      last_push_at: null,
      confirmed_at: clock.now().toISOString(),
      poll_stretch: SAFETY_NET_STRETCH,
      next_poll_at: active.scheduledRefreshAt,
    });
    expect(active.dashboard).toContain("Updates pushed by the carrier, last at none yet");
    expect(active.dashboard).toContain("asked every 48 hours as a safety net");

    // The carrier forgets it, and for a while refuses to take new subscriptions.
    const forgot = await fetch(`${simulator.url}/ONEY/v2/event-subscriptions/${first.subscriptionID}`, {
      method: "DELETE",
    });
    expect(forgot.status).toBe(204);
    await fault("ONEY", { mode: "subscriptions-refused" });
    clock.set(new Date(clock.now().getTime() + RENEW_AFTER_MS + 60_000));
    await app.carrierPush.worker.runOnce();
    const lost = await app.services.db.prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "ONEY", referenceKey: box },
    });
    expect(lost.subscriptionId).toBeNull();
    // Nothing is pushed for it now: its poll is back to the normal gap, not the stretched one.
    expect(await nextPollGap(shipmentId)).toBeLessThanOrEqual(normalGap);
    const lostShown = await pushShown(shipment);
    expect(lostShown.graphql).toMatchObject({
      covered: false,
      status: "LOST",
      pollStretch: 1,
      pollEveryHours: 12,
    });
    expect(lostShown.v1.carrier_push).toMatchObject({ covered: false, status: "lost", poll_stretch: 1 });
    expect(lostShown.dashboard).toContain("The carrier stopped pushing updates");
    // A later pass while the carrier still refuses leaves it polled normally.
    await app.carrierPush.worker.runOnce();
    expect(await nextPollGap(shipmentId)).toBeLessThanOrEqual(normalGap);

    await fault("ONEY", null);
    await app.carrierPush.worker.runOnce();
    const again = simulator.subscriptions.list("ONEY").find((s) => s.filters.equipmentReference === box);
    expect(again).toBeDefined();
    expect(again!.subscriptionID).not.toBe(first.subscriptionID);
    const renewed = await app.services.db.prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "ONEY", referenceKey: box },
    });
    expect(renewed.subscriptionId).toBe(again!.subscriptionID);
    expect(await nextPollGap(shipmentId)).toBeGreaterThanOrEqual(SAFETY_NET_STRETCH * 4 * HOUR);

    // And the new subscription's pushes are applied.
    const versions = await versionsOf(box);
    expect(nextEventAt).toBeGreaterThan(clock.now().getTime());
    clock.set(new Date(nextEventAt + 60_000));
    await simulator.subscriptions.deliver();
    expect(await versionsOf(box)).toBe(versions + 1);
    const pushedShown = await pushShown(shipment);
    expect(pushedShown.graphql).toMatchObject({
      covered: true,
      status: "ACTIVE",
      lastPushAt: clock.now().toISOString(),
    });
    expect(pushedShown.v1.carrier_push).toMatchObject({
      status: "active",
      last_push_at: clock.now().toISOString(),
    });
    expect(pushedShown.dashboard).toContain(
      `Updates pushed by the carrier, last at <time datetime="${clock.now().toISOString()}"`,
    );
  });
});

describe("a partner source's inbound webhook", () => {
  const CREATE = `mutation ($name: String!) { createPartnerSource(name: $name) { source { id } signingSecret } }`;
  const createSource = async (name: string) => {
    const created = await graphql(app, org.key, CREATE, { name });
    expect(created.body.errors).toBeUndefined();
    return (created.body.data as { createPartnerSource: { source: { id: string }; signingSecret: string } })
      .createPartnerSource;
  };
  const body = JSON.stringify({ events: [] });
  const send = (
    sourceId: string,
    signature: string,
    now = String(Math.floor(clock.now().getTime() / 1000)),
  ) => {
    return fetch(`${app.url}/api/inbound/partners/${sourceId}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-quayside-timestamp": now,
        "x-quayside-signature": signature,
      },
      body,
    });
  };

  it("has a rate window per source: past it, 429 with Retry-After in the v1 format, other sources unaffected", async () => {
    const busy = await createSource("Runaway TMS");
    const quiet = await createSource("Quiet haulier");
    // Start of a fresh minute, so the whole window is this test's.
    clock.set(new Date(Math.ceil((clock.now().getTime() + 1) / 60_000) * 60_000));
    for (let i = 0; i < PARTNER_INBOUND_PER_MINUTE; i++) {
      const res = await send(busy.source.id, "v1=0");
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    const now = String(Math.floor(clock.now().getTime() / 1000));
    const refused = await send(busy.source.id, partnerSignature(busy.signingSecret, now, body), now);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await refused.json()).toMatchObject({
      success: false,
      statusCode: 429,
      data: { error: "rate_limit_exceeded", limit: PARTNER_INBOUND_PER_MINUTE, retryAfter: 60 },
    });
    // Another source of the same organisation has its own window.
    const other = await send(quiet.source.id, "v1=0");
    expect(other.status).toBe(401);
    expect(other.headers.get("x-ratelimit-remaining")).toBe(String(PARTNER_INBOUND_PER_MINUTE - 1));
    await other.arrayBuffer();
    // The next minute the partner's signed request is read again (an empty batch is a clear 400).
    clock.set(new Date(clock.now().getTime() + 60_000));
    const later = String(Math.floor(clock.now().getTime() / 1000));
    const again = await send(busy.source.id, partnerSignature(busy.signingSecret, later, body), later);
    expect(again.status).toBe(400);
    await again.arrayBuffer();
  });

  it("keeps the signing secret sealed at rest, and signatures still verify", async () => {
    const source = await createSource("Sealed haulier");
    const row = await app.services.db.prisma.partnerSource.findUniqueOrThrow({
      where: { id: source.source.id },
    });
    expect(row.signingSecret).toMatch(/^enc:v1:/);
    expect(row.signingSecret).not.toContain(source.signingSecret);
    expect(row.signingSecret).not.toContain(source.signingSecret.replace(/^psec_/, ""));
    const batch = JSON.stringify({ events: [{ event_id: "sealed-1", event_type: "POSITION" }] });
    const now = String(Math.floor(clock.now().getTime() / 1000));
    const signed = await fetch(`${app.url}/api/inbound/partners/${source.source.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-quayside-timestamp": now,
        "x-quayside-signature": partnerSignature(source.signingSecret, now, batch),
      },
      body: batch,
    });
    // Verified: the batch is read, and its one event refused on its own (no shipment named).
    expect(signed.status).toBe(200);
    expect(
      ((await signed.json()) as { data: { results: { outcome: string }[] } }).data.results,
    ).toMatchObject([{ outcome: "invalid" }]);
  });
});

describe("secrets stored in clear before sealing", () => {
  it("are sealed by the start-up pass, and what they sign still verifies", async () => {
    const CREATE = `mutation ($name: String!) { createPartnerSource(name: $name) { source { id } signingSecret } }`;
    const created = await graphql(app, org.key, CREATE, { name: "Legacy feed" });
    const source = (
      created.body.data as { createPartnerSource: { source: { id: string }; signingSecret: string } }
    ).createPartnerSource;
    const prisma = app.services.db.prisma;
    // As a row written before this change held it: the secret in clear.
    await prisma.partnerSource.update({
      where: { id: source.source.id },
      data: { signingSecret: source.signingSecret },
    });
    const subscription = await prisma.carrierSubscription.findFirstOrThrow({
      where: { carrierScac: "HLCU", subscriptionId: { not: null } },
    });
    const carrierSecret = app.services.secrets.open(subscription.secret);
    await prisma.carrierSubscription.update({
      where: { id: subscription.id },
      data: { secret: carrierSecret },
    });

    expect(await sealStoredSecrets(prisma, app.services.secrets)).toEqual({
      partnerSources: 1,
      carrierSubscriptions: 1,
      webhookEndpoints: 0,
      shareLinks: 0,
      mailSigningKeys: 0,
    });
    const sourceRow = await prisma.partnerSource.findUniqueOrThrow({ where: { id: source.source.id } });
    expect(sourceRow.signingSecret).toMatch(/^enc:v1:/);
    expect(sourceRow.signingSecret).not.toContain(source.signingSecret);
    const subscriptionRow = await prisma.carrierSubscription.findUniqueOrThrow({
      where: { id: subscription.id },
    });
    expect(subscriptionRow.secret).toMatch(/^enc:v1:/);
    expect(subscriptionRow.secret).not.toContain(carrierSecret);
    // A second pass finds nothing left in clear.
    expect(await sealStoredSecrets(prisma, app.services.secrets)).toEqual({
      partnerSources: 0,
      carrierSubscriptions: 0,
      webhookEndpoints: 0,
      shareLinks: 0,
      mailSigningKeys: 0,
    });

    const batch = JSON.stringify({ events: [{ event_id: "legacy-1", event_type: "POSITION" }] });
    const now = String(Math.floor(clock.now().getTime() / 1000));
    const partnerPost = await fetch(`${app.url}/api/inbound/partners/${source.source.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-quayside-timestamp": now,
        "x-quayside-signature": partnerSignature(source.signingSecret, now, batch),
      },
      body: batch,
    });
    expect(partnerPost.status).toBe(200);
    // The carrier signs with the secret it was given: its push still verifies (3.0: 200, nothing new).
    const push = JSON.stringify({ events: [] });
    const pushed = await fetch(`${app.url}/carrier-push/${subscription.callbackToken}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "subscription-id": subscription.subscriptionId!,
        "notification-signature": `sha256=${createHmac("sha256", Buffer.from(carrierSecret, "base64")).update(push).digest("hex")}`,
      },
      body: push,
    });
    expect(pushed.status).toBe(200);
  });
});
