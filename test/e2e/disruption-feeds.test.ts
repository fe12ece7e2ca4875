/**
 * End to end: the simulator's feeds (its world's dated episodes, in several publishers' voices) are
 * fetched by the service's ingestion, the typhoon becomes one active event with several sources naming
 * Shanghai, and it resolves once the world reports the ports reopened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodesBetween } from "../../simulator/world/episodes";
import { ManualClock } from "../../src/lib/clock";
import { startTestApp, type TestApp } from "../support/app";

const HOUR = 3_600_000;
const typhoon = episodesBetween(Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31)).find(
  (e) => e.kind === "typhoon",
)!;
const clock = new ManualClock(new Date(typhoon.start.getTime() + 22 * HOUR));
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_DISRUPTION_FEEDS: "simulator",
      QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS: "60000",
    },
  });
}, 120_000);
afterAll(() => app?.stop());

const activeTyphoons = async () =>
  (
    await app.services.disruptions.list({
      severity: 1,
      category: "weather",
      port: "CNSHA",
      carrier: null,
      country: null,
      status: "active",
      since: null,
      page: 1,
      pageSize: 10,
    })
  ).items;

describe("disruption news from the simulator's world", () => {
  it("serves RSS for each publisher and 404 for an unknown one", async () => {
    const feed = await fetch(`${app.simulator!.url}/feeds/harbour-wire.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("rss");
    expect(await feed.text()).toContain("Typhoon closes the Port of Shanghai");
    expect((await fetch(`${app.simulator!.url}/feeds/nobody.xml`)).status).toBe(404);
  });

  it("turns the typhoon into one active event with several sources, then resolves it after the episode", async () => {
    const tick = await app.services.feedIngestion!.tick();
    expect(tick.failed).toBe(0);
    const events = await activeTyphoons();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event!.entities.ports).toEqual(expect.arrayContaining(["CNSHA"]));
    expect(new Set(event!.sources.map((s) => s.publisher)).size).toBeGreaterThanOrEqual(3);
    expect(event!.severity).toBe(4);
    const health = await app.services.disruptions.sources();
    expect(health.every((s) => s.lastSuccessAt !== null && s.lastError === null)).toBe(true);

    clock.set(new Date(typhoon.end.getTime() + 6 * HOUR));
    await app.services.feedIngestion!.tick();
    expect(await activeTyphoons()).toEqual([]);
    const resolved = await app.services.disruptions.get(event!.id);
    expect(resolved!.status).toBe("resolved");
  });
});
