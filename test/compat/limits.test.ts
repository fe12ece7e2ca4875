import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { refusalEnvelope, successEnvelope, trackingDataSchema } from "./compat-schema";
import { compatGet, SIMULATOR_ENV } from "./support";

/** Limits shared with v1, on a clock the tests move: rate windows, slots, billing, force_update, 12 hours. */
const MINUTE = 60_000;
const HOUR = 3_600_000;
let app: TestApp;
let clock: ManualClock;
let known: string[];

beforeAll(async () => {
  // Mid-month, mid-day, 15 seconds into a minute: nothing rolls over unless a test moves the clock.
  const now = new Date();
  clock = new ManualClock(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 14, 10, 0, 15));
  app = await startTestApp({ env: SIMULATOR_ENV, clock });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 10, start: 300_000 }));
});
afterAll(() => app?.stop());

const tracking = (key: string, params: Record<string, string>) => compatGet(app, key, "/tracking", params);
const data = (answer: { body: unknown }) => trackingDataSchema.parse(successEnvelope.parse(answer.body).data);
const v1 = (key: string, path: string) =>
  fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

describe("the per-key rate window", () => {
  it("is one window for compat and v1: every compat operation spends from it, and API_KEY_RATE_LIMIT carries the real Retry-After", async () => {
    clock.set(Math.ceil(clock.now().getTime() / MINUTE) * MINUTE + 15_000);
    const free = await app.fixtures.organization({ plan: "free" }); // 30 requests a minute
    const remaining: number[] = [];
    const spend = async (res: { headers: Headers }) =>
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    for (let i = 0; i < 5; i++) {
      await spend(await compatGet(app, free.key, "/info/sealines"));
      await spend(await v1(free.key, "/carriers"));
      await spend(await compatGet(app, free.key, "/history", { number: known[0]!, type: "CT" }));
      await spend(await compatGet(app, free.key, "/tracking", {}));
      await spend(await compatGet(app, free.key, "/route", { number: known[0]! }));
      await spend(await v1(free.key, "/carriers"));
    }
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));

    const refused = await compatGet(app, free.key, "/info/sealines");
    expect(refused.status).toBe(200);
    expect(refusalEnvelope.parse(refused.body).message).toBe("API_KEY_RATE_LIMIT");
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("30");
    expect((await v1(free.key, "/carriers")).status).toBe(429);
    // Refused calls are not counted as calls: the 20 admitted compat calls are.
    expect((await app.services.apiCalls.count(free.organizationId, "compat")).calls).toBe(20);

    clock.advance(45_000);
    expect((await compatGet(app, free.key, "/info/sealines")).body.message).toBe("OK");
  });
});

describe("the key", () => {
  it("API_KEY_WRONG for a missing, unknown or revoked key; API_KEY_ACCESS_DENIED with developer mode off or a view-only key tracking", async () => {
    const revoked = await app.fixtures.organization();
    await app.services.accounts.revokeApiKey({ keyId: revoked.keyId });
    for (const key of [null, "qs_neverIssuedToAnyoneAtAll", revoked.key]) {
      const answer = await compatGet(app, key, "/tracking", { number: known[0]! });
      expect(refusalEnvelope.parse(answer.body).message).toBe("API_KEY_WRONG");
      expect(answer.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    }
    const off = await app.fixtures.organization({ developerMode: false });
    for (const path of ["/tracking", "/history", "/route", "/info/sealines"]) {
      const answer = await compatGet(app, off.key, path, { number: known[0]!, type: "CT", sealine: "MSCU" });
      expect(refusalEnvelope.parse(answer.body).message).toBe("API_KEY_ACCESS_DENIED");
    }
    const viewOnly = await app.fixtures.organization({ viewOnly: true });
    const refused = await tracking(viewOnly.key, { number: known[0]! });
    expect(refusalEnvelope.parse(refused.body).message).toBe("API_KEY_ACCESS_DENIED");
    expect((await compatGet(app, viewOnly.key, "/info/sealines")).body.message).toBe("OK");
    // Each admitted call counted once, the refused track included.
    expect((await app.services.apiCalls.count(viewOnly.organizationId, "compat")).calls).toBe(2);
  });
});

describe("api_calls", () => {
  it("counts every admitted call of the calendar month, answer or refusal, and starts again with the next month", async () => {
    const org = await app.fixtures.organization();
    await compatGet(app, org.key, "/info/sealines");
    await compatGet(app, org.key, "/tracking", { number: "" }); // WRONG_PARAMETERS
    await compatGet(app, org.key, "/history", { number: known[1]!, type: "CT" }); // DONT_TRACKED
    await compatGet(app, "qs_neverIssuedToAnyoneAtAll", "/info/sealines"); // not admitted: no organisation
    const answer = data(await tracking(org.key, { number: known[1]! }));
    expect(answer.metadata.api_calls).toEqual({ total: null, used: 4, remaining: null });
    const history = await compatGet(app, org.key, "/history", { number: known[1]!, type: "CT" });
    expect(history.body.data.metadata.api_calls.used).toBe(5);

    const back = clock.now();
    const nextMonth = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 1, 0, 0, 30));
    clock.set(nextMonth);
    try {
      const next = await compatGet(app, org.key, "/history", { number: known[1]!, type: "CT" });
      expect(next.body.data.metadata.api_calls.used).toBe(1);
    } finally {
      clock.set(back.getTime() + MINUTE);
    }
  });
});

