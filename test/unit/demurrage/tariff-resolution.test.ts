import { describe, expect, it } from "vitest";
import type { Tariff } from "../../../src/domain/demurrage/model";
import { resolveTerms } from "../../../src/domain/demurrage/tariff-resolution";
import { tariff } from "./fixtures";

const ORG = "org-a";
const query = {
  organizationId: ORG,
  carrierScac: "MAEU",
  portLocode: "USLAX",
  countryCode: "US",
  direction: "import",
  chargeTypes: ["demurrage", "combined"],
  equipment: "dry40",
  onDate: "2024-11-22",
} as const;

const contract = tariff({ id: "contract", organizationId: ORG, freeDays: 10 });
const otherOrgsContract = tariff({ id: "other-contract", organizationId: "org-b", freeDays: 30 });
const carrierPort = tariff({ id: "carrier-port", freeDays: 4 });
const carrierCountry = tariff({ id: "carrier-country", portLocode: null, countryCode: "US", freeDays: 5 });
const benchmarkPort = tariff({ id: "bench-port", carrierScac: null, freeDays: 3, isEstimate: true });
const benchmarkCountry = tariff({
  id: "bench-country",
  carrierScac: null,
  portLocode: null,
  countryCode: "US",
});
const benchmarkEverywhere = tariff({
  id: "bench-all",
  carrierScac: null,
  portLocode: null,
  equipment: "any",
});
const otherCarrier = tariff({ id: "other-carrier", carrierScac: "MSCU", freeDays: 1 });

describe("tariff resolution: contract > carrier port > carrier country > benchmark", () => {
  it("takes each kind in turn as the better ones are removed", () => {
    const all: Tariff[] = [
      benchmarkEverywhere,
      benchmarkCountry,
      benchmarkPort,
      otherCarrier,
      carrierCountry,
      carrierPort,
      otherOrgsContract,
      contract,
    ];
    const seen: [string, string, string][] = [];
    let left = all;
    for (;;) {
      const found = resolveTerms(left, query);
      if (!found) break;
      seen.push([found.tariff.id, found.termsSource, found.confidence]);
      left = left.filter((t) => t !== found.tariff);
    }
    expect(seen).toEqual([
      ["contract", "contract", "high"],
      ["carrier-port", "carrier_port_tariff", "medium"],
      ["carrier-country", "carrier_country_tariff", "medium"],
      ["bench-port", "benchmark", "low"],
      ["bench-country", "benchmark", "low"],
      ["bench-all", "benchmark", "low"],
    ]);
  });

  it("never uses another organisation's contract or another carrier's tariff", () => {
    expect(resolveTerms([otherOrgsContract, otherCarrier], query)).toBeNull();
  });

  it("a contract for one carrier beats one for every carrier; a port contract beats a country one", () => {
    const anyCarrier = tariff({ id: "any-carrier", organizationId: ORG, carrierScac: null });
    const country = tariff({ id: "country", organizationId: ORG, portLocode: null, countryCode: "US" });
    expect(resolveTerms([anyCarrier, contract], query)?.tariff.id).toBe("contract");
    expect(resolveTerms([country, anyCarrier], query)?.tariff.id).toBe("any-carrier");
  });

  it("a published estimate is low confidence even from the carrier", () => {
    const estimate = tariff({ id: "estimate", isEstimate: true });
    expect(resolveTerms([estimate], query)).toMatchObject({
      termsSource: "carrier_port_tariff",
      confidence: "low",
    });
  });

  it("picks the tariff in force on the clock's start day (Maersk Singapore split until 4 Jul 2024, combined from 5 Jul)", () => {
    const split = tariff({
      id: "sg-split",
      portLocode: "SGSIN",
      equipment: "dry40",
      effectiveFrom: "2018-04-01",
      effectiveTo: "2024-07-04",
    });
    const combined = tariff({
      id: "sg-combined",
      portLocode: "SGSIN",
      chargeType: "combined",
      equipment: "dry40",
      effectiveFrom: "2024-07-05",
    });
    const sg = { ...query, portLocode: "SGSIN", countryCode: "SG" };
    expect(resolveTerms([split, combined], { ...sg, onDate: "2024-07-04" })?.tariff.id).toBe("sg-split");
    expect(resolveTerms([split, combined], { ...sg, onDate: "2024-07-05" })?.tariff.id).toBe("sg-combined");
  });

  it("a high cube falls back to the 40' dry row, a reefer never to a dry one", () => {
    const dry40 = tariff({ id: "dry40", equipment: "dry40" });
    const dry = tariff({ id: "dry", equipment: "dry" });
    expect(resolveTerms([dry, dry40], { ...query, equipment: "hc40" })?.tariff.id).toBe("dry40");
    expect(resolveTerms([dry, dry40], { ...query, equipment: "reefer40" })).toBeNull();
  });
});
