import { describe, expect, it } from "vitest";
import { assessDocument, demurrageRiskOf } from "../../../src/domain/demurrage/dnd-assessment";
import type { PortContext } from "../../../src/domain/demurrage/dnd-clock";
import { equipmentClassOf } from "../../../src/domain/demurrage/equipment";
import { importDocument, tariff, US_DETENTION } from "./fixtures";

const LAX: PortContext = {
  locode: "USLAX",
  countryCode: "US",
  timeZone: "America/Los_Angeles",
  holidays: { countryCode: "US", state: "California" },
  dwellDays: 3,
};
const TARIFFS = [tariff({ id: "maeu-uslax" }), US_DETENTION];

// Friday 22 November 2024, 10:00 in Los Angeles.
const DISCHARGED = "2024-11-22T18:00:00Z";
const GATED_OUT = "2024-12-05T17:00:00Z"; // Thursday 5 December
const RETURNED = "2024-12-12T20:00:00Z"; // Thursday 12 December

function assessAt(now: string, milestones: Parameters<typeof importDocument>[0]["milestones"]) {
  const doc = importDocument({ milestones, eta: DISCHARGED, fetchedAt: now });
  const [box] = assessDocument({
    organizationId: "org-a",
    doc,
    tariffs: TARIFFS,
    port: LAX,
    now: new Date(now),
  });
  return box!;
}

const discharge = { code: "DISC", at: DISCHARGED, actual: true } as const;
const gateOut = { code: "GTOT", at: GATED_OUT, actual: true } as const;
const emptyReturn = { code: "GTIN", at: RETURNED, actual: true, empty: true } as const;

