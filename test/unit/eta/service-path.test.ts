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
  RECOVERY_P50_SHIFT_HOURS,
  RECOVERY_RATE,
  SERVICE_CARRIER_P50_SHIFT_HOURS,
  SERVICE_CARRIER_SLIP80_HOURS,
  SERVICE_CONNECTION_SLIP80_HOURS,
  SERVICE_MODEL_WEIGHT,
  SERVICE_RECOVERY_SLIP80_HOURS,
} from "../../../src/domain/eta/eta-model";

const now = Date.UTC(2026, 5, 1, 12);

type Departure = NonNullable<EtaInput["departure"]>;

/**
 * What the service passes: its measured settings, the carrier's ETA, the first one it kept and what it
 * knows of the departure (by default a direct box that sails in two days on a 20-day leg, whose
 * carrier's ETA has not moved since it sailed).
 */
function servicePath(
  carrierEta: number,
  firstCarrierEta: number | null,
  overrides: Partial<EtaInput> = {},
  departure: Partial<Departure> = {},
) {
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
    departure: {
      highestCarrierEtaBeforeSailing: null,
      polDepartureAt: carrierEta - 20 * DAY_MS,
      sailedAt: null,
      transshipment: false,
      ...departure,
    },
    recoverySlip80Hours: SERVICE_RECOVERY_SLIP80_HOURS,
    ...overrides,
  })!;
}

const shift = RECOVERY_P50_SHIFT_HOURS * HOUR_MS;

