import { describe, expect, it } from "vitest";
import { parseHistoryParams, parseTrackingParams } from "../../facades/compat/params";
import {
  type DocumentView,
  renderHistoryDocument,
  renderTrackingAnswer,
  successMessage,
  trackingAnswerJson,
} from "../../facades/compat/render/tracking-answer";
import { fixedOffsetZone, placeLocations } from "../../src/domain/routes/placed-locations";
import { predictArrival } from "../../src/domain/routes/predictive-eta";
import { routeSegments } from "../../src/domain/routes/route-segments";
import type { TrackedEvent, TrackingDocument } from "../../src/domain/tracking/model";
import { OUTCOMES } from "../../src/http/outcomes";
import { MESSAGES, SUCCESS_MESSAGES, trackingDataSchema } from "./compat-schema";

function event(overrides: Partial<TrackedEvent>): TrackedEvent {
  return {
    kind: "TRANSPORT",
    eventCode: "DEPA",
    emitted: true,
    statusCode: "VDL",
    description: "Vessel departed",
    localDateTime: "2026-01-10 08:00:00",
    utcOffset: "+08:00",
    instant: "2026-01-10T00:00:00.000Z",
    actual: true,
    modeOfTransport: "VESSEL",
    legType: "sea",
    vesselKey: "imo:9839430",
    voyage: "001W",
    locationKey: "CNSHA",
    facilityKey: null,
    emptyIndicator: null,
    isAdditional: false,
    dcsaEventId: null,
    ...overrides,
  };
}

const place = (key: string, lat: number | null, lng: number | null, timeZone: string | null = null) => ({
  key,
  unLocode: key,
  name: key,
  state: null,
  country: null,
  countryCode: key.slice(0, 2),
  lat,
  lng,
  timeZone,
});

function document(): TrackingDocument {
  return {
    referenceType: "container",
    reference: "MSCU1000001",
    carrierScac: "MSCU",
    status: "IN_TRANSIT",
    statusFromCarrier: false,
    locations: [
      place("CNSHA", 31.23, 121.47, "Asia/Shanghai"),
      place("NLRTM", 51.95, 4.14),
      place("DEDUI", null, null),
    ],
    facilities: [
      {
        key: "DEDUI/name:depot",
        name: "Duisburg depot",
        locode: "DEDUI",
        countryCode: "DE",
        smdgCode: null,
        bicCode: null,
        lat: 51.43,
        lng: 6.76,
      },
    ],
    vessels: [{ key: "imo:9839430", name: "MSC GULSUN", imo: 9839430, mmsi: null }],
    containers: [
      {
        number: "MSCU1000001",
        isoCode: "45G1",
        sizeType: null,
        description: "40' High Cube Dry",
        status: "IN_TRANSIT",
        statusFromCarrier: false,
        eventsMirrored: false,
        deliveredAt: null,
        events: [
          event({
            kind: "EQUIPMENT",
            eventCode: "GTOT",
            statusCode: "CEP",
            modeOfTransport: "TRUCK",
            legType: "land",
            vesselKey: null,
            voyage: null,
          }),
          event({}),
          event({ eventCode: "RMVD", emitted: false, statusCode: null }),
          event({
            eventCode: "ARRI",
            statusCode: "VAD",
            locationKey: "NLRTM",
            localDateTime: null,
            instant: null,
            utcOffset: null,
            actual: false,
          }),
          event({
            kind: "EQUIPMENT",
            eventCode: "GTIN",
            statusCode: null,
            locationKey: "DEDUI",
            facilityKey: "DEDUI/name:depot",
            modeOfTransport: "BARGE",
            legType: "land",
            vesselKey: null,
            voyage: null,
            utcOffset: "+01:00",
            actual: false,
          }),
        ],
      },
    ],
    route: {
      prepol: { locationKey: null, localDateTime: null, instant: null, actual: null },
      pol: {
        locationKey: "CNSHA",
        localDateTime: "2026-01-10 08:00:00",
        instant: "2026-01-10T00:00:00.000Z",
        actual: true,
      },
      pod: { locationKey: "NLRTM", localDateTime: null, instant: null, actual: null },
      postpod: { locationKey: "DEDUI", localDateTime: null, instant: null, actual: null },
    },
    etaHistory: [],
    transshipmentLocationKeys: [],
    ata: null,
    deliveredAt: null,
    currentPosition: null,
    fetchedAt: "2026-01-11T00:00:00.000Z",
  };
}

