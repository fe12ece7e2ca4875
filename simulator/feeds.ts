/**
 * The world's news: RSS feeds (`GET /feeds/<publisher>.xml`) reporting the world's dated episodes
 * (episodes.ts: the typhoon at Shanghai and Ningbo, the European port strike, the canal restriction) in
 * several publishers' voices, before, during and after each one, plus noise that is no disruption
 * news. The service's disruption ingestion reads them under `npm start`, so the shipments the world
 * delays are the ones its disruptions match. Pure functions of the time; every item is our own wording.
 */
import { type StoryPublisher, storyItemsBetween } from "./news-stories";
import { type Episode, episodesBetween } from "./world/episodes";
import type { Passage } from "./world/geo";
import { findPort } from "./world/ports";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far back a feed reaches: long enough for a canal restriction's whole story. */
const FEED_WINDOW_MS = 21 * DAY;

/**
 * The publishers' own feeds report the world's dated episodes; `shipping-digest` is a news
 * aggregator carrying the running stories of news-stories.ts from the trade press, each item naming
 * its publisher in `<source>`.
 */
export const FEED_PUBLISHERS = [
  "harbour-wire",
  "box-trade-daily",
  "quay-ledger",
  "storm-watch",
  "shipping-digest",
] as const;
export type FeedPublisher = (typeof FEED_PUBLISHERS)[number];

const PUBLISHER_NAMES: Readonly<Record<FeedPublisher, string>> = {
  "harbour-wire": "Harbour Wire",
  "box-trade-daily": "Box Trade Daily",
  "quay-ledger": "Quay Ledger",
  "storm-watch": "Storm Watch Agency",
  "shipping-digest": "Shipping News Digest",
};

const CANALS: Readonly<Record<Passage, string>> = {
  suez: "Suez Canal",
  panama: "Panama Canal",
  gibraltar: "Strait of Gibraltar",
  malacca: "Strait of Malacca",
  cape: "Cape of Good Hope",
  ceylon: "Indian Ocean",
};

interface NewsItem {
  guid: string;
  title: string;
  summary: string;
  publishedAt: number;
  alertLevel?: "Green" | "Orange" | "Red";
  /** The publisher of an aggregated item (RSS 2.0 `<source>`). */
  source?: StoryPublisher;
}

