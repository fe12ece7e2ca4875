/**
 * The predictive ETA model (src/domain/eta/eta-model.ts) as pure functions: its calibration on 300
 * simulated voyages of the simulator's world (a seed the offline calibration never saw), the choice of
 * source, the confidence grades and determinism.
 */
import { describe, expect, it } from "vitest";
import { checkTargets, scoreByBucket, scoredPredictions } from "../../../bench/eta-calibration/evaluate";
import { simulatedVoyages } from "../../../bench/eta-calibration/voyages";
import { CALIBRATION } from "../../../src/domain/eta/calibration-table";
import {
  DAY_MS,
  type EtaInput,
  HOUR_MS,
  horizonBucketOf,
  predictEta,
  SERVICE_CARRIER_SLIP80_HOURS,
  SERVICE_MODEL_WEIGHT,
  speedModel,
} from "../../../src/domain/eta/eta-model";

const now = Date.UTC(2026, 2, 10, 8);

function input(overrides: Partial<EtaInput> = {}): EtaInput {
  return {
    seedKey: "shipment-1",
    now,
    carrierEta: now + 10 * DAY_MS,
    carrierBias: {},
    vessel: null,
    pod: null,
    ...overrides,
  };
}

/**
 * A ship 4,800 nm out making 12 kn good over a day of fixes: about 17 days to go, a week later than a
 * 10-day carrier ETA.
 */
const slowShip = {
  fixedAt: now - HOUR_MS,
  recentSogKnots: [12, 12.1, 11.9, 12, 12.2, 11.8, 12],
  remainingNm: 4_800,
  callsAhead: [],
  madeGood: { knots: 12, fixes: 6, spanHours: 24, consistent: true },
};

describe("calibration on 300 simulated voyages (fixed seed)", () => {
  const scores = scoreByBucket(
    scoredPredictions(simulatedVoyages("eta-unit-300", 300), CALIBRATION.carrierBias),
  );

  it("keeps before-p50 in 0.40-0.60 and before-p80 in 0.72-0.88 in every bucket with at least 100 voyages", () => {
    const judged = scores.filter((s) => s.voyages >= 100);
    expect(judged.map((s) => s.bucket)).toEqual(["le1d", "1to3d", "3to7d", "7to14d", "gt14d"]);
    for (const s of judged) {
      expect(s.beforeP50, `${s.bucket} before p50`).toBeGreaterThanOrEqual(0.4);
      expect(s.beforeP50, `${s.bucket} before p50`).toBeLessThanOrEqual(0.6);
      expect(s.beforeP80, `${s.bucket} before p80`).toBeGreaterThanOrEqual(0.72);
      expect(s.beforeP80, `${s.bucket} before p80`).toBeLessThanOrEqual(0.88);
    }
  });

  it("has a smaller p50 error than the carrier's own ETA beyond three days", () => {
    for (const s of scores.filter((b) => ["3to7d", "7to14d", "gt14d"].includes(b.bucket))) {
      expect(s.maeP50Hours, s.bucket).toBeLessThan(s.maeCarrierHours);
    }
    expect(checkTargets(scores).flatMap((c) => c.failures)).toEqual([]);
  });
});

