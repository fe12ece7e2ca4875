import { describe, expect, it } from "vitest";
import { keptFreeTimeMayRemind, lastFreeDayDeadline } from "../../../src/domain/notifications/last-free-day";
import {
  instantOf,
  isTimeZone,
  lastWallTime,
  localDate,
  quietHoursEnd,
} from "../../../src/domain/notifications/local-time";
import type { ChangeData } from "../../../src/domain/notifications/messages";
import { mailKindFor } from "../../../src/domain/notifications/notifications.service";
import { DEFAULT_PREFS, hostOnly, maskAddress } from "../../../src/domain/notifications/preferences";

const at = (iso: string) => new Date(iso);

describe("quiet hours in the user's zone", () => {
  const overnight = { start: "22:00", end: "07:00" };

  it("holds mail inside an overnight window until its end, start included and end excluded", () => {
    // Amsterdam is UTC+1 in November.
    expect(quietHoursEnd(at("2026-11-22T21:00:00Z"), "Europe/Amsterdam", overnight)).toEqual(
      at("2026-11-23T06:00:00Z"),
    );
    expect(quietHoursEnd(at("2026-11-23T02:30:00Z"), "Europe/Amsterdam", overnight)).toEqual(
      at("2026-11-23T06:00:00Z"),
    );
    expect(quietHoursEnd(at("2026-11-23T06:00:00Z"), "Europe/Amsterdam", overnight)).toBeNull();
    expect(quietHoursEnd(at("2026-11-22T20:59:00Z"), "Europe/Amsterdam", overnight)).toBeNull();
  });

  it("handles a daytime window, no window, and equal times as none", () => {
    const lunch = { start: "12:00", end: "13:30" };
    expect(quietHoursEnd(at("2026-11-22T04:15:00Z"), "Asia/Singapore", lunch)).toEqual(
      at("2026-11-22T05:30:00Z"),
    );
    expect(quietHoursEnd(at("2026-11-22T05:30:00Z"), "Asia/Singapore", lunch)).toBeNull();
    expect(quietHoursEnd(at("2026-11-22T04:15:00Z"), "Asia/Singapore", null)).toBeNull();
    expect(quietHoursEnd(at("2026-11-22T04:15:00Z"), "UTC", { start: "04:00", end: "04:00" })).toBeNull();
  });

  it("ends at the local time across a change of clocks", () => {
    // Los Angeles falls back on 1 November 2026: the night of 31 October ends at 07:00 PST = 15:00 UTC.
    expect(
      quietHoursEnd(at("2026-11-01T06:00:00Z"), "America/Los_Angeles", { start: "22:00", end: "07:00" }),
    ).toEqual(at("2026-11-01T15:00:00Z"));
    // and springs forward on 8 March 2026: 07:00 PDT = 14:00 UTC.
    expect(
      quietHoursEnd(at("2026-03-08T07:00:00Z"), "America/Los_Angeles", { start: "22:00", end: "07:00" }),
    ).toEqual(at("2026-03-08T14:00:00Z"));
    // 02:30 does not exist that morning: taken an hour later.
    expect(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, "America/Los_Angeles")).toEqual(
      at("2026-03-08T10:30:00Z"),
    );
  });

  it("knows real zones only", () => {
    expect(isTimeZone("Europe/Amsterdam")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Europe/Rotterdam")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("finds the last digest hour and the local date it belongs to", () => {
    const digest = lastWallTime(at("2026-11-22T15:59:00Z"), "America/Los_Angeles", 8 * 60);
    expect(digest).toEqual(at("2026-11-21T16:00:00Z"));
    expect(localDate(digest, "America/Los_Angeles")).toBe("2026-11-21");
    expect(lastWallTime(at("2026-11-22T16:00:00Z"), "America/Los_Angeles", 8 * 60)).toEqual(
      at("2026-11-22T16:00:00Z"),
    );
  });
});