function portsText(episode: Episode): string {
  const names = episode.ports.map((code) => `the Port of ${findPort(code)?.name ?? code}`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "the port");
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What one publisher writes about one episode: each in its own voice and at its own moments. */
function itemsAbout(episode: Episode, publisher: FeedPublisher): NewsItem[] {
  const start = episode.start.getTime();
  const end = episode.end.getTime();
  const ports = portsText(episode);
  const canal = episode.chokepoint ? CANALS[episode.chokepoint] : "the canal";
  const id = (stage: string) => `${publisher}-${episode.id}-${stage}`;
  switch (episode.kind) {
    case "typhoon":
      if (publisher === "harbour-wire")
        return [
          {
            guid: id("closed"),
            publishedAt: start + 2 * HOUR,
            title: `Typhoon closes ${ports}`,
            summary: `Terminals suspended operations as the storm made landfall. ${episode.facts.cause}`,
          },
          {
            guid: id("reopened"),
            publishedAt: end + 3 * HOUR,
            title: `${capitalised(ports)} reopened after typhoon; operations resume`,
            summary: "Cranes restarted and vessels at anchor are being berthed.",
          },
        ];
      if (publisher === "box-trade-daily")
        return [
          {
            guid: id("delays"),
            publishedAt: start + 8 * HOUR,
            title: `Carriers warn of delays as typhoon shuts ${ports}`,
            summary: "Lines expect knock-on delays of two to three days on sailings from the region.",
          },
        ];
      if (publisher === "quay-ledger")
        return [
          {
            guid: id("shut"),
            publishedAt: start + 20 * HOUR,
            title: `${capitalised(ports)} stays closed as typhoon lingers`,
            summary: "Dozens of vessels wait at anchor while terminals remain shut.",
          },
        ];
      return [
        {
          guid: id("alert"),
          publishedAt: start - 6 * HOUR,
          title: `Tropical cyclone alert for ${ports}`,
          summary: "Red alert: a typhoon is forecast to make landfall within 24 hours.",
          alertLevel: "Red",
        },
      ];
    case "strike":
      if (publisher === "harbour-wire")
        return [
          {
            guid: id("walkout"),
            publishedAt: start + 2 * HOUR,
            title: `Strike halts container handling at ${ports}`,
            summary: `${episode.facts.cause}`,
          },
          {
            guid: id("ended"),
            publishedAt: end + 2 * HOUR,
            title: `Strike ends at ${ports}; terminals reopened`,
            summary: "Work resumed and the backlog is being cleared.",
          },
        ];
      if (publisher === "quay-ledger")
        return [
          {
            guid: id("second-day"),
            publishedAt: start + 18 * HOUR,
            title: `Dockworkers strike at ${ports} enters its second day`,
            summary: "Union and employers remain apart; berth capacity is a third of normal.",
          },
        ];
      if (publisher === "box-trade-daily")
        return [
          {
            guid: id("surcharge"),
            publishedAt: start + 10 * HOUR,
            title: `Carriers omit calls as strike slows ${ports}`,
            summary: "Lines are diverting cargo to neighbouring ports while the walkout lasts.",
          },
        ];
      return [];
    case "canal_restriction":
      if (publisher === "box-trade-daily")
        return [
          {
            guid: id("restricted"),
            publishedAt: start + 4 * HOUR,
            title: `${canal} transits restricted; queues grow`,
            summary: `${episode.facts.cause}`,
          },
          {
            guid: id("eased"),
            publishedAt: end + 4 * HOUR,
            title: `${canal} restrictions eased as transits return to normal`,
            summary: "The queue at the locks is clearing.",
          },
        ];
      if (publisher === "harbour-wire")
        return [
          {
            guid: id("queue"),
            publishedAt: start + 30 * HOUR,
            title: `Ships wait days to transit the ${canal} under new draft restrictions`,
            summary: `Operators report delays of about ${Math.round(episode.facts.transitDelayHours)} hours at the ${canal}.`,
          },
        ];
      return [];
  }
}

/** Items that are no disruption news (a feed is mostly not about disruptions), one a week. */
function noise(publisher: FeedPublisher, from: number, to: number): NewsItem[] {
  const items: NewsItem[] = [];
  const week = 7 * DAY;
  for (let t = Math.ceil(from / week) * week; t <= to; t += week) {
    const n = Math.floor(t / week);
    const subject =
      n % 3 === 0
        ? {
            title: "Port of Felixstowe opens a new visitor centre",
            summary: "The centre explains container handling to school groups.",
          }
        : n % 3 === 1
          ? {
              title: "Ceasefire holds as aid convoys move",
              summary: "Lorries crossed at dawn carrying food and medicine.",
            }
          : {
              title: "ONE Piece anime returns for a new season",
              summary: "The long-running series is back on streaming platforms.",
            };
    if (publisher !== "storm-watch")
      items.push({ guid: `${publisher}-noise-${n}`, publishedAt: t + 9 * HOUR, ...subject });
  }
  return items;
}

/** One publisher's items published by `now`, newest first. */
export function feedItems(publisher: FeedPublisher, now: number): NewsItem[] {
  const from = now - FEED_WINDOW_MS;
  if (publisher === "shipping-digest") return storyItemsBetween(from, now);
  const items = [
    ...episodesBetween(from - 7 * DAY, now).flatMap((episode) => itemsAbout(episode, publisher)),
    ...noise(publisher, from, now),
  ];
  return items
    .filter((i) => i.publishedAt <= now && i.publishedAt >= from)
    .sort((a, b) => b.publishedAt - a.publishedAt);
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The RSS 2.0 document of one publisher's feed (GDACS-style alert levels on the agency's). */
export function feedXml(publisher: FeedPublisher, now: number, base: string): string {
  const items = feedItems(publisher, now)
    .map(
      (i) => `    <item>
      <title>${xml(i.title)}</title>
      <link>${xml(`${base}/news/${i.guid}`)}</link>
      <guid isPermaLink="false">${xml(i.guid)}</guid>
      <pubDate>${new Date(i.publishedAt).toUTCString()}</pubDate>
      <description>${xml(i.summary)}</description>${i.alertLevel ? `\n      <gdacs:alertlevel>${i.alertLevel}</gdacs:alertlevel>` : ""}${i.source ? `\n      <source url="${xml(i.source.url)}">${xml(i.source.name)}</source>` : ""}
    </item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:gdacs="http://www.gdacs.org">
  <channel>
    <title>${xml(PUBLISHER_NAMES[publisher])} (simulated)</title>
    <link>${xml(base)}</link>
    <description>News of the simulated world, written by the simulator.</description>
    <lastBuildDate>${new Date(now).toUTCString()}</lastBuildDate>
${items}
  </channel>
</rss>
`;
}

export function isFeedPublisher(value: string): value is FeedPublisher {
  return (FEED_PUBLISHERS as readonly string[]).includes(value);
}