type EventView = DocumentView["containers"][number]["events"][number];

/** The core's answer about document(), as the compat operations select it. */
function view(): DocumentView {
  const placed = (key: string, lat: number, lng: number, timeZone: string) => ({
    key,
    unLocode: key,
    name: key,
    state: null,
    country: null,
    countryCode: key.slice(0, 2),
    lat,
    lng,
    timeZone,
  });
  const shown = (more: Partial<EventView>): EventView => ({
    location: { key: "CNSHA" },
    facility: null,
    description: "Vessel departed",
    kind: "TRANSPORT",
    eventCode: "DEPA",
    statusCode: "VDL",
    localDateTime: "2026-01-10 08:00:00",
    isDateFromCarrier: true,
    instant: "2026-01-10T00:00:00.000Z",
    actual: true,
    isAdditional: false,
    legType: "SEA",
    modeOfTransport: "VESSEL",
    vessel: { key: "imo:9839430" },
    voyage: "001W",
    ...more,
  });
  const noPoint = { location: null, localDateTime: null, actual: null };
  return {
    fetchedAt: "2026-01-11T00:00:00.000Z",
    lastSyncedAt: "2026-01-11T00:00:00.000Z",
    cacheExpiresAt: "2026-01-11T12:00:00.000Z",
    referenceType: "container",
    status: "IN_TRANSIT",
    statusFromCarrier: false,
    contentState: "OK",
    placedLocations: [
      placed("CNSHA", 31.23, 121.47, "Asia/Shanghai"),
      placed("NLRTM", 51.95, 4.14, "Europe/Amsterdam"),
      placed("DEDUI", 51.43, 6.76, "Europe/Berlin"),
    ],
    podPredictedArrival: { localDateTime: "2026-02-11 04:00:00" },
    finalDestinationEta: null,
    facilities: [
      {
        key: "DEDUI/name:depot",
        name: "Duisburg depot",
        locode: "DEDUI",
        locodeCountryCode: "DE",
        bicCode: null,
        smdgCode: null,
        lat: 51.43,
        lng: 6.76,
      },
    ],
    route: {
      origin: noPoint,
      portOfLoading: { location: { key: "CNSHA" }, localDateTime: "2026-01-10 08:00:00", actual: true },
      portOfDischarge: { location: { key: "NLRTM" }, localDateTime: null, actual: null },
      destination: { location: { key: "DEDUI" }, localDateTime: null, actual: null },
    },
    vessels: [{ key: "imo:9839430", name: "MSC GULSUN", imo: 9839430, mmsi: null }],
    containers: [
      {
        number: "MSCU1000001",
        isoCode: "45G1",
        sizeType: null,
        description: "40' High Cube Dry",
        status: "IN_TRANSIT",
        statusFromCarrier: false,
        eventsMirrored: false,
        events: [
          shown({
            kind: "EQUIPMENT",
            eventCode: "GTOT",
            statusCode: "CEP",
            description: "Gate out",
            modeOfTransport: "TRUCK",
            legType: "LAND",
            vessel: null,
            voyage: null,
          }),
          shown({}),
          shown({
            eventCode: "ARRI",
            statusCode: "VAD",
            location: { key: "NLRTM" },
            localDateTime: null,
            isDateFromCarrier: false,
            instant: null,
            actual: false,
          }),
          shown({
            kind: "EQUIPMENT",
            eventCode: "GTIN",
            statusCode: null,
            location: { key: "DEDUI" },
            facility: { key: "DEDUI/name:depot" },
            modeOfTransport: "BARGE",
            legType: "LAND",
            vessel: null,
            voyage: null,
            actual: false,
          }),
        ],
      },
    ],
  };
}

const context = {
  type: null,
  number: "MSCU1000001",
  carrier: { scac: "MSCU", name: "MSC" },
  fromCache: false,
  stale: null,
  usage: { calls: 3, slotLimit: 500, slotsHeld: 1, slotsRemaining: 499 },
};

