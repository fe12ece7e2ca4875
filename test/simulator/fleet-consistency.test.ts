/**
 * One consistent world: the ships of the simulator sail the voyages its shipment plans put them on.
 * Whenever a carrier's events say a box is aboard vessel V sailing from A to B, V's position at that
 * moment lies on the A to B leg (the sea path the world sails, through its passages) and V's next port
 * is B or a call of the leg before B; the world's deliberate anomalies (vessel swaps, omitted calls,
 * late ships, stale or missing AIS) happen at the rates simulator/README.md records.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARRIERS } from "../../reference-data/carriers";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { AIS_GAP_SHARE, AIS_OUTAGE_SHARE, latestReportAt } from "../../simulator/world/ais";
import { containerPrefixesOf } from "../../simulator/world/carrier-profiles";
import {
  bookableSailings,
  fleetRotations,
  isNamedSailing,
  OMITTED_CALL_SHARE,
  sailedCall,
  sailingDeparture,
  VESSEL_SWAP_SHARE,
  vesselFix,
  vesselOfSailing,
} from "../../simulator/world/fleet";
import { greatCircleKm, greatCirclePoint, type LatLng, seaPathPoints } from "../../simulator/world/geo";
import { findPort, type Port } from "../../simulator/world/ports";
import type { VesselLeg } from "../../simulator/world/shipment-plan";
import { legSailings } from "../../simulator/world/shipment-plan/ships";
import { sailingOf } from "../../simulator/world/shipment-timeline";
import { VESSELS } from "../../simulator/world/vessels";
import {
  actualArrivalAtPod,
  episodesBetween,
  eventsFor,
  type Shipment,
  shipmentFor,
} from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { type AnyEvent, containersOf } from "./support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CLOCKS = ["2026-03-02T06:00:00Z", "2026-07-15T18:00:00Z", "2026-11-20T12:00:00Z"].map(Date.parse);
/** How far a position may lie from the leg's sea path: positions are exact, terminals lie off the port. */
const OFF_PATH_KM = 40;

/** Every carrier the world plans shipments for (every profile of carrier-profiles.ts, and the defaults). */
const SCACS = CARRIERS.filter((c) => containerPrefixesOf(c).length > 0).map((c) => c.scac);

interface Aboard {
  shipment: Shipment;
  leg: VesselLeg;
  legIndex: number;
  at: number;
  imo: string;
  from: string;
  to: string;
}

function samples(): { shipments: Shipment[]; aboard: Aboard[] } {
  const shipments = new Map<string, Shipment>();
  for (const scac of SCACS) {
    for (const clock of CLOCKS) {
      for (const box of containersOf(scac, 6, clock % 97)) {
        const shipment = shipmentFor(scac, box, "equipment", new Date(clock));
        if (shipment && !shipment.cancelled) shipments.set(shipment.key, shipment);
      }
    }
  }
  const aboard: Aboard[] = [];
  for (const shipment of shipments.values()) {
    const box = shipment.containers[0]!.equipmentReference;
    shipment.plan.legs.forEach((leg, legIndex) => {
      const sailing = sailingOf(shipment.plan, legIndex, shipment.timeline.actual)!;
      const span = sailing.actualArrival - sailing.actualDeparture;
      // Clock times across the sailing, as a customer tracking the box would read it.
      for (const share of [0.03, 0.2, 0.45, 0.7, 0.93]) {
        const at = Math.round(sailing.actualDeparture + share * span);
        const events = eventsFor(shipment, new Date(at), {
          equipmentReference: box,
        }) as unknown as AnyEvent[];
        const said = aboardIn(events);
        if (said) aboard.push({ shipment, leg, legIndex, at, ...said });
      }
    });
  }
  return { shipments: [...shipments.values()], aboard };
}

/** What the events say at their moment: aboard vessel V from A (its departure is actual) to B (not yet). */
function aboardIn(events: readonly AnyEvent[]): { imo: string; from: string; to: string } | undefined {
  const transport = events.filter((e) => e.eventType === "TRANSPORT");
  let found: { imo: string; from: string; to: string } | undefined;
  transport.forEach((event, index) => {
    const call = event.transportCall as
      | { UNLocationCode: string; modeOfTransport: string; vessel?: { vesselIMONumber: string } }
      | undefined;
    if (event.transportEventTypeCode !== "DEPA" || event.eventClassifierCode !== "ACT") return;
    if (call?.modeOfTransport !== "VESSEL" || !call.vessel) return;
    const arrival = transport.slice(index + 1).find((e) => e.transportEventTypeCode === "ARRI");
    const arrivalCall = arrival?.transportCall as
      | { UNLocationCode: string; vessel?: { vesselIMONumber: string } }
      | undefined;
    if (!arrival || arrival.eventClassifierCode === "ACT" || !arrivalCall) {
      found = undefined;
      return;
    }
    // The carrier names one ship for the whole leg.
    expect(arrivalCall.vessel?.vesselIMONumber).toBe(call.vessel.vesselIMONumber);
    found = { imo: call.vessel.vesselIMONumber, from: call.UNLocationCode, to: arrivalCall.UNLocationCode };
  });
  return found;
}