describe("which change is mailed", () => {
  const change = (previous: string | null, next: string | null): ChangeData => ({
    shipment_id: "SHP-1",
    reference_number: "MSCU1234566",
    carrier: "MSCU",
    status: "IN_TRANSIT",
    previous_status: "IN_TRANSIT",
    eta: next,
    previous_eta: previous,
    ata: null,
  });

  it("mails an ETA revision of at least the threshold, either way, and nothing below it", () => {
    const prefs = { ...DEFAULT_PREFS, etaChangeMinHours: 6 };
    expect(mailKindFor("eta.changed", change("2026-12-01T00:00:00Z", "2026-12-01T06:00:00Z"), prefs)).toBe(
      "eta_changed",
    );
    expect(mailKindFor("eta.changed", change("2026-12-01T06:00:00Z", "2026-12-01T00:00:00Z"), prefs)).toBe(
      "eta_changed",
    );
    expect(
      mailKindFor("eta.changed", change("2026-12-01T00:00:00Z", "2026-12-01T05:59:00Z"), prefs),
    ).toBeNull();
    expect(
      mailKindFor("eta.changed", change("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), {
        ...prefs,
        etaChanges: false,
      }),
    ).toBeNull();
  });

  it("follows the switches for status, delivery and arrival, and sends nothing with e-mail off", () => {
    const data = change(null, null);
    expect(mailKindFor("shipment.updated", data, DEFAULT_PREFS)).toBe("status_changed");
    expect(mailKindFor("shipment.arrived", data, DEFAULT_PREFS)).toBe("delivered");
    expect(mailKindFor("shipment.vessel_arrived", data, DEFAULT_PREFS)).toBe("vessel_arrived");
    expect(
      mailKindFor("shipment.vessel_arrived", data, { ...DEFAULT_PREFS, vesselArrival: false }),
    ).toBeNull();
    expect(mailKindFor("shipment.updated", data, { ...DEFAULT_PREFS, emailEnabled: false })).toBeNull();
    expect(mailKindFor("discovery.recovered", data, DEFAULT_PREFS)).toBeNull();
  });
});

describe("what MCP may show", () => {
  it("masks an address and reduces a URL to its host", () => {
    expect(maskAddress("jane.doe@example.com")).toBe("j***@e***.com");
    expect(maskAddress("ops@mail.carrier.co.uk")).toBe("o***@m***.uk");
    expect(maskAddress("no-at-sign")).toBe("***");
    expect(hostOnly("https://user:pw@hooks.example.com:8443/path/secret?token=1")).toBe("hooks.example.com");
    expect(hostOnly("not a url")).toBe("");
  });
});

describe("the last-free-day deadline reminders count down to", () => {
  const box = (lastFreeDay: string | null, portLocode: string | null, gatedOut = false) => ({
    container: "MSCU1234565",
    source: "given by the terminal",
    lastFreeDay,
    portLocode,
    gatedOut,
  });
  const deadline = (boxes: ReturnType<typeof box>[]) => lastFreeDayDeadline(boxes)?.endsAt ?? null;

  it("ends the last free day at midnight in the port's own zone", () => {
    // Los Angeles in December is UTC-8: 4 December ends at 08:00 UTC on the 5th.
    expect(deadline([box("2026-12-04", "USLAX")])).toEqual(at("2026-12-05T08:00:00Z"));
    // Rotterdam in December is UTC+1: it ends at 23:00 UTC on the 4th.
    expect(deadline([box("2026-12-04", "NLRTM")])).toEqual(at("2026-12-04T23:00:00Z"));
    // An unknown port: the day ends at midnight UTC.
    expect(deadline([box("2026-12-04", null)])).toEqual(at("2026-12-05T00:00:00Z"));
  });

  it("takes the earliest box still at the terminal; a gated-out box or no date counts for nothing", () => {
    expect(
      deadline([
        box("2026-12-02", null, true),
        box("2026-12-06", null),
        box("2026-12-04", null),
        box(null, null),
      ]),
    ).toEqual(at("2026-12-05T00:00:00Z"));
    expect(deadline([box("2026-12-02", null, true), box(null, "USLAX")])).toBeNull();
    expect(deadline([box("soon", null)])).toBeNull();
  });
});

describe("which followed shipments the reminder scan assesses", () => {
  const now = new Date("2026-12-01T12:00:00Z");
  const kept = (days: (string | null)[], detention: string | null = null) => ({
    freeTime: {
      containers: days.map((day, i) => ({
        container: `BOX${i}`,
        demurrageLastFreeDay: day,
        detentionLastFreeDay: i === 0 ? detention : null,
      })),
    },
    freeTimeAt: new Date("2026-11-30T08:00:00Z"),
  });

  it("assesses a shipment whose kept last free day could be reminded of now, from any zone", () => {
    // A deadline at most 72 hours away: the day is yesterday to three days on; kept: two back, five on.
    for (const day of ["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-04", "2026-12-06"])
      expect(keptFreeTimeMayRemind(kept([null, day]), now), day).toBe(true);
    expect(keptFreeTimeMayRemind(kept([null], "2026-12-03"), now)).toBe(true);
  });

  it("leaves out one whose kept days are far off or missing, and assesses one never computed", () => {
    expect(keptFreeTimeMayRemind(kept(["2026-11-28", "2026-12-07"]), now)).toBe(false);
    expect(keptFreeTimeMayRemind(kept([null]), now)).toBe(false);
    expect(keptFreeTimeMayRemind({ freeTime: null, freeTimeAt: now }, now)).toBe(false);
    expect(keptFreeTimeMayRemind({ freeTime: null, freeTimeAt: null }, now)).toBe(true);
  });
});
