import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { systemClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

/**
 * Issue 24 item 5, done when: "After a 429 with `Retry-After: 3600`, no process calls that carrier
 * again before the hour." Two instances of the service share one Redis; ONE (a simulator here) answers
 * 429 with `Retry-After: 3600` to the first instance's lookup. The fault is then lifted: a carrier
 * called again would answer, so every rate-limited answer afterwards proves the carrier was not asked.
 */
const redisUrl = inject("redisUrl");

let simulator: RunningSimulator;
let first: TestApp;
let second: TestApp;
let orgFirst: OrgWithKey;
let orgSecond: OrgWithKey;
let boxes: string[];

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${simulator.url}/_admin/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.skipIf(!redisUrl)("a carrier's Retry-After shared through Redis", () => {
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: "127.0.0.1", clock: systemClock });
    const env = {
      REDIS_URL: redisUrl as string,
      QUAYSIDE_CARRIER_ONEY_BASE_URL: `${simulator.url}/ONEY`,
      QUAYSIDE_CARRIER_TIMEOUT_MS: "15000",
    };
    first = await startTestApp({ env });
    second = await startTestApp({ env });
    orgFirst = await first.fixtures.organization({ plan: "business" });
    orgSecond = await second.fixtures.organization({ plan: "business" });
    boxes = (await simulatedContainers(simulator.url, "ONEY", "ONEU", { known: 3 })).known;
  }, 120_000);
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await simulator?.close();
    // The hour's cooldown must not outlive this test in the Redis other test files share.
    const redis = new Redis(redisUrl as string);
    await redis.del("quayside:carrier-cooldown:ONEY");
    await redis.quit();
  });

  it("keeps every instance from calling the carrier before the hour, answering with the wait", async () => {
    expect(
      (await admin("PUT", "faults/ONEY", { mode: "rate-limited", retryAfterSeconds: 3600 })).status,
    ).toBe(200);
    const v1 = async (app: TestApp, org: OrgWithKey, box: string) => {
      const res = await fetch(`${app.url}/api/v1/container/${box}?sealine=ONEY`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      return {
        status: res.status,
        retryAfter: Number(res.headers.get("retry-after")),
        body: await res.json(),
      };
    };

    const refused = await v1(first, orgFirst, boxes[0] as string);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ success: false, data: { error: "carrier_unreachable" } });
    expect(refused.retryAfter).toBeGreaterThan(3500);
    expect(refused.retryAfter).toBeLessThanOrEqual(3600);

    // The carrier would answer now; neither instance asks it (the simulator counts what reaches it).
    expect((await admin("DELETE", "faults/ONEY")).status).toBe(204);
    const reached = async () =>
      ((await (await admin("GET", "state")).json()) as { requests: Record<string, number> }).requests.ONEY;
    const before = await reached();
    expect(before).toBeGreaterThan(0);
    const elsewhere = await v1(second, orgSecond, boxes[1] as string);
    expect(elsewhere.status).toBe(502);
    expect(elsewhere.retryAfter).toBeGreaterThan(3500);
    expect(elsewhere.retryAfter).toBeLessThanOrEqual(3600);

    const compat = await compatGet(second, orgSecond.key, "/tracking", { number: boxes[2], sealine: "ONEY" });
    expect(compat.body).toMatchObject({ status: "error", message: "SEALINE_NO_RESPONSE" });
    expect(Number(compat.headers.get("retry-after"))).toBeGreaterThan(3500);

    const again = await v1(first, orgFirst, boxes[1] as string);
    expect(again.status).toBe(502);
    expect(again.retryAfter).toBeGreaterThan(3500);
    expect(await reached()).toBe(before);

    // The wait is kept in Redis, where any instance (and a restarted one) finds it.
    const shared = await second.services.counters.heldUntil("carrier-cooldown:ONEY");
    expect(shared - Date.now()).toBeGreaterThan(3_500_000);
  }, 120_000);
});
