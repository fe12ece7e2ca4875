/**
 * Issue 34 on the settings the service passes the model (fitted on the service-path replay's tuning
 * split, docs/decisions/eta.md): a published late departure the ship makes good moves p50 toward the
 * first ETA the service saw, within bounds, and never on a faulty input; the carrier's window is the
 * measured slip of its horizon, not five minutes everywhere.
 */
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  type EtaInput,
  HOUR_MS,
  predictEta,
  RECOVERY_MAX_MOVE_HOURS,
  SERVICE_CARRIER_P50_SHIFT_HOURS,
  SERVICE_CARRIER_SLIP80_HOURS,
  SERVICE_MODEL_WEIGHT,
  SERVICE_RECOVERY_SLIP80_HOURS,
} from "../../../src/domain/eta/eta-model";

const now = Date.UTC(2026, 5, 1, 12);

/** What the service passes: its measured settings, the carrier's ETA and the first one it kept. */
function servicePath(carrierEta: number, firstCarrierEta: number | null, overrides: Partial<EtaInput> = {}) {
  return predictEta({
    seedKey: "service-path",
    now,
    carrierEta,
    carrierBias: {},
    vessel: null,
    pod: null,
    fallback: "not_sailing",
    carrierSlip80Hours: SERVICE_CARRIER_SLIP80_HOURS,
    carrierP50ShiftHours: SERVICE_CARRIER_P50_SHIFT_HOURS,
    modelWeight: SERVICE_MODEL_WEIGHT,
    firstCarrierEta,
    recoverySlip80Hours: SERVICE_RECOVERY_SLIP80_HOURS,
    ...overrides,
  })!;
}

describe("a published late departure the ship makes good", () => {
  it("moves p50 from the carrier's delayed ETA back by the delay, source blend, with its measured window", () => {
    const first = now + 10 * DAY_MS;
    const delayed = first + 30 * HOUR_MS;
    const prediction = servicePath(delayed, first);
    expect(prediction.source).toBe("blend");
    expect(prediction.p50).toBe(first);
    expect(prediction.p80).toBe(first + SERVICE_RECOVERY_SLIP80_HOURS["7to14d"]! * HOUR_MS);
  });

  it("moves it by at most 36 hours, so a carrier within 12 h of the truth keeps p50 within 48 h of it", () => {
    const first = now + 8 * DAY_MS;
    const delayed = first + 5 * DAY_MS;
    const prediction = servicePath(delayed, first);
    expect(prediction.p50).toBe(delayed - RECOVERY_MAX_MOVE_HOURS * HOUR_MS);
  });

  it("leaves the carrier's ETA alone beyond two weeks, where the bounded move measured no gain", () => {
    const first = now + 20 * DAY_MS;
    expect(servicePath(first + 48 * HOUR_MS, first).source).toBe("carrier");
  });

  it("leaves the carrier's ETA alone when it has not moved, moved more than ten days, or is under five days off", () => {
    const eta = now + 10 * DAY_MS;
    const shift = SERVICE_CARRIER_P50_SHIFT_HOURS["7to14d"] * HOUR_MS;
    expect(servicePath(eta, eta)).toMatchObject({ source: "carrier", p50: eta + shift });
    expect(servicePath(eta, eta - 11 * DAY_MS)).toMatchObject({ source: "carrier", p50: eta + shift });
    expect(servicePath(now + 5 * DAY_MS, now + 4 * DAY_MS).source).toBe("carrier");
    expect(servicePath(eta, null).source).toBe("carrier");
  });

  it("never moves p50 on an input the model must not trust: the carrier's ETA, named", () => {
    const first = now + 10 * DAY_MS;
    const prediction = servicePath(first + 48 * HOUR_MS, first, { fallback: "off_planned_leg" });
    expect(prediction).toMatchObject({
      source: "carrier",
      fallbackReason: "off_planned_leg",
      confidence: "low",
    });
    expect(prediction.p50).toBe(first + 48 * HOUR_MS + SERVICE_CARRIER_P50_SHIFT_HOURS["7to14d"] * HOUR_MS);
  });
});

describe("the carrier's window on the service path", () => {
  it("is the measured slip of its horizon: hours beyond two weeks, not five minutes", () => {
    const eta = now + 20 * DAY_MS;
    const prediction = servicePath(eta, eta);
    expect(prediction.p80 - prediction.p50).toBe(SERVICE_CARRIER_SLIP80_HOURS.gt14d * HOUR_MS);
    expect(prediction.p80 - prediction.p50).toBeGreaterThan(0.5 * HOUR_MS);
  });
});
