/**
 * The schedule-deviation component end to end: shipments tracked through the app from the embedded
 * simulator, their carriers' port schedules (DCSA Commercial Schedules `port-schedules`) read through
 * the ScheduleSource port, and Shanghai scored day by day up to a few days after the world's typhoon
 * there. Arrivals held by the typhoon are late against the proforma, so the component is present with
 * a positive raw value, a baseline and a z-score, and the raw value is the world's own ground truth (the
 * median lateness of the ship calls). A schedule source that cannot be reached leaves the component out
 * and the port is still scored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { voyageOf } from "../../simulator/world/shipment-plan";
import { episodesBetween, shipmentFor } from "../../simulator/world/world";
import type { BoardItem } from "../../src/domain/congestion/congestion.service";
import { CongestionService } from "../../src/domain/congestion/congestion.service";
import { ManualClock } from "../../src/lib/clock";
import { createDcsaCsAdapter } from "../../src/upstream/schedules/dcsa-cs.adapter";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PORT = "CNSHA";
const typhoon = episodesBetween(Date.parse("2026-09-12T00:00:00Z"), Date.parse("2026-10-25T00:00:00Z")).find(
  (e) => e.kind === "typhoon" && e.ports.includes(PORT),
)!;
/** Three days after Shanghai reopens: the window of the last 14 days holds the held ships. */
const T = Math.floor((typhoon.end.getTime() + 3 * DAY) / HOUR) * HOUR;
const clock = new ManualClock(new Date(T));

interface Call {
  reference: string;
  scac: string;
  imo: string;
  arrival: number;
  delayHours: number;
}

/**
 * Containers whose shipment has a ship arriving at Shanghai in the 28 days before T, one per ship
 * call (vessel and voyage), found in the simulator's own world, with each call's real lateness.
 */
function callsAtPort(): Call[] {
  const calls: Call[] = [];
  const seen = new Set<string>();
  for (const scac of ["MSCU", "MAEU"]) {
    for (let serial = 100_000; serial < 142_000; serial += 7) {
      const reference = containerNumber(scac, serial);
      const shipment = shipmentFor(scac, reference, "equipment", new Date(T));
      if (!shipment || seen.has(shipment.key)) continue;
      shipment.plan.legs.forEach((leg, i) => {
        if (leg.dischargePort.unLocode !== PORT) return;
        const arrival =
          shipment.timeline.bookedAt + leg.arrivalRel + (shipment.timeline.actual.arrival[i] ?? 0);
        if (arrival >= T - 2 * HOUR || arrival < T - 28 * DAY) return;
        const sailing = leg.sailings[shipment.timeline.actual.sailing[i] ?? 0]!;
        const vessel = sailing.vessel;
        // A port counts a ship call once (shipments on the same voyage share it): one shipment per call.
        const call = `${scac}|${vessel.imo}|${voyageOf(shipment.plan, leg, sailing, true)}`;
        if (seen.has(call)) return;
        seen.add(call);
        seen.add(shipment.key);
        calls.push({
          reference,
          scac,
          imo: vessel.imo,
          arrival,
          delayHours: (shipment.timeline.arrivalDelays[i] ?? 0) / HOUR,
        });
      });
    }
  }
  return calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

let app: TestApp;
let org: OrgWithKey;
let calls: Call[];
let readingAtT: BoardItem | null;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  calls = callsAtPort();
  for (const call of calls) {
    const { body } = await graphql(
      app,
      org.key,
      `mutation($r: String!, $c: String) { track(reference: $r, type: container, carrier: $c) { __typename } }`,
      { r: call.reference, c: call.scac },
    );
    expect(body.data?.track, JSON.stringify(body)).toEqual({ __typename: "TrackSuccess" });
  }
  // The port's anchorage every 6 hours and a reading a day from three weeks before T, so each
  // component has a baseline of its own.
  for (let t = T - 21 * DAY; t < T; t += 6 * HOUR) {
    clock.set(new Date(t));
    expect(await app.services.congestion.samplePort(PORT)).toBe(true);
    if ((t - T) % DAY === 0) await app.services.congestion.scorePortNow(PORT);
  }
  clock.set(new Date(T));
  readingAtT = await app.services.congestion.scorePortNow(PORT);
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

describe("schedule deviation from the carriers' port schedules", () => {
  it("finds enough tracked ship calls at the port in the world (setup)", () => {
    // The world's ships sail about a third of the loops' weekly slots (simulator/world/fleet.ts), so a
    // fortnight brings Shanghai a handful of named ship calls.
    expect(calls.filter((c) => c.arrival >= T - 14 * DAY).length).toBeGreaterThanOrEqual(4);
    expect(calls.filter((c) => c.arrival < T - 14 * DAY).length).toBeGreaterThanOrEqual(4);
  });

  it("reads a port whose arrivals are late against the proforma as a positive component with its baseline and z", () => {
    expect(readingAtT).toBeTruthy();
    const component = readingAtT!.components.find((c) => c.name === "schedule_deviation");
    expect(component, JSON.stringify(readingAtT!.components)).toBeDefined();
    expect(component!.raw).toBeGreaterThan(0);
    expect(component!.unit).toBe("h");
    expect(component!.window_days).toBe(14);
    expect(Number.isFinite(component!.baseline_median)).toBe(true);
    expect(component!.baseline_mad).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(component!.z)).toBe(true);
    expect(Math.sign(component!.z)).toBe(Math.sign(component!.raw - component!.baseline_median));
  });

  it("is the median lateness of the ship calls of the last 14 days, as the world made them", () => {
    const component = readingAtT!.components.find((c) => c.name === "schedule_deviation")!;
    const window = calls.filter((c) => c.arrival >= T - 14 * DAY && c.arrival < T);
    expect(component.n).toBe(window.length);
    expect(component.raw).toBeCloseTo(median(window.map((c) => c.delayHours)), 0);
  });

  it("stores the component per day, so the history of the signal survives", async () => {
    const before = await app.services.congestion.signalsFor(PORT, dayOf(T - 10 * DAY));
    expect(before?.scheduleDeviationH).not.toBeNull();
    expect(before?.scheduleDeviationN).toBeGreaterThan(0);
  });

  it("leaves the component out, and still scores the port, when the schedule source cannot be reached", async () => {
    const unreachable = new CongestionService({
      prisma: app.services.db.prisma,
      clock,
      logger: app.services.logger,
      areaSources: [],
      sampleEveryMs: HOUR,
      scheduleSources: ["MSCU", "MAEU"].map((scac) =>
        createDcsaCsAdapter({
          scac,
          baseUrl: "http://127.0.0.1:9/closed",
          auth: { kind: "none" },
          retry: { maxAttempts: 1 },
          timeoutMs: 2_000,
        }),
      ),
    });
    clock.set(new Date(T + HOUR));
    const reading = await unreachable.scorePortNow(PORT);
    expect(reading).toBeTruthy();
    expect(reading!.components.map((c) => c.name)).not.toContain("schedule_deviation");
    expect(reading!.components.map((c) => c.name)).toContain("anchorage_wait");
    const today = await unreachable.signalsFor(PORT, dayOf(T + HOUR));
    expect(today?.scheduleDeviationH).toBeNull();
  });
});
