import { describe, expect, it } from "vitest";
import { createSemaphore } from "../../../src/upstream/http/concurrency";
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  isRetryableStatus,
  parseRetryAfterMs,
} from "../../../src/upstream/http/retry-policy";

const NOW = new Date("2024-01-10T12:00:00Z");

describe("parseRetryAfterMs", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfterMs("120", NOW)).toBe(120_000);
    expect(parseRetryAfterMs(" 0 ", NOW)).toBe(0);
  });

  it("reads an HTTP date relative to now, and a past date as now", () => {
    expect(parseRetryAfterMs("Wed, 10 Jan 2024 12:01:30 GMT", NOW)).toBe(90_000);
    expect(parseRetryAfterMs("Wed, 10 Jan 2024 11:00:00 GMT", NOW)).toBe(0);
  });

  it("returns null for absent or unreadable values", () => {
    for (const value of [null, undefined, "", "soon", "-5", "1.5", "2024-01-10"]) {
      expect(parseRetryAfterMs(value, NOW)).toBeNull();
    }
  });
});

describe("backoff", () => {
  it("doubles per retry, capped, with half the step jittered", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5].map((i) => backoffDelayMs(i, policy, () => 0))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([0, 1, 2, 3, 4, 5].map((i) => backoffDelayMs(i, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});

describe("decideRetry", () => {
  const policy = DEFAULT_RETRY_POLICY;
  const random = () => 0;

  it("retries 408, 429 and 5xx but not 501, 505 or other 4xx", () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  it("stops when the attempts are spent", () => {
    expect(decideRetry({ kind: "network" }, 3, policy, random)).toEqual({ retry: false });
    expect(decideRetry({ kind: "network" }, 2, policy, random)).toEqual({ retry: true, delayMs: 250 });
  });

  it("does not retry a timeout", () => {
    expect(decideRetry({ kind: "timeout" }, 1, policy, random)).toEqual({ retry: false });
  });

  it("waits exactly the Retry-After when it is short enough, and not at all when it is too long", () => {
    expect(decideRetry({ kind: "status", status: 503, retryAfterMs: 3_000 }, 1, policy, random)).toEqual({
      retry: true,
      delayMs: 3_000,
    });
    expect(decideRetry({ kind: "status", status: 429, retryAfterMs: 60_000 }, 1, policy, random)).toEqual({
      retry: false,
    });
  });
});

describe("semaphore", () => {
  it("runs waiting tasks in arrival order as slots free up", async () => {
    const semaphore = createSemaphore(1);
    const order: string[] = [];
    let releaseFirst = () => {};
    const first = semaphore.run(
      () =>
        new Promise<void>((resolve) => {
          order.push("first");
          releaseFirst = resolve;
        }),
    );
    const second = semaphore.run(async () => void order.push("second"));
    const third = semaphore.run(async () => void order.push("third"));
    await Promise.resolve();
    expect(semaphore.active).toBe(1);
    expect(semaphore.waiting).toBe(2);
    releaseFirst();
    await Promise.all([first, second, third]);
    expect(order).toEqual(["first", "second", "third"]);
    expect(semaphore.active).toBe(0);
  });

  it("frees the slot when a task fails, and drops a waiter whose caller aborts", async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    let release = () => {};
    const holder = semaphore.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiter = semaphore.run(async () => "never", controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiter).rejects.toThrow("gave up");
    expect(semaphore.waiting).toBe(0);
    release();
    await holder;
    expect(await semaphore.run(async () => "next")).toBe("next");
  });
});
