/**
 * The world's running news (simulator/news-stories.ts, issue 36): at every instant each family has a
 * story going, and read by the service's own disruption pipeline every story is one event of its own,
 * active from its first report to its last, never mixed with the world's dated episodes; the digest
 * feed names each item's publisher in RSS `<source>`, which the feed mapper reads.
 */
import { describe, expect, it } from "vitest";
import { FEED_PUBLISHERS, feedItems, feedXml } from "../../simulator/feeds";
import { storiesActiveAt, storiesBetween } from "../../simulator/news-stories";
import { EPISODE_PORTS } from "../../simulator/world/episodes";
import type { FeedItem } from "../../src/domain/disruptions/normalise";
import { ingestItem, type PipelineState } from "../../src/domain/disruptions/pipeline";
import { feedItemsOf } from "../../src/upstream/feeds/feed.mapper";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2026, 5, 1);
const TO = Date.UTC(2027, 2, 1);

describe("the world's running news", () => {
  it("has one story of each family going at every hour, and none names an episode's port", () => {
    for (let at = FROM; at < TO; at += 5 * HOUR) {
      const families = storiesActiveAt(at).map((s) => s.family);
      expect(families.sort(), new Date(at).toISOString()).toEqual(["alliances", "hubs", "lanes", "networks"]);
    }
    for (const story of storiesBetween(FROM, TO)) {
      expect(EPISODE_PORTS.has(story.subject)).toBe(false);
      const times = story.items.map((i) => i.publishedAt);
      // Reported often enough that the service's silence rule (3 days at the least) never ends it.
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThan(2 * DAY);
      expect(new Set(story.items.map((i) => i.source.name)).size).toBeGreaterThanOrEqual(3);
    }
  });

  it("is deterministic: the same time gives the same stories", () => {
    expect(storiesBetween(FROM, FROM + 30 * DAY)).toEqual(storiesBetween(FROM, FROM + 30 * DAY));
  });

  it("reads, through the disruption pipeline, as one event per story, active until its end report", () => {
    const window = { from: Date.UTC(2026, 8, 1), to: Date.UTC(2026, 11, 20) };
    type Tagged = FeedItem & { story: string };
    const items: Tagged[] = storiesBetween(window.from, window.to)
      .filter((s) => s.start >= window.from)
      .flatMap((s) =>
        s.items
          .filter((i) => i.publishedAt <= window.to)
          .map((i) => ({
            sourceId: "simulator-shipping-digest",
            publisher: i.source.name,
            guid: i.guid,
            link: null,
            title: i.title,
            summary: i.summary,
            publishedAt: new Date(i.publishedAt),
            categoryPrior: null,
            alertLevel: null,
            authoritative: false,
            story: s.id,
          })),
      );
    // The world's episodes in the same stream, as their publishers' feeds report them.
    const seenGuids = new Set<string>();
    for (let at = window.from; at <= window.to; at += 7 * DAY) {
      for (const publisher of FEED_PUBLISHERS.filter((p) => p !== "shipping-digest")) {
        for (const i of feedItems(publisher, at)) {
          if (seenGuids.has(i.guid) || i.publishedAt < window.from || i.publishedAt > window.to) continue;
          seenGuids.add(i.guid);
          items.push({
            sourceId: `simulator-${publisher}`,
            publisher,
            guid: i.guid,
            link: null,
            title: i.title,
            summary: i.summary,
            publishedAt: new Date(i.publishedAt),
            categoryPrior: null,
            alertLevel: null,
            authoritative: false,
            story: `episode:${publisher}`,
          });
        }
      }
    }
    items.sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime());

    let state: PipelineState = { events: [], seen: [] };
    const seenAt: number[] = [];
    let n = 0;
    const storiesOf = new Map<string, Set<string>>();
    const eventOf = new Map<string, string>();
    for (const item of items) {
      // The service looks for a publisher's duplicates a week either side (disruptions.service.ts).
      const at = item.publishedAt.getTime();
      const kept = seenAt.map((t) => t >= at - 7 * DAY);
      state = { ...state, seen: state.seen.filter((_, i) => kept[i]) };
      seenAt.splice(0, seenAt.length, ...seenAt.filter((_, i) => kept[i]));
      const result = ingestItem(state, item, () => `event-${++n}`);
      if (result.state.seen.length > state.seen.length) seenAt.push(at);
      state = result.state;
      const { outcome } = result;
      if (item.story.startsWith("episode:")) {
        if (outcome.kind === "joined" || outcome.kind === "created")
          eventOf.set(`${item.story}:${item.guid}`, outcome.event.id);
        continue;
      }
      expect(["joined", "created"], `${item.title}: ${outcome.kind}`).toContain(outcome.kind);
      if (outcome.kind !== "joined" && outcome.kind !== "created") continue;
      const set = storiesOf.get(outcome.event.id) ?? new Set<string>();
      set.add(item.story);
      storiesOf.set(outcome.event.id, set);
      eventOf.set(item.story, outcome.event.id);
    }
    // One story, one event; no episode report joined a story's event.
    for (const stories of storiesOf.values()) expect(stories.size).toBe(1);
    for (const [key, id] of eventOf) if (key.startsWith("episode:")) expect(storiesOf.has(id)).toBe(false);
    // Every story that ended is resolved by its end report; the ones still going are active.
    for (const story of storiesBetween(window.from, window.to).filter((s) => s.start >= window.from)) {
      const event = state.events.find((e) => e.id === eventOf.get(story.id))!;
      expect(event, story.id).toBeDefined();
      if (story.end <= window.to) {
        expect(event.status, story.id).toBe("resolved");
        expect(event.resolvedBy, story.id).toBe("report");
      } else {
        expect(event.status, story.id).toBe("active");
      }
    }
  });

  it("serves the digest as RSS whose items name their publishers in <source>, read by the feed mapper", () => {
    const now = Date.UTC(2026, 10, 29, 4);
    const body = feedXml("shipping-digest", now, "http://simulator.test");
    expect(body).toMatch(/<source url="https:\/\/[a-z-]+\.example\/">[^<]+<\/source>/);
    const items = feedItemsOf(
      body,
      {
        id: "simulator-shipping-digest",
        publisher: "Shipping News Digest",
        url: "http://simulator.test/feeds/shipping-digest.xml",
        kind: "news",
        authoritative: false,
      },
      new Date(now),
    );
    expect(items.length).toBeGreaterThan(10);
    const publishers = new Set(items.map((i) => i.publisher));
    expect(publishers.has("Shipping News Digest")).toBe(false);
    expect(publishers.size).toBeGreaterThanOrEqual(3);
  });
});
