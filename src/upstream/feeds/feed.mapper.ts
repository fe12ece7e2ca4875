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
        publisher: source.publisher,
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