/** The calls of a leg in order, from the port of loading to the port of discharge. */
function legCalls(leg: VesselLeg): { ports: Port[]; path: LatLng[] } {
  const { calls, passages } = leg.service;
  const count = calls.length;
  const ports: Port[] = [];
  const path: LatLng[] = [];
  for (let i = leg.loadSequence - 1; ; i++) {
    const port = findPort(calls[i % count]!)!;
    if (ports.length > 0) path.push(...seaPathPoints(ports.at(-1)!, port, passages[(i - 1) % count] ?? []));
    ports.push(port);
    if (i % count === leg.dischargeSequence - 1 && ports.length > 1) break;
  }
  return { ports, path };
}

/** Distance from a point to a path of great-circle pieces, sampled every 20 km or so. */
function kmFromPath(point: LatLng, path: readonly LatLng[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]!;
    const b = path[i]!;
    const steps = Math.max(1, Math.ceil(greatCircleKm(a, b) / 20));
    for (let s = 0; s <= steps; s++)
      best = Math.min(best, greatCircleKm(point, greatCirclePoint(a, b, s / steps)));
  }
  return best;
}

let sample: { shipments: Shipment[]; aboard: Aboard[] };
let simulator: RunningSimulator;
const clock = new ManualClock("2026-11-20T12:00:00Z");

beforeAll(async () => {
  sample = samples();
  simulator = await startSimulator({ clock });
}, 240_000);

afterAll(async () => {
  await simulator.close();
});

