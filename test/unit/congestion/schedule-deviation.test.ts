/**
 * The schedule-deviation signal (src/domain/congestion/signals.ts): median hours of actual arrival
 * against the proforma over the 14 days ending at the day's end, early arrivals negative.
 */
import { describe, expect, it } from "vitest";
import { daySignals } from "../../../src/domain/congestion/signals";

const DAY_MS = 86_400_000;
const end = Date.UTC(2026, 10, 20);

function signals(deviations: { daysAgo: number; hours: number }[]) {
  return daySignals({
    end,
    waits: [],
    arrivals: [],
    stillOpenAfter: end,
    shipments: {
      dwellDays: [],
      etaSlipHours: [],
      scheduleDeviationHours: deviations.map((d) => ({ at: end - d.daysAgo * DAY_MS, value: d.hours })),
    },
  });
}

describe("schedule deviation signal", () => {
  it("is the median lateness of the arrivals in the last 14 days, rounded to 0.1 h", () => {
    const day = signals([
      { daysAgo: 1, hours: 30.04 },
      { daysAgo: 3, hours: -4 },
      { daysAgo: 5, hours: 12.25 },
      { daysAgo: 13.9, hours: 100 },
    ]);
    expect(day.scheduleDeviationH).toBe(21.1); // (12.25 + 30.04) / 2 = 21.145
    expect(day.scheduleDeviationN).toBe(4);
  });

  it("leaves out arrivals older than 14 days or after the day's end", () => {
    const day = signals([
      { daysAgo: 2, hours: 8 },
      { daysAgo: 14.5, hours: 200 },
      { daysAgo: -1, hours: 200 },
    ]);
    expect(day.scheduleDeviationH).toBe(8);
    expect(day.scheduleDeviationN).toBe(1);
  });

  it("is absent, not zero, when no arrival could be compared with a proforma", () => {
    const day = signals([]);
    expect(day.scheduleDeviationH).toBeNull();
    expect(day.scheduleDeviationN).toBe(0);
  });
});
