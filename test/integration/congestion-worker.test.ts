/**
 * The congestion worker's path (`sampleDue` / `scoreDue`, rows claimed with FOR UPDATE SKIP LOCKED and
 * a lease): two service instances on one database, as two processes would run them (on PostgreSQL each
 * with its own connection pool), share the watched ports without sampling or scoring one twice; and a
 * port where a tracked shipment becomes due within 72 hours is brought forward and rescored hourly,
 * whether it is watched or only known from the tracked shipment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipmentFor } from "../../simulator/world/world";
import { type Database, openDatabase } from "../../src/db/database";
import { CongestionService } from "../../src/domain/congestion/congestion.service";
import { findPort } from "../../src/domain/ports/port-directory";
import { rankedPortCodes } from "../../src/domain/ports/port-traffic";
import { ManualClock } from "../../src/lib/clock";
import { SimulatorPortAreaAdapter } from "../../src/upstream/vessels/simulator-port-area.adapter";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";

const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-20T00:00:00Z");
const T1 = T0 + HOUR;
const clock = new ManualClock(new Date(T0));

let app: TestApp;
let org: OrgWithKey;
/** The second process's own connection (PostgreSQL); PGlite in memory has one connection to share. */
let second: Database | null = null;
let a: CongestionService;
let b: CongestionService;

/** Runs a worker step until it finds nothing due, collecting the ports it claimed. */
async function drain(step: () => Promise<string[]>): Promise<string[]> {
  const done: string[] = [];
  for (;;) {
    const claimed = await step();
    if (claimed.length === 0) return done;
    done.push(...claimed);
  }
}

/**
 * A container whose shipment reaches its port of discharge between 12 and 48 hours after T1, not yet
 * arrived, with every delay already published (so the carrier's ETA is the arrival), and whose port of
 * discharge is watched or not as asked. Found in the simulator's own world.
 */
function arrivingContainer(watched: boolean): { reference: string; pod: string } {
  const ranked = new Set(rankedPortCodes());
  for (let serial = 200_000; serial < 260_000; serial += 7) {
    const reference = containerNumber("MSCU", serial);
    const shipment = shipmentFor("MSCU", reference, "equipment", new Date(T1));
    if (!shipment) continue;
    const last = shipment.plan.legs.length - 1;
    const leg = shipment.plan.legs[last]!;
    const { timeline } = shipment;
    const arrival = timeline.bookedAt + leg.arrivalRel + (timeline.actual.arrival[last] ?? 0);
    if (arrival < T1 + 12 * HOUR || arrival > T1 + 48 * HOUR) continue;
    if (timeline.revisions.some((r) => r.at > T1)) continue;
    const pod = findPort(leg.dischargePort.unLocode)?.locode;
    if (!pod || ranked.has(pod) !== watched) continue;
    return { reference, pod };
  }
  throw new Error(`no MSCU container arriving soon at a ${watched ? "" : "not "}watched port`);
}

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
  const target = app.services.config.database;
  second = target.kind === "postgres" ? await openDatabase(target) : null;
  a = app.services.congestion;
  b = new CongestionService({
    prisma: second?.prisma ?? app.services.db.prisma,
    clock,
    logger: app.services.logger,
    areaSources: [new SimulatorPortAreaAdapter(app.simulator!.url, { clock })],
    sampleEveryMs: HOUR,
  });
}, 120_000);

afterAll(async () => {
  await second?.close();
  await app?.stop();
});

const schedule = async () =>
  new Map(
    (await app.services.db.prisma.portCongestionSchedule.findMany()).map((row) => [row.locode, row] as const),
  );

describe("two congestion workers on one database", () => {
  it("sample and score every watched port exactly once between them, each taking a share", async () => {
    expect(await a.ensureWatched()).toBeGreaterThan(50);
    expect(await b.ensureWatched()).toBe(0);
    const ports = [...(await schedule()).keys()];

    const [sampledA, sampledB] = await Promise.all([
      drain(() => a.sampleDue(4)),
      drain(() => b.sampleDue(4)),
    ]);
    expect([...sampledA, ...sampledB].sort()).toEqual([...ports].sort());
    expect(sampledA.length).toBeGreaterThan(0);
    expect(sampledB.length).toBeGreaterThan(0);

    const [scoredA, scoredB] = await Promise.all([drain(() => a.scoreDue(4)), drain(() => b.scoreDue(4))]);
    // No port twice: a port claimed by one is leased until it is scored and rescheduled.
    expect([...scoredA, ...scoredB].sort()).toEqual([...ports].sort());
    expect(scoredA.length).toBeGreaterThan(0);
    expect(scoredB.length).toBeGreaterThan(0);

    // With no tracked arrival anywhere, every port is next scored a day later.
    for (const row of (await schedule()).values()) {
      expect(row.nextScoreAt.getTime(), row.locode).toBe(T0 + 24 * HOUR);
      expect(row.lastScoredAt?.getTime(), row.locode).toBe(T0);
    }
  }, 300_000);
});

describe("a port with a tracked arrival within 72 hours", () => {
  it("is brought forward, given a schedule row when not watched, and rescored hourly", async () => {
    const watched = arrivingContainer(true);
    const unwatched = arrivingContainer(false);
    const before = await schedule();
    expect(before.get(watched.pod)?.nextScoreAt.getTime()).toBe(T0 + 24 * HOUR);
    expect(before.has(unwatched.pod)).toBe(false);

    clock.set(new Date(T1));
    for (const { reference } of [watched, unwatched]) {
      const { body } = await graphql(
        app,
        org.key,
        `mutation($r: String!) { track(reference: $r, type: container, carrier: "MSCU") { __typename } }`,
        { r: reference },
      );
      expect(body.data?.track).toEqual({ __typename: "TrackSuccess" });
    }

    // The next worker step notices the arrivals: the watched port no longer waits for its daily score,
    // the other port gets a row, and only these two are scored.
    const [scoredA, scoredB] = await Promise.all([a.scoreDue(10), b.scoreDue(10)]);
    expect([...scoredA, ...scoredB].sort()).toEqual([watched.pod, unwatched.pod].sort());
    const after = await schedule();
    for (const pod of [watched.pod, unwatched.pod]) {
      expect(after.get(pod)?.nextScoreAt.getTime(), pod).toBe(T1 + HOUR);
    }
    // The port that is only known from the tracked shipment is sampled too.
    const sampled = [...(await a.sampleDue(100)), ...(await b.sampleDue(100))];
    expect(sampled).toContain(unwatched.pod);

    for (const hour of [1, 2, 3]) {
      clock.set(new Date(T1 + hour * HOUR));
      const [x, y] = await Promise.all([a.scoreDue(10), b.scoreDue(10)]);
      expect([...x, ...y].sort(), `hour ${hour}`).toEqual([watched.pod, unwatched.pod].sort());
    }
    const rows = await schedule();
    expect(rows.get(watched.pod)?.nextScoreAt.getTime()).toBe(T1 + 4 * HOUR);
    // Ports without a tracked arrival keep their daily score.
    const other = rankedPortCodes().find((code) => code !== watched.pod)!;
    expect(rows.get(other)?.nextScoreAt.getTime()).toBe(T0 + 24 * HOUR);
  }, 300_000);
});