describe("ships sail the voyages the plans put them on", () => {
  it("puts the vessel a box is aboard on its leg, heading for the leg's next call, for every carrier profile", () => {
    const carriers = new Set(sample.aboard.map((a) => a.shipment.scac));
    // Every carrier the world plans for has boxes at sea in the sample.
    expect([...carriers].sort()).toEqual([...new Set(sample.shipments.map((s) => s.scac))].sort());
    expect(carriers.size).toBeGreaterThanOrEqual(20);
    expect(sample.aboard.length).toBeGreaterThan(1000);
    let swapped = 0;
    const problems: string[] = [];
    for (const aboard of sample.aboard) {
      const { leg, shipment, at } = aboard;
      const sailing = sailingOf(shipment.plan, aboard.legIndex, shipment.timeline.actual)!;
      expect(aboard.from).toBe(leg.loadPort.unLocode);
      expect(aboard.to).toBe(leg.dischargePort.unLocode);
      if (aboard.imo !== sailing.vessel.imo) {
        // A deliberate swap the carrier has not learned of yet: the ship it named is elsewhere.
        expect(aboard.imo).toBe(sailing.announcedVessel?.imo);
        expect(at).toBeLessThan(sailing.swapKnownAt!);
        swapped++;
        continue;
      }
      const vessel = VESSELS.find((v) => v.imo === aboard.imo)!;
      const fix = vesselFix(vessel, at)!;
      const { ports, path } = legCalls(leg);
      const ahead = ports.slice(1).map((p) => p.unLocode);
      const off = kmFromPath(fix, path);
      const where = `${shipment.scac} ${shipment.transportDocumentReference} ${vessel.name} ${aboard.from}>${aboard.to} at ${new Date(at).toISOString()}`;
      if (!ahead.includes(fix.nextCall.port.unLocode))
        problems.push(`${where}: next port ${fix.nextCall.port.unLocode}`);
      // Alongside at a call of the leg, the ship lies at its terminal, which may be off the port's point.
      const alongside = !fix.atSea && ports.some((p) => p.unLocode === fix.nextCall.port.unLocode);
      if (off > OFF_PATH_KM && !alongside) problems.push(`${where}: ${Math.round(off)} km off the leg`);
    }
    expect(problems).toEqual([]);
    expect(swapped).toBeLessThan(sample.aboard.length * 0.05);
  });

  it("berths the ship at the port of discharge when the plan's arrival happens, and exposes that arrival", () => {
    for (const shipment of sample.shipments.slice(0, 300)) {
      const last = shipment.plan.legs.length - 1;
      const sailing = sailingOf(shipment.plan, last, shipment.timeline.actual)!;
      const arrival = actualArrivalAtPod(shipment);
      expect(arrival).toBe(sailing.actualArrival);
      const pod = shipment.portOfDischarge.unLocode;
      const fix = vesselFix(sailing.vessel, arrival + 30 * 60_000)!;
      expect(fix.atSea, `${shipment.key} at ${pod}`).toBe(false);
      expect(fix.nextCall.port.unLocode).toBe(pod);
      expect(fix.nextCall.arrivesAt).toBe(arrival);
      // The carrier's ARRI at the port of discharge, once actual, is the ship's berthing.
      const events = eventsFor(shipment, new Date(arrival + 3 * DAY)) as unknown as AnyEvent[];
      const arri = events.filter(
        (e) => e.transportEventTypeCode === "ARRI" && e.eventClassifierCode === "ACT",
      );
      const atPod = arri
        .filter((e) => (e.transportCall as { UNLocationCode: string }).UNLocationCode === pod)
        .at(-1);
      if (atPod) expect(Date.parse(atPod.eventDateTime as string)).toBe(arrival);
    }
  });

  it("shows a sailing ship's progress: successive fixes approach the next port, and speed follows lateness", () => {
    let approaching = 0;
    let checked = 0;
    for (const aboard of sample.aboard.slice(0, 400)) {
      const vessel = VESSELS.find((v) => v.imo === aboard.imo)!;
      const one = vesselFix(vessel, aboard.at)!;
      const two = vesselFix(vessel, aboard.at + 6 * HOUR)!;
      if (!one.atSea || one.atAnchor || !two.atSea || two.atAnchor) continue;
      if (one.nextCall.port !== two.nextCall.port) continue;
      checked++;
      const port = one.nextCall.port;
      if (greatCircleKm(two, port) < greatCircleKm(one, port)) approaching++;
      // Speed over ground is what the ship makes good: from about 9 knots (weather, a restricted canal) to 19.
      expect(one.speed).toBeGreaterThan(8);
      expect(one.speed).toBeLessThan(20);
    }
    expect(checked).toBeGreaterThan(100);
    // Around a passage waypoint (the Cape, Suez) the straight distance may briefly grow.
    expect(approaching / checked).toBeGreaterThan(0.9);
  });

  it("holds a ship at anchor through Shanghai's typhoons, and the plans on its sailing arrive that late", () => {
    const from = episodesBetween(Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)).find(
      (e) => e.kind === "typhoon",
    )!;
    let held = 0;
    for (const rotation of fleetRotations()) {
      const k = rotation.calls.findIndex((c) => c.port.unLocode === "CNSHA");
      if (k <= 0) continue;
      for (const sailing of bookableSailings(rotation, 0, k, from.start.getTime() - 10 * DAY, 30)) {
        const call = sailedCall(rotation, sailing, k);
        if (call.episodeDelay < HOUR) continue;
        held++;
        // The ship waits off the closed (or still clearing) port until its berth.
        const fix = vesselFix(vesselOfSailing(rotation, sailing), call.arrival - HOUR)!;
        expect(fix.atAnchor).toBe(true);
        expect(fix.nextCall.port.unLocode).toBe("CNSHA");
        // A plan booked on that sailing arrives when the ship berths, the typhoon's hold included.
        const [planned] = legSailings(
          rotation.service,
          0,
          k,
          sailedCall(rotation, sailing, 0).proformaDeparture,
        );
        expect(planned?.sailing).toBe(sailing);
        if (planned) {
          expect(planned.actualArrival).toBe(call.arrival);
          expect(planned.episodeDelay).toBe(call.episodeDelay);
        }
      }
    }
    expect(held).toBeGreaterThan(2);
  });

  it("keeps the MSCU9825816 / MEDUBF260339 example consistent: the ship named is on its Ningbo-Sines leg", () => {
    const now = Date.parse("2026-11-20T12:00:00Z");
    const byBox = shipmentFor("MSCU", "MSCU9825816", "equipment", new Date(now))!;
    const byBl = shipmentFor("MSCU", "MEDUBF260339", "document", new Date(now))!;
    expect(byBl.key).toBe(byBox.key);
    const said = aboardIn(
      eventsFor(byBox, new Date(now), { equipmentReference: "MSCU9825816" }) as unknown as AnyEvent[],
    )!;
    expect(said).toMatchObject({ from: "CNNGB", to: "PTSIE" });
    const vessel = VESSELS.find((v) => v.imo === said.imo)!;
    const fix = vesselFix(vessel, now)!;
    const leg = byBox.plan.legs.find((l) => l.loadPort.unLocode === "CNNGB")!;
    expect(fix.nextCall.port.unLocode).toBe("PTSIE");
    expect(kmFromPath(fix, legCalls(leg).path)).toBeLessThan(OFF_PATH_KM);
  });

  it("answers GET /vessels/position from the same world: the fix is where the ship was at positionDateTime", async () => {
    const now = Date.parse("2026-11-20T12:00:00Z");
    for (const vessel of VESSELS) {
      clock.set(now);
      const res = await fetch(`${simulator.url}/vessels/position?imo=${vessel.imo}`);
      const body = (await res.json()) as { latitude: number; longitude: number; positionDateTime: string };
      const at = Date.parse(body.positionDateTime);
      expect(at).toBeLessThanOrEqual(now);
      const fix = vesselFix(vessel, at)!;
      expect([body.latitude, body.longitude]).toEqual([fix.lat, fix.lng]);
    }
  });
});

