import { describe, expect, it } from "vitest";
import { etaRevisions } from "../../../src/domain/tracking/eta-revisions";
import { locationRole, locationRoles } from "../../../src/domain/tracking/location-roles";
import {
  contentState,
  isDateFromCarrier,
  lastActualEvent,
  milestones,
} from "../../../src/domain/tracking/milestones";
import {
  emptyRoute,
  type TrackedContainer,
  type TrackedEvent,
  type TrackingDocument,
} from "../../../src/domain/tracking/model";
import {
  arrivalLocalDateTime,
  facilityCountryCode,
  facilityLocation,
} from "../../../src/domain/tracking/shipment-facts";
import { legsOfVessel, voyageLegs, voyagesOfVessel } from "../../../src/domain/tracking/voyage-legs";

/** An event at `at` (an ISO instant, or null for undated); every other field a plain default. */
function event(
  eventCode: TrackedEvent["eventCode"],
  locationKey: string,
  at: string | null,
  more: Partial<TrackedEvent> = {},
): TrackedEvent {
  const transport = eventCode === "DEPA" || eventCode === "ARRI";
  const emitted = !["DROP", "STUF", "STRP", "INSP", "RSEA", "RMVD"].includes(eventCode);
  return {
    kind: transport ? "TRANSPORT" : "EQUIPMENT",
    eventCode,
    emitted,
    statusCode: null,
    description: eventCode,
    localDateTime: at === null ? null : at.slice(0, 19).replace("T", " "),
    utcOffset: at === null ? null : "+00:00",
    instant: at,
    actual: false,
    modeOfTransport: transport ? "VESSEL" : null,
    legType: transport ? "sea" : "land",
    vesselKey: transport ? "imo:9000001" : null,
    voyage: transport ? "001W" : null,
    locationKey,
    facilityKey: null,
    emptyIndicator: null,
    isAdditional: false,
    dcsaEventId: null,
    ...more,
  };
}

function container(number: string, events: TrackedEvent[]): TrackedContainer {
  return {
    number,
    isoCode: null,
    sizeType: null,
    description: null,
    status: "IN_TRANSIT",
    statusFromCarrier: true,
    eventsMirrored: false,
    deliveredAt: null,
    events,
  };
}

function journey(containers: TrackedContainer[], more: Partial<TrackingDocument> = {}): TrackingDocument {
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
    reference: containers[0]?.number ?? "MSCU1000001",
    carrierScac: "MSCU",
    status: "IN_TRANSIT",
    statusFromCarrier: true,
    locations: ["CNSHA", "SGSIN", "NLRTM", "DEDUI"].map(place),
    facilities: [],
    vessels: [
      { key: "imo:9000001", name: "FIRST", imo: 9000001, mmsi: null },
      { key: "imo:9000002", name: "SECOND", imo: 9000002, mmsi: null },
    ],
    containers,
    route: emptyRoute(),
    etaHistory: [],
    transshipmentLocationKeys: [],
    ata: null,
    deliveredAt: null,
    currentPosition: null,
    fetchedAt: "2026-03-01T00:00:00.000Z",
    ...more,
  };
}

const second = { vesselKey: "imo:9000002", voyage: "002E" };

describe("location roles", () => {
  it("name each place of the route, and a place playing two parts shows the first of POL, POD, receipt, delivery, transshipment", () => {
    const doc = journey([]);
    doc.route.prepol.locationKey = "CNSHA";
    doc.route.pol.locationKey = "CNSHA";
    doc.route.pod.locationKey = "NLRTM";
    doc.route.postpod.locationKey = "DEDUI";
    doc.transshipmentLocationKeys = ["SGSIN", "NLRTM"];
    const roles = locationRoles(doc);
    expect(doc.locations.map((l) => locationRole(roles, l.key))).toEqual([
      "PORT_OF_LOADING",
      "TRANSSHIPMENT",
      "PORT_OF_DISCHARGE",
      "PLACE_OF_DELIVERY",
    ]);
    expect(locationRole(roles, "USNYC")).toBe("OTHER");
  });

  it("on a round trip the port is the port of loading", () => {
    const doc = journey([]);
    doc.route.pol.locationKey = "NLRTM";
    doc.route.pod.locationKey = "NLRTM";
    expect(locationRole(locationRoles(doc), "NLRTM")).toBe("PORT_OF_LOADING");
  });
});

