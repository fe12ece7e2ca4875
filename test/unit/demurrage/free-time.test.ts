import { describe, expect, it } from "vitest";
import { isWorkingDay, localDate } from "../../../src/domain/demurrage/calendar";
import { lastFreeDay, overrunDays, slabCost } from "../../../src/domain/demurrage/free-time";

const CALIFORNIA = { countryCode: "US", state: "California" };
const FOUR_WORKING_DAYS = { freeDays: 4, freeDayBasis: "working", clockStartRule: "next_day" } as const;
const MAERSK_US_DRY = [
  { fromDay: 1, toDay: 4, rate: 235 },
  { fromDay: 5, toDay: 9, rate: 285 },
  { fromDay: 10, toDay: null, rate: 335 },
];

describe("last free day", () => {
  it("a Friday discharge at a California port with 4 working days free lands on Monday 2 December 2024", () => {
    // Mon 25, Tue 26, Wed 27 count; Thanksgiving (Thu 28) and the day after (Fri 29) are California
    // public holidays; Sat 30 and Sun 1 are the weekend; Mon 2 December is the fourth working day.
    expect(lastFreeDay("2024-11-22", FOUR_WORKING_DAYS, CALIFORNIA)).toBe("2024-12-02");
  });

  it("the region matters: federally the day after Thanksgiving is a working day, so the last free day is that Friday", () => {
    expect(isWorkingDay("2024-11-29", CALIFORNIA)).toBe(false);
    expect(isWorkingDay("2024-11-29", { countryCode: "US", state: null })).toBe(true);
    expect(lastFreeDay("2024-11-22", FOUR_WORKING_DAYS, { countryCode: "US", state: null })).toBe(
      "2024-11-29",
    );
  });

  it("a subdivision code finds the same holidays as its name", () => {
    expect(lastFreeDay("2024-11-22", FOUR_WORKING_DAYS, { countryCode: "US", state: "CA" })).toBe(
      "2024-12-02",
    );
  });

  it("the discharge day is the port's own: 21:30 on Friday in Los Angeles is already Saturday in UTC", () => {
    const discharged = new Date("2024-11-23T05:30:00Z");
    expect(localDate(discharged, "UTC")).toBe("2024-11-23");
    expect(localDate(discharged, "America/Los_Angeles")).toBe("2024-11-22");
  });

  it("calendar days with the discharge day included (Maersk Singapore: days 1-5 free)", () => {
    const rule = { freeDays: 5, freeDayBasis: "calendar", clockStartRule: "same_day" } as const;
    expect(lastFreeDay("2024-08-01", rule, { countryCode: "SG", state: null })).toBe("2024-08-05");
  });

  it("no free days: the first counted day is already chargeable", () => {
    const rule = { freeDays: 0, freeDayBasis: "calendar", clockStartRule: "next_day" } as const;
    expect(lastFreeDay("2024-08-01", rule, CALIFORNIA)).toBe("2024-08-01");
    expect(overrunDays("2024-08-01", "2024-08-02", "calendar", CALIFORNIA)).toBe(1);
  });
});

describe("overrun days and slab costs", () => {
  it("US carriers charge calendar days after working-day free time, weekends included", () => {
    // Last free day Monday 2 Dec; gate-out Sunday 8 Dec: 6 calendar days (Tue 3 to Sun 8), 4 of them working days.
    expect(overrunDays("2024-12-02", "2024-12-08", "calendar", CALIFORNIA)).toBe(6);
    expect(overrunDays("2024-12-02", "2024-12-08", "working", CALIFORNIA)).toBe(4);
  });

  it("prices each overrun day at the rate of its slab", () => {
    expect(slabCost(MAERSK_US_DRY, 0)).toBe(0);
    expect(slabCost(MAERSK_US_DRY, 3)).toBe(3 * 235);
    expect(slabCost(MAERSK_US_DRY, 4)).toBe(940);
    expect(slabCost(MAERSK_US_DRY, 5)).toBe(940 + 285);
    expect(slabCost(MAERSK_US_DRY, 10)).toBe(4 * 235 + 5 * 285 + 335);
    expect(slabCost(MAERSK_US_DRY, 12)).toBe(4 * 235 + 5 * 285 + 3 * 335);
  });

  it("Maersk Singapore 2024: a 40' dry returned on day 15 costs 5 x 85 + 5 x 110 = SGD 975", () => {
    const sg40 = [
      { fromDay: 1, toDay: 5, rate: 85 },
      { fromDay: 6, toDay: 15, rate: 110 },
      { fromDay: 16, toDay: null, rate: 140 },
    ];
    const rule = { freeDays: 5, freeDayBasis: "calendar", clockStartRule: "same_day" } as const;
    const lfd = lastFreeDay("2024-08-01", rule, { countryCode: "SG", state: null });
    const days = overrunDays(lfd, "2024-08-15", "calendar", { countryCode: "SG", state: null });
    expect(days).toBe(10);
    expect(slabCost(sg40, days)).toBe(975);
  });

  it("fractional rates add up to the cent (Shanghai 20DC RMB 41.5)", () => {
    expect(slabCost([{ fromDay: 1, toDay: null, rate: 41.5 }], 3)).toBe(124.5);
    expect(slabCost([{ fromDay: 1, toDay: null, rate: 116.2 }], 3)).toBe(348.6);
  });

  it("days no slab covers leave the cost unknown, never zero", () => {
    expect(slabCost([], 2)).toBeNull();
    expect(slabCost([{ fromDay: 1, toDay: 2, rate: 10 }], 3)).toBeNull();
    expect(slabCost([], 0)).toBe(0);
  });
});
