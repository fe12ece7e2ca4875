/**
 * DCSA Commercial Schedules 1.0 port schedules read into proforma calls (the congestion score's schedule
 * deviation compares arrivals with them).
 */
import { describe, expect, it } from "vitest";
import { mapPortSchedules } from "../../../src/upstream/schedules/dcsa-cs-port-schedule.mapper";

/**
 * A port schedule shaped as CS 1.0.3 defines it (one port, its vessels' schedules, their timestamps),
 * and a second entry in the flattened form some carriers send.
 */
const answer = [
  {
    location: { locationName: "Shanghai", UNLocationCode: "CNSHA" },
    vesselSchedules: [
      {
        vessel: { vesselIMONumber: "9839430", name: "MSC GULSUN", flag: "PA" },
        isDummyVessel: false,
        servicePartners: [
          {
            carrierCode: "MAEU",
            carrierCodeListProvider: "NMFTA",
            carrierImportVoyageNumber: "640N",
            carrierExportVoyageNumber: "641S",
          },
          {
            carrierCode: "MSCU",
            carrierCodeListProvider: "NMFTA",
            carrierImportVoyageNumber: "2640N",
            carrierExportVoyageNumber: "2640N",
          },
        ],
        timestamps: [
          { eventTypeCode: "ARRI", eventClassifierCode: "EST", eventDateTime: "2026-10-18T14:00:00+08:00" },
          { eventTypeCode: "ARRI", eventClassifierCode: "PLN", eventDateTime: "2026-10-16T14:00:00+08:00" },
          { eventTypeCode: "DEPA", eventClassifierCode: "PLN", eventDateTime: "2026-10-17T20:00:00+08:00" },
        ],
      },
      {
        vesselIMONumber: "9784300",
        vesselName: "MAERSK ESSEX",
        servicePartners: [{ carrierCode: "MAEU", carrierImportVoyageNumber: "642W" }],
        timestamps: [
          { eventTypeCode: "DEPA", eventClassifierCode: "PLN", eventDateTime: "2026-10-16T10:00:00Z" },
        ],
      },
      "not a vessel schedule",
    ],
  },
];

describe("mapPortSchedules", () => {
  it("reads each call's planned (PLN) arrival as a UTC instant and the asking carrier's voyage numbers", () => {
    const calls = mapPortSchedules(answer, { scac: "MSCU", locode: "CNSHA" });
    expect(calls[0]).toEqual({
      vesselImo: "9839430",
      vesselName: "MSC GULSUN",
      voyages: ["2640N"],
      plannedArrival: "2026-10-16T06:00:00.000Z",
    });
  });

  it("takes every partner's voyages when the asking carrier is not listed, and null without a planned arrival", () => {
    const calls = mapPortSchedules(answer, { scac: "CMDU", locode: "CNSHA" });
    expect(calls[0]!.voyages).toEqual(["640N", "641S", "2640N"]);
    expect(calls[1]).toEqual({
      vesselImo: "9784300",
      vesselName: "MAERSK ESSEX",
      voyages: ["642W"],
      plannedArrival: null,
    });
  });

  it("skips what it cannot read and schedules of another port", () => {
    expect(mapPortSchedules(answer, { scac: "MSCU", locode: "CNSHA" })).toHaveLength(2);
    expect(mapPortSchedules(answer, { scac: "MSCU", locode: "SGSIN" })).toEqual([]);
    expect(mapPortSchedules({ not: "an array" }, { scac: "MSCU", locode: "CNSHA" })).toEqual([]);
  });
});
