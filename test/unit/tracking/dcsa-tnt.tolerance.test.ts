import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findPort } from "../../../src/domain/ports/port-directory";
import type { TrackingDocument } from "../../../src/domain/tracking/model";
import { type DcsaMapContext, mapDcsaEvents } from "../../../src/upstream/carriers/dcsa-tnt.mapper";
import { journeyToSingapore, onwardFromSingapore } from "./dcsa-fixtures";

/**
 * Issue 24 item 4: a tolerant mapper. What real carriers send (`PLAN`, lower-case codes, transport
 * events without `transportCall`, modes outside the four of 2.2, times without an offset) is read, each
 * repair warned about under its event, and the journey comes out as the conforming answer's would.
 */

type Event = Record<string, any>;

function context(overrides: Partial<DcsaMapContext> = {}): DcsaMapContext {
  return {
    reference: "MAEU1234567",
    referenceType: "container",
    carrierScac: "EGLV",
    fetchedAt: new Date("2024-03-01T00:00:00Z"),
    locationLookup: findPort,
    ...overrides,
  };
}

function mapOk(events: unknown, ctx: Partial<DcsaMapContext> = {}) {
  const result = mapDcsaEvents(events, context(ctx));
  if (!result.ok) throw new Error(`expected a document, got malformed: ${result.detail}`);
  return { doc: result.document, warnings: result.warnings };
}

/** The whole journey a user sees, as plain data, without the fetch time. */
const seen = (doc: TrackingDocument) => ({
  status: doc.status,
  route: doc.route,
  locations: doc.locations,
  containers: doc.containers,
  eta: doc.etaHistory,
});

// One set of events (their ids included), cloned by each case before it bends them.
const BASE: Event[] = [...journeyToSingapore(), ...onwardFromSingapore("PLN")];
const journey = (): Event[] => structuredClone(BASE);
const conforming = mapOk(journey());

function each(events: Event[], change: (e: Event) => void): Event[] {
  return events.map((e) => {
    const copy = structuredClone(e);
    change(copy);
    return copy;
  });
}

