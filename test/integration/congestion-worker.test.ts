/**
 * The congestion worker's path (`sampleDue` / `scoreDue`, rows claimed with FOR UPDATE SKIP LOCKED and
 * a lease): two service instances on one database, as two processes would run them (on PostgreSQL each
 * with its own connection pool), share the watched ports without sampling or scoring one twice; every
 * port is scored on one interval whoever ships there (a port known only from a tracked shipment gets a
 * row, and a tracked arrival does not change any port's cadence); a port whose anchorage moves between
 * two samplings is scored at the next pass rather than at its interval (issue 36); a port the news
 * reports closed or struck is scored at the next pass and reads critical before its queue shows
 * anything, until a report of the end (issue 36, reported stoppages).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipmentFor } from "../../simulator/world/world";
import { type Database, openDatabase } from "../../src/db/database";
import { CongestionService, SCORE_EVERY_MS } from "../../src/domain/congestion/congestion.service";
import type { PortAreaSource } from "../../src/domain/congestion/port-area-source";
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

    // Every port is next scored one interval (3 h) later.
    expect(SCORE_EVERY_MS).toBe(3 * HOUR);
    for (const row of (await schedule()).values()) {
      expect(row.nextScoreAt.getTime(), row.locode).toBe(T0 + SCORE_EVERY_MS);
      expect(row.lastScoredAt?.getTime(), row.locode).toBe(T0);
    }
  }, 300_000);
});

describe("a port with a tracked arrival within 72 hours", () => {
  it("gets a schedule row when not watched, and no port's cadence changes for it", async () => {
    const watched = arrivingContainer(true);
    const unwatched = arrivingContainer(false);
    const before = await schedule();
    expect(before.get(watched.pod)?.nextScoreAt.getTime()).toBe(T0 + SCORE_EVERY_MS);
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

    // The next worker step notices the shipments: the port known only from them gets a row and is
    // scored (it was never scored); the watched port keeps its interval, as every other port does.
    const [scoredA, scoredB] = await Promise.all([a.scoreDue(10), b.scoreDue(10)]);
    expect([...scoredA, ...scoredB]).toEqual([unwatched.pod]);
    const after = await schedule();
    expect(after.get(unwatched.pod)?.nextScoreAt.getTime()).toBe(T1 + SCORE_EVERY_MS);
    expect(after.get(watched.pod)?.nextScoreAt.getTime()).toBe(T0 + SCORE_EVERY_MS);
    // The port that is only known from the tracked shipment is sampled too.
    const sampled = [...(await a.sampleDue(100)), ...(await b.sampleDue(100))];
    expect(sampled).toContain(unwatched.pod);

    // An hour later nothing is due; at the interval every watched port is, the one with the tracked
    // arrival among them and no sooner than the others.
    clock.set(new Date(T1 + HOUR));
    expect([...(await a.scoreDue(100)), ...(await b.scoreDue(100))]).toEqual([]);
    clock.set(new Date(T0 + SCORE_EVERY_MS));
    const due = await drain(() => a.scoreDue(100));
    expect(due).toContain(watched.pod);
    expect(due).not.toContain(unwatched.pod);
    expect(due.length).toBe(before.size);
  }, 300_000);
});

describe("a port whose anchorage moves between two samplings", () => {
  it("is scored at the next pass, not at its interval; a still anchorage waits for it", async () => {
    const port = "CNSHA";
    // The port area as an AIS receiver reports it at each sampling: 4 ships at anchor, then 4 again
    // (still), then 9 (the queue grows by 5, more than a quarter).
    const sightings = [4, 4, 9];
    let sampling = 0;
    const scripted: PortAreaSource = {
      name: "scripted",
      vesselsAt: async (locode) =>
        locode !== port
          ? { kind: "unknown-port" }
          : {
              kind: "seen",
              at: clock.now(),
              vessels: Array.from({ length: sightings[sampling++]! }, (_, i) => ({
                key: `9${String(i).padStart(8, "0")}`,
                name: null,
                status: "at-anchor" as const,
              })),
            },
    };
    const service = new CongestionService({
      prisma: app.services.db.prisma,
      clock,
      logger: app.services.logger,
      areaSources: [scripted],
      sampleEveryMs: HOUR,
    });
    const start = T0 + 10 * HOUR;
    clock.set(new Date(start));
    await app.services.db.prisma.portCongestionSchedule.update({
      where: { locode: port },
      data: { nextSampleAt: new Date(start), nextScoreAt: new Date(start) },
    });
    // Other ports are out of the way: only the port under test is due.
    await app.services.db.prisma.portCongestionSchedule.updateMany({
      where: { locode: { not: port } },
      data: { nextSampleAt: new Date(start + 100 * HOUR), nextScoreAt: new Date(start + 100 * HOUR) },
    });
    expect(await service.sampleDue(10)).toEqual([port]);
    expect(await service.scoreDue(10)).toEqual([port]);
    const nextAt = (await schedule()).get(port)!.nextScoreAt.getTime();
    expect(nextAt).toBe(start + SCORE_EVERY_MS);

    clock.set(new Date(start + HOUR));
    expect(await service.sampleDue(10)).toEqual([port]);
    expect(await service.scoreDue(10)).toEqual([]);

    clock.set(new Date(start + 2 * HOUR));
    expect(await service.sampleDue(10)).toEqual([port]);
    expect(await service.scoreDue(10)).toEqual([port]);
    expect((await schedule()).get(port)!.nextScoreAt.getTime()).toBe(start + 2 * HOUR + SCORE_EVERY_MS);
  }, 120_000);
});

describe("a port the news reports struck", () => {
  it("is scored at the next pass and reads critical from the report, its own queue's score again after the report of the end", async () => {
    const port = "BEANR";
    const prisma = app.services.db.prisma;
    const start = T0 + 30 * HOUR;
    const day = (ms: number) => new Date(Date.parse(new Date(ms).toISOString().slice(0, 10)));
    // Ninety days of the port's own normal (a 10-hour wait, as usual), and today's few waits of the
    // same length: a port whose queue has not moved.
    await prisma.portCongestionSignal.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        locode: port,
        day: day(start - (i + 1) * 24 * HOUR),
        anchorageWaitH: 9 + (i % 3),
        anchorageN: 6,
        arrivals: 40,
        computedAt: day(start - i * 24 * HOUR),
      })),
      skipDuplicates: true,
    });
    await prisma.portAnchorageWait.createMany({
      data: Array.from({ length: 6 }, (_, i) => ({
        locode: port,
        vesselKey: `2440000${i}`,
        anchoredAt: new Date(start - (14 + i) * HOUR),
        lastSeenAt: new Date(start - (4 + i) * HOUR),
        berthedAt: new Date(start - (4 + i) * HOUR),
      })),
    });
    const quiet: PortAreaSource = {
      name: "quiet",
      vesselsAt: async (locode) =>
        locode !== port ? { kind: "unknown-port" } : { kind: "seen", at: clock.now(), vessels: [] },
    };
    const service = new CongestionService({
      prisma,
      clock,
      logger: app.services.logger,
      areaSources: [quiet],
      sampleEveryMs: HOUR,
    });
    clock.set(new Date(start));
    await prisma.portCongestionSchedule.updateMany({
      data: { nextSampleAt: new Date(start + 100 * HOUR), nextScoreAt: new Date(start + 100 * HOUR) },
    });
    await prisma.portCongestionSchedule.update({
      where: { locode: port },
      data: { nextScoreAt: new Date(start) },
    });
    expect(await service.scoreDue(10)).toEqual([port]);
    const reading = async () => (await service.board()).find((b) => b.locode === port);
    expect((await reading())?.bucket).toBe("normal");

    // The news, through the disruption pipeline as the feeds deliver it.
    const wire = { id: "test-wire", publisher: "Harbour Wire", kind: "news", authoritative: false };
    const report = (title: string, summary: string, at: number) =>
      app.services.disruptions.ingest(wire, [
        {
          sourceId: wire.id,
          publisher: wire.publisher,
          guid: title,
          link: null,
          title,
          summary,
          publishedAt: new Date(at),
        },
      ]);
    clock.set(new Date(start + HOUR));
    await report(
      "Strike halts container handling at the Port of Antwerp-Bruges",
      "Strike by pilots: berths worked at a third of capacity.",
      start + HOUR,
    );
    // Two hours before its interval, and its anchorage has not moved: the report brings it forward.
    expect(await service.scoreDue(10)).toEqual([port]);
    expect(await reading()).toMatchObject({ score: 90, bucket: "critical", vesselsWaiting: 0 });
    // Scored once for the report, then at its interval again.
    clock.set(new Date(start + 2 * HOUR));
    expect(await service.scoreDue(10)).toEqual([]);

    await report(
      "Strike ends at the Port of Antwerp-Bruges; terminals reopened",
      "Work resumed and the backlog is being cleared.",
      start + 2 * HOUR,
    );
    expect(await service.scoreDue(10)).toEqual([port]);
    expect((await reading())?.bucket).toBe("normal");
  }, 120_000);
});
