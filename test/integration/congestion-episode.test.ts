/**
 * The congestion score against the simulated world's ground truth (issue 19, Done when): the service
 * samples the simulator's port areas over HTTP every 3 simulated hours for six weeks around the world's
 * typhoon at Shanghai and Ningbo, computes daily signals and scores each day, and the readings must
 * show the typhoon at Shanghai within two days, trend up, recover within a week of the reopening, and
 * leave the ports without an episode below `high`. Around the typhoon the world's news is ingested as
 * `npm start` ingests it (the simulator's feeds through the disruption pipeline): Shanghai reads
 * critical from the first sampling after the report of its closure, hours before its queue shows it
 * (issue 36), and its normal once the report of the reopening is in while the backlog clears.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { episodesBetween } from "../../simulator/world/world";
import { disruptionFeedSources } from "../../src/app/disruption-feeds";
import { loadConfig } from "../../src/config";
import type { BoardItem } from "../../src/domain/congestion/congestion.service";
import { CongestionService } from "../../src/domain/congestion/congestion.service";
import { FeedIngestion } from "../../src/domain/disruptions/ingestion.service";
import { ManualClock } from "../../src/lib/clock";
import { createFeedFetcher } from "../../src/upstream/feeds/feed.adapter";
import { SimulatorPortAreaAdapter } from "../../src/upstream/vessels/simulator-port-area.adapter";
import { startTestApp, type TestApp } from "../support/app";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FROM = Date.parse("2026-09-12T00:00:00Z");
const TO = Date.parse("2026-10-25T00:00:00Z");
const PORTS = ["CNSHA", "CNNGB", "SGSIN", "KRPUS"];
/** Ports with no episode in the window. */
const QUIET = ["SGSIN", "KRPUS"];

