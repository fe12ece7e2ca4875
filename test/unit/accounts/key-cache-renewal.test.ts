import { describe, expect, it } from "vitest";
import { KeyCache, type KeyRow } from "../../../src/domain/accounts/key-cache";
import { ManualClock } from "../../../src/lib/clock";

const TTL = 5_000;
const row = (id: string) => ({ id, organizationId: "org-1" }) as unknown as KeyRow;

describe("a busy key renewed ahead of its end", () => {
  it("is claimed for renewal once past half its life, one lookup at a time", () => {
    const clock = new ManualClock("2026-03-02T10:00:00Z");
    const cache = new KeyCache(clock, TTL, 10);
    cache.store("hash", row("a"), cache.begin());
    clock.advance(TTL / 2 - 1);
    expect(cache.claimRenewal("hash")).toBe(false);
    clock.advance(1);
    expect(cache.claimRenewal("hash")).toBe(true);
    // A second request meanwhile is answered from the entry and starts no lookup of its own.
    expect(cache.claimRenewal("hash")).toBe(false);
    expect(cache.get("hash")?.id).toBe("a");
  });

  it("keeps serving the renewed row past the first row's end, and never an entry past its own", () => {
    const clock = new ManualClock("2026-03-02T10:00:00Z");
    const cache = new KeyCache(clock, TTL, 10);
    cache.store("hash", row("a"), cache.begin());
    clock.advance(3_000);
    expect(cache.claimRenewal("hash")).toBe(true);
    cache.store("hash", row("b"), cache.begin());
    cache.renewalEnded("hash");
    clock.advance(3_000);
    expect(cache.get("hash")?.id).toBe("b");
    clock.advance(2_000);
    expect(cache.get("hash")).toBeUndefined();
  });

  it("lets a renewal that failed be tried again by a later request", () => {
    const clock = new ManualClock("2026-03-02T10:00:00Z");
    const cache = new KeyCache(clock, TTL, 10);
    cache.store("hash", row("a"), cache.begin());
    clock.advance(3_000);
    expect(cache.claimRenewal("hash")).toBe(true);
    cache.renewalEnded("hash");
    expect(cache.claimRenewal("hash")).toBe(true);
  });

  it("does not store a renewal that read the row before an invalidation", () => {
    const clock = new ManualClock("2026-03-02T10:00:00Z");
    const cache = new KeyCache(clock, TTL, 10);
    cache.store("hash", row("a"), cache.begin());
    clock.advance(3_000);
    expect(cache.claimRenewal("hash")).toBe(true);
    const token = cache.begin();
    cache.forgetKey("hash");
    cache.store("hash", row("stale"), token);
    cache.renewalEnded("hash");
    expect(cache.get("hash")).toBeUndefined();
  });
});
