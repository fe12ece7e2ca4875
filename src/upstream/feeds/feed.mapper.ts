/**
 * A feed body (RSS 2.0 or Atom) to the pipeline's items, pure. Parsed with @rowanmanning/feed-parser
 * (pinned: GDACS's namespaced `alertlevel` is read through its typed but undocumented `item.element`).
 */
import { parseFeed } from "@rowanmanning/feed-parser";
import type { FeedSourceConfig } from "../../domain/disruptions/feed-source";
import type { FeedItem } from "../../domain/disruptions/normalise";

export class NotAFeedError extends Error {}

/** A body that starts like an HTML page (a Cloudflare challenge answered with 200) is no feed. */
export function looksLikeHtml(body: string): boolean {
  const head = body.slice(0, 512).trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html");
}

function alertLevelOf(element: unknown): FeedItem["alertLevel"] {
  const finder = element as { findElementWithName?: (name: string) => { textContent?: string } | null };
  const text = finder.findElementWithName?.("alertlevel")?.textContent?.trim().toLowerCase();
  return text === "green" || text === "orange" || text === "red" ? text : null;
}

interface XmlElement {
  textContentNormalized?: string;
  getAttribute?: (name: string) => string | null;
  findElementWithName?: (name: string) => XmlElement | null;
}

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/**
 * Who published an item, when the feed says so itself: an aggregating feed (a news search, a
 * newsletter) carries many publishers, and corroboration counts publishers, not feeds. RSS 2.0
 * `<source url="...">Name</source>` (its host when the name is empty); Atom `<source><title>` of
 * the entry, else the entry's own `<author><name>` (not the feed's authors the parser falls back
 * to: those are the feed's own publisher). Null when the item names none: the feed's publisher.
 */
export function itemPublisherOf(element: unknown): string | null {
  const item = element as XmlElement;
  const source = item.findElementWithName?.("source");
  if (source) {
    const atomTitle = source.findElementWithName?.("title")?.textContentNormalized?.trim();
    if (atomTitle) return atomTitle.slice(0, 200);
    const atomAuthor = source.findElementWithName?.("author")?.findElementWithName?.("name");
    const authorName = atomAuthor?.textContentNormalized?.trim();
    if (authorName) return authorName.slice(0, 200);
    const text = source.textContentNormalized?.trim();
    if (text && !source.findElementWithName?.("id")) return text.slice(0, 200);
    const host = hostOf(source.getAttribute?.("url"));
    if (host) return host;
  }
  const author = item.findElementWithName?.("author")?.findElementWithName?.("name");
  const name = author?.textContentNormalized?.trim();
  return name ? name.slice(0, 200) : null;
}

/** The items of a feed body; throws NotAFeedError for a body that is not RSS or Atom. */
export function feedItemsOf(body: string, source: FeedSourceConfig, fetchedAt: Date): FeedItem[] {
  if (looksLikeHtml(body))
    throw new NotAFeedError("the body is an HTML page, not a feed (a challenge page?)");
  let feed: ReturnType<typeof parseFeed>;
  try {
    feed = parseFeed(body);
  } catch (error) {
    throw new NotAFeedError(error instanceof Error ? `not a feed: ${error.message}` : "not a feed");
  }
  return feed.items.flatMap((item) => {
    const title = item.title?.trim();
    if (!title) return [];
    return [
      {
        sourceId: source.id,
        publisher: itemPublisherOf(item.element) ?? source.publisher,
        guid: item.id,
        link: item.url,
        title,
        summary: item.description ?? item.content ?? "",
        publishedAt: item.published ?? item.updated ?? fetchedAt,
        categoryPrior: source.kind === "gdacs" || source.kind === "nhc" ? "weather" : null,
        alertLevel: source.kind === "gdacs" ? alertLevelOf(item.element) : null,
        authoritative: source.authoritative,
      },
    ];
  });
}
