import { describe, expect, it } from "vitest";
import { PLANS } from "../../../src/domain/accounts/plans";
import type { Principal } from "../../../src/domain/accounts/principal";
import { CARRIERS, withCarrierStatus } from "../../../src/domain/carriers/carrier-directory";
import { MemoryCounterStore } from "../../../src/domain/limits/counter-store";
import { FixedWindowLimiter } from "../../../src/domain/limits/fixed-window";
import { lookupCandidates } from "../../../src/domain/lookups/carrier-lookup";
import {
  type CarrierEvidenceSources,
  CarrierLookupService,
} from "../../../src/domain/lookups/carrier-lookup.service";
import { LookupAllowanceService } from "../../../src/domain/lookups/lookup-allowance";
import { MemoryLookupCache } from "../../../src/domain/lookups/lookup-cache";
import { parseReference } from "../../../src/domain/references/reference";
import { ManualClock } from "../../../src/lib/clock";

const parsed = (number: string, type?: "container" | "bl") => {
  const result = parseReference(number, type);
  if (!result.ok) throw new Error(result.message);
  return result.value;
};
const none = { history: [], prefixPopularity: [] };
const summary = (cs: { scac: string; source: string; confidence: string }[]) =>
  cs.map((c) => `${c.scac}:${c.source}:${c.confidence}`);

describe("carrier lookup sources", () => {
  it("spec (high): a bill matching the carrier's whole published layout", () => {
    expect(summary(lookupCandidates(parsed("MEDUFR030802", "bl"), none, CARRIERS))).toEqual([
      "MSCU:spec:high",
    ]);
    expect(summary(lookupCandidates(parsed("HLCUSEL251063157", "bl"), none, CARRIERS))).toEqual([
      "HLCU:spec:high",
    ]);
  });

  it("bl-sealines (high): a bill starting with one of a line's SCACs, layout unknown or not matched", () => {
    expect(summary(lookupCandidates(parsed("MEDU12", "bl"), none, CARRIERS))).toEqual([
      "MSCU:bl-sealines:high",
    ]);
    expect(summary(lookupCandidates(parsed("CMAU0042", "bl"), none, CARRIERS))).toEqual([
      "CMDU:bl-sealines:high",
    ]);
  });

  it("bl-prefix (medium): another prefix the carrier prints on its bills", () => {
    expect(summary(lookupCandidates(parsed("PABV123456", "bl"), none, CARRIERS))).toEqual([
      "PCIU:bl-prefix:medium",
    ]);
    expect(summary(lookupCandidates(parsed("MRKU123456789", "bl"), none, CARRIERS))).toEqual([
      "MAEU:bl-prefix:medium",
    ]);
  });

  it("bic (medium) for an owner prefix; nothing for a lessor's box without data", () => {
    expect(summary(lookupCandidates(parsed("MAEU1234567"), none, CARRIERS))).toEqual(["MAEU:bic:medium"]);
    expect(lookupCandidates(parsed("TEXU3070079"), none, CARRIERS)).toEqual([]);
  });

  it("history (high) leads; prefix-popularity (low) follows; each carrier once, under its strongest source", () => {
    const candidates = lookupCandidates(
      parsed("TEXU3070079"),
      { history: ["ONEY"], prefixPopularity: ["MSCU", "ONEY", "CMDU"] },
      CARRIERS,
    );
    expect(summary(candidates)).toEqual([
      "ONEY:history:high",
      "MSCU:prefix-popularity:low",
      "CMDU:prefix-popularity:low",
    ]);
    expect(candidates[0]).toMatchObject({
      name: "Ocean Network Express (ONE)",
      slug: "one",
      status: "active",
    });
  });

  it("keeps a carrier under maintenance (with its status) and drops a disabled one", () => {
    const directory = withCarrierStatus({ MSCU: "maintenance", HLCU: "disabled" });
    expect(lookupCandidates(parsed("MEDUFR030802", "bl"), none, directory)[0]).toMatchObject({
      scac: "MSCU",
      status: "maintenance",
    });
    expect(lookupCandidates(parsed("HLCUSEL251063157", "bl"), none, directory)).toEqual([]);
  });
});

function principal(): Principal {
  return {
    apiKey: { id: "key-1" },
    organization: { id: "org-1" },
    plan: PLANS.free,
  } as unknown as Principal;
}

function service(sources: CarrierEvidenceSources, clock = new ManualClock("2026-11-20T10:00:00Z")) {
  const limiter = new FixedWindowLimiter(new MemoryCounterStore(clock), clock);
  const allowance = new LookupAllowanceService(limiter);
  return {
    allowance,
    lookups: new CarrierLookupService({
      directory: CARRIERS,
      sources,
      allowance,
      cache: new MemoryLookupCache(clock),
      sourceTimeoutMs: 50,
    }),
  };
}

describe("the carrier lookup service", () => {
  it("reports slow or failing sources as unavailable, still answers, and does not cache that answer", async () => {
    const { lookups } = service({
      history: () => new Promise((resolve) => setTimeout(() => resolve(["MSCU"]), 500)),
      prefixPopularity: () => Promise.reject(new Error("database down")),
    });
    const first = await lookups.lookup(principal(), { number: "TEXU3070079" });
    expect(first).toMatchObject({
      kind: "result",
      result: {
        carrier: null,
        candidates: [],
        sourcesUnavailable: ["history", "prefix-popularity"],
        cached: false,
      },
    });
    const again = await lookups.lookup(principal(), { number: "TEXU3070079" });
    expect(again).toMatchObject({ kind: "result", result: { cached: false }, allowance: { remaining: 998 } });
  });

  it("serves a complete answer again from the cache, free and without an allowance", async () => {
    const { lookups, allowance } = service({
      history: async () => [],
      prefixPopularity: async () => ["MSCU"],
    });
    const first = await lookups.lookup(principal(), { number: "TGHU1234567" });
    expect(first).toMatchObject({ result: { carrier: { scac: "MSCU", confidence: "low" }, cached: false } });
    const again = await lookups.lookup(principal(), { number: "tghu 123456-7" });
    expect(again).toMatchObject({ result: { cached: true }, allowance: null });
    expect((await allowance.peek(principal(), "carrier")).remaining).toBe(999);
  });

  it("refuses an invalid number without spending", async () => {
    const { lookups, allowance } = service({ history: async () => [], prefixPopularity: async () => [] });
    expect(await lookups.lookup(principal(), { number: "MSCU1234560" })).toMatchObject({
      kind: "invalid_reference",
      reason: "invalid_check_digit",
    });
    expect((await allowance.peek(principal(), "carrier")).remaining).toBe(1000);
  });
});
