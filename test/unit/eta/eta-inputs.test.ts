/**
 * Issue 34 item 2 on the pure model: inputs it must not trust are detected and named, the prediction
 * then falls back to the carrier's ETA at low confidence; the model moves p50 off the carrier only on
 * strong, consistent progress and by a bounded amount; the window widens as inputs weaken, never
 * narrows; a ship ahead of its previous projection moves p50 earlier.
 */
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  type EtaInput,
  HOUR_MS,
  MAX_MOVE_HOURS,
  predictEta,
  type VesselProgress,
} from "../../../src/domain/eta/eta-model";

const now = Date.UTC(2026, 2, 10, 8);
const carrierEta = now + 10 * DAY_MS;

function input(overrides: Partial<EtaInput> = {}): EtaInput {
  return { seedKey: "shipment-2", now, carrierEta, carrierBias: {}, vessel: null, pod: null, ...overrides };
}

/** 4,800 nm to go at 12 kn made good over a day of fixes: a week behind the carrier's 10 days. */
const lateShip: VesselProgress = {
  fixedAt: now - HOUR_MS,
  recentSogKnots: [12, 12, 12, 12, 12, 12],
  remainingNm: 4_800,
  callsAhead: [],
  madeGood: { knots: 12, fixes: 6, spanHours: 24, consistent: true },
};

const spread = (p: { p50: number; p80: number }) => p.p80 - p.p50;

describe("untrustworthy inputs fall back to the carrier, named", () => {
  // A carrier measured on many arrivals: its ETA alone is graded medium when nothing is in doubt.
  const measured = { "7to14d": { medianHours: 0, q80Hours: 12, arrivals: 300 } };
  const carrierOnly = predictEta(input({ carrierBias: measured, fallback: "not_sailing" }))!;

  it.each([
    ["off_planned_leg", input({ fallback: "off_planned_leg" })],
    ["no_route", input({ fallback: "no_route" })],
    ["position_unknown", input({ fallback: "position_unknown" })],
    ["stale_position", input({ vessel: { ...lateShip, fixedAt: now - 13 * HOUR_MS } })],
    [
      "not_making_way",
      input({ vessel: { ...lateShip, madeGood: { knots: 0.4, fixes: 4, spanHours: 8, consistent: true } } }),
    ],
    ["not_making_way", input({ vessel: { ...lateShip, madeGood: null, courseOffRouteDeg: 170 } })],
  ] as const)("%s: source carrier, confidence low, p50 the carrier's", (reason, given) => {
    const prediction = predictEta({ ...given, carrierBias: measured })!;
    expect(prediction.fallbackReason).toBe(reason);
    expect(prediction.source).toBe("carrier");
    expect(prediction.confidence).toBe("low");
    expect(prediction.p50).toBe(carrierOnly.p50);
  });

  it("answers nothing for a fault when there is no carrier ETA to fall back to", () => {
    expect(predictEta(input({ carrierEta: null, fallback: "off_planned_leg" }))).toBeNull();
    expect(
      predictEta(input({ carrierEta: null, vessel: { ...lateShip, fixedAt: now - 20 * HOUR_MS } })),
    ).toBeNull();
  });

  it("keeps nothing sailing a state, not a fault: the carrier at its usual confidence", () => {
    expect(carrierOnly.fallbackReason).toBe("not_sailing");
    expect(carrierOnly.confidence).toBe("medium");
  });
});

describe("the model moves p50 only on strong, consistent evidence, and boundedly", () => {
  it("leaves the carrier alone on one fix, however fresh (no measured progress yet)", () => {
    const prediction = predictEta(input({ vessel: { ...lateShip, madeGood: null } }))!;
    expect(prediction.source).toBe("carrier");
    expect(prediction.fallbackReason).toBeNull();
    expect(Math.abs(prediction.p50 - carrierEta)).toBeLessThan(HOUR_MS);
  });

  it("leaves the carrier alone when successive fixes disagree with each other", () => {
    const made = { knots: 12, fixes: 6, spanHours: 24, consistent: false };
    const prediction = predictEta(input({ vessel: { ...lateShip, madeGood: made } }))!;
    expect(prediction.source).toBe("carrier");
  });

  it("never moves p50 more than 36 hours from the carrier, whatever the ship's progress says", () => {
    for (const knots of [4, 6, 9, 12]) {
      const made = { knots, fixes: 8, spanHours: 30, consistent: true };
      const prediction = predictEta(input({ vessel: { ...lateShip, madeGood: made } }))!;
      expect(Math.abs(prediction.p50 - carrierEta)).toBeLessThanOrEqual(MAX_MOVE_HOURS * HOUR_MS);
    }
  });

  it("moves p50 earlier with each fix when the ship makes more way than it was projected to", () => {
    // Hourly fixes of a ship 66 hours behind its carrier's 10 days at 14 kn made good: every hour its
    // distance to go falls by two hours' sailing more than the hour, so it is ahead of its previous
    // projection each time and p50 comes earlier each time.
    const p50s: number[] = [];
    for (let hour = 0; hour < 6; hour++) {
      const at = now + hour * HOUR_MS;
      const hoursToGo = 240 - hour + (66 - 2 * hour);
      const made = { knots: 14, fixes: 6 + hour, spanHours: 24 + hour, consistent: true };
      const vessel = { ...lateShip, fixedAt: at - HOUR_MS, remainingNm: hoursToGo * 14, madeGood: made };
      const prediction = predictEta(input({ now: at, vessel }))!;
      expect(prediction.source).not.toBe("carrier");
      p50s.push(prediction.p50);
    }
    for (let i = 1; i < p50s.length; i++) expect(p50s[i]).toBeLessThan(p50s[i - 1]!);
  });
});

describe("the window widens as inputs weaken, never narrows", () => {
  it("is no narrower for an older fix, fewer fixes or disagreeing fixes", () => {
    const strong = predictEta(input({ vessel: lateShip }))!;
    const older = predictEta(input({ vessel: { ...lateShip, fixedAt: now - 5 * HOUR_MS } }))!;
    const oneFix = predictEta(input({ vessel: { ...lateShip, madeGood: null } }))!;
    const stale = predictEta(input({ vessel: { ...lateShip, fixedAt: now - 13 * HOUR_MS } }))!;
    const lost = predictEta(input({ fallback: "position_unknown" }))!;
    expect(spread(older)).toBeGreaterThanOrEqual(spread(strong));
    expect(spread(stale)).toBeGreaterThanOrEqual(spread(strong));
    expect(spread(stale)).toBeGreaterThanOrEqual(spread(older));
    expect(spread(stale)).toBeGreaterThanOrEqual(spread(oneFix));
    expect(spread(lost)).toBeGreaterThanOrEqual(spread(oneFix));
  });

  it("gives a fallback for a fault a wider window than the carrier with nothing to doubt", () => {
    for (const days of [2, 5, 10, 20]) {
      const at = { carrierEta: now + days * DAY_MS };
      const plain = predictEta(input({ ...at, fallback: "not_sailing" }))!;
      const faulty = predictEta(input({ ...at, fallback: "off_planned_leg" }))!;
      expect(spread(faulty), `${days} d`).toBeGreaterThan(spread(plain));
    }
  });
});
