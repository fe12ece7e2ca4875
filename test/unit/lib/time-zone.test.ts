import { describe, expect, it } from "vitest";
import { localDate as demurrageDate } from "../../../src/domain/demurrage/calendar";
import { wallClock as lookupWallClock } from "../../../src/domain/lookups/local-time";
import {
  localDate as mailDate,
  localDateTime as mailDateTime,
  wallClockAt,
} from "../../../src/domain/notifications/local-time";
import { dayWords, when } from "../../../src/domain/notifications/messages";
import { nextLocalMidnight } from "../../../src/domain/ports/local-midnight";
import { wallClock as routeWallClock } from "../../../src/domain/routes/placed-locations";
import { localDateTime, zoneParts } from "../../../src/lib/time-zone";
import { wallClockInZone, withOffsetIn } from "../../../src/upstream/carriers/dcsa-datetime";

/**
 * Issue 40 item 4: one time-zone helper (src/lib/time-zone.ts) behind every formatter that renders a
 * time in a port's or a user's zone. Before it, five formatters each built their own Intl formatter
 * (en-US, en-GB, en-CA) and disagreed where it shows: an unknown zone threw in mails and read as UTC
 * elsewhere, and a mail's date was a locale phrase patched with `.replace(" at ", ", ")`.
 */

// Zones with odd offsets and both hemispheres' daylight saving.
const ZONES = [
  "UTC",
  "Europe/Amsterdam",
  "America/Los_Angeles",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "America/St_Johns",
  "Asia/Kathmandu",
];
// Midnights, the changes of clocks in Europe and the US (2026), a leap day, a year's turn.
const INSTANTS = [
  "2026-03-29T00:59:59Z",
  "2026-03-29T01:00:00Z",
  "2026-03-08T10:00:00Z",
  "2026-11-01T08:59:59Z",
  "2026-11-01T09:00:00Z",
  "2026-10-25T00:30:00Z",
  "2028-02-29T23:30:00Z",
  "2026-12-31T23:59:59Z",
  "2027-01-01T00:00:00Z",
  "2026-06-15T12:34:56Z",
].map((iso) => new Date(iso));

describe("the one time-zone reading", () => {
  it("gives every formatter the same wall clock for a port's zone, to the second", () => {
    for (const zone of ZONES) {
      for (const instant of INSTANTS) {
        const reading = localDateTime(instant, zone);
        expect(lookupWallClock(instant, zone), `${zone} ${instant.toISOString()}`).toBe(reading);
        expect(lookupWallClock(instant, zone, "T")).toBe(reading.replace(" ", "T"));
        expect(routeWallClock(instant, zone)).toBe(reading);
        expect(wallClockInZone(instant.getTime(), zone)?.local).toBe(reading);
        expect(demurrageDate(instant, zone)).toBe(reading.slice(0, 10));
        expect(mailDate(instant, zone)).toBe(reading.slice(0, 10));
        expect(mailDateTime(instant, zone)).toBe(reading.slice(0, 16));
        const wall = wallClockAt(instant, zone);
        expect(
          `${wall.year}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")} ${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`,
        ).toBe(reading.slice(0, 16));
        expect(when(instant, zone)).toContain(`, ${reading.slice(11, 16)} (`);
      }
    }
  });

  it("writes midnight as 00:00, never 24:00", () => {
    const midnight = new Date("2026-11-30T00:00:00Z");
    expect(localDateTime(midnight, "UTC")).toBe("2026-11-30 00:00:00");
    expect(lookupWallClock(midnight, "Etc/UTC")).toBe("2026-11-30 00:00:00");
    expect(wallClockAt(midnight, "UTC").hour).toBe(0);
  });

  it("reads the offset a carrier should have sent: the one the wall clock implies", () => {
    for (const zone of ZONES) {
      for (const instant of INSTANTS) {
        const local = localDateTime(instant, zone).replace(" ", "T");
        const withOffset = withOffsetIn(local, zone)!;
        // In the hour a clock goes back the wall time names two instants and the first is taken.
        const ambiguous = Date.parse(withOffset) !== instant.getTime();
        if (ambiguous) {
          expect(localDateTime(Date.parse(withOffset), zone)).toBe(localDateTime(instant, zone));
          continue;
        }
        expect(wallClockInZone(instant.getTime(), zone)?.offset).toBe(withOffset.slice(-6));
      }
    }
    expect(zoneParts(new Date("2026-06-15T12:00:00Z"), "Asia/Kathmandu")?.offsetMinutes).toBe(345);
    expect(zoneParts(new Date("2026-06-15T12:00:00Z"), "America/St_Johns")?.offsetMinutes).toBe(-150);
  });

  it("reads an unknown zone as UTC in every renderer, and says so in a mail", () => {
    const instant = new Date("2026-11-30T22:15:00Z");
    expect(zoneParts(instant, "Mars/Olympus_Mons")).toBeNull();
    expect(lookupWallClock(instant, "Mars/Olympus_Mons")).toBe("2026-11-30 22:15:00");
    expect(routeWallClock(instant, "Mars/Olympus_Mons")).toBe("2026-11-30 22:15:00");
    expect(demurrageDate(instant, "Mars/Olympus_Mons")).toBe("2026-11-30");
    expect(mailDate(instant, "Mars/Olympus_Mons")).toBe("2026-11-30");
    expect(when(instant, "Mars/Olympus_Mons")).toBe("Monday, 30 November 2026, 22:15 (UTC)");
    expect(wallClockInZone(instant.getTime(), "Mars/Olympus_Mons")).toBeNull();
    expect(nextLocalMidnight(instant, "Mars/Olympus_Mons").toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  it("writes a mail's date from the numbers, not from a locale's phrase", () => {
    const instant = new Date("2026-11-30T22:00:00Z");
    expect(when(instant, "America/Los_Angeles")).toBe("Monday, 30 November 2026, 14:00 (Los Angeles time)");
    expect(when(instant, "Asia/Kolkata")).toBe("Tuesday, 1 December 2026, 03:30 (Kolkata time)");
    expect(dayWords("2028-02-29")).toBe("Tuesday, 29 February 2028");
  });

  it("finds the next port-local midnight with the same reading", () => {
    const now = new Date("2026-11-30T22:00:00Z");
    const next = nextLocalMidnight(now, "Asia/Kolkata");
    expect(localDateTime(next, "Asia/Kolkata")).toBe("2026-12-02 00:00:00");
    expect(localDateTime(new Date(next.getTime() - 1000), "Asia/Kolkata")).toBe("2026-12-01 23:59:59");
  });
});