describe("a published late departure the ship makes good", () => {
  it("moves p50 back to the first ETA when the delay is within a fifth of the leg, source blend, with its window", () => {
    const first = now + 20 * DAY_MS;
    const delayed = first + 3 * DAY_MS;
    const prediction = servicePath(delayed, first);
    expect(prediction.source).toBe("blend");
    expect(prediction.p50).toBe(first + shift);
    expect(prediction.p80 - prediction.p50).toBe(SERVICE_RECOVERY_SLIP80_HOURS.gt14d! * HOUR_MS);
  });

  it("keeps what the ship cannot make good: the delay beyond a fifth of the leg's time", () => {
    const first = now + 12 * DAY_MS;
    const delayed = first + 4 * DAY_MS;
    // A 10-day leg: two days made good, two left.
    const prediction = servicePath(delayed, first, {}, { polDepartureAt: delayed - 10 * DAY_MS });
    expect(RECOVERY_RATE).toBe(0.2);
    expect(prediction.p50).toBe(first + 2 * DAY_MS + shift);
  });

  it("goes on moving it at sea from the ETA published before the box sailed, until the carrier revises it later", () => {
    const first = now + 10 * DAY_MS;
    const published = first + 2 * DAY_MS;
    const sailing = { highestCarrierEtaBeforeSailing: published, polDepartureAt: published - 20 * DAY_MS };
    const sailedAt = now - 5 * DAY_MS;
    expect(servicePath(published, first, {}, { ...sailing, sailedAt }).p50).toBe(first + shift);
    // The carrier's first revision at sea brought its ETA half way: p50 stays where the ship is.
    expect(servicePath(first + DAY_MS, first, {}, { ...sailing, sailedAt }).p50).toBe(first + shift);
    // Revised later than before the departure: a delay at sea the carrier knows of, served as it is.
    const later = published + 3 * DAY_MS;
    expect(servicePath(later, first, {}, { ...sailing, sailedAt })).toMatchObject({ source: "carrier" });
  });

  it("leaves the carrier alone after four fifths of the leg, when it has published the whole delay", () => {
    const first = now + 3 * DAY_MS;
    const published = first + 2 * DAY_MS;
    const prediction = servicePath(
      first + HOUR_MS,
      first,
      {},
      {
        highestCarrierEtaBeforeSailing: published,
        polDepartureAt: published - 20 * DAY_MS,
        sailedAt: now - 17 * DAY_MS,
      },
    );
    expect(prediction).toMatchObject({ source: "carrier", p50: first + HOUR_MS });
  });

  it("leaves a transshipped box, an ETA that has not moved or moved earlier, and a box with no first ETA to the carrier", () => {
    const eta = now + 10 * DAY_MS;
    const carrierShift = SERVICE_CARRIER_P50_SHIFT_HOURS["7to14d"] * HOUR_MS;
    expect(servicePath(eta + DAY_MS, eta, {}, { transshipment: true })).toMatchObject({
      source: "carrier",
      p50: eta + DAY_MS + carrierShift,
    });
    expect(servicePath(eta, eta)).toMatchObject({ source: "carrier", p50: eta + carrierShift });
    expect(servicePath(eta, eta + DAY_MS).source).toBe("carrier");
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

describe("a roll to a later connecting sailing that the first ship's recovery makes unnecessary", () => {
  // A box booked Busan -> Singapore (10-day leg, sails in two days) -> Rotterdam, its connection
  // booked four days after the first ship's arrival. The first ship's late departure is published
  // (3 days), the carrier rolls the box to the connecting loop's sailing a week later and its ETA at
  // the port of discharge moves a week later.
  const first = now + 40 * DAY_MS;
  const firstArrivalAt = now + 12 * DAY_MS;
  const bookedDepartureAt = firstArrivalAt + 4 * DAY_MS;
  const rolled = first + 7 * DAY_MS;
  function connecting(arrivalDelayMs: number, overrides: Partial<NonNullable<EtaInput["connection"]>> = {}) {
    return servicePath(
      rolled,
      first,
      {
        connection: {
          firstArrivalAt,
          arrivalBeforeSailing: null,
          arrivalAt: firstArrivalAt + arrivalDelayMs,
          arrived: false,
          bookedDepartureAt,
          departureAt: bookedDepartureAt + 7 * DAY_MS,
          rolled: true,
          connected: false,
          ...overrides,
        },
        connectionSlip80Hours: SERVICE_CONNECTION_SLIP80_HOURS,
      },
      { transshipment: true, polDepartureAt: now + 2 * DAY_MS },
    );
  }

  it("serves the booked arrival when the ship makes good enough of its delay to connect, source blend", () => {
    // 3 days late on a 13-day leg as published: 2.6 days made good, 0.4 left; 3.6 days before the
    // booked departure, more than the 48-hour connection.
    const prediction = connecting(3 * DAY_MS);
    expect(prediction).toMatchObject({ source: "blend", p50: first });
    expect(prediction.p80 - prediction.p50).toBe(SERVICE_CONNECTION_SLIP80_HOURS.gt14d! * HOUR_MS);
  });

  it("keeps the roll when even a ship that makes good a fifth of its leg misses the connection", () => {
    // 6 days late on a 16-day leg: 3.2 days made good, 2.8 left, 1.2 days before the booked departure.
    expect(connecting(6 * DAY_MS)).toMatchObject({
      source: "carrier",
      p50: rolled + SERVICE_CARRIER_P50_SHIFT_HOURS.gt14d * HOUR_MS,
    });
  });

  it("leaves the carrier alone once the first ship has arrived or the box is on the connecting ship", () => {
    expect(connecting(3 * DAY_MS, { arrived: true }).source).toBe("carrier");
    expect(connecting(3 * DAY_MS, { connected: true }).source).toBe("carrier");
    // A connecting departure that moved less than three days is that ship's own delay, not a roll.
    expect(connecting(3 * DAY_MS, { departureAt: bookedDepartureAt + DAY_MS }).source).toBe("carrier");
    // So is the booked sailing itself leaving a week late: the connection still holds.
    expect(connecting(3 * DAY_MS, { rolled: false }).source).toBe("carrier");
  });
});

describe("a transshipped box's last ship published late at the transshipment port", () => {
  // The box's last ship leaves Singapore for Rotterdam on a 25-day leg, published 3 days late.
  const firstDepartureAt = now + 5 * DAY_MS;
  const departureAt = firstDepartureAt + 3 * DAY_MS;
  const published = departureAt + 25 * DAY_MS;
  function lastLeg(carrierEta: number, sailedAt: number | null, highest: number | null = null) {
    return servicePath(
      carrierEta,
      now - 30 * DAY_MS,
      {
        lastLeg: { firstDepartureAt, departureAt, sailedAt, highestCarrierEtaBeforeSailing: highest },
      },
      { transshipment: true, polDepartureAt: now - 30 * DAY_MS, sailedAt: now - 30 * DAY_MS },
    );
  }

  it("makes good the whole delay when it is within a fifth of the leg, before and after the ship sails", () => {
    expect(lastLeg(published, null)).toMatchObject({ source: "blend", p50: published - 3 * DAY_MS + shift });
    const atSea = { at: departureAt, eta: published };
    expect(lastLeg(published, atSea.at, atSea.eta).p50).toBe(published - 3 * DAY_MS + shift);
  });

  it("leaves the carrier alone when the departure did not move or the carrier revised its ETA later at sea", () => {
    const onTime = servicePath(
      published,
      now - 30 * DAY_MS,
      {
        lastLeg: {
          firstDepartureAt: departureAt,
          departureAt,
          sailedAt: null,
          highestCarrierEtaBeforeSailing: null,
        },
      },
      { transshipment: true },
    );
    expect(onTime.source).toBe("carrier");
    expect(lastLeg(published + 2 * DAY_MS, departureAt, published).source).toBe("carrier");
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
