import type { Request, Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdmissionGate } from "../../src/http/gate";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/**
 * Issue 37, the fixed cost per request: a key the key cache holds, spending from windows counted in
 * this process's memory, is admitted in the same tick (no promise per layer), with the very headers
 * and spending the awaited admission gives. A key that has to be read from the database still waits.
 */
// Held still, so every request of a test spends from the same minute window.
const clock = new ManualClock("2026-11-20T12:00:10Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
}, 120_000);
afterAll(() => app?.stop());

function gate(): AdmissionGate {
  const { services } = app;
  const { config } = services;
  return new AdmissionGate({
    accounts: services.accounts,
    limiter: services.limiter,
    clock: services.clock,
    authFailuresPerMinute: config.authFailuresPerMinute,
    keylessPerMinute: config.keylessPerMinute,
  });
}

/** A GET with the key, as the gate reads it, and the headers the gate sets on its answer. */
function request(key: string) {
  const headers = new Map<string, string>();
  const req = {
    method: "GET",
    ip: "127.0.0.1",
    socket: {},
    query: {},
    get: (name: string) => (name.toLowerCase() === "authorization" ? `Bearer ${key}` : undefined),
  } as unknown as Request;
  const res = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
  } as unknown as Response;
  return { req, res, headers };
}

describe("admission of a cached key", () => {
  it("is decided in the same tick, spending and answering as the awaited admission does", async () => {
    const admission = gate();
    const first = request(org.key);
    // The first request reads the key from the database: it waits.
    const looked = admission.admitNow(first.req, first.res, { allowQueryKey: false });
    expect(looked).toBeInstanceOf(Promise);
    const firstDecision = await looked;
    expect(firstDecision.ok).toBe(true);
    const limit = Number(first.headers.get("x-ratelimit-limit"));
    expect(Number(first.headers.get("x-ratelimit-remaining"))).toBe(limit - 1);

    // The next one finds it in the key cache: decided now, one more request spent from the same window.
    const second = request(org.key);
    const now = admission.admitNow(second.req, second.res, { allowQueryKey: false });
    expect(now).not.toBeInstanceOf(Promise);
    const decision = now as Awaited<typeof now>;
    expect(decision.ok).toBe(true);
    expect(decision.ok && decision.principal.organization.id).toBe(org.organizationId);
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(limit - 2);
    expect(second.headers.get("x-ratelimit-reset")).toBe(first.headers.get("x-ratelimit-reset"));

    // The awaited admission (other surfaces) spends from the same window.
    const third = request(org.key);
    await admission.admit(third.req, third.res, { allowQueryKey: false });
    expect(Number(third.headers.get("x-ratelimit-remaining"))).toBe(limit - 3);
  });

  it("refuses a batch past the window in the same tick and gives its rest back", async () => {
    const admission = gate();
    const warm = request(org.key);
    await admission.admit(warm.req, warm.res, { allowQueryKey: false });
    const remaining = Number(warm.headers.get("x-ratelimit-remaining"));
    const batch = request(org.key);
    const refused = admission.admitNow(batch.req, batch.res, {
      allowQueryKey: false,
      cost: remaining + 2,
    });
    expect(refused).not.toBeInstanceOf(Promise);
    expect((refused as Awaited<typeof refused>).ok).toBe(false);
    expect(batch.headers.get("retry-after")).toBeDefined();
    // Only one request of the refused batch stays spent.
    const after = request(org.key);
    await admission.admit(after.req, after.res, { allowQueryKey: false });
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 2);
  });
});
