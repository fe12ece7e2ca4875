import { type Clock, systemClock } from "../../lib/clock";
import { createSemaphore, type Semaphore } from "../http/concurrency";
import { type HttpDeps, type HttpResult, realSleep, requestWithRetry, type Sleep } from "../http/request";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry-policy";
import { type AuthSession, type CarrierAuth, createAuthSession } from "./auth";
import type { CarrierAdapter, CarrierFailure, CarrierOutcome, CarrierQuery } from "./carrier-adapter";
import type { CarrierBudget, CarrierCourtesy } from "./carrier-courtesy";

/**
 * DCSA Track & Trace client: `GET {baseUrl}{eventsPath}?<reference filter>&limit=`, paging through
 * `Next-Page` (2.2) or `Next-Page-Cursor` (3.0). It does I/O only; the events go to the mapper as they
 * came (the mapper reads both versions).
 */

export const TNT_VERSIONS = ["2.2", "3.0"] as const;
export type TntVersion = (typeof TNT_VERSIONS)[number];

/** The events resource of each version: `/v2/events` (2.2) and `/v3/events` (3.0). */
export function defaultEventsPath(version: TntVersion): string {
  return version === "3.0" ? "/v3/events" : DCSA_TNT_DEFAULTS.eventsPath;
}

/**
 * What a version changes on the wire. 2.2: `API-Version: 2` (the major version, as 2.2 asks), the
 * `Next-Page` header. 3.0 (DCSA T&T 3.0.0, `GET /events` of TNT_v3.0.0.yaml): `API-Version: 3.0.0`
 * (the full version, as 3.0 asks), `eventTypes` limited to the milestone types (IOT and REEFER events
 * are sensor readings the mapper sets aside anyway), the next page's cursor in `Next-Page-Cursor`,
 * sent back as `cursor` with every original query parameter.
 */
const VERSION_WIRE = {
  "2.2": { apiVersion: "2", eventTypes: undefined },
  "3.0": { apiVersion: "3.0.0", eventTypes: "SHIPMENT,TRANSPORT,EQUIPMENT" },
} as const satisfies Record<TntVersion, { apiVersion: string; eventTypes: string | undefined }>;

export interface DcsaTntAdapterOptions {
  scac: string;
  baseUrl: string;
  /** Path of the events resource under `baseUrl`; `/v2/events` (2.2) or `/v3/events` (3.0) by default. */
  eventsPath?: string;
  /** The Track & Trace version the carrier serves (registry `tntVersion`); 2.2 by default. */
  tntVersion?: TntVersion;
  auth: CarrierAuth;
  clock?: Clock;
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
  /** Per HTTP request (each page and each token request). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The `limit` sent with each page. */
  pageSize?: number;
  maxPages?: number;
  /** Requests to this carrier in flight at once; more wait their turn. Ignored when `semaphore` is given. */
  maxConcurrency?: number;
  semaphore?: Semaphore;
  maxBodyBytes?: number;
  /**
   * The carrier answers a document only together with a box (HMM's `carrierBookingReference` and
   * `equipmentReference` are both required): a combined `<document>/<container>` query sends both
   * filters. Other carriers are asked the document alone, so its shipment-level events are kept.
   */
  documentWithContainer?: boolean;
  /** Prefixes the carrier does not want on document numbers (registry `references`). */
  references?: { stripPrefixes: readonly string[]; appliesTo?: readonly ("bl" | "booking")[] };
  /**
   * The carrier's cooldown and request budget, shared by every process when the store is Redis. Every
   * request to this carrier (pages and token requests) asks it first. Absent: no memory between
   * requests beyond one request's own retries.
   */
  courtesy?: CarrierCourtesy;
  /** Requests per minute and per day the carrier allows (registry `rateLimit`). */
  budget?: CarrierBudget;
}

export const DCSA_TNT_DEFAULTS = {
  eventsPath: "/v2/events",
  timeoutMs: 10_000,
  pageSize: 100,
  maxPages: 20,
  maxConcurrency: 8,
  maxBodyBytes: 20 * 1024 * 1024,
} as const;

const FILTER_BY_REFERENCE_TYPE: Record<CarrierQuery["referenceType"], string> = {
  container: "equipmentReference",
  bl: "transportDocumentReference",
  booking: "carrierBookingReference",
};

