/**
 * Fetches RSS and Atom feeds: a conditional GET (ETag, Last-Modified) with a timeout, a body-size cap
 * and an honest User-Agent. A 304 is "not modified"; an HTTP error, a timeout, an oversized body or a
 * body that is no feed is the source's error (recorded in its health), never an exception.
 */
import type { FeedFetch, FeedFetcher, FeedSourceConfig } from "../../domain/disruptions/feed-source";
import type { Clock } from "../../lib/clock";
import { feedItemsOf, NotAFeedError } from "./feed.mapper";

export const FEED_ACCEPT =
  "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1";

export interface FeedFetcherOptions {
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
  clock: Clock;
  fetchImpl?: typeof fetch;
}

async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
}

/** The timeout's abort, whether it struck before the headers or while the body was streaming. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** The socket closed under the request (the peer's FIN or RST on a reused connection), not a timeout. */
function isConnectionReset(error: unknown): boolean {
  if (!(error instanceof Error) || isTimeout(error)) return false;
  const code = (error.cause as { code?: string } | undefined)?.code;
  return code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE";
}

export function createFeedFetcher(options: FeedFetcherOptions): FeedFetcher {
  const doFetch = options.fetchImpl ?? fetch;
  return {
    async fetch(source: FeedSourceConfig, validators): Promise<FeedFetch> {
      const headers: Record<string, string> = { accept: FEED_ACCEPT, "user-agent": options.userAgent };
      if (validators.etag) headers["if-none-match"] = validators.etag;
      if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
      const signal = AbortSignal.timeout(options.timeoutMs);
      const request = () => doFetch(source.url, { headers, redirect: "follow", signal });
      let response: Response;
      try {
        response = await request().catch((error: unknown) => {
          // A kept-alive connection the server closed while this process was busy (ingesting the
          // previous feed's items) fails at once on reuse: a GET is asked again, once, on a new one.
          if (!isConnectionReset(error)) throw error;
          return request();
        });
      } catch (error) {
        return {
          kind: "error",
          reason: isTimeout(error) ? `no answer within ${options.timeoutMs} ms` : "unreachable",
        };
      }
      if (response.status === 304) return { kind: "not_modified" };
      let body: string | null;
      try {
        body = await readCapped(response, options.maxBytes);
      } catch (error) {
        // The same timeout covers the body: a server that sends headers and then stalls is timed out.
        return {
          kind: "error",
          reason: isTimeout(error)
            ? `the body did not arrive within ${options.timeoutMs} ms`
            : "the connection broke while reading the body",
        };
      }
      if (body === null)
        return { kind: "error", reason: `the body is larger than ${options.maxBytes} bytes` };
      if (!response.ok) {
        const challenge = /^\s*<(!doctype html|html)/i.test(body.slice(0, 200));
        return {
          kind: "error",
          reason: `HTTP ${response.status}${challenge ? " with an HTML page (a challenge?)" : ""}`,
        };
      }
      try {
        const items = feedItemsOf(body, source, options.clock.now());
        return {
          kind: "items",
          items,
          etag: response.headers.get("etag"),
          lastModified: response.headers.get("last-modified"),
        };
      } catch (error) {
        if (error instanceof NotAFeedError) return { kind: "error", reason: error.message };
        throw error;
      }
    },
  };
}
