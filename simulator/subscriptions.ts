/**
 * DCSA event subscriptions (T&T 2.2 `/v2/event-subscriptions`, and `/v3/event-subscriptions` as
 * 3.0.0-Beta-1 has them) and the pushes they cause: as the clock moves, every subscription's newly
 * created matching events are POSTed to its `callbackUrl`, the body signed with HMAC-SHA256 keyed by the
 * base64-decoded secret (`Notification-Signature: sha256=<hex>`, as DCSA's reference implementation
 * does). A 2.2 push is a JSON array of 2.2 events; a 3.0 push is `{ events }` in the 3.0 shape the
 * simulator's `/v3/events` serves (the redesign's `POST /events`).
 *
 * The simulator matches events through the same query as `GET /v2/events`, so a subscription must name
 * a reference (booking, document or box), as a query does; the other filters narrow it.
 *
 * Push faults (faults.ts), per carrier: `push-late` holds each event back until `delayMs` after it was
 * created (default 2 days), `push-duplicate` sends every push twice, `push-bad-signature` signs with
 * a key that is not the subscription's secret.
 */

import { createHmac, randomUUID } from "node:crypto";
import type { Carrier } from "../reference-data/carriers";
import type { Clock } from "../src/lib/clock";
import type { DcsaEvent } from "./dcsa-types";
import { type EventsQuery, parseEventsQuery } from "./events-query";
import type { FaultControl } from "./faults";
import { TNT3_API_VERSION, toVersion3 } from "./tnt3";

export type SubscriptionVersion = "v2" | "v3";

const LIST_FILTERS = [
  "eventType",
  "shipmentEventTypeCode",
  "documentTypeCode",
  "transportEventTypeCode",
  "equipmentEventTypeCode",
] as const;
const SINGLE_FILTERS = [
  "carrierBookingReference",
  "transportDocumentReference",
  "transportCallID",
  "vesselIMONumber",
  "exportVoyageNumber",
  "carrierServiceCode",
  "UNLocationCode",
  "equipmentReference",
] as const;

export const DEFAULT_PUSH_LATE_MS = 2 * 86_400_000;

export interface Subscription {
  subscriptionID: string;
  scac: string;
  version: SubscriptionVersion;
  callbackUrl: string;
  secret: Buffer;
  filters: Record<string, string | string[]>;
  query: EventsQuery;
  createdAt: Date;
  updatedAt: Date;
  /** `eventID@eventCreatedDateTime` of every event pushed (or present when it was created). */
  delivered: Set<string>;
}

export interface PushRecord {
  subscriptionID: string;
  scac: string;
  events: number;
  status: number | null;
  at: string;
}

export interface SubscriptionControl {
  /** Pushes every subscription's new events now; resolves with the number of POSTs sent. */
  deliver(): Promise<number>;
  list(scac?: string): Subscription[];
  /** The pushes sent so far (newest last), for tests and `GET /_admin/state`. */
  pushes(): readonly PushRecord[];
}

export interface SubscriptionStore extends SubscriptionControl {
  create(
    carrier: Carrier,
    version: SubscriptionVersion,
    body: unknown,
  ): Subscription | { problems: string[] };
  get(scac: string, id: string): Subscription | undefined;
  update(subscription: Subscription, body: unknown): Subscription | { problems: string[] };
  rotateSecret(subscription: Subscription, body: unknown): true | { problems: string[] };
  remove(scac: string, id: string): boolean;
}

export function renderSubscription(subscription: Subscription): Record<string, unknown> {
  return {
    subscriptionID: subscription.subscriptionID,
    callbackUrl: subscription.callbackUrl,
    ...subscription.filters,
    subscriptionCreatedDateTime: subscription.createdAt.toISOString(),
    subscriptionUpdatedDateTime: subscription.updatedAt.toISOString(),
  };
}

/** The HMAC the spec's reference implementation sends: sha256 over the exact body bytes, hex. */
export function notificationSignature(secret: Buffer, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

function parseSecret(value: unknown): Buffer | string {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    return "secret must be base64 (format: byte).";
  }
  const bytes = Buffer.from(value, "base64");
  if (bytes.length < 32 || bytes.length > 64) return "secret must decode to 32 to 64 bytes.";
  return bytes;
}

function parseFilters(
  body: Record<string, unknown>,
): { filters: Record<string, string | string[]>; query: EventsQuery } | { problems: string[] } {
  const problems: string[] = [];
  const filters: Record<string, string | string[]> = {};
  const params = new URLSearchParams();
  for (const name of LIST_FILTERS) {
    const value = body[name];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      problems.push(`${name} must be a list of codes.`);
      continue;
    }
    filters[name] = value as string[];
    if (value.length > 0) params.set(name, value.join(","));
  }
  for (const name of SINGLE_FILTERS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "") {
      problems.push(`${name} must be a string.`);
      continue;
    }
    filters[name] = value;
    params.set(name, value);
  }
  if (problems.length > 0) return { problems };
  const query = parseEventsQuery(params);
  if (Array.isArray(query)) return { problems: query.map((p) => p.message) };
  return { filters, query };
}

function parseCallbackUrl(value: unknown): string | { problem: string } {
  if (typeof value !== "string") return { problem: "callbackUrl is required." };
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
    return url.toString();
  } catch {
    return { problem: "callbackUrl must be an absolute http(s) URL." };
  }
}