describe("predictEta", () => {
  it("gives the same answer for the same input and hour, whatever the process", () => {
    const a = predictEta(input({ vessel: slowShip }));
    const b = predictEta(input({ vessel: slowShip }));
    expect(a).toEqual(b);
  });

  it("answers nothing without a carrier ETA or a vessel position", () => {
    expect(predictEta(input({ carrierEta: null }))).toBeNull();
  });

  it("serves the carrier's own ETA as p50 when there is no position, whatever its measured bias", () => {
    const plain = predictEta(input())!;
    const biased = predictEta(
      input({ carrierBias: { "7to14d": { medianHours: 30, q80Hours: 60, arrivals: 200 } } }),
    )!;
    expect(plain.source).toBe("carrier");
    expect(plain.p50).toBe(now + 10 * DAY_MS);
    expect(biased.p50).toBe(plain.p50);
    expect(plain.p80).toBeGreaterThan(plain.p50);
  });

  it("trusts a fresh position of a ship that has slowed over an unrevised carrier ETA, by at most 72 hours", () => {
    const prediction = predictEta(input({ vessel: slowShip }))!;
    const carrierEta = now + 10 * DAY_MS;
    expect(prediction.source).toBe("model");
    expect(prediction.fallbackReason).toBeNull();
    expect(prediction.horizonBucket).toBe("gt14d");
    // The model says a week later; p50 moves toward it, bounded (issue 34: p50 weeks late).
    expect((prediction.p50 - carrierEta) / HOUR_MS).toBeGreaterThan(12);
    expect((prediction.p50 - carrierEta) / HOUR_MS).toBeLessThanOrEqual(72);
  });

  it("gives no weight to a ship steaming at 12 kn that makes only 8 kn good toward its next planned call", () => {
    // Its rotation calls at a port the box's plan does not name: the remaining distance is not its route.
    const detouring = { ...slowShip, madeGood: { ...slowShip.madeGood, knots: 8 }, remainingNm: 3_200 };
    const prediction = predictEta(input({ vessel: detouring }))!;
    expect(prediction.source).toBe("carrier");
    expect(prediction.p50).toBe(now + 10 * DAY_MS);
  });

  it("serves the carrier's ETA exactly, with the service path's window, on the service's settings", () => {
    const service = { carrierSlip80Hours: SERVICE_CARRIER_SLIP80_HOURS, modelWeight: SERVICE_MODEL_WEIGHT };
    const prediction = predictEta(input({ vessel: slowShip, ...service }))!;
    expect(prediction.source).toBe("carrier");
    expect(prediction.p50).toBe(now + 10 * DAY_MS);
    // The measured slip, widened a little for a fix an hour old (never narrower).
    const spreadHours = (prediction.p80 - prediction.p50) / HOUR_MS;
    expect(spreadHours).toBeGreaterThanOrEqual(SERVICE_CARRIER_SLIP80_HOURS["7to14d"]);
    expect(spreadHours).toBeLessThanOrEqual(1.25 * SERVICE_CARRIER_SLIP80_HOURS["7to14d"]);
    // A fault widens that window (never narrows it), by at most a quarter.
    const stale = predictEta(input({ vessel: { ...slowShip, fixedAt: now - 48 * HOUR_MS }, ...service }))!;
    expect(stale.fallbackReason).toBe("stale_position");
    expect(stale.p50).toBe(prediction.p50);
    expect(stale.p80 - stale.p50).toBeGreaterThanOrEqual(prediction.p80 - prediction.p50);
    expect(stale.p80 - stale.p50).toBeLessThanOrEqual(
      1.25 * SERVICE_CARRIER_SLIP80_HOURS["7to14d"] * HOUR_MS + 1,
    );
  });

  it("lets an old fix count less: a two-day-old position makes it the carrier's again", () => {
    const stale = predictEta(input({ vessel: { ...slowShip, fixedAt: now - 48 * HOUR_MS } }))!;
    expect(stale.source).toBe("carrier");
    expect((stale.p50 - now) / DAY_MS).toBeLessThan(12);
  });

  it("adds the congested port of discharge's wait to the model", () => {
    const pod = { medianWaitHours: 96, anchoredShare: 1, tier: "A" as const, congested: true };
    const base = predictEta(input({ carrierEta: null, vessel: slowShip }))!;
    const queued = predictEta(input({ carrierEta: null, vessel: slowShip, pod }))!;
    expect(base.source).toBe("model");
    expect((queued.p50 - base.p50) / HOUR_MS).toBeGreaterThan(60);
  });

  it("grades a carrier-only estimate without measured history low or medium, never high", () => {
    const far = predictEta(input({ carrierEta: now + 30 * DAY_MS }))!;
    expect(far.confidence).not.toBe("high");
    expect(["low", "medium"]).toContain(predictEta(input())!.confidence);
  });

  it("uses the vessel's own speed with six underway fixes, else the 15 kn lane prior", () => {
    expect(speedModel([12, 12, 12, 12, 12, 12]).medianKnots).toBe(12);
    expect(speedModel([12, 12, 12, 0, 0.2, 12]).medianKnots).toBe(15);
  });

  it("buckets horizons at 1, 3, 7 and 14 days", () => {
    expect([0.5, 2, 5, 10, 20].map((d) => horizonBucketOf(d * DAY_MS))).toEqual([
      "le1d",
      "1to3d",
      "3to7d",
      "7to14d",
      "gt14d",
    ]);
  });
});