describe("the world's deliberate anomalies, at their documented rates", () => {
  /** Every named sailing of every loop leaving in 2026, with its calls. */
  const year = () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    const out: { late: boolean; omitted: boolean }[] = [];
    for (const rotation of fleetRotations()) {
      for (
        let m = Math.ceil((from - rotation.firstDeparture) / (7 * DAY));
        sailingDeparture(rotation, m) < to;
        m++
      ) {
        if (!isNamedSailing(rotation, m)) continue;
        for (let k = 1; k <= rotation.calls.length; k++) {
          const call = sailedCall(rotation, m, k);
          out.push({
            omitted: call.omitted,
            late: !call.omitted && call.arrival - call.proformaArrival > DAY,
          });
        }
      }
    }
    return out;
  };

  it("omits about 3% of calls, and never books a box at a call its sailing omits", () => {
    const calls = year();
    const omitted = calls.filter((c) => c.omitted).length / calls.length;
    expect(omitted).toBeGreaterThan(OMITTED_CALL_SHARE * 0.6);
    expect(omitted).toBeLessThan(OMITTED_CALL_SHARE * 1.3);
    for (const shipment of sample.shipments) {
      shipment.plan.legs.forEach((leg) => {
        for (const sailing of leg.sailings) {
          const rotation = fleetRotations().find((r) => r.service === leg.service)!;
          const count = rotation.calls.length;
          const k0 = leg.loadSequence - 1;
          const k1 = k0 + ((leg.dischargeSequence - 1 - k0 + count) % count || count);
          expect(sailedCall(rotation, sailing.sailing, k0).omitted).toBe(false);
          expect(sailedCall(rotation, sailing.sailing, k1).omitted).toBe(false);
        }
      });
    }
  });

  it("brings about a fifth of arrivals more than a day behind the proforma, as published schedule reliability says", () => {
    const calls = year().filter((c) => !c.omitted);
    const late = calls.filter((c) => c.late).length / calls.length;
    // Sea-Intelligence: 55-89% on time by alliance in 2025; the world's loops are MSC, Gemini and Ocean.
    expect(late).toBeGreaterThan(0.12);
    expect(late).toBeLessThan(0.35);
  });

  it("swaps about 4% of the ships plans name, and names the real one once the carrier learns of it", () => {
    const legs = sample.shipments.flatMap((s) =>
      s.plan.legs.map((_, i) => sailingOf(s.plan, i, s.timeline.actual)!),
    );
    const swapped = legs.filter((s) => s.announcedVessel);
    expect(swapped.length / legs.length).toBeGreaterThan(VESSEL_SWAP_SHARE * 0.5);
    expect(swapped.length / legs.length).toBeLessThan(VESSEL_SWAP_SHARE * 1.6);
    for (const sailing of swapped) {
      expect(sailing.announcedVessel!.imo).not.toBe(sailing.vessel.imo);
      // Learned between six days before and two days after the ship leaves the port of loading.
      expect(sailing.swapKnownAt! - sailing.departure).toBeGreaterThanOrEqual(-6 * DAY);
      expect(sailing.swapKnownAt! - sailing.departure).toBeLessThanOrEqual(2 * DAY);
    }
  });

  it("holds AIS fixes minutes old mostly, hours old sometimes, days old now and then, and never goes back", () => {
    let hours = 0;
    let days = 0;
    let total = 0;
    for (const vessel of VESSELS) {
      let previous = Number.NEGATIVE_INFINITY;
      for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2027, 0, 1); at += 3.7 * HOUR) {
        const reported = latestReportAt(vessel.imo, at);
        expect(reported).toBeLessThanOrEqual(at);
        expect(reported).toBeGreaterThanOrEqual(previous);
        previous = reported;
        total++;
        if (at - reported > HOUR) hours++;
        if (at - reported > DAY) days++;
      }
    }
    // An outage of 1-5 h in AIS_OUTAGE_SHARE of 6-hour blocks; a 24-72 h silence begins on AIS_GAP_SHARE of days.
    expect(hours / total).toBeGreaterThan(AIS_OUTAGE_SHARE * 0.25);
    expect(hours / total).toBeLessThan(AIS_OUTAGE_SHARE * 1.0);
    expect(days / total).toBeGreaterThan(AIS_GAP_SHARE * 0.4);
    expect(days / total).toBeLessThan(AIS_GAP_SHARE * 3);
  });
});