describe("a journey as real carriers send it maps like the conforming one", () => {
  it("the conforming journey itself maps without warnings", () => {
    expect(conforming.warnings).toEqual([]);
    expect(conforming.doc.containers[0]?.events.length).toBeGreaterThan(8);
  });

  it("reads PLAN as PLN (Evergreen's examples), warning per event", () => {
    const sent = each(journey(), (e) => {
      if (e.eventClassifierCode === "PLN") e.eventClassifierCode = "PLAN";
    });
    const { doc, warnings } = mapOk(sent);
    expect(seen(doc)).toEqual(seen(conforming.doc));
    expect(warnings).toEqual([6, 7, 8, 9].map((i) => `event ${i}: eventClassifierCode "PLAN" read as "PLN"`));
  });

  it("reads lower-case codes, modes and UN/LOCODEs", () => {
    const lower = (o: Event | undefined, field: string) => {
      if (o && typeof o[field] === "string") o[field] = o[field].toLowerCase();
    };
    const sent = each(journey(), (e) => {
      for (const f of [
        "eventType",
        "eventClassifierCode",
        "transportEventTypeCode",
        "equipmentEventTypeCode",
        "emptyIndicatorCode",
      ])
        lower(e, f);
      lower(e.transportCall, "modeOfTransport");
      lower(e.transportCall, "UNLocationCode");
      lower(e.eventLocation, "UNLocationCode");
    });
    const { doc, warnings } = mapOk(sent);
    expect(seen(doc)).toEqual(seen(conforming.doc));
    expect(warnings).toContain('event 0: eventType "equipment" read as "EQUIPMENT"');
    expect(warnings).toContain('event 3: modeOfTransport "vessel" read as "VESSEL"');
    expect(warnings.some((w) => w.includes("dropped"))).toBe(false);
  });

  it("places a transport event without transportCall by its eventLocation (ZIM), keeping every arrival and departure", () => {
    const sent = each(journey(), (e) => {
      if (e.eventType !== "TRANSPORT") return;
      e.eventLocation = { UNLocationCode: e.transportCall.UNLocationCode };
      delete e.transportCall;
    });
    const { doc, warnings } = mapOk(sent);
    const codes = (d: TrackingDocument) =>
      d.containers[0]?.events.map(
        (ev) => `${ev.eventCode} ${ev.locationKey} ${ev.localDateTime}${ev.utcOffset ?? ""}`,
      );
    expect(codes(doc)).toEqual(codes(conforming.doc));
    expect(warnings).toContain("event 3: TRANSPORT event without transportCall; placed by its eventLocation");
    expect(warnings.some((w) => w.includes("dropped"))).toBe(false);
  });

  it("keeps a loading whose mode of transport is not one of 2.2's, reading the mode as unknown", () => {
    const sent = each(journey(), (e) => {
      if (e.equipmentEventTypeCode === "LOAD" && e.transportCall)
        e.transportCall.modeOfTransport = "RAIL_TRUCK";
    });
    const { doc, warnings } = mapOk(sent);
    const loads = (d: TrackingDocument) => d.containers[0]?.events.filter((ev) => ev.eventCode === "LOAD");
    expect(loads(doc)?.map((ev) => ev.locationKey)).toEqual(
      loads(conforming.doc)?.map((ev) => ev.locationKey),
    );
    expect(loads(doc)).toHaveLength(2);
    expect(warnings).toContain(
      'event 2: modeOfTransport "RAIL_TRUCK" is not a DCSA 2.2 mode; read as another mode (unknown)',
    );
  });

  it("reads times without an offset as the wall clock of the port's zone: the same journey, every event kept", () => {
    const sent = each(journey(), (e) => {
      e.eventDateTime = String(e.eventDateTime).replace(/[+-]\d{2}:\d{2}$/, "");
    });
    const { doc, warnings } = mapOk(sent);
    expect(seen(doc)).toEqual(seen(conforming.doc));
    expect(warnings).toHaveLength(sent.length);
    expect(warnings).toContain(
      "event 0: eventDateTime 2024-01-02T09:00:00 has no offset; read as local time in Asia/Shanghai (CNSHA)",
    );
    expect(warnings).toContain(
      "event 8: eventDateTime 2024-02-10T06:00:00 has no offset; read as local time in Europe/Amsterdam (NLRTM)",
    );
  });

  it("reads a time without an offset as UTC when the port's zone is not known, and says so", () => {
    const sent = each(journey(), (e) => {
      e.eventDateTime = String(e.eventDateTime).replace(/[+-]\d{2}:\d{2}$/, "");
    });
    const { doc, warnings } = mapOk(sent, { locationLookup: undefined });
    expect(doc.containers[0]?.events).toHaveLength(conforming.doc.containers[0]?.events.length ?? -1);
    expect(warnings[0]).toBe(
      "event 0: eventDateTime 2024-01-02T09:00:00 has no offset and the place's time zone is not known; read as UTC",
    );
  });

  it("keeps events whose creation time has no offset or is missing", () => {
    const sent = each(journey(), (e) => {
      e.eventCreatedDateTime = "2024-01-01T00:00:00";
    });
    delete (sent[0] as Event).eventCreatedDateTime;
    const { doc, warnings } = mapOk(sent);
    expect(seen(doc)).toEqual(seen(conforming.doc));
    expect(warnings[0]).toBe("event 0: eventCreatedDateTime missing; kept, taken as its eventDateTime");
    expect(warnings[1]).toBe("event 1: eventCreatedDateTime 2024-01-01T00:00:00 has no offset; read as UTC");
  });

  it("one unreadable field costs that field, not the journey: an odd date leaves its event undated", () => {
    const sent = journey();
    (sent[3] as Event).eventDateTime = "18/01/2024 22:00";
    const { doc, warnings } = mapOk(sent);
    expect(doc.containers[0]?.events).toHaveLength(conforming.doc.containers[0]?.events.length ?? -1);
    expect(warnings).toEqual(['event 3: eventDateTime "18/01/2024 22:00" is not a date-time; kept undated']);
  });
});