describe("voyage legs", () => {
  it("pair each departure with the next arrival, count a call mirrored into several boxes once, and skip land moves", () => {
    const calls = [
      event("GTOT", "CNSHA", "2026-03-01T08:00:00.000Z", { actual: true, modeOfTransport: "TRUCK" }),
      event("DEPA", "CNSHA", "2026-03-02T10:00:00.000Z", { actual: true }),
      event("ARRI", "SGSIN", "2026-03-07T06:00:00.000Z", { actual: true }),
      event("DEPA", "SGSIN", "2026-03-09T12:00:00.000Z", { actual: true, ...second }),
      event("ARRI", "NLRTM", "2026-04-01T04:00:00.000Z", { ...second }),
    ];
    const doc = journey([container("MSCU1000001", calls), container("MSCU1000002", structuredClone(calls))]);
    const legs = voyageLegs(doc);
    expect(
      legs.map((l) => [l.sequence, l.departure.locationKey, l.arrival?.locationKey, l.vesselKey, l.status]),
    ).toEqual([
      [1, "CNSHA", "SGSIN", "imo:9000001", "COMPLETED"],
      [2, "SGSIN", "NLRTM", "imo:9000002", "SAILING"],
    ]);
    expect(legsOfVessel(legs, "imo:9000002").map((l) => l.sequence)).toEqual([2]);
    expect(voyagesOfVessel(legs, "imo:9000001")).toEqual(["001W"]);
  });

  it("keep a departure with no arrival as a planned leg of its own, ignore an arrival with no departure, and take the vessel from the arrival when the departure has none", () => {
    const doc = journey([
      container("MSCU1000001", [
        event("ARRI", "CNSHA", "2026-03-01T10:00:00.000Z", { actual: true }),
        event("DEPA", "CNSHA", "2026-03-02T10:00:00.000Z", { vesselKey: null, voyage: null }),
        event("ARRI", "SGSIN", "2026-03-07T06:00:00.000Z", second),
        event("DEPA", "SGSIN", "2026-03-09T12:00:00.000Z"),
        event("DEPA", "NLRTM", "2026-04-09T12:00:00.000Z", { modeOfTransport: "BARGE", voyage: "B1" }),
      ]),
    ]);
    expect(
      voyageLegs(doc).map((l) => [l.departure.locationKey, l.arrival, l.vesselKey, l.voyage, l.status]),
    ).toEqual([
      ["CNSHA", expect.objectContaining({ locationKey: "SGSIN" }), "imo:9000002", "002E", "PLANNED"],
      ["SGSIN", null, "imo:9000001", "001W", "PLANNED"],
      ["NLRTM", null, "imo:9000001", "B1", "PLANNED"],
    ]);
  });

  it("list a vessel's voyages once each, in sailing order", () => {
    const doc = journey([
      container("MSCU1000001", [
        event("DEPA", "CNSHA", "2026-03-02T10:00:00.000Z", { voyage: "9W" }),
        event("ARRI", "SGSIN", "2026-03-07T06:00:00.000Z", { voyage: "9W" }),
        event("DEPA", "SGSIN", "2026-03-08T06:00:00.000Z", { voyage: "9W" }),
        event("ARRI", "NLRTM", "2026-03-30T06:00:00.000Z", { voyage: "9W" }),
        event("DEPA", "NLRTM", "2026-04-02T06:00:00.000Z", { voyage: "10E" }),
      ]),
    ]);
    expect(voyagesOfVessel(voyageLegs(doc), "imo:9000001")).toEqual(["9W", "10E"]);
  });
});

describe("ETA revisions", () => {
  it("carry the whole hours each moved the arrival against the one before, the first none", () => {
    const revision = (eta: string) => ({ eta, localDateTime: eta, recordedAt: eta, actual: false });
    const revisions = etaRevisions([
      revision("2026-04-01T00:00:00.000Z"),
      revision("2026-04-02T02:00:00.000Z"),
      revision("2026-04-01T23:31:00.000Z"),
      revision("2026-04-01T23:00:00.000Z"),
    ]);
    expect(revisions.map((r) => r.changeHours)).toEqual([0, 26, -2, -1]);
    expect(revisions[1]).toMatchObject({ eta: "2026-04-02T02:00:00.000Z", actual: false });
  });
});