const clock = new ManualClock(new Date(FROM));
let simulator: RunningSimulator;
let app: TestApp;
let congestion: CongestionService;
/** Each port's reading per day, as scored at 21:00 UTC. */
const readings = new Map<string, Map<string, BoardItem | null>>();
const typhoon = episodesBetween(FROM, TO).find((e) => e.kind === "typhoon" && e.ports.includes("CNSHA"))!;
/** Shanghai's reading scored at the last sampling before two days into the typhoon. */
let twoDaysIn: BoardItem | null = null;
/** Shanghai's reading at the first sampling after the report of its closure, and after the reopening's. */
let afterClosureNews: BoardItem | null = null;
let afterReopeningNews: BoardItem | null = null;
/** Shanghai's reading at the first sampling after the end, before the reopening's news is read. */
let afterEndBeforeNews: BoardItem | null = null;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, clock });
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  congestion = new CongestionService({
    prisma: app.services.db.prisma,
    clock,
    logger: app.services.logger,
    areaSources: [new SimulatorPortAreaAdapter(simulator.url, { clock })],
    sampleEveryMs: 3 * HOUR,
  });
  for (const port of PORTS) readings.set(port, new Map());
  const news = new FeedIngestion({
    prisma: app.services.db.prisma,
    clock,
    fetcher: createFeedFetcher({ timeoutMs: 10_000, maxBytes: 2_000_000, userAgent: "test", clock }),
    disruptions: app.services.disruptions,
    sources: disruptionFeedSources(loadConfig({ QUAYSIDE_DISRUPTION_FEEDS: "simulator" }), simulator.url),
    intervalMs: 3 * HOUR,
  });
  await news.syncSources();
  // The world's news items of the typhoon: the closure 2 hours after its start, the reopening 3 after
  // its end (simulator/feeds.ts); read from 9 hours before the start, so the storm warning (6 hours
  // before) is in too and must not lift the port.
  const closureNews = typhoon.start.getTime() + 2 * HOUR;
  const reopeningNews = typhoon.end.getTime() + 3 * HOUR;
  for (let t = FROM; t < TO; t += 3 * HOUR) {
    clock.set(new Date(t));
    for (const port of PORTS) expect(await congestion.samplePort(port)).toBe(true);
    // Scored before this step's news is read: the reopening is reported at this step at the earliest.
    if (t > typhoon.end.getTime() && t <= reopeningNews && afterEndBeforeNews === null)
      afterEndBeforeNews = await congestion.scorePortNow("CNSHA");
    if (t >= typhoon.start.getTime() - 9 * HOUR && t <= reopeningNews + 3 * HOUR) await news.tick();
    if (t >= closureNews && t < closureNews + 3 * HOUR)
      afterClosureNews = await congestion.scorePortNow("CNSHA");
    if (t >= reopeningNews && t < reopeningNews + 3 * HOUR)
      afterReopeningNews = await congestion.scorePortNow("CNSHA");
    const twoDays = typhoon.start.getTime() + 2 * DAY;
    if (t <= twoDays && t + 3 * HOUR > twoDays) twoDaysIn = await congestion.scorePortNow("CNSHA");
    if (new Date(t).getUTCHours() === 21) {
      for (const port of PORTS) {
        readings.get(port)!.set(new Date(t).toISOString().slice(0, 10), await congestion.scorePortNow(port));
      }
    }
  }
  // Six simulated weeks over HTTP: minutes on a loaded machine.
}, 900_000);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
});

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("the world's typhoon at Shanghai", () => {
  it("is in the window (ground truth)", () => {
    expect(typhoon).toBeDefined();
    expect(typhoon.start.getTime()).toBeGreaterThan(FROM + 28 * DAY);
    expect(typhoon.end.getTime() + 7 * DAY).toBeLessThan(TO);
  });

  it("reads high or critical within two simulated days of the start, trending up", () => {
    expect(twoDaysIn).toBeTruthy();
    expect(["high", "critical"]).toContain(twoDaysIn!.bucket);
    expect(twoDaysIn!.trend7d).toBeGreaterThan(0);
    expect(twoDaysIn!.vesselsWaiting).toBeGreaterThan(10);
    expect(twoDaysIn!.medianAnchorageWaitH).toBeGreaterThan(12);
  });

  it("reads critical from the first sampling after the report of its closure, before its queue shows it", () => {
    expect(afterClosureNews).toBeTruthy();
    expect(afterClosureNews!.bucket).toBe("critical");
    // The queue has not formed: a ship or two at anchor, as on any day.
    expect(afterClosureNews!.vesselsWaiting).toBeLessThan(10);
  });

  it("reads the closure over once its own AIS shows the queue berthing, before the news of the reopening", () => {
    // The first sampling after the end sees ships of the closure's queue alongside; the news of the
    // reopening is not read yet, so only the port's AIS can say the closure is over
    // (docs/decisions/congestion.md, "A closure ends at its port's AIS").
    expect(afterEndBeforeNews).toBeTruthy();
    expect(afterEndBeforeNews!.vesselsWaiting).toBeGreaterThan(20);
    expect(afterEndBeforeNews!).toMatchObject({ score: 40, bucket: "normal", raisedBy: [] });
  });

  it("reads the backlog as clearing once the report of the reopening is in: normal, while ships still wait", () => {
    expect(afterReopeningNews).toBeTruthy();
    expect(afterReopeningNews!.vesselsWaiting).toBeGreaterThan(20);
    // The wait is on the wire as measured, far above the port's normal; the score says the closure is
    // over and its queue is being worked off (docs/decisions/congestion.md, "After the reported end").
    const wait = afterReopeningNews!.components.find((c) => c.name === "anchorage_wait")!;
    expect(wait.z).toBe(5);
    expect(afterReopeningNews!).toMatchObject({ score: 40, bucket: "normal", raisedBy: [] });
  });

  it("is back to normal or below within a week of the end", () => {
    const week = readings.get("CNSHA")!.get(day(typhoon.end.getTime() + 7 * DAY));
    expect(week).toBeTruthy();
    expect(["fluid", "normal"]).toContain(week!.bucket);
  });

  it("keeps its baseline out of the last 7 days, so the episode does not become its own normal", async () => {
    const during = readings.get("CNSHA")!.get(day(typhoon.end.getTime() - DAY))!;
    const before = readings.get("CNSHA")!.get(day(typhoon.start.getTime() - DAY))!;
    const wait = (r: BoardItem) => r.components.find((c) => c.name === "anchorage_wait")!;
    // On the episode's last full day the raw wait is far above a baseline that has not moved: the
    // baseline ends 7 days before the day scored. (Since issue 36 the wait follows the queue, so two
    // days after the end, once the held ships have berthed, it is back near the baseline.)
    expect(wait(during).baseline_median).toBeCloseTo(wait(before).baseline_median, 0);
    expect(wait(during).raw).toBeGreaterThan(wait(during).baseline_median);
  });

  it("leaves the ports without an episode normal or fluid in 9 readings of 10, never critical", () => {
    // Issue 36's target for calm ports (>= 0.9 of readings); issue 19's "never high" held with a
    // 7-day wait window, which kept episodes on the board for a week after their queue had cleared.
    for (const port of QUIET) {
      const scores = [...readings.get(port)!.entries()].filter(([, r]) => r !== null);
      expect(scores.length, port).toBeGreaterThan(25);
      const calm = scores.filter(([, r]) => r!.bucket === "normal" || r!.bucket === "fluid");
      expect(calm.length / scores.length, port).toBeGreaterThanOrEqual(0.9);
      for (const [date, reading] of scores) expect(reading!.score, `${port} ${date}`).toBeLessThan(90);
    }
  });

  it("never shows a wait of 0: null when nobody waited", () => {
    for (const perDay of readings.values()) {
      for (const reading of perDay.values()) {
        if (!reading) continue;
        expect(reading.medianAnchorageWaitH).not.toBe(0);
        expect(reading.longestWaitDays).not.toBe(0);
      }
    }
  });

  it("serves the board from the newest readings, one row per port, and a port's 90-day history", async () => {
    const board = await congestion.board();
    expect(board.map((b) => b.locode).sort()).toEqual([...PORTS].sort());
    const reading = await congestion.reading("CNSHA");
    expect(reading.kind).toBe("scored");
    if (reading.kind !== "scored") return;
    expect(reading.reading.history.length).toBeLessThanOrEqual(90);
    const dates = reading.reading.history.map((h) => h.date);
    expect([...dates].sort()).toEqual(dates);
    expect(reading.reading.history.some((h) => h.bucket === "high" || h.bucket === "critical")).toBe(true);
  });
});
