/**
 * The schedule-deviation signal (src/domain/congestion/signals.ts): median hours of actual arrival
 * against the proforma over the 14 days ending at the day's end, early arrivals negative.
 */
import { describe, expect, it } from "vitest";
import {
  daySignals,
  proformaDates,
  scheduleDeviationHours,
  vesselArrivals,
} from "../../../src/domain/congestion/signals";
import type { TrackedEvent, TrackingDocument } from "../../../src/domain/tracking/model";

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

describe("matching an arrival with the proforma", () => {
  const arrival = { vesselImo: "9839430", voyage: "2640N", at: Date.parse("2026-10-18T06:00:00Z") };
  const call = (imo: string, voyages: string[], plannedArrival: string | null) => ({
    vesselImo: imo,
    voyages,
    plannedArrival,
  });

  it("is the hours from the proforma arrival of the same vessel and voyage, late positive, early negative", () => {
    expect(scheduleDeviationHours(arrival, [call("9839430", ["2640N"], "2026-10-16T06:00:00.000Z")])).toBe(
      48,
    );
    expect(
      scheduleDeviationHours(arrival, [call("9839430", ["2639S", "2640N"], "2026-10-18T09:30:00Z")]),
    ).toBe(-3.5);
  });

  it("ignores other ships, other voyages and calls without a planned arrival", () => {
    expect(
      scheduleDeviationHours(arrival, [
        call("9839431", ["2640N"], "2026-10-17T06:00:00Z"),
        call("9839430", ["2641N"], "2026-10-17T06:00:00Z"),
        call("9839430", ["2640N"], null),
      ]),
    ).toBeNull();
  });

  it("takes the scheduled call nearest the arrival when a voyage number comes back on another date", () => {
    expect(
      scheduleDeviationHours(arrival, [
        call("9839430", ["2640N"], "2026-10-04T06:00:00Z"),
        call("9839430", ["2640N"], "2026-10-17T06:00:00Z"),
      ]),
    ).toBe(24);
  });

  it("looks for the proforma from 15 days before the arrival to the day after", () => {
    const dates = proformaDates(Date.parse("2026-10-18T06:00:00Z"));
    expect(dates[0]).toBe("2026-10-03");
    expect(dates.at(-1)).toBe("2026-10-19");
    expect(dates).toHaveLength(17);
  });
});

describe("vessel arrivals of a tracked shipment", () => {
  const event = (over: Partial<TrackedEvent>): TrackedEvent => ({
    kind: "TRANSPORT",
    eventCode: "ARRI",
    emitted: true,
    statusCode: "VAD",
    description: "Vessel arrival",
    localDateTime: null,
    utcOffset: null,
    instant: "2026-10-18T06:00:00Z",
    actual: true,
    modeOfTransport: "VESSEL",
    legType: "sea",
    vesselKey: "v1",
    voyage: "2640N",
    locationKey: "CNSHA",
    facilityKey: null,
    emptyIndicator: null,
    isAdditional: false,
    dcsaEventId: null,
    ...over,
  });
  const document = (events: TrackedEvent[][]) =>
    ({
      carrierScac: "MSCU",
      vessels: [{ key: "v1", name: "MSC GULSUN", imo: 9839430, mmsi: null }],
      locations: [
        { key: "CNSHA", unLocode: "CNSHA" },
        { key: "SGSIN", unLocode: "SGSIN" },
      ],
      containers: events.map((list) => ({ events: list })),
    }) as unknown as TrackingDocument;

  it("lists each actual vessel arrival at a port once per vessel, voyage and port, whatever the boxes", () => {
    const arrivals = vesselArrivals(
      document([
        [event({}), event({ locationKey: "SGSIN", instant: "2026-10-10T00:00:00Z", voyage: "2639S" })],
        [event({})],
      ]),
    );
    expect(arrivals).toEqual([
      {
        locode: "CNSHA",
        scac: "MSCU",
        vesselImo: "9839430",
        voyage: "2640N",
        at: Date.parse("2026-10-18T06:00:00Z"),
      },
      {
        locode: "SGSIN",
        scac: "MSCU",
        vesselImo: "9839430",
        voyage: "2639S",
        at: Date.parse("2026-10-10T00:00:00Z"),
      },
    ]);
  });

  it("leaves out estimates, departures, land legs and arrivals it cannot match (no IMO number or voyage)", () => {
    const doc = document([
      [
        event({ actual: false }),
        event({ eventCode: "DEPA" }),
        event({ modeOfTransport: "RAIL" }),
        event({ voyage: null }),
        event({ vesselKey: null }),
      ],
    ]);
    expect(vesselArrivals(doc)).toEqual([]);
    const withoutImo = document([[event({})]]);
    withoutImo.vessels[0]!.imo = null;
    expect(vesselArrivals(withoutImo)).toEqual([]);
  });
});