export function createSubscriptionStore(deps: {
  clock: Clock;
  faults: FaultControl;
  /** The events the carrier would answer to the subscription's query at the clock's time. */
  eventsFor(scac: string, query: EventsQuery): DcsaEvent[];
  /** Where a push is sent (global fetch by default). */
  fetch?: typeof fetch;
}): SubscriptionStore {
  const subscriptions = new Map<string, Subscription>();
  const sent: PushRecord[] = [];
  const post = deps.fetch ?? fetch;
  let delivering: Promise<number> | null = null;

  const key = (event: DcsaEvent) => `${event.eventID}@${event.eventCreatedDateTime}`;

  async function pushTo(subscription: Subscription): Promise<number> {
    const now = deps.clock.now().getTime();
    const fault = deps.faults.get(subscription.scac);
    const lateBy = fault?.mode === "push-late" ? (fault.delayMs ?? DEFAULT_PUSH_LATE_MS) : 0;
    const fresh = deps
      .eventsFor(subscription.scac, subscription.query)
      .filter((event) => !subscription.delivered.has(key(event)))
      .filter((event) => Date.parse(event.eventCreatedDateTime) + lateBy <= now);
    if (fresh.length === 0) return 0;
    const body =
      subscription.version === "v2"
        ? JSON.stringify(fresh)
        : JSON.stringify({ events: fresh.map(toVersion3) });
    const key32 = fault?.mode === "push-bad-signature" ? Buffer.alloc(32, 7) : subscription.secret;
    const headers = {
      "Content-Type": "application/json",
      "Notification-Signature": notificationSignature(key32, body),
      "Subscription-ID": subscription.subscriptionID,
      "API-Version": subscription.version === "v2" ? "2.2.0" : TNT3_API_VERSION,
    };
    const times = fault?.mode === "push-duplicate" ? 2 : 1;
    let posts = 0;
    let accepted = false;
    for (let i = 0; i < times; i++) {
      let status: number | null = null;
      try {
        const res = await post(subscription.callbackUrl, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        status = res.status;
      } catch {
        status = null;
      }
      posts++;
      sent.push({
        subscriptionID: subscription.subscriptionID,
        scac: subscription.scac,
        events: fresh.length,
        status,
        at: deps.clock.now().toISOString(),
      });
      if (status !== null && status >= 200 && status < 300) accepted = true;
    }
    // Not accepted: sent again on the next delivery, as the RI retries non-2xx answers.
    if (accepted) for (const event of fresh) subscription.delivered.add(key(event));
    return posts;
  }

  async function deliverAll(): Promise<number> {
    let posts = 0;
    for (const subscription of [...subscriptions.values()]) {
      if (!subscriptions.has(subscription.subscriptionID)) continue;
      posts += await pushTo(subscription);
    }
    return posts;
  }

  return {
    deliver() {
      // One delivery pass at a time: the timer and a clock move may ask at once.
      const run = (delivering ?? Promise.resolve(0)).then(() => deliverAll());
      delivering = run.finally(() => {
        if (delivering === run) delivering = null;
      });
      return run;
    },
    list(scac) {
      return [...subscriptions.values()].filter((s) => scac === undefined || s.scac === scac);
    },
    pushes: () => sent,
    create(carrier, version, input) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        return { problems: ["The body must be a JSON object."] };
      }
      const body = input as Record<string, unknown>;
      const problems: string[] = [];
      const callbackUrl = parseCallbackUrl(body.callbackUrl);
      if (typeof callbackUrl !== "string") problems.push(callbackUrl.problem);
      const secret = parseSecret(body.secret);
      if (typeof secret === "string") problems.push(secret);
      const parsed = parseFilters(body);
      if ("problems" in parsed) problems.push(...parsed.problems);
      if (problems.length > 0 || typeof callbackUrl !== "string" || typeof secret === "string")
        return { problems };
      if ("problems" in parsed) return { problems };
      const now = deps.clock.now();
      const subscription: Subscription = {
        subscriptionID: randomUUID(),
        scac: carrier.scac,
        version,
        callbackUrl,
        secret,
        filters: parsed.filters,
        query: parsed.query,
        createdAt: now,
        updatedAt: now,
        // What exists already is the subscriber's to query; only what happens from now on is pushed.
        delivered: new Set(deps.eventsFor(carrier.scac, parsed.query).map(key)),
      };
      subscriptions.set(subscription.subscriptionID, subscription);
      return subscription;
    },
    get(scac, id) {
      const found = subscriptions.get(id);
      return found && found.scac === scac ? found : undefined;
    },
    update(subscription, input) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        return { problems: ["The body must be a JSON object."] };
      }
      const body = input as Record<string, unknown>;
      if (body.secret !== undefined) return { problems: ["secret is changed with PUT .../secret only."] };
      const callbackUrl = parseCallbackUrl(body.callbackUrl);
      if (typeof callbackUrl !== "string") return { problems: [callbackUrl.problem] };
      const parsed = parseFilters(body);
      if ("problems" in parsed) return parsed;
      subscription.callbackUrl = callbackUrl;
      subscription.filters = parsed.filters;
      subscription.query = parsed.query;
      subscription.updatedAt = deps.clock.now();
      return subscription;
    },
    rotateSecret(subscription, input) {
      const secret = parseSecret((input as { secret?: unknown } | null)?.secret);
      if (typeof secret === "string") return { problems: [secret] };
      subscription.secret = secret;
      subscription.updatedAt = deps.clock.now();
      return true;
    },
    remove(scac, id) {
      const found = subscriptions.get(id);
      if (!found || found.scac !== scac) return false;
      subscriptions.delete(id);
      return true;
    },
  };
}