describe("where the journey stands", () => {
  const delivered = container("MSCU1000001", [
    event("GTOT", "CNSHA", "2026-03-01T08:00:00.000Z", { actual: true }),
    event("DISC", "NLRTM", "2026-04-01T08:00:00.000Z", { actual: true }),
    event("GTOT", "NLRTM", "2026-04-02T08:00:00.000Z", { actual: true }),
    event("DROP", "DEDUI", "2026-04-03T08:00:00.000Z", { actual: true }),
  ]);

  it("a container's last actual event is the last one shown, never a hidden DROP", () => {
    expect(lastActualEvent(delivered)?.eventCode).toBe("GTOT");
    expect(lastActualEvent(delivered)?.locationKey).toBe("NLRTM");
    const planned = container("MSCU1000002", [event("LOAD", "CNSHA", "2026-03-02T08:00:00.000Z")]);
    expect(lastActualEvent(planned)).toBeNull();
  });

  it("the last milestone is the latest dated event that happened and the next the earliest expected, across every box", () => {
    const moving = container("MSCU1000002", [
      event("LOAD", "CNSHA", "2026-03-02T08:00:00.000Z", { actual: true }),
      event("DISC", "SGSIN", null),
      event("DISC", "NLRTM", "2026-04-01T09:00:00.000Z"),
      event("GTIN", "NLRTM", "2026-03-30T09:00:00.000Z"),
    ]);
    const { last, next } = milestones(journey([delivered, moving]));
    expect([last?.eventCode, last?.locationKey]).toEqual(["GTOT", "NLRTM"]);
    expect([next?.eventCode, next?.instant]).toEqual(["GTIN", "2026-03-30T09:00:00.000Z"]);
    expect(milestones(journey([]))).toEqual({ last: null, next: null });
  });

  it("a date is the carrier's when it gave one", () => {
    expect(isDateFromCarrier(event("LOAD", "CNSHA", "2026-03-02T08:00:00.000Z"))).toBe(true);
    expect(isDateFromCarrier(event("LOAD", "CNSHA", null))).toBe(false);
  });

  it("the content state is the first of CANCELLED, NO_CONTAINERS, NO_EVENTS, else OK", () => {
    expect(contentState(journey([], { status: "CANCELLED" }))).toBe("CANCELLED");
    expect(contentState(journey([]))).toBe("NO_CONTAINERS");
    const onlyHidden = container("MSCU1000003", [event("STUF", "CNSHA", "2026-03-01T08:00:00.000Z")]);
    expect(contentState(journey([onlyHidden, container("MSCU1000004", [])]))).toBe("NO_EVENTS");
    expect(contentState(journey([onlyHidden, delivered]))).toBe("OK");
  });

  it("the arrival at the port of discharge is local time there, and only once the vessel arrived", () => {
    const doc = journey([]);
    doc.route.pod = {
      locationKey: "NLRTM",
      localDateTime: "2026-04-01 10:00:00",
      instant: "2026-04-01T08:00:00.000Z",
      actual: false,
    };
    expect(arrivalLocalDateTime(doc)).toBeNull();
    doc.route.pod.actual = true;
    doc.ata = "2026-04-01T08:00:00.000Z";
    expect(arrivalLocalDateTime(doc)).toBe("2026-04-01 10:00:00");
  });
});

describe("facilities", () => {
  const terminal = {
    key: "SMDG:ECTDE",
    name: "ECT Delta",
    locode: "NLRTM",
    countryCode: "NL",
    smdgCode: "ECTDE",
    bicCode: null,
    lat: null,
    lng: null,
  };

  it("are at the location with their UN/LOCODE", () => {
    const doc = journey([]);
    expect(facilityLocation(doc, terminal)?.key).toBe("NLRTM");
    expect(facilityLocation(doc, { ...terminal, locode: "USNYC" })).toBeNull();
    expect(facilityLocation(doc, { ...terminal, locode: null })).toBeNull();
  });

  it("take their country from the UN/LOCODE when the code is user-assigned", () => {
    expect(facilityCountryCode(terminal)).toBe("NL");
    expect(facilityCountryCode({ ...terminal, locode: "XZABC", countryCode: null })).toBe("XZ");
    expect(facilityCountryCode({ ...terminal, locode: null, countryCode: null })).toBeNull();
  });
});
