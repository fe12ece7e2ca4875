import { describe, expect, it } from "vitest";
import { ORGANIZATION_BOUNDS, PLANS } from "../../../src/domain/accounts/plans";
import type { Principal } from "../../../src/domain/accounts/principal";
import { MemoryCounterStore } from "../../../src/domain/limits/counter-store";
import { FixedWindowLimiter } from "../../../src/domain/limits/fixed-window";
import { LookupAllowanceService } from "../../../src/domain/lookups/lookup-allowance";
import { ManualClock } from "../../../src/lib/clock";

const keyOf = (organizationId: string, keyId: string) =>
  ({
    apiKey: { id: keyId },
    organization: { id: organizationId, plan: "free" },
    plan: PLANS.free,
  }) as unknown as Principal;

function allowances() {
  const clock = new ManualClock("2026-11-22T10:00:00.000Z");
  return new LookupAllowanceService(new FixedWindowLimiter(new MemoryCounterStore(clock), clock));
}

describe("daily lookup allowances, per key and per organisation", () => {
  const perKey = PLANS.free.lookupsPerDay; // 100
  const perOrganization = perKey * ORGANIZATION_BOUNDS.keyMultiple; // 500

  it("lets an organisation's keys together spend five keys' allowance a day, exactly, when they race", async () => {
    const service = allowances();
    const keys = Array.from({ length: 7 }, (_, i) => keyOf("org-a", `key-${i}`));
    const spends = await Promise.all(
      keys.flatMap((key) => Array.from({ length: perKey }, () => service.spend(key, "vessel_schedule"))),
    );
    expect(spends.filter((s) => s.allowed)).toHaveLength(perOrganization);
    const refused = spends.find((s) => !s.allowed)!;
    expect(refused.state).toMatchObject({ limit: perOrganization, remaining: 0 });
    // Another organisation's keys are not touched.
    expect((await service.spend(keyOf("org-b", "key-x"), "vessel_schedule")).allowed).toBe(true);
  });

  it("does not let a key past its own allowance use up the organisation's, and reports the tighter bound", async () => {
    const service = allowances();
    const greedy = keyOf("org-a", "greedy");
    for (let i = 0; i < perKey + 50; i++) await service.spend(greedy, "carrier");
    const mate = await service.spend(keyOf("org-a", "mate"), "carrier");
    expect(mate.allowed).toBe(true);
    // The mate has 999 left of its own 1,000; the organisation 5,000 - 1,101 left: the key's is tighter.
    expect(mate.state).toMatchObject({ limit: PLANS.free.carrierLookupsPerDay, remaining: 999 });
  });

  it("gives a refused lookup back to the key, and a refunded one back to both", async () => {
    const service = allowances();
    const keys = Array.from({ length: ORGANIZATION_BOUNDS.keyMultiple }, (_, i) => keyOf("org-a", `k${i}`));
    for (const key of keys) for (let i = 0; i < perKey; i++) await service.spend(key, "vessel_schedule");
    const sixth = keyOf("org-a", "sixth");
    expect((await service.spend(sixth, "vessel_schedule")).allowed).toBe(false);
    expect((await service.peek(sixth, "vessel_schedule")).remaining).toBe(0); // the organisation's
    await service.refund(keys[0]!, "vessel_schedule");
    const again = await service.spend(sixth, "vessel_schedule");
    expect(again.allowed).toBe(true);
    expect(again.state).toMatchObject({ limit: perOrganization, remaining: 0 });
  });
});
