import { describe, expect, it } from "vitest";
import {
  DISABLE_AFTER_FAILING_MS,
  DISABLE_AFTER_FAILURES,
  type EndpointHealth,
  foldHealth,
  shouldDisable,
} from "../../../src/domain/webhooks/endpoint-health";

const HOUR = 3_600_000;
const start = Date.parse("2026-11-20T00:00:00Z");
const at = (ms: number) => new Date(start + ms);
const healthy: EndpointHealth = { consecutiveFailures: 0, failingSince: null, lastFailedAt: null };
const failures = (from: number, count: number, everyMs: number) =>
  Array.from({ length: count }, (_, i) => ({ ok: false, at: at(from + i * everyMs) }));

describe("when an endpoint is switched off", () => {
  it("never after a burst: 100 failures in 20 seconds", () => {
    const health = foldHealth(healthy, failures(0, 100, 200));
    expect(health).toEqual({ consecutiveFailures: 100, failingSince: at(0), lastFailedAt: at(19_800) });
    expect(shouldDisable(health)).toBe(false);
  });

  it("after 3 days of failures no more than the streak gap apart, with enough attempts", () => {
    const threeDays = foldHealth(healthy, failures(0, 13, 6 * HOUR));
    expect(threeDays.lastFailedAt!.getTime() - threeDays.failingSince!.getTime()).toBe(72 * HOUR);
    expect(threeDays.consecutiveFailures).toBeLessThan(DISABLE_AFTER_FAILURES);
    expect(shouldDisable(threeDays)).toBe(false); // 13 attempts over 3 days: too few to judge

    const busy = foldHealth(healthy, failures(0, 37, 2 * HOUR));
    expect(busy.lastFailedAt!.getTime() - busy.failingSince!.getTime()).toBe(DISABLE_AFTER_FAILING_MS);
    expect(shouldDisable(busy)).toBe(true);
    expect(shouldDisable(foldHealth(healthy, failures(0, 36, 2 * HOUR)))).toBe(false); // 70 hours
  });

  it("a success ends the streak", () => {
    const before = foldHealth(healthy, failures(0, 36, 2 * HOUR));
    const after = foldHealth(before, [{ ok: true, at: at(71 * HOUR) }, ...failures(72 * HOUR, 30, 60_000)]);
    expect(after.failingSince).toEqual(at(72 * HOUR));
    expect(after.consecutiveFailures).toBe(30);
    expect(shouldDisable(after)).toBe(false);
  });

  it("a quiet gap longer than 12 hours ends it too: one failure last week and a burst today is not a week of failure", () => {
    const lastWeek = foldHealth(healthy, failures(0, 1, 0));
    const today = foldHealth(lastWeek, failures(7 * 24 * HOUR, 30, 500));
    expect(today).toEqual({
      consecutiveFailures: 30,
      failingSince: at(7 * 24 * HOUR),
      lastFailedAt: at(7 * 24 * HOUR + 29 * 500),
    });
    expect(shouldDisable(today)).toBe(false);
    // Retries 6 hours apart (the retry cap) keep one streak going.
    expect(foldHealth(lastWeek, failures(6 * HOUR, 1, 0)).failingSince).toEqual(at(0));
  });
});