describe("demurrage and detention clocks", () => {
  it("before discharge: counted from the expected discharge, the pickup projected from the port's dwell", () => {
    const box = assessAt("2024-11-10T12:00:00Z", [{ code: "DISC", at: DISCHARGED, actual: false }]);
    expect(box.demurrage).toMatchObject({
      status: "within_free_time",
      clockStartedAt: null,
      lastFreeDay: "2024-12-02",
      daysRemaining: 22,
      overrunDays: 0,
      accruedCost: 0,
      projectedPickup: "2024-11-25",
      projectedOverrunDays: 0,
      projectedCost: 0,
      termsSource: "carrier_port_tariff",
    });
    expect(box.detention).toBeNull();
  });

  it("detention is null while the box is at the port", () => {
    const box = assessAt("2024-11-25T20:00:00Z", [discharge]);
    expect(box.demurrage.clockStartedAt).toBe(DISCHARGED);
    expect(box.detention).toBeNull();
  });

  it("moves within_free_time -> at_risk -> overdue -> closed, then detention runs to closed", () => {
    const statuses = (now: string, milestones: Parameters<typeof assessAt>[1]) => {
      const box = assessAt(now, milestones);
      return { demurrage: box.demurrage.status, detention: box.detention?.status ?? null };
    };
    // Sunday 24 Nov: 8 days to the last free day (Mon 2 Dec).
    expect(statuses("2024-11-24T20:00:00Z", [discharge])).toEqual({
      demurrage: "within_free_time",
      detention: null,
    });
    // Friday 29 Nov: 3 days left.
    expect(statuses("2024-11-29T20:00:00Z", [discharge])).toEqual({ demurrage: "at_risk", detention: null });
    // Wednesday 4 Dec: two days past.
    expect(statuses("2024-12-04T20:00:00Z", [discharge])).toEqual({ demurrage: "overdue", detention: null });
    // Gated out Thursday 5 Dec: demurrage closed, detention (4 calendar days from the next day) starts.
    expect(statuses("2024-12-05T20:00:00Z", [discharge, gateOut])).toEqual({
      demurrage: "closed",
      detention: "within_free_time",
    });
    expect(statuses("2024-12-08T20:00:00Z", [discharge, gateOut])).toEqual({
      demurrage: "closed",
      detention: "at_risk",
    });
    expect(statuses("2024-12-11T20:00:00Z", [discharge, gateOut])).toEqual({
      demurrage: "closed",
      detention: "overdue",
    });
    expect(statuses("2024-12-13T20:00:00Z", [discharge, gateOut, emptyReturn])).toEqual({
      demurrage: "closed",
      detention: "closed",
    });
  });

  it("costs the overrun: accrued while running, final once closed", () => {
    const overdue = assessAt("2024-12-04T20:00:00Z", [discharge]).demurrage;
    expect(overdue).toMatchObject({
      lastFreeDay: "2024-12-02",
      daysRemaining: -2,
      overrunDays: 2,
      accruedCost: 470,
      nextDailyRate: 235,
    });
    const closed = assessAt("2024-12-13T20:00:00Z", [discharge, gateOut, emptyReturn]);
    // Tue 3 to Thu 5 December: 3 calendar days at USD 235.
    expect(closed.demurrage).toMatchObject({
      status: "closed",
      overrunDays: 3,
      accruedCost: 705,
      daysRemaining: null,
    });
    // Detention from Fri 6: free to Mon 9, charged Tue 10 to Thu 12 at USD 75.
    expect(closed.detention).toMatchObject({
      lastFreeDay: "2024-12-09",
      overrunDays: 3,
      accruedCost: 225,
      termsSource: "benchmark",
    });
  });

  it("at risk before discharge when the projected pickup falls after the last free day", () => {
    const slowPort = { ...LAX, dwellDays: 14 };
    const doc = importDocument({ milestones: [], eta: DISCHARGED, fetchedAt: "2024-11-10T12:00:00Z" });
    const [box] = assessDocument({
      organizationId: "o",
      doc,
      tariffs: TARIFFS,
      port: slowPort,
      now: new Date("2024-11-10T12:00:00Z"),
    });
    expect(box!.demurrage).toMatchObject({
      status: "at_risk",
      projectedPickup: "2024-12-06",
      projectedOverrunDays: 4,
      projectedCost: 940,
    });
  });

  it("is not stale when the carrier confirmed unchanged facts recently, only when it has not answered", () => {
    // The version was stored five days ago; the carrier has answered the same since (no new version).
    const doc = importDocument({
      milestones: [discharge],
      eta: DISCHARGED,
      fetchedAt: "2024-11-20T00:00:00Z",
    });
    const now = new Date("2024-11-25T00:00:00Z");
    const assess = (factsConfirmedAt: string | null) =>
      assessDocument({ organizationId: "o", doc, tariffs: TARIFFS, port: LAX, now, factsConfirmedAt })[0]!;
    expect(assess("2024-11-24T23:00:00Z").demurrage.status).not.toBe("unknown");
    expect(assess("2024-11-24T23:00:00Z").demurrage.lastFreeDay).not.toBeNull();
    expect(assess("2024-11-21T00:00:00Z").demurrage).toMatchObject({
      status: "unknown",
      unknownReason: "stale_tracking_facts",
    });
    expect(assess(null).demurrage.unknownReason).toBe("stale_tracking_facts");
  });

  it("unknown, with the reason, when terms or fresh facts are missing", () => {
    const doc = importDocument({
      milestones: [discharge],
      eta: DISCHARGED,
      fetchedAt: "2024-11-20T00:00:00Z",
    });
    const now = new Date("2024-11-25T00:00:00Z");
    const [stale] = assessDocument({ organizationId: "o", doc, tariffs: TARIFFS, port: LAX, now });
    expect(stale!.demurrage).toMatchObject({
      status: "unknown",
      unknownReason: "stale_tracking_facts",
      lastFreeDay: null,
    });
    const [noTerms] = assessDocument({
      organizationId: "o",
      doc: { ...doc, fetchedAt: now.toISOString() },
      tariffs: [],
      port: LAX,
      now,
    });
    expect(noTerms!.demurrage).toMatchObject({ status: "unknown", unknownReason: "no_terms" });
    const noEta = importDocument({ milestones: [], eta: null, fetchedAt: now.toISOString() });
    const [waiting] = assessDocument({ organizationId: "o", doc: noEta, tariffs: TARIFFS, port: LAX, now });
    expect(waiting!.demurrage).toMatchObject({ status: "unknown", unknownReason: "no_expected_discharge" });
    expect(demurrageRiskOf([], null)).toMatchObject({
      status: "unknown",
      unknownReason: "no_tracking_facts",
      containers: 0,
    });
  });

  it("a combined tariff runs one clock from discharge to empty return, with no separate detention", () => {
    const sg = { locode: "SGSIN", countryCode: "SG", state: null, timeZone: "Asia/Singapore" };
    const combined = tariff({
      id: "sg-combined",
      portLocode: "SGSIN",
      chargeType: "combined",
      equipment: "dry40",
      freeDays: 5,
      freeDayBasis: "calendar",
      clockStartRule: "same_day",
      clockEnd: "EMPTY_RETURN",
      slabs: [
        { fromDay: 1, toDay: 5, rate: 85 },
        { fromDay: 6, toDay: 15, rate: 110 },
        { fromDay: 16, toDay: null, rate: 140 },
      ],
      currency: "SGD",
    });
    const doc = importDocument({
      pod: sg,
      eta: "2024-08-01T02:00:00Z",
      fetchedAt: "2024-08-16T00:00:00Z",
      milestones: [
        { code: "DISC", at: "2024-08-01T02:00:00Z", actual: true },
        { code: "GTOT", at: "2024-08-09T02:00:00Z", actual: true },
        { code: "GTIN", at: "2024-08-15T02:00:00Z", actual: true, empty: true },
      ],
    });
    const port = {
      locode: "SGSIN",
      countryCode: "SG",
      timeZone: "Asia/Singapore",
      holidays: { countryCode: "SG", state: null },
      dwellDays: 3,
    };
    const [box] = assessDocument({
      organizationId: "o",
      doc,
      tariffs: [combined],
      port,
      now: new Date("2024-08-16T00:00:00Z"),
    });
    expect(box!.detention).toBeNull();
    expect(box!.demurrage).toMatchObject({
      chargeType: "combined",
      status: "closed",
      lastFreeDay: "2024-08-05",
      accruedCost: 975,
      currency: "SGD",
    });
  });
});

