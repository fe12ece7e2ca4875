import { describe, expect, it } from "vitest";
import { utcOffsetOf } from "../../../src/domain/tracking/utc-offset";

describe("utcOffsetOf: the clock a port-local reading is on (docs/decisions/times.md)", () => {
  it("is the reading minus the instant it denotes, east and west, half and quarter hours", () => {
    expect(utcOffsetOf("2026-12-12 14:00:00", "2026-12-12T13:00:00.000Z")).toBe("+01:00");
    expect(utcOffsetOf("2026-12-11 20:00:00", "2026-12-12T01:00:00.000Z")).toBe("-05:00");
    expect(utcOffsetOf("2026-12-12 18:45:00", "2026-12-12T13:00:00Z")).toBe("+05:45");
    expect(utcOffsetOf("2026-12-12 09:30:00", "2026-12-12T13:00:00Z")).toBe("-03:30");
    expect(utcOffsetOf("2026-12-12 13:00:00", new Date("2026-12-12T13:00:00.400Z"))).toBe("+00:00");
  });

  it("is null without both halves, for a reading that is no wall-clock time, or a pair that is no one moment", () => {
    expect(utcOffsetOf(null, "2026-12-12T13:00:00Z")).toBeNull();
    expect(utcOffsetOf("2026-12-12 13:00:00", null)).toBeNull();
    expect(utcOffsetOf("12/12/2026 13:00", "2026-12-12T13:00:00Z")).toBeNull();
    expect(utcOffsetOf("2026-12-13 13:00:00", "2026-12-12T13:00:00Z")).toBeNull();
  });
});