export function createDcsaTntAdapter(options: DcsaTntAdapterOptions): CarrierAdapter {
  const http: HttpDeps = {
    fetch: options.fetch ?? globalThis.fetch,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    semaphore:
      options.semaphore ?? createSemaphore(options.maxConcurrency ?? DCSA_TNT_DEFAULTS.maxConcurrency),
    timeoutMs: options.timeoutMs ?? DCSA_TNT_DEFAULTS.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    maxBodyBytes: options.maxBodyBytes ?? DCSA_TNT_DEFAULTS.maxBodyBytes,
  };
  const courtesy = options.courtesy;
  if (courtesy) {
    http.gate = {
      admit: (signal, waitedOut) => courtesy.admit(options.scac, options.budget, signal, waitedOut),
      answered: async (status, retryAfterMs) => {
        // 429 and 503 are the statuses whose Retry-After asks a client to stay away (RFC 9110 §10.2.3).
        if ((status === 429 || status === 503) && retryAfterMs !== null) {
          await courtesy.coolDown(options.scac, retryAfterMs);
        }
      },
    };
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const auth = createAuthSession(options.auth, baseUrl, options.scac, http);
  return new DcsaTntAdapter(options, baseUrl, http, auth);
}

class DcsaTntAdapter implements CarrierAdapter {
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly eventsUrl: string;
  private readonly version: TntVersion;

  constructor(
    private readonly options: DcsaTntAdapterOptions,
    baseUrl: string,
    private readonly http: HttpDeps,
    private readonly auth: AuthSession,
  ) {
    this.pageSize = options.pageSize ?? DCSA_TNT_DEFAULTS.pageSize;
    this.maxPages = options.maxPages ?? DCSA_TNT_DEFAULTS.maxPages;
    this.version = options.tntVersion ?? "2.2";
    this.eventsUrl = `${baseUrl}${options.eventsPath ?? defaultEventsPath(this.version)}`;
  }

  async fetchEvents(query: CarrierQuery, signal?: AbortSignal): Promise<CarrierOutcome> {
    const first = new URL(this.eventsUrl);
    first.searchParams.set(FILTER_BY_REFERENCE_TYPE[query.referenceType], this.cleanReference(query));
    if (this.options.documentWithContainer && query.container && query.referenceType !== "container") {
      first.searchParams.set(FILTER_BY_REFERENCE_TYPE.container, query.container);
    }
    const eventTypes = VERSION_WIRE[this.version].eventTypes;
    if (eventTypes) first.searchParams.set("eventTypes", eventTypes);
    first.searchParams.set("limit", String(this.pageSize));

    const events: unknown[] = [];
    const seenCursors = new Set<string>();
    let url = first.href;
    let pages = 0;
    let truncated = false;

    for (;;) {
      const answer = await this.get(url, signal);
      if (answer.kind !== "response") return answer;
      const page = pages + 1;
      const refusal = this.refusal(answer, page);
      if (refusal) return refusal;

      let body: unknown;
      try {
        body = answer.body.trim() === "" ? [] : JSON.parse(answer.body);
      } catch {
        return { kind: "malformed", reason: `${this.where(page)}: body is not JSON` };
      }
      // T&T 3.0, and Maersk on 2.2 by third-party accounts, wrap the list as `{ "events": [...] }`.
      if (typeof body === "object" && body !== null && !Array.isArray(body) && "events" in body) {
        body = (body as { events: unknown }).events;
      } else if (this.version === "3.0" && isFeedbackOnly(body)) {
        // 3.0's GetEventsResponse makes `events` optional: only feedback (remarks on the query) is none.
        body = [];
      }
      if (!Array.isArray(body)) {
        return { kind: "malformed", reason: `${this.where(page)}: body is not a JSON array of events` };
      }
      pages = page;
      events.push(...body);

      const cursor = this.version === "3.0" ? answer.headers.get("next-page-cursor")?.trim() : undefined;
      const next = cursor || answer.headers.get("next-page")?.trim() || linkNext(answer.headers.get("link"));
      if (!next || body.length === 0) break;
      if (pages >= this.maxPages || seenCursors.has(next)) {
        truncated = true;
        break;
      }
      seenCursors.add(next);
      const nextUrl = cursor ? withCursor(first, cursor) : this.nextPageUrl(next, first, url);
      if (nextUrl === null) {
        truncated = true;
        break;
      }
      url = nextUrl;
    }

    if (events.length === 0) return { kind: "not-found" };
    return { kind: "found", events, pages, truncated };
  }

  /**
   * The document number as the carrier wants it: a listed prefix is stripped when something is left
   * after it (`EGLV446041558743` goes out as `446041558743`). Containers are sent as given.
   */
  private cleanReference(query: CarrierQuery): string {
    const rules = this.options.references;
    const reference = query.reference;
    if (!rules || query.referenceType === "container") return reference;
    if (rules.appliesTo && !rules.appliesTo.includes(query.referenceType)) return reference;
    const upper = reference.toUpperCase();
    for (const prefix of rules.stripPrefixes) {
      if (upper.startsWith(prefix) && reference.length > prefix.length) return reference.slice(prefix.length);
    }
    return reference;
  }

  /**
   * T&T 2.2 calls `Next-Page` a link but its examples are opaque cursors, so: an absolute URL is
   * fetched as is; a relative reference (`/v2/events?page=2`, `?page=2`, `./events?page=2`: one with
   * a query part, which a base64 cursor never has, or a dot segment) is resolved against the page it
   * came with; anything else is a cursor sent with the original query. A link to another origin is not
   * followed: it would carry our credentials to a host the registry does not name.
   */
  private nextPageUrl(next: string, first: URL, current: string): string | null {
    const isLink = /^https?:\/\//i.test(next) || next.includes("?") || /^\.\.?\//.test(next);
    if (isLink) {
      let link: URL;
      try {
        link = new URL(next, current);
      } catch {
        return null;
      }
      return link.origin === first.origin ? link.href : null;
    }
    return withCursor(first, next);
  }

  /** A GET with credentials; a 401 with a cached OAuth2 token gets one more try with a fresh token. */
  private async get(
    url: string,
    signal?: AbortSignal,
  ): Promise<Extract<HttpResult, { kind: "response" }> | CarrierFailure> {
    for (let renewed = false; ; renewed = true) {
      const credentials = await this.auth.headers();
      if (!credentials.ok) return credentials.outcome;
      const result = await requestWithRetry(
        this.http,
        {
          url,
          headers: {
            Accept: "application/json",
            "API-Version": VERSION_WIRE[this.version].apiVersion,
            ...credentials.headers,
          },
        },
        signal,
      );
      if (result.kind === "held")
        return { kind: "rate-limited", retryAfterSeconds: result.retryAfterSeconds };
      if (result.kind !== "response") {
        const reason = `${this.options.scac} events endpoint: ${result.reason}`;
        if (result.kind === "too-large") return { kind: "malformed", reason };
        return { kind: "unreachable", reason, cause: result.kind === "timeout" ? "timeout" : "connection" };
      }
      if (result.status === 401 && !renewed && this.auth.rejected()) continue;
      return result;
    }
  }

  /** Status -> outcome for everything but a 2xx page. */
  private refusal(answer: Extract<HttpResult, { kind: "response" }>, page: number): CarrierOutcome | null {
    const { status } = answer;
    if (status >= 200 && status <= 299) return null;
    if (status === 401 || status === 403) {
      return {
        kind: "unauthorized",
        reason: `${this.where(page)}: the carrier refused our credentials (HTTP ${status})`,
      };
    }
    if (status === 429) {
      return {
        kind: "rate-limited",
        retryAfterSeconds: answer.retryAfterMs === null ? null : Math.ceil(answer.retryAfterMs / 1000),
      };
    }
    // On the first page these mean "no such reference" (a conforming server answers 200 [] when nothing
    // matches, so a 400 can only be about the reference itself). On a later page they mean the cursor
    // died under us: the answer so far is incomplete, and an incomplete journey is worse than none.
    if (status === 404 || status === 410 || status === 400 || status === 422) {
      if (page === 1) return { kind: "not-found" };
      return {
        kind: "unreachable",
        reason: `${this.where(page)}: HTTP ${status} while paging`,
        cause: "status",
      };
    }
    const attempts = answer.attempts > 1 ? ` after ${answer.attempts} attempts` : "";
    if (status >= 300 && status <= 399) {
      return {
        kind: "unreachable",
        reason: `${this.where(page)}: unexpected redirect (HTTP ${status})`,
        cause: "status",
      };
    }
    return { kind: "unreachable", reason: `${this.where(page)}: HTTP ${status}${attempts}`, cause: "status" };
  }

  private where(page: number): string {
    return `${this.options.scac} events page ${page}`;
  }
}

/** The first page's query with the next page's cursor: every original parameter is kept (3.0 asks it). */
function withCursor(first: URL, cursor: string): string {
  const url = new URL(first.href);
  url.searchParams.set("cursor", cursor);
  return url.href;
}

/** A 3.0 answer carrying only `feedbackElements` (GetEventsResponse without `events`). */
function isFeedbackOnly(body: unknown): boolean {
  return (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    Array.isArray((body as { feedbackElements?: unknown }).feedbackElements)
  );
}

/** The target of `rel="next"` in an RFC 8288 `Link` header, or undefined. */
export function linkNext(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? "");
    const values = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (values.includes("next")) return match[1]?.trim() || undefined;
  }
  return undefined;
}
