/**
 * One bill of lading followed from its booking confirmation to the return of its empty boxes, moving
 * the simulator's clock through the admin API: plans turn into estimates, estimates into actuals in
 * journey order, and the late ship's ETA visibly slips before it arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { type Shipment, shipmentFor } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { type AnyEvent, codeOf, containersOf, eventsUrl, getJson } from "./support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = 12 * HOUR;

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ clock: new ManualClock("2026-11-20T12:00:00Z"), pageSize: 1000 });
});

afterAll(async () => {
  await simulator.close();
});

/** A shipment whose ship to the port of discharge arrives at least two days late. */
function lateShipment(): Shipment {
  for (const box of containersOf("MSCU", 400, 3)) {
    const shipment = shipmentFor("MSCU", box, "equipment", new Date("2026-11-20T12:00:00Z"));
    const lastDelay = shipment?.timeline.arrivalDelays.at(-1) ?? 0;
    if (shipment && !shipment.cancelled && lastDelay >= 2 * DAY) return shipment;
  }
  throw new Error("no late shipment among the sample boxes");
}

function keyOf(event: AnyEvent): string {
  const call = event.transportCall as { UNLocationCode?: string; modeOfTransport?: string } | undefined;
  const location = event.eventLocation as { UNLocationCode?: string } | undefined;
  return [
    event.eventType,
    codeOf(event),
    call?.UNLocationCode ?? location?.UNLocationCode ?? "",
    call?.modeOfTransport ?? "",
    event.equipmentReference ?? "",
    event.emptyIndicatorCode ?? "",
  ].join("|");
}

async function setClock(body: Record<string, unknown>): Promise<void> {
  const answer = await getJson(`${simulator.url}/_admin/clock`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

interface Journey {
  estimatedArrivals: { at: string; created: string }[];
  classifiersSeen: Set<string>;
  last: AnyEvent[];
}

/** Steps the clock from booking to after the empty return, checking the invariants at each step. */
async function follow(shipment: Shipment, step = STEP): Promise<Journey> {
  const pod = shipment.portOfDischarge.unLocode;
  const url = eventsUrl(simulator.url, shipment.scac, {
    transportDocumentReference: shipment.transportDocumentReference,
  });
  await setClock({ now: new Date(shipment.bookedAt.getTime() + 60_000).toISOString() });
  const actuals = new Map<string, string>();
  const journey: Journey = { estimatedArrivals: [], classifiersSeen: new Set(), last: [] };
  const end = shipment.completesAt.getTime() + DAY;
  for (let now = shipment.bookedAt.getTime() + 60_000; now <= end; now += step) {
    const answer = await getJson<AnyEvent[]>(url);
    expect(answer.status).toBe(200);
    const events = answer.body;
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      journey.classifiersSeen.add(event.eventClassifierCode);
      const key = keyOf(event);
      // Once actual, an event never changes again.
      if (actuals.has(key)) {
        expect(event.eventClassifierCode, key).toBe("ACT");
        expect(event.eventDateTime, key).toBe(actuals.get(key));
      }
      if (event.eventClassifierCode === "ACT") actuals.set(key, event.eventDateTime);
    }
    // Per box, what has happened is a prefix of the journey: no estimate before an actual.
    for (const box of shipment.containers) {
      const moves = events.filter(
        (event) => event.eventType === "TRANSPORT" || event.equipmentReference === box.equipmentReference,
      );
      const firstPending = moves.findIndex((event) => event.eventClassifierCode !== "ACT");
      if (firstPending >= 0) {
        expect(
          moves.slice(firstPending).every((event) => event.eventClassifierCode !== "ACT"),
          box.equipmentReference,
        ).toBe(true);
      }
    }
    const arrival = events.findLast((event) => {
      const call = event.transportCall as { UNLocationCode?: string; modeOfTransport?: string } | undefined;
      return codeOf(event) === "ARRI" && call?.UNLocationCode === pod && call.modeOfTransport === "VESSEL";
    });
    if (arrival && arrival.eventClassifierCode !== "ACT") {
      const previous = journey.estimatedArrivals[journey.estimatedArrivals.length - 1];
      if (previous?.at !== arrival.eventDateTime) {
        journey.estimatedArrivals.push({ at: arrival.eventDateTime, created: arrival.eventCreatedDateTime });
      }
    }
    journey.last = events;
    await setClock({ advanceMs: step });
  }
  return journey;
}

function expectCompleted(shipment: Shipment, last: readonly AnyEvent[]): void {
  expect(last.every((event) => event.eventClassifierCode === "ACT")).toBe(true);
  const final = last[last.length - 1] as AnyEvent;
  expect([codeOf(final), final.emptyIndicatorCode]).toEqual(["GTIN", "EMPTY"]);
  const boxesReturned = new Set(
    last
      .filter((e) => codeOf(e) === "GTIN" && e.emptyIndicatorCode === "EMPTY")
      .map((e) => e.equipmentReference),
  );
  expect(boxesReturned.size).toBe(shipment.containers.length);
}

describe("a B/L from booking to empty return", () => {
  it("turns plans into actuals in order, slips its ETA, and ends with the empty boxes returned", async () => {
    const shipment = lateShipment();
    const journey = await follow(shipment);
    expect(journey.classifiersSeen).toEqual(new Set(["PLN", "EST", "ACT"]));
    // The slip: the estimate moved later at least once, and each revision was published anew.
    const arrivals = journey.estimatedArrivals;
    expect(arrivals.length).toBeGreaterThan(1);
    for (let i = 1; i < arrivals.length; i++) {
      expect(Date.parse(arrivals[i]?.created ?? "")).toBeGreaterThan(
        Date.parse(arrivals[i - 1]?.created ?? ""),
      );
    }
    const moved = Date.parse(arrivals[arrivals.length - 1]?.at ?? "") - Date.parse(arrivals[0]?.at ?? "");
    expect(moved).toBeGreaterThan(DAY);
    expectCompleted(shipment, journey.last);
  });

  it("keeps that order through transshipments and inland legs", async () => {
    const wanted: ((s: Shipment) => boolean)[] = [
      (s) => s.plan.legs.length === 3,
      (s) => s.plan.preCarriage !== undefined,
      (s) => s.plan.onCarriage !== undefined,
      (s) => s.plan.destination?.mode === "TRUCK",
    ];
    const now = new Date("2026-11-20T12:00:00Z");
    const candidates = ["MAEU", "CMDU", "HLCU"].flatMap((scac) =>
      containersOf(scac, 50, 5)
        .map((box) => shipmentFor(scac, box, "equipment", now))
        .filter((s): s is Shipment => s !== undefined && !s.cancelled),
    );
    for (const matches of wanted) {
      const shipment = candidates.find(matches);
      expect(shipment).toBeDefined();
      if (shipment) expectCompleted(shipment, (await follow(shipment, 2 * STEP)).last);
    }
  });
});
