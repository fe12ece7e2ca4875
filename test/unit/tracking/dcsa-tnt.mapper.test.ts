import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TrackedContainer, TrackingDocument } from "../../../src/domain/tracking/model";
import {
  type DcsaMapContext,
  type LocationLookupResult,
  mapDcsaEvents,
} from "../../../src/upstream/carriers/dcsa-tnt.mapper";
import {
  BOX,
  EVER_GIVEN,
  equipment,
  journeyToSingapore,
  onwardFromSingapore,
  ROTTERDAM_DEPOT,
  ROTTERDAM_TERMINAL,
  RTM_B,
  SHA_A,
  SHANGHAI_TERMINAL,
  shipment,
  transport,
} from "./dcsa-fixtures";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/dcsa/${name}`, import.meta.url), "utf8"));

const PORTS: Record<string, LocationLookupResult> = {
  FRPAR: {
    name: "Paris",
    country: "France",
    countryCode: "FR",
    lat: 48.8566,
    lng: 2.3522,
    timeZone: "Europe/Paris",
  },
  CNSHA: {
    name: "Shanghai",
    country: "China",
    countryCode: "CN",
    lat: 31.2304,
    lng: 121.4737,
    timeZone: "Asia/Shanghai",
  },
  SGSIN: {
    name: "Singapore",
    country: "Singapore",
    countryCode: "SG",
    lat: 1.264,
    lng: 103.84,
    timeZone: "Asia/Singapore",
  },
  NLRTM: {
    name: "Rotterdam",
    country: "Netherlands",
    countryCode: "NL",
    lat: 51.95,
    lng: 4.14,
    timeZone: "Europe/Amsterdam",
  },
  DEDUI: {
    name: "Duisburg",
    country: "Germany",
    countryCode: "DE",
    lat: 51.43,
    lng: 6.76,
    timeZone: "Europe/Berlin",
  },
};

function context(overrides: Partial<DcsaMapContext> = {}): DcsaMapContext {
  return {
    reference: "BKG123456",
    referenceType: "booking",
    carrierScac: "MAEU",
    fetchedAt: new Date("2024-03-01T00:00:00Z"),
    locationLookup: (locode) => PORTS[locode],
    ...overrides,
  };
}

function mapOk(
  events: unknown,
  ctx: Partial<DcsaMapContext> = {},
): { doc: TrackingDocument; warnings: string[] } {
  const result = mapDcsaEvents(events, context(ctx));
  if (!result.ok) throw new Error(`expected a document, got malformed: ${result.detail}`);
  return { doc: result.document, warnings: result.warnings };
}

const twice = (value: string): [string, string] => [value, value];

function only(doc: TrackingDocument): TrackedContainer {
  expect(doc.containers).toHaveLength(1);
  return doc.containers[0] as TrackedContainer;
}

/** What a compat user sees per event: code, status and where. */
const timeline = (c: TrackedContainer) =>
  c.events.filter((e) => e.emitted).map((e) => `${e.eventCode} ${e.statusCode ?? "-"} ${e.locationKey}`);

describe("official DCSA example tnt-220-response.json", () => {
  const { doc, warnings } = mapOk(fixture("tnt-220-response.json"), {
    reference: "APZU4812090",
    referenceType: "container",
    fetchedAt: new Date("2021-02-01T00:00:00Z"),
  });
  const box = only(doc);

  it("finds the one container with its ISO type", () => {
    expect(box.number).toBe("APZU4812090");
    expect(box.isoCode).toBe("22GP");
    expect(box.sizeType).toBeNull();
    expect(box.description).toBe("20' Dry");
    expect(box.statusFromCarrier).toBe(false);
    expect(box.eventsMirrored).toBe(false);
  });

  it("keeps one LOAD and one ARRI after dropping the revised duplicates, oldest first", () => {
    expect(box.events.map((e) => [e.kind, e.eventCode, e.dcsaEventId])).toEqual([
      // e4 and e7 are the same estimated loading; e4 was created later.
      ["EQUIPMENT", "LOAD", "3cecb101-7a1a-43a4-9d62-e88a131651e4"],
      // e2 and e5 are the same arrival; e2 was created later.
      ["TRANSPORT", "ARRI", "3cecb101-7a1a-43a4-9d62-e88a131651e2"],
    ]);
  });

  it("shows local wall time with the offset kept, and the classifier as actual or not", () => {
    const [load, arri] = box.events;
    expect(load).toMatchObject({
      localDateTime: "2019-11-12 07:41:00",
      utcOffset: "+08:30",
      instant: "2019-11-11T23:11:00.000Z",
      actual: false,
      emptyIndicator: "EMPTY",
      statusCode: "CLL",
      description: "Loaded on vessel",
    });
    expect(arri).toMatchObject({
      localDateTime: "2021-01-09 14:12:56",
      utcOffset: "+01:00",
      instant: "2021-01-09T13:12:56.000Z",
      actual: true,
      // A vessel arriving at the port of loading has no compat status code.
      statusCode: null,
    });
  });

  it("uses the export voyage for loading and the import voyage for arrival, on the same vessel", () => {
    const [load, arri] = box.events;
    expect(load?.voyage).toBe("2103S");
    expect(arri?.voyage).toBe("2103N");
    expect(doc.vessels).toEqual([{ key: "imo:9321483", name: "King of the Seas", imo: 9321483, mmsi: null }]);
    for (const e of box.events) {
      expect(e).toMatchObject({ vesselKey: "imo:9321483", modeOfTransport: "VESSEL", legType: "sea" });
    }
  });

  it("puts every event at Paris and the terminal ADT (SMDG)", () => {
    expect(doc.locations).toEqual([
      {
        key: "FRPAR",
        unLocode: "FRPAR",
        name: "Paris",
        state: null,
        country: "France",
        countryCode: "FR",
        lat: 48.8566,
        lng: 2.3522,
        timeZone: "Europe/Paris",
      },
    ]);
    expect(doc.facilities).toEqual([
      {
        key: "FRPAR/SMDG:ADT",
        name: "Eiffel Tower",
        locode: "FRPAR",
        countryCode: "FR",
        smdgCode: "ADT",
        bicCode: null,
        lat: 48.85855,
        lng: 2.294492036,
      },
    ]);
    expect(box.events.every((e) => e.locationKey === "FRPAR" && e.facilityKey === "FRPAR/SMDG:ADT")).toBe(
      true,
    );
  });

  it("has Paris as port of loading, dated by the estimated loading, and no port of discharge yet", () => {
    expect(doc.route.pol).toEqual({
      locationKey: "FRPAR",
      localDateTime: "2019-11-12 07:41:00",
      instant: "2019-11-11T23:11:00.000Z",
      actual: false,
    });
    expect(doc.route.pod.locationKey).toBeNull();
    expect(doc.route.prepol.locationKey).toBeNull();
    expect(doc.route.postpod.locationKey).toBeNull();
    expect(doc.ata).toBeNull();
    expect(doc.etaHistory).toEqual([]);
  });

  it("is planned: the loading is only estimated and the vessel's arrival at the POL moves nothing", () => {
    expect(box.status).toBe("PLANNED");
    expect(doc.status).toBe("PLANNED");
    expect(doc.statusFromCarrier).toBe(false);
    expect(doc.deliveredAt).toBeNull();
  });

  it("maps without warnings and survives a JSON round trip unchanged", () => {
    expect(warnings).toEqual([]);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});

describe("official negative examples", () => {
  it("wrong-structure (events wrapped in objects) is rejected as malformed", () => {
    const result = mapDcsaEvents(fixture("tnt-220-response-wrong-structure.json"), context());
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("wrong-date-times keeps every event, each bad time repaired or left out, and warns about each", () => {
    const { doc, warnings } = mapOk(fixture("tnt-220-response-wrong-date-times.json"), {
      referenceType: "bl",
    });
    expect(warnings).toEqual([
      "event 1: eventCreatedDateTime missing; kept, taken as its eventDateTime",
      'event 3: eventCreatedDateTime "2021 01 01 14:12:56"; kept, taken as its eventDateTime',
      'event 4: eventDateTime "2019/11/12 07:41:00 +08:30" is not a date-time; kept undated',
      "event 5: eventCreatedDateTime 1999-01-01T14:12:56Z is not plausible; kept, taken as its eventDateTime",
      "event 6: eventCreatedDateTime 2099-01-01T14:12:56Z is not plausible; kept, taken as its eventDateTime",
    ]);
    expect(warnings.some((w) => w.includes("dropped"))).toBe(false);
    // Only shipment events survive: no boxes, nothing to derive a status from.
    expect(doc.containers).toEqual([]);
    expect(doc.status).toBe("UNKNOWN");
  });

  it("wrong-event-ids keeps events with odd ids, drops repeated ids, and warns", () => {
    const { doc, warnings } = mapOk(fixture("tnt-220-response-wrong-event-ids.json"), {
      referenceType: "bl",
    });
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("event 0: eventID is not a string"),
        expect.stringContaining('event 1: eventID "incorrect" is not a UUID'),
        expect.stringContaining("3cecb101-7a1a-43a4-9d62-e88a131651e8 repeated"),
        expect.stringContaining("af7728dc-0e1e-42d2-ad78-61c5c0c25878 repeated"),
      ]),
    );
    expect(doc.status).toBe("UNKNOWN");
  });

  it("wrong-attribute-values degrades: contradictory codes are warned about, made-up countries left empty", () => {
    const { doc, warnings } = mapOk(fixture("tnt-220-response-wrong-attribute-values.json"), {
      referenceType: "bl",
    });
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("location.UNLocationCode XYBCD differs from UNLocationCode XYABC"),
        expect.stringContaining("XY is a private-use code"),
      ]),
    );
    expect(doc.locations.every((l) => l.countryCode === null)).toBe(true);
    const box = only(doc);
    expect(box.number).toBe("APZU2134567");
    // RMVD has no compat code: kept, not shown. The departure on its transport call is copied in.
    expect(box.events.map((e) => [e.eventCode, e.emitted])).toEqual([
      ["RMVD", false],
      ["DEPA", true],
    ]);
    expect(box.eventsMirrored).toBe(true);
    expect(doc.vessels).toEqual([{ key: "imo:1234567", name: "IMO 1234567", imo: 1234567, mmsi: null }]);
  });

  // mapDcsaEvents catches whatever its steps throw, so "does not throw" proves nothing: what it answers
  // does. A step that crashed would show here as "events could not be mapped: ...".
  it("answers every example, whatever the reference type, with a document or a reasoned refusal", () => {
    const summary = (name: string, referenceType: "container" | "bl" | "booking") => {
      const result = mapDcsaEvents(fixture(name), context({ referenceType }));
      if (!result.ok) return `${result.reason}: ${result.detail}`;
      const events = result.document.containers.map((c) => c.events.length).join(",");
      return `containers [${events}], ${result.warnings.length} warnings`;
    };
    const refused = "malformed: none of the 2 events is a valid DCSA T&T 2.2 event";
    const expected: Record<string, [string, string, string]> = {
      // Asked about a box (BKG123456 here), an answer about APZU4812090 alone is about another box.
      "tnt-220-response.json": [
        "other-equipment: asked about container BKG123456, the carrier answered about APZU4812090",
        ...twice("containers [2], 0 warnings"),
      ],
      "tnt-220-response-wrong-attribute-values.json": [
        "other-equipment: asked about container BKG123456, the carrier answered about APZU2134567",
        ...twice("containers [2], 4 warnings"),
      ],
      "tnt-220-response-wrong-date-times.json": [
        "containers [0], 5 warnings",
        ...twice("containers [], 5 warnings"),
      ],
      "tnt-220-response-wrong-event-ids.json": [
        "containers [0], 4 warnings",
        ...twice("containers [], 4 warnings"),
      ],
      "tnt-220-response-wrong-structure.json": [refused, refused, refused],
    };
    for (const [name, [container, bl, booking]] of Object.entries(expected)) {
      expect(
        { container: summary(name, "container"), bl: summary(name, "bl"), booking: summary(name, "booking") },
        name,
      ).toEqual({ container, bl, booking });
    }
  });
});

describe("payload shape", () => {
  it("rejects a body that is neither an array nor the { events } envelope of T&T 3.0", () => {
    expect(mapDcsaEvents({ data: [] }, context())).toMatchObject({ ok: false, reason: "malformed" });
    expect(mapDcsaEvents({ events: "none" }, context())).toMatchObject({ ok: false, reason: "malformed" });
    expect(mapDcsaEvents("[]", context())).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("rejects a non-empty array with nothing usable in it", () => {
    const result = mapDcsaEvents([null, 42, { eventType: "IOT" }], context());
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("rejects an answer whose events can be tied to no place or box", () => {
    const noPlace = equipment("GTIN", "ACT", "2024-01-05T14:00:00+08:00", BOX, "LADEN");
    const noBox = equipment("GTIN", "ACT", "2024-01-05T14:00:00+08:00", null, "LADEN", {
      place: SHANGHAI_TERMINAL,
    });
    const result = mapDcsaEvents([noPlace, noBox], context({ referenceType: "bl" }));
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("drops the one bad event and keeps the rest", () => {
    const events = [...journeyToSingapore(), { eventType: "EQUIPMENT", eventClassifierCode: "MAYBE" }];
    const { doc, warnings } = mapOk(events);
    expect(only(doc).events).toHaveLength(6);
    expect(warnings).toEqual([
      "event 6: eventCreatedDateTime missing; kept, taken as the time of the lookup",
      expect.stringContaining("event 6 dropped: eventClassifierCode"),
    ]);
  });

  it("maps an empty answer to an empty document", () => {
    const { doc } = mapOk([]);
    expect(doc.containers).toEqual([]);
    expect(doc.status).toBe("UNKNOWN");
  });
});

describe("transshipment", () => {
  const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("EST")], {
    fetchedAt: new Date("2024-01-14T00:00:00Z"),
  });
  const box = only(doc);

  it("names Singapore as the transshipment port and Rotterdam as the port of discharge", () => {
    expect(doc.transshipmentLocationKeys).toEqual(["SGSIN"]);
    expect(doc.route.pol.locationKey).toBe("CNSHA");
    expect(doc.route.pod.locationKey).toBe("NLRTM");
    expect(doc.locations.map((l) => l.name)).toEqual(["Shanghai", "Singapore", "Rotterdam"]);
  });

  it("codes each step of the journey", () => {
    expect(timeline(box)).toEqual([
      "GTOT CEP CNSHA",
      "GTIN CGI CNSHA",
      "LOAD CLL CNSHA",
      "DEPA VDL CNSHA",
      "ARRI VAT SGSIN",
      "DISC CDT SGSIN",
      "LOAD CLT SGSIN",
      "DEPA VDT SGSIN",
      "ARRI VAD NLRTM",
      "DISC CDD NLRTM",
    ]);
  });

  it("dates the POL by the vessel departure and the POD by the estimated arrival", () => {
    expect(doc.route.pol).toEqual({
      locationKey: "CNSHA",
      localDateTime: "2024-01-07 18:00:00",
      instant: "2024-01-07T10:00:00.000Z",
      actual: true,
    });
    expect(doc.route.pod).toEqual({
      locationKey: "NLRTM",
      localDateTime: "2024-02-10 06:00:00",
      instant: "2024-02-10T05:00:00.000Z",
      actual: false,
    });
  });

  it("switches vessel and voyage at the transshipment port", () => {
    expect(doc.vessels.map((v) => [v.key, v.name])).toEqual([
      ["imo:9321483", "KING OF THE SEAS"],
      ["imo:9811000", "EVER GIVEN"],
    ]);
    const at = (code: string, loc: string) =>
      box.events.find((e) => e.eventCode === code && e.locationKey === loc);
    expect(at("LOAD", "CNSHA")).toMatchObject({ vesselKey: "imo:9321483", voyage: "101W" });
    expect(at("ARRI", "SGSIN")).toMatchObject({ vesselKey: "imo:9321483", voyage: "101W" });
    expect(at("DEPA", "SGSIN")).toMatchObject({ vesselKey: "imo:9811000", voyage: "202W" });
    expect(at("ARRI", "NLRTM")).toMatchObject({ vesselKey: "imo:9811000", voyage: "202W" });
  });

  it("is in transit with no arrival time: the actual arrival at Singapore is not the ATA", () => {
    expect(box.status).toBe("IN_TRANSIT");
    expect(doc.status).toBe("IN_TRANSIT");
    expect(doc.ata).toBeNull();
    expect(doc.currentPosition).toEqual({ lat: 1.264, lng: 103.84 });
  });

  it("keeps the ETA history of the arrival at the POD", () => {
    expect(doc.etaHistory).toEqual([
      {
        eta: "2024-02-10T05:00:00.000Z",
        localDateTime: "2024-02-10 06:00:00",
        recordedAt: "2024-01-01T00:00:00.000Z",
        actual: false,
      },
    ]);
  });
});

describe("ata only at the final port of discharge", () => {
  it("is set from the actual arrival at Rotterdam, not from the actual arrival at Singapore", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("ACT")]);
    expect(doc.ata).toBe("2024-02-10T05:00:00.000Z");
    expect(doc.route.pod.actual).toBe(true);
    // Arrived at the port is still in transit until the box leaves it.
    expect(doc.status).toBe("IN_TRANSIT");
  });

  it("stays null while the arrival at the POD is only estimated", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("EST")]);
    expect(doc.ata).toBeNull();
  });
});

describe("delivery", () => {
  const gateOut = equipment("GTOT", "ACT", "2024-02-13T10:00:00+01:00", BOX, "LADEN", {
    place: ROTTERDAM_TERMINAL,
  });
  const emptyReturn = equipment("GTIN", "ACT", "2024-02-20T15:00:00+01:00", BOX, "EMPTY", {
    place: ROTTERDAM_DEPOT,
  });

  it("takes deliveredAt from the laden gate-out at the final point, not from the empty return", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("ACT"), gateOut, emptyReturn]);
    const box = only(doc);
    expect(box.status).toBe("DELIVERED");
    expect(box.deliveredAt).toBe("2024-02-13T09:00:00.000Z");
    expect(doc.status).toBe("DELIVERED");
    expect(doc.deliveredAt).toBe("2024-02-13T09:00:00.000Z");
    expect(timeline(box).slice(-2)).toEqual(["GTOT CGO NLRTM", "GTIN CER NLRTM"]);
    // The depot the empty goes back to is not the destination.
    expect(doc.route.postpod.locationKey).toBeNull();
    expect(doc.facilities.map((f) => f.name)).toContain("Rotterdam Empty Depot");
  });

  it("counts an empty return after discharge as delivered, but without a delivery time", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("ACT"), emptyReturn]);
    expect(doc.status).toBe("DELIVERED");
    expect(doc.deliveredAt).toBeNull();
  });

  it("is not delivered by the vessel arrival or the discharge", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...onwardFromSingapore("ACT")]);
    expect(doc.status).toBe("IN_TRANSIT");
    expect(doc.deliveredAt).toBeNull();
  });

  it("with on-carriage by rail, the gate-out at the port is not the delivery; the inland one is", () => {
    const railCall = { id: "call-rail-dui", mode: "RAIL" as const, locode: "DEDUI" };
    const duisburg = { locode: "DEDUI", name: "Duisburg Intermodal", facilityCode: "DUISP" };
    const base = [...journeyToSingapore(), ...onwardFromSingapore("ACT"), gateOut];
    const onTheWay = mapOk([
      ...base,
      transport("ARRI", "EST", "2024-02-15T08:00:00+01:00", railCall),
      equipment("GTOT", "EST", "2024-02-16T08:00:00+01:00", BOX, "LADEN", { place: duisburg }),
    ]).doc;
    expect(onTheWay.route.postpod.locationKey).toBe("DEDUI");
    expect(onTheWay.status).toBe("IN_TRANSIT");

    const arrived = mapOk([
      ...base,
      transport("ARRI", "ACT", "2024-02-15T08:00:00+01:00", railCall),
      equipment("GTOT", "ACT", "2024-02-16T08:00:00+01:00", BOX, "LADEN", { place: duisburg }),
      equipment("GTIN", "ACT", "2024-02-18T08:00:00+01:00", BOX, "EMPTY", { place: ROTTERDAM_DEPOT }),
    ]).doc;
    expect(arrived.status).toBe("DELIVERED");
    expect(arrived.deliveredAt).toBe("2024-02-16T07:00:00.000Z");
    expect(arrived.route.postpod).toMatchObject({
      locationKey: "DEDUI",
      localDateTime: "2024-02-15 08:00:00",
    });
    expect(timeline(only(arrived)).slice(-3)).toEqual(["ARRI - DEDUI", "GTOT CDC DEDUI", "GTIN CER NLRTM"]);
  });

  it("an actual drop-off at a customer location is a delivery even though DROP is not shown", () => {
    const truckToCustomer = {
      id: "call-truck-cust",
      mode: "TRUCK" as const,
      locode: "NLRTM",
      facilityTypeCode: "CLOC",
    };
    const { doc } = mapOk([
      ...journeyToSingapore(),
      ...onwardFromSingapore("ACT"),
      equipment("DROP", "ACT", "2024-02-14T11:00:00+01:00", BOX, "LADEN", {
        call: truckToCustomer,
        place: { name: "Consignee BV", lat: "51.90", lng: "4.50" },
      }),
    ]);
    const box = only(doc);
    expect(box.status).toBe("DELIVERED");
    expect(box.deliveredAt).toBe("2024-02-14T10:00:00.000Z");
    const drop = box.events.find((e) => e.eventCode === "DROP");
    expect(drop).toMatchObject({ emitted: false, statusCode: null, locationKey: "name:consignee-bv" });
  });
});

describe("revised estimates", () => {
  const revisions = [
    transport("ARRI", "EST", "2024-02-12T06:00:00+01:00", RTM_B, { created: "2024-01-20T00:00:00Z" }),
    transport("ARRI", "PLN", "2024-02-08T06:00:00+01:00", RTM_B, { created: "2024-01-05T00:00:00Z" }),
    transport("ARRI", "EST", "2024-02-10T06:00:00+01:00", RTM_B, { created: "2024-01-10T00:00:00Z" }),
  ];

  it("shows one arrival: the newest estimate, not the plan and not the older estimate", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...revisions], {
      fetchedAt: new Date("2024-01-21T00:00:00Z"),
    });
    const arrivals = only(doc).events.filter((e) => e.eventCode === "ARRI" && e.locationKey === "NLRTM");
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]).toMatchObject({ localDateTime: "2024-02-12 06:00:00", actual: false });
    expect(doc.route.pod.localDateTime).toBe("2024-02-12 06:00:00");
  });

  it("records every revision in the ETA history, in the order the carrier issued them", () => {
    const { doc } = mapOk([...journeyToSingapore(), ...revisions], {
      fetchedAt: new Date("2024-01-21T00:00:00Z"),
    });
    expect(doc.etaHistory.map((r) => [r.recordedAt, r.localDateTime, r.actual])).toEqual([
      ["2024-01-05T00:00:00.000Z", "2024-02-08 06:00:00", false],
      ["2024-01-10T00:00:00.000Z", "2024-02-10 06:00:00", false],
      ["2024-01-20T00:00:00.000Z", "2024-02-12 06:00:00", false],
    ]);
  });

  it("lets the actual arrival replace every estimate, whatever their creation times", () => {
    const actual = transport("ARRI", "ACT", "2024-02-11T23:00:00+01:00", RTM_B, {
      created: "2024-01-15T00:00:00Z",
    });
    const { doc } = mapOk([...journeyToSingapore(), ...revisions, actual]);
    const arrivals = only(doc).events.filter((e) => e.eventCode === "ARRI" && e.locationKey === "NLRTM");
    expect(arrivals.map((a) => [a.localDateTime, a.actual])).toEqual([["2024-02-11 23:00:00", true]]);
    expect(doc.ata).toBe("2024-02-11T22:00:00.000Z");
    expect(doc.etaHistory.at(-1)).toMatchObject({ eta: "2024-02-11T22:00:00.000Z", actual: true });
    // The later estimate (created after the actual) does not come back into the history.
    expect(doc.etaHistory.filter((r) => r.actual)).toHaveLength(1);
    expect(doc.etaHistory.at(-1)?.recordedAt).toBe("2024-01-15T00:00:00.000Z");
  });
});

describe("cancelled booking", () => {
  const emptyPickUp = equipment("GTOT", "ACT", "2024-01-02T09:00:00+08:00", BOX, "EMPTY", {
    place: SHANGHAI_TERMINAL,
  });
  const loadPlan = equipment("LOAD", "PLN", "2024-01-07T03:00:00+08:00", BOX, "LADEN", { call: SHA_A });

  it("is CANCELLED for the shipment and every container after a CANC on the booking", () => {
    const { doc } = mapOk([
      shipment("CONF", "BKG", "2023-12-20T10:00:00Z"),
      emptyPickUp,
      loadPlan,
      shipment("CANC", "BKG", "2024-01-03T10:00:00Z"),
    ]);
    expect(doc.status).toBe("CANCELLED");
    expect(only(doc).status).toBe("CANCELLED");
  });

  it("treats a rejected booking as cancelled, as 2.2 has no CANC", () => {
    const { doc } = mapOk([
      shipment("CONF", "BKG", "2023-12-20T10:00:00Z"),
      shipment("REJE", "BKG", "2023-12-21T10:00:00Z"),
      loadPlan,
    ]);
    expect(doc.status).toBe("CANCELLED");
  });

  it("does not cancel on a voided transport document", () => {
    const { doc } = mapOk([emptyPickUp, loadPlan, shipment("VOID", "TRD", "2024-01-03T10:00:00Z")]);
    expect(doc.status).toBe("PLANNED");
  });

  it("is reinstated by a later confirmation, or by a box actually moving after the refusal", () => {
    const reconfirmed = mapOk([
      shipment("REJE", "BKG", "2023-12-20T10:00:00Z"),
      shipment("CONF", "BKG", "2023-12-21T10:00:00Z"),
      emptyPickUp,
    ]).doc;
    expect(reconfirmed.status).toBe("PLANNED");
    const { doc, warnings } = mapOk([shipment("REJE", "BKG", "2023-12-21T10:00:00Z"), emptyPickUp]);
    expect(doc.status).toBe("PLANNED");
    expect(warnings).toEqual([expect.stringContaining("followed by actual moves")]);
  });
});

describe("truck leg", () => {
  const shipper = { name: "Acme Widgets Ltd", city: "Suzhou", lat: "31.30", lng: "120.62" };
  const pickUpCall = { id: "call-truck-1", mode: "TRUCK" as const };
  const dropCall = { id: "call-truck-2", mode: "TRUCK" as const, locode: "CNSHA" };
  const { doc } = mapOk(
    [
      equipment("GTOT", "ACT", "2024-01-04T08:00:00+08:00", BOX, "LADEN", {
        place: shipper,
        call: pickUpCall,
      }),
      transport("DEPA", "ACT", "2024-01-04T08:30:00+08:00", { ...pickUpCall, locode: undefined }),
      transport("ARRI", "ACT", "2024-01-04T12:00:00+08:00", dropCall),
      equipment("GTIN", "ACT", "2024-01-04T12:30:00+08:00", BOX, "LADEN", { place: SHANGHAI_TERMINAL }),
      equipment("LOAD", "EST", "2024-01-07T03:00:00+08:00", BOX, "LADEN", { call: SHA_A }),
    ],
    { fetchedAt: new Date("2024-01-05T00:00:00Z") },
  );
  const box = only(doc);

  it("has no vessel and no voyage on the truck events, and marks them as land", () => {
    const truck = box.events.filter((e) => e.modeOfTransport === "TRUCK");
    expect(truck.length).toBe(3);
    for (const e of truck) expect(e).toMatchObject({ vesselKey: null, voyage: null, legType: "land" });
  });

  it("starts the route at the shipper, a place without a UN/LOCODE", () => {
    expect(doc.route.prepol).toMatchObject({
      locationKey: "name:acme-widgets-ltd",
      localDateTime: "2024-01-04 08:00:00",
      actual: true,
    });
    expect(doc.locations[0]).toMatchObject({
      name: "Acme Widgets Ltd",
      unLocode: null,
      lat: 31.3,
      lng: 120.62,
    });
    // The truck's departure names no place; it takes the place of the gate-out on the same call.
    expect(box.events[1]).toMatchObject({ eventCode: "DEPA", locationKey: "name:acme-widgets-ltd" });
  });

  it("codes the laden pick-up at the shipper and the gate-in at the port", () => {
    expect(timeline(box)).toEqual([
      "GTOT CPS name:acme-widgets-ltd",
      "DEPA - name:acme-widgets-ltd",
      "ARRI - CNSHA",
      "GTIN CGI CNSHA",
      "LOAD CLL CNSHA",
    ]);
    expect(box.status).toBe("IN_TRANSIT");
  });
});

describe("barge and rail legs", () => {
  const bargeDui = { id: "call-barge-dui", mode: "BARGE" as const, locode: "DEDUI" };
  const bargeAnr = { id: "call-barge-anr", mode: "BARGE" as const, locode: "BEANR" };
  const vesselAnr = { id: "call-anr", locode: "BEANR", vessel: EVER_GIVEN, exportVoyage: "301W" };
  const vesselNyc = { id: "call-nyc", locode: "USNYC", vessel: EVER_GIVEN, importVoyage: "301W" };

  it("treats a barge feeding the ocean vessel as pre-carriage: Duisburg is prepol, Antwerp the POL", () => {
    const { doc } = mapOk([
      equipment("LOAD", "ACT", "2024-01-02T08:00:00+01:00", BOX, "LADEN", { call: bargeDui }),
      transport("DEPA", "ACT", "2024-01-02T10:00:00+01:00", bargeDui),
      transport("ARRI", "ACT", "2024-01-04T10:00:00+01:00", bargeAnr),
      equipment("DISC", "ACT", "2024-01-04T12:00:00+01:00", BOX, "LADEN", { call: bargeAnr }),
      equipment("LOAD", "ACT", "2024-01-06T12:00:00+01:00", BOX, "LADEN", { call: vesselAnr }),
      transport("DEPA", "EST", "2024-01-07T02:00:00+01:00", vesselAnr),
      transport("ARRI", "EST", "2024-01-20T06:00:00-05:00", vesselNyc),
    ]);
    expect(doc.route.prepol.locationKey).toBe("DEDUI");
    expect(doc.route.pol.locationKey).toBe("BEANR");
    expect(doc.route.pod.locationKey).toBe("USNYC");
    expect(doc.transshipmentLocationKeys).toEqual([]);
    expect(timeline(only(doc))).toEqual([
      "LOAD - DEDUI",
      "DEPA - DEDUI",
      "ARRI BTS BEANR",
      "DISC BTS BEANR",
      "LOAD CLL BEANR",
      "DEPA VDL BEANR",
      "ARRI VAD USNYC",
    ]);
    expect(only(doc).events[0]).toMatchObject({ modeOfTransport: "BARGE", legType: "land", vesselKey: null });
  });

  it("routes a journey with no vessel at all by its barge", () => {
    const bargeRtm = { id: "call-barge-rtm", mode: "BARGE" as const, locode: "NLRTM" };
    const { doc } = mapOk([
      equipment("LOAD", "ACT", "2024-01-02T08:00:00+01:00", BOX, "LADEN", { call: bargeRtm }),
      transport("DEPA", "ACT", "2024-01-02T10:00:00+01:00", bargeRtm),
      transport("ARRI", "ACT", "2024-01-04T10:00:00+01:00", bargeDui),
      equipment("DISC", "ACT", "2024-01-04T12:00:00+01:00", BOX, "LADEN", { call: bargeDui }),
    ]);
    expect([doc.route.pol.locationKey, doc.route.pod.locationKey]).toEqual(["NLRTM", "DEDUI"]);
    expect(timeline(only(doc))).toEqual([
      "LOAD CLL NLRTM",
      "DEPA VDL NLRTM",
      "ARRI VAD DEDUI",
      "DISC CDD DEDUI",
    ]);
    expect(only(doc).events[0]?.description).toBe("Loaded on barge");
    expect(doc.ata).toBe("2024-01-04T09:00:00.000Z");
  });

  it("codes the hand-over from vessel to train at the POD as a land transshipment", () => {
    const railRtm = { id: "call-rail-rtm", mode: "RAIL" as const, locode: "NLRTM" };
    const railDui = { id: "call-rail-dui", mode: "RAIL" as const, locode: "DEDUI" };
    const { doc } = mapOk([
      ...journeyToSingapore(),
      ...onwardFromSingapore("ACT"),
      equipment("LOAD", "ACT", "2024-02-12T08:00:00+01:00", BOX, "LADEN", { call: railRtm }),
      transport("ARRI", "EST", "2024-02-13T08:00:00+01:00", railDui),
    ]);
    expect(doc.route.postpod.locationKey).toBe("DEDUI");
    expect(timeline(only(doc)).slice(-3)).toEqual(["DISC CDD NLRTM", "LOAD LTS NLRTM", "ARRI - DEDUI"]);
  });
});

describe("undated event", () => {
  const undatedDischarge = equipment("DISC", "EST", null, BOX, "LADEN", { call: RTM_B });
  const events = [
    ...journeyToSingapore(),
    ...onwardFromSingapore("EST").slice(0, 3),
    undatedDischarge,
    equipment("GTOT", "EST", "2024-02-12T10:00:00+01:00", BOX, "LADEN", { place: ROTTERDAM_TERMINAL }),
  ];
  const { doc } = mapOk(events, { fetchedAt: new Date("2024-01-14T00:00:00Z") });
  const box = only(doc);

  it("keeps it with null date fields (not absent) and places it with its call, not at the end", () => {
    const disc = box.events.find((e) => e.eventCode === "DISC" && e.locationKey === "NLRTM");
    expect(disc).toMatchObject({ localDateTime: null, utcOffset: null, instant: null, statusCode: "CDD" });
    expect(timeline(box).slice(-3)).toEqual(["ARRI VAD NLRTM", "DISC CDD NLRTM", "GTOT CGO NLRTM"]);
    const roundTrip = JSON.parse(JSON.stringify(doc)) as TrackingDocument;
    expect(
      Object.hasOwn(roundTrip.containers[0]?.events.find((e) => e.instant === null) ?? {}, "localDateTime"),
    ).toBe(true);
  });
});

describe("several containers on one booking", () => {
  const SECOND = "MSKU7654321";
  it("copies each vessel event into every box on that call and keeps equipment events apart", () => {
    const { doc } = mapOk([
      equipment("LOAD", "ACT", "2024-01-07T03:00:00+08:00", BOX, "LADEN", { call: SHA_A, iso: "45G1" }),
      equipment("LOAD", "ACT", "2024-01-07T04:00:00+08:00", SECOND, "LADEN", { call: SHA_A, iso: "40HQ" }),
      transport("DEPA", "ACT", "2024-01-07T18:00:00+08:00", SHA_A),
      transport("ARRI", "EST", "2024-02-10T06:00:00+01:00", RTM_B, {
        containers: [BOX, SECOND, "TGHU1111112"],
      }),
    ]);
    expect(doc.containers.map((c) => [c.number, c.isoCode, c.sizeType, c.eventsMirrored])).toEqual([
      [BOX, "45G1", null, false],
      [SECOND, null, "40HQ", false],
      // Named only by the arrival's references: its events are all copied.
      ["TGHU1111112", null, null, true],
    ]);
    for (const number of [BOX, SECOND]) {
      const box = doc.containers.find((c) => c.number === number);
      expect(box?.events.map((e) => e.eventCode)).toEqual(["LOAD", "DEPA", "ARRI"]);
    }
  });
});

describe("times and places", () => {
  it("shows a UTC (Z) time as the wall clock of the port when the port's zone is known", () => {
    const { doc } = mapOk([
      transport("ARRI", "ACT", "2024-02-10T05:00:00Z", RTM_B),
      equipment("DISC", "ACT", "2024-02-10T17:00:00Z", BOX, "LADEN", { call: RTM_B }),
    ]);
    const arri = only(doc).events[0];
    expect(arri).toMatchObject({
      localDateTime: "2024-02-10 06:00:00",
      utcOffset: "+01:00",
      instant: "2024-02-10T05:00:00.000Z",
    });
  });

  it("without a port lookup, names a port by its UN/LOCODE and derives the country from it", () => {
    const { doc } = mapOk(journeyToSingapore(), { locationLookup: undefined });
    expect(doc.locations[0]).toMatchObject({
      key: "CNSHA",
      name: "CNSHA",
      countryCode: "CN",
      country: "China",
      lat: null,
    });
  });

  it("does not believe an 'actual' event dated weeks after the fetch", () => {
    const arrival = transport("ARRI", "ACT", "2024-02-10T06:00:00+01:00", RTM_B, { containers: [BOX] });
    const { doc, warnings } = mapOk([arrival], {
      fetchedAt: new Date("2024-01-14T00:00:00Z"),
    });
    expect(only(doc).events[0]?.actual).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("marked actual but dated in the future")]);
  });

  it("ignores a vessel IMO number that fails the check digit but keeps the vessel by name", () => {
    const badImo = { ...SHA_A, vessel: { imo: "9321484", name: "KING OF THE SEAS" } };
    const { doc, warnings } = mapOk([
      equipment("LOAD", "ACT", "2024-01-07T03:00:00+08:00", BOX, "LADEN", { call: badImo }),
    ]);
    expect(doc.vessels).toEqual([
      { key: "name:king-of-the-seas", name: "KING OF THE SEAS", imo: null, mmsi: null },
    ]);
    expect(warnings).toEqual([expect.stringContaining("fails the IMO check")]);
  });

  it("assigns an equipment event without equipmentReference to the container that was asked for", () => {
    const { doc } = mapOk(
      [equipment("GTIN", "ACT", "2024-01-05T14:00:00+08:00", null, "LADEN", { place: SHANGHAI_TERMINAL })],
      {
        reference: "maeu 123456-7",
        referenceType: "container",
      },
    );
    expect(only(doc).number).toBe(BOX);
    expect(only(doc).events).toHaveLength(1);
  });
});
