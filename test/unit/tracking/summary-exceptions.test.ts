import { describe, expect, it } from "vitest";
import { emptyRoute, type TrackedEvent, type TrackingDocument } from "../../../src/domain/tracking/model";
import { ETA_MOVED_HOURS, summaryFactsOf } from "../../../src/domain/tracking/summary-facts";

/**
 * The summary facts behind the overview's "ETA moved" and the list's vessel column (issue 38 part C):
 * decided once when a version is stored, from the version alone, never from the clock.
 */
function sea(eventCode: "DEPA" | "ARRI", locationKey: string, at: string, actual: boolean, vessel: string) {
  return {
    kind: "TRANSPORT",
    eventCode,
    emitted: true,
    statusCode: null,
    description: eventCode,
    localDateTime: at.slice(0, 19).replace("T", " "),
    utcOffset: "+00:00",
    instant: at,
    actual,
    modeOfTransport: "VESSEL",
    legType: "sea",
    vesselKey: vessel,
    voyage: "001W",
    locationKey,
    facilityKey: null,
    emptyIndicator: null,
    isAdditional: false,
    dcsaEventId: null,
  } as TrackedEvent;
}

function doc(events: TrackedEvent[], more: Partial<TrackingDocument> = {}): TrackingDocument {
  const place = (key: string) => ({
    key,
    unLocode: key,
    name: key,
    state: null,
    country: null,
    countryCode: key.slice(0, 2),
    lat: null,
    lng: null,
    timeZone: null,
  });
  return {
    referenceType: "container",
    reference: "MSCU1000001",
    carrierScac: "MSCU",
    status: "IN_TRANSIT",
    statusFromCarrier: true,
    locations: ["CNSHA", "SGSIN", "NLRTM"].map(place),
    facilities: [],
    vessels: [
      { key: "imo:9000001", name: "FIRST STAR", imo: 9000001, mmsi: null },
      { key: "imo:9000002", name: "SECOND STAR", imo: 9000002, mmsi: null },
    ],
    containers: [
      {
        number: "MSCU1000001",
        isoCode: null,
        sizeType: null,
        description: null,
        status: "IN_TRANSIT",
        statusFromCarrier: true,
        eventsMirrored: false,
        deliveredAt: null,
        events,
      },
    ] as TrackingDocument["containers"],
    route: emptyRoute(),
    etaHistory: [],
    transshipmentLocationKeys: [],
    ata: null,
    deliveredAt: null,
    currentPosition: null,
    fetchedAt: "2026-03-10T00:00:00.000Z",
    ...more,
  };
}

const revision = (eta: string, recordedAt: string, actual = false) => ({
  eta,
  localDateTime: eta.slice(0, 19).replace("T", " "),
  recordedAt,
  actual,
});

const twoLegs = (firstArrived: boolean) => [
  sea("DEPA", "CNSHA", "2026-03-01T00:00:00.000Z", true, "imo:9000001"),
  sea("ARRI", "SGSIN", "2026-03-08T00:00:00.000Z", firstArrived, "imo:9000001"),
  sea("DEPA", "SGSIN", "2026-03-11T00:00:00.000Z", false, "imo:9000002"),
  sea("ARRI", "NLRTM", "2026-04-01T00:00:00.000Z", false, "imo:9000002"),
];

describe("the ETA move of a version", () => {
  it(`is the move this version recorded, in hours, and an exception from ${ETA_MOVED_HOURS} hours either way`, () => {
    const history = [revision("2026-04-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z")];
    const later = summaryFactsOf(
      doc([], {
        etaHistory: [...history, revision("2026-04-02T06:00:00.000Z", "2026-03-10T00:00:00.000Z")],
      }),
    );
    expect(later).toMatchObject({ etaChangeHours: 30, etaMoved: true });
    const earlier = summaryFactsOf(
      doc([], {
        etaHistory: [...history, revision("2026-03-31T12:00:00.000Z", "2026-03-10T00:00:00.000Z")],
      }),
    );
    expect(earlier).toMatchObject({ etaChangeHours: -12, etaMoved: true });
    const small = summaryFactsOf(
      doc([], {
        etaHistory: [...history, revision("2026-04-01T06:00:00.000Z", "2026-03-10T00:00:00.000Z")],
      }),
    );
    expect(small).toMatchObject({ etaChangeHours: 6, etaMoved: false });
  });

  it("is 0 when this version did not move the ETA (the last revision is an older version's), or it arrived", () => {
    const older = summaryFactsOf(
      doc([], {
        etaHistory: [
          revision("2026-04-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"),
          revision("2026-04-03T00:00:00.000Z", "2026-03-05T00:00:00.000Z"),
        ],
      }),
    );
    expect(older).toMatchObject({ etaChangeHours: 0, etaMoved: false });
    const arrived = summaryFactsOf(
      doc([], {
        etaHistory: [
          revision("2026-04-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"),
          revision("2026-04-03T00:00:00.000Z", "2026-03-10T00:00:00.000Z", true),
        ],
      }),
    );
    expect(arrived).toMatchObject({ etaMoved: false });
    expect(summaryFactsOf(doc([]))).toMatchObject({ etaChangeHours: 0, etaMoved: false });
  });
});

describe("the vessel of a version", () => {
  it("is the vessel under way, else the next to sail, else none", () => {
    expect(summaryFactsOf(doc(twoLegs(false))).vesselName).toBe("FIRST STAR");
    expect(summaryFactsOf(doc(twoLegs(true))).vesselName).toBe("SECOND STAR");
    expect(summaryFactsOf(doc([])).vesselName).toBeNull();
  });
});