describe("the compat rendering of a document", () => {
  it("serialises a kept document's answer to the bytes JSON.stringify makes, with each call's own usage", () => {
    const kept = view();
    for (const options of [
      { route: false },
      { route: true },
      { route: false, singleContainer: "MSCU1000001" },
      { route: false },
    ]) {
      for (const calls of [3, 4]) {
        const callContext = { ...context, usage: { ...context.usage, calls } };
        const text = trackingAnswerJson(kept, callContext, options);
        expect(text).toBe(JSON.stringify(renderTrackingAnswer(kept, callContext, options)));
        expect(JSON.parse(text).metadata.api_calls).toMatchObject({ used: calls });
      }
    }
  });

  it("numbers locations, facilities and vessels by position and refers to them by those numbers", () => {
    const body = trackingDataSchema.parse(renderTrackingAnswer(view(), context, { route: false }));
    expect(body.locations!.map((l) => [l.id, l.locode])).toEqual([
      [1, "CNSHA"],
      [2, "NLRTM"],
      [3, "DEDUI"],
    ]);
    expect(body.route).toMatchObject({
      pol: { location: 1 },
      pod: { location: 2 },
      postpod: { location: 3 },
    });
    expect(body.route.prepol.location).toBeNull();
    const events = body.containers[0]!.events;
    expect(events.map((e) => [e.order_id, e.event_code, e.location])).toEqual([
      [1, "GTOT", 1],
      [2, "DEPA", 1],
      [3, "ARRI", 2],
      [4, "GTIN", 3],
    ]);
    expect(events.map((e) => e.type)).toEqual(["land", "sea", "sea", "land"]);
    // An event without a status code says UNK.
    expect(events[3]!.status).toBe("UNK");
    expect(events[3]!.facility).toBe(1);
    expect(body.facilities![0]!.country_code).toBe("DE");
  });

  it("absence rules: no vessel key on a land leg, no date key on an undated event, no route_data without route", () => {
    const body = trackingDataSchema.parse(renderTrackingAnswer(view(), context, { route: false }));
    const [truck, depart, arrival, barge] = body.containers[0]!.events;
    expect(truck).not.toHaveProperty("vessel");
    expect(barge).not.toHaveProperty("vessel");
    expect(depart!.vessel).toBe(1);
    expect(arrival).not.toHaveProperty("date");
    expect(arrival!.is_date_from_sealine).toBe(false);
    expect(body).not.toHaveProperty("route_data");
    expect(body.metadata).not.toHaveProperty("stale_reason");
    expect(body.metadata.api_calls).toEqual({ total: null, used: 3, remaining: null });
  });

  it("fills coordinates from a terminal and time zones from coordinates or the events' offsets", () => {
    const placed = placeLocations(document());
    expect(placed[0]!.timeZone).toBe("Asia/Shanghai");
    expect(placed[1]!.timeZone).toBe("Europe/Amsterdam");
    expect(placed[2]).toMatchObject({ lat: 51.43, lng: 6.76, timeZone: "Europe/Berlin" });
    expect(fixedOffsetZone("+07:00")).toBe("Etc/GMT-7");
    expect(fixedOffsetZone("-05:00")).toBe("Etc/GMT+5");
    expect(fixedOffsetZone("+05:30")).toBeNull();
  });

  it("predicts the arrival only when the carrier gave none: departure plus the sea route at 14 knots", () => {
    const doc = document();
    const predicted = predictArrival(doc, placeLocations(doc))!;
    const days = (Date.parse(predicted.instant) - Date.parse("2026-01-10T00:00:00Z")) / 86_400_000;
    expect(predicted.distanceNm).toBeGreaterThan(10_000);
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThan(34);
    expect(predicted.localDateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    doc.route.pod = {
      locationKey: "NLRTM",
      localDateTime: "2026-02-12 10:00:00",
      instant: "2026-02-12T09:00:00Z",
      actual: false,
    };
    expect(predictArrival(doc, placeLocations(doc))).toBeNull();
  });

  it("draws a SEA leg along the sea route and a LAND leg as a straight line with its mode", () => {
    const segments = routeSegments(document(), placeLocations(document()));
    expect(segments.map((s) => [s.kind, s.modeOfTransport])).toEqual([
      ["SEA", "VESSEL"],
      ["LAND", "BARGE"],
    ]);
    expect(segments[0]!.vesselKey).toBe("imo:9839430");
    expect(segments[0]!.path.length).toBeGreaterThan(10);
    expect(segments[1]!.path).toHaveLength(2);
  });

  it("reduces the history-by-id document to the listed fields, dates in UTC with +00", () => {
    const body = renderHistoryDocument(view(), {
      type: "CT",
      number: "MSCU1000001",
      sealine: "MSCU",
      sealineName: "MSC",
      status: "IN_TRANSIT",
      updatedAt: "2026-01-11T00:00:00.000Z",
      usage: null,
    });
    expect(Object.keys(body.metadata)).toEqual([
      "type",
      "number",
      "sealine",
      "sealine_name",
      "status",
      "updated_at",
      "api_calls",
      "unique_shipments",
    ]);
    expect(body.locations[0]).not.toHaveProperty("timezone");
    expect(Object.keys(body.containers[0]!)).toEqual(["number", "iso_code", "status", "events"]);
    expect(body.containers[0]!.events[1]).toEqual({
      location: 1,
      description: "Vessel departed",
      status: "VDL",
      date: "2026-01-10 00:00:00+00",
      actual: true,
      type: "sea",
      vessel: 1,
      voyage: "001W",
    });
    expect(body.containers[0]!.events[2]).not.toHaveProperty("date");
  });

  it("names what the core says the document has in the compat vocabulary", () => {
    expect(successMessage({ contentState: "OK" })).toBe("OK");
    expect(successMessage({ contentState: "CANCELLED" })).toBe("SEALINE_CANCELED_SHIPMENT");
    expect(successMessage({ contentState: "NO_CONTAINERS" })).toBe("NO_CONTAINERS");
    expect(successMessage({ contentState: "NO_EVENTS" })).toBe("NO_EVENTS");
  });
});

describe("the compat parameters", () => {
  const tracking = (query: Record<string, unknown>) =>
    parseTrackingParams(query, { allowedTypes: ["CT", "BL", "BK"] });

  it("reads sealine auto/empty/absent as detection, type empty as detection, and booleans", () => {
    for (const sealine of [undefined, "", "auto", " Auto "]) {
      const parsed = tracking({ number: " MSCU1000001 ", sealine });
      expect(parsed).toMatchObject({ ok: true, value: { number: "MSCU1000001", sealine: null, type: null } });
    }
    expect(
      tracking({ number: "X", sealine: "mscu", type: "bk", force_update: "1", route: "TRUE" }),
    ).toMatchObject({
      ok: true,
      value: { sealine: "MSCU", type: "BK", forceUpdate: true, route: true },
    });
  });

  it("names the outcome of each malformed parameter", () => {
    expect(tracking({})).toMatchObject({ ok: false, outcome: "bad_request" });
    expect(tracking({ number: ["A", "B"] })).toMatchObject({ ok: false, outcome: "bad_request" });
    expect(tracking({ number: "X", type: "CC" })).toMatchObject({
      ok: false,
      outcome: "wrong_reference_type",
    });
    expect(tracking({ number: "X", sealine: "TOOLONG" })).toMatchObject({
      ok: false,
      outcome: "wrong_carrier_code",
    });
    expect(tracking({ number: "X", ais: "maybe" })).toMatchObject({ ok: false, outcome: "bad_request" });
    expect(parseHistoryParams({ number: "X", type: "CT", id: "-1" })).toMatchObject({
      ok: false,
      outcome: "bad_request",
    });
    expect(parseHistoryParams({ number: "X", type: "CT", id: "99999999999" })).toMatchObject({
      ok: false,
      outcome: "bad_request",
    });
    expect(parseHistoryParams({ number: "X", type: "CT", id: "7" })).toMatchObject({
      ok: true,
      value: { id: 7 },
    });
  });
});

describe("the message enumeration", () => {
  it("every message of spec section 7 has a condition: a success rule or an outcome of the one table", () => {
    const produced = new Set([...SUCCESS_MESSAGES, ...Object.values(OUTCOMES).map((o) => o.compat.message)]);
    expect([...produced].sort()).toEqual([...MESSAGES].sort());
    for (const outcome of Object.values(OUTCOMES)) expect(outcome.sentence.length).toBeGreaterThanOrEqual(8);
  });
});