describe("shipment slots and billing", () => {
  it("API_KEY_LIMIT_REACHED with Retry-After 3600 once the cycle's slots are used; numbers already tracked still answer", async () => {
    const free = await app.fixtures.organization({ plan: "free" });
    const first = data(await tracking(free.key, { number: known[2]! }));
    expect(first.metadata.unique_shipments).toEqual({ total: 25, used: 1, remaining: 24 });
    const row = await app.services.db.prisma.organization.findUniqueOrThrow({
      where: { id: free.organizationId },
    });
    await app.services.db.prisma.shipmentSlot.createMany({
      data: Array.from({ length: 24 }, (_, i) => ({
        organizationId: free.organizationId,
        cycleStart: row.cycleStartedAt,
        referenceKey: `FILLER${i}`,
      })),
    });
    const refused = await tracking(free.key, { number: known[3]! });
    expect(refusalEnvelope.parse(refused.body).message).toBe("API_KEY_LIMIT_REACHED");
    expect(refused.headers.get("retry-after")).toBe("3600");
    const again = data(await tracking(free.key, { number: known[2]! }));
    expect(again.metadata.unique_shipments).toEqual({ total: 25, used: 25, remaining: 0 });
  });

  it("API_KEY_EXPIRED with Retry-After 3600 for an expired key and for payment overdue past the grace period", async () => {
    const expiring = await app.fixtures.organization({ expiresAt: new Date(clock.now().getTime() + MINUTE) });
    clock.advance(2 * MINUTE);
    const expired = await compatGet(app, expiring.key, "/tracking", { number: known[4]! });
    expect(refusalEnvelope.parse(expired.body).message).toBe("API_KEY_EXPIRED");
    expect(expired.headers.get("retry-after")).toBe("3600");

    const overdue = await app.fixtures.organization();
    await app.services.accounts.updateOrganization(overdue.organizationId, {
      billingState: "overdue",
      overdueDays: 30,
      graceDays: 14,
    });
    const paused = await tracking(overdue.key, { number: known[4]! });
    expect(refusalEnvelope.parse(paused.body).message).toBe("API_KEY_EXPIRED");
    expect(paused.headers.get("retry-after")).toBe("3600");
    // Only new tracking is paused; the rest of the API answers.
    expect((await compatGet(app, overdue.key, "/info/sealines")).body.message).toBe("OK");
  });
});

describe("the stored document", () => {
  it("is the organisation's own: another organisation tracking the same container within 12 hours is fetched for, at its own time", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    const first = data(await tracking(a.key, { number: known[5]! }));
    clock.advance(MINUTE);
    const second = data(await tracking(b.key, { number: known[5]! }));
    expect(first.metadata.from_cache).toBe(false);
    expect(second.metadata.from_cache).toBe(false);
    expect(second.metadata.updated_at).not.toBe(first.metadata.updated_at);
  });

  it("is served for 12 hours, then the carrier is asked again", async () => {
    const org = await app.fixtures.organization();
    data(await tracking(org.key, { number: known[6]! }));
    clock.advance(12 * HOUR - MINUTE);
    expect(data(await tracking(org.key, { number: known[6]! })).metadata.from_cache).toBe(true);
    clock.advance(2 * MINUTE);
    const refreshed = data(await tracking(org.key, { number: known[6]! }));
    expect(refreshed.metadata.from_cache).toBe(false);
  });

  it("force_update skips the wait at most 10 times per number a day, then answers from the store with from_cache", async () => {
    const org = await app.fixtures.organization();
    expect(data(await tracking(org.key, { number: known[7]! })).metadata.from_cache).toBe(false);
    for (let i = 0; i < 10; i++) {
      clock.advance(MINUTE);
      const forced = data(await tracking(org.key, { number: known[7]!, force_update: "true" }));
      expect(forced.metadata.from_cache, `live re-fetch ${i + 1}`).toBe(false);
    }
    const capped = data(await tracking(org.key, { number: known[7]!, force_update: "true" }));
    expect(capped.metadata.from_cache).toBe(true);
    expect(capped.metadata).not.toHaveProperty("stale_reason");
    // The cap is per number: another one can still be forced today.
    data(await tracking(org.key, { number: known[8]! }));
    expect(
      data(await tracking(org.key, { number: known[8]!, force_update: "true" })).metadata.from_cache,
    ).toBe(false);
    // A new UTC day brings a new allowance.
    const now = clock.now();
    clock.set(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 30));
    expect(
      data(await tracking(org.key, { number: known[7]!, force_update: "true" })).metadata.from_cache,
    ).toBe(false);
  });
});