describe("every official DCSA 2.2 example", () => {
  const folder = new URL("./fixtures/dcsa/", import.meta.url);
  const examples = readdirSync(folder).filter((name) => name.startsWith("tnt-220") && name.endsWith(".json"));
  const load = (name: string): unknown => JSON.parse(readFileSync(new URL(name, folder), "utf8"));

  it("are all here: the five Conformance-Gateway messages and the OpenAPI file's own example", () => {
    expect(examples.sort()).toEqual([
      "tnt-220-openapi-200-example.json",
      "tnt-220-response-wrong-attribute-values.json",
      "tnt-220-response-wrong-date-times.json",
      "tnt-220-response-wrong-event-ids.json",
      "tnt-220-response-wrong-structure.json",
      "tnt-220-response.json",
    ]);
  });

  // Every event of an example is either in the document or named by a warning that says why it is not
  // there (a repeated eventID, or a shape that is no event at all); none vanishes silently, and no
  // example that holds events is refused as a whole.
  it.each([
    ["tnt-220-response.json", 0],
    ["tnt-220-response-wrong-date-times.json", 0],
    ["tnt-220-response-wrong-event-ids.json", 2],
    ["tnt-220-response-wrong-attribute-values.json", 0],
    ["tnt-220-openapi-200-example.json", 0],
  ])(
    "%s maps for a container, a B/L and a booking, losing no event (%i repeats set aside)",
    (name, repeats) => {
      const events = load(name) as Event[];
      // Asked about a box, an example is asked about the box it names (another box's events are not
      // the asked box's: requested-box.ts).
      const box = events.find((e) => e.eventType === "EQUIPMENT")?.equipmentReference ?? "APZU4812090";
      for (const referenceType of ["container", "bl", "booking"] as const) {
        const reference = referenceType === "container" ? box : "APZU4812090";
        const result = mapDcsaEvents(events, context({ referenceType, reference }));
        expect(result.ok, `${name} as ${referenceType}`).toBe(true);
        if (!result.ok) continue;
        expect(result.warnings.filter((w) => w.includes("dropped"))).toEqual([]);
        expect(result.warnings.filter((w) => w.includes("repeated"))).toHaveLength(repeats);
      }
    },
  );

  it("the OpenAPI example, a shipment event in the pre-2.2 shape, is read with its repairs warned", () => {
    const { doc, warnings } = mapOk(load("tnt-220-openapi-200-example.json"), { referenceType: "bl" });
    expect(warnings).toEqual([
      'event 0: eventSubtype "ISSU" read as shipmentEventTypeCode',
      "event 0: SHIPMENT event without eventClassifierCode; read as ACT",
    ]);
    expect(doc.containers).toEqual([]);
    expect(doc.status).toBe("UNKNOWN");
  });

  it("wrong-structure, events wrapped in objects, is refused as unreadable, with the reason", () => {
    expect(mapDcsaEvents(load("tnt-220-response-wrong-structure.json"), context())).toEqual({
      ok: false,
      reason: "malformed",
      detail: "none of the 2 events is a valid DCSA T&T 2.2 event",
    });
  });
});

describe("every official DCSA T&T 3.0 example", () => {
  // The examples are dated January 2026.
  const FETCHED_2026 = new Date("2026-02-01T00:00:00Z");
  const folder = new URL("./fixtures/dcsa/", import.meta.url);
  const examples = readdirSync(folder).filter((name) => name.startsWith("tnt-300") && name.endsWith(".json"));
  const load = (name: string) =>
    JSON.parse(readFileSync(new URL(name, folder), "utf8")) as { events: Event[] };

  it("are all here: two responses and five notifications", () => {
    expect(examples).toHaveLength(7);
  });

  // Each event is in the document (its code at its place), or named by a warning that sets it aside
  // (IOT and REEFER readings are not milestones); nothing is dropped, nothing is refused.
  it.each(examples)("%s maps for a container, a B/L and a booking, losing no event", (name) => {
    const answer = load(name);
    for (const referenceType of ["container", "bl", "booking"] as const) {
      const result = mapDcsaEvents(
        answer,
        context({ referenceType, reference: "APZU4812090", fetchedAt: FETCHED_2026 }),
      );
      if (!result.ok) throw new Error(`${name} as ${referenceType}: ${result.detail}`);
      expect(result.warnings.filter((w) => w.includes("dropped"))).toEqual([]);
      answer.events.forEach((event, index) => {
        const type = event.eventClassification.eventTypeCode as string;
        if (type === "IOT" || type === "REEFER") {
          expect(result.warnings).toContain(
            `event ${index}: ${type} event (T&T 3.0) is a sensor reading, not a milestone; set aside`,
          );
        }
      });
    }
  });

  it("tnt-300-response.json: the vessel's departure from Southampton and the box's gate-in at Paris, in transit", () => {
    const { doc, warnings } = mapOk(load("tnt-300-response.json"), {
      referenceType: "booking",
      reference: "ABC709951",
      fetchedAt: FETCHED_2026,
    });
    expect(warnings).toContain('vessel IMO number "7654321" fails the IMO check; ignored');
    expect(warnings.some((w) => w.includes("dropped"))).toBe(false);
    expect(doc.status).toBe("IN_TRANSIT");
    expect(doc.containers.map((c) => c.number)).toEqual(["APZU4812090"]);
    expect(
      doc.containers[0]?.events.map(
        (e) => `${e.eventCode} ${e.locationKey} ${e.localDateTime}${e.utcOffset}`,
      ),
    ).toEqual(["DEPA GBSOU 2026-01-16 11:30:00+00:00", "GTIN FRPAR 2026-01-17 14:45:00+01:00"]);
    expect(doc.vessels.map((v) => v.name)).toEqual(["Example Vessel Beta"]);
  });
});
