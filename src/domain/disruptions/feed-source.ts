import type { FeedItem } from "./normalise";

/** A configured source: where it is and what its items imply. */
export interface FeedSourceConfig {
  id: string;
  publisher: string;
  url: string;
  /** `news` (trade press), `gdacs`, `nhc` (weather agencies), `advisory` (carriers, UKMTO). */
  kind: "news" | "gdacs" | "nhc" | "advisory";
  authoritative: boolean;
}

/** What one conditional fetch of a feed gave. */
export type FeedFetch =
  | { kind: "items"; items: FeedItem[]; etag: string | null; lastModified: string | null }
  | { kind: "not_modified" }
  /** Unreachable, timed out, too large, an HTTP error, or a body that is no feed (an HTML challenge). */
  | { kind: "error"; reason: string };

/** The outside world as ingestion needs it: fetch a feed, conditionally. Implemented in src/upstream. */
export interface FeedFetcher {
  fetch(
    source: FeedSourceConfig,
    validators: { etag: string | null; lastModified: string | null },
  ): Promise<FeedFetch>;
}