describe("equipment classes", () => {
  it.each([
    ["22G1", "dry20"],
    ["42G1", "dry40"],
    ["45G1", "hc40"],
    ["40HC", "hc40"],
    ["22R1", "reefer20"],
    ["45R1", "reefer40"],
    ["22U1", "special20"],
    [null, "any"],
  ])("%s is %s", (code, expected) => {
    expect(equipmentClassOf(code, null)).toBe(expected);
  });
});

describe("one last free day when the terminal record gives one", () => {
  // Discharged Friday 22 November; the published tariff's four working days end 2 December.
  const now = "2024-11-27T20:00:00Z";
  const contract = tariff({ id: "contract", organizationId: "org-a", freeDays: 1, freeDayBasis: "calendar" });
  const assess = (tariffs: typeof TARIFFS, givenBy: "line" | "terminal") =>
    assessDocument({
      organizationId: "org-a",
      doc: importDocument({ milestones: [discharge], eta: DISCHARGED, fetchedAt: now }),
      tariffs,
      port: LAX,
      now: new Date(now),
      terminalLastFreeDays: new Map([["MSKU1234565", { day: "2024-11-29", givenBy }]]),
    })[0]!.demurrage;

  it("the terminal's storage day beats a published tariff's count", () => {
    expect(assess(TARIFFS, "terminal")).toMatchObject({
      lastFreeDay: "2024-11-29",
      lastFreeDaySource: "terminal",
      status: "at_risk",
    });
  });

  it("the organisation's contract with the line beats the terminal's storage day", () => {
    expect(assess([contract, ...TARIFFS], "terminal")).toMatchObject({
      lastFreeDay: "2024-11-23",
      lastFreeDaySource: "tariff",
      termsSource: "contract",
      status: "overdue",
    });
  });

  it("the line's day at the terminal beats even the contract", () => {
    expect(assess([contract, ...TARIFFS], "line")).toMatchObject({
      lastFreeDay: "2024-11-29",
      lastFreeDaySource: "terminal",
      termsSource: "contract",
    });
  });
});
