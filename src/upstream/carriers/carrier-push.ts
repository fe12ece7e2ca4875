/**
 * DCSA carrier push (issue 41 item 1; docs/decisions/carrier-push.md): for carriers whose registry
 * entry says `push`, Quayside holds an event subscription per tracked reference at the carrier,
 * receives the signed pushes at `/carrier-push/<token>`, and applies them as a new document version
 * through the tracking service, exactly as a poll's answer is applied (the same store, diff, domain
 * events, webhooks and answer-cache invalidation). Polling stays as the safety net, its gap stretched
 * for references a subscription covers.
 *
 * A push carries only the new events, and the mapper reads a whole answer: each subscription keeps
 * the carrier's raw events as last known (the last poll's answer, `observe`, plus what was pushed),
 * and a push is merged into them and mapped whole. The same keep makes a replay or a duplicate
 * harmless: an event already kept changes nothing.
 */

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { findPort } from "../../domain/ports/port-directory";
import { parseReference } from "../../domain/references/reference";
import type { BackgroundTracking } from "../../domain/tracking/background.service";
import { SAFETY_NET_STRETCH, subscriptionKeyOf } from "../../domain/tracking/carrier-push-state";
import type { CarrierQuery } from "../../domain/tracking/carrier-tracker";
import { refreshGapMs } from "../../domain/tracking/shipment-facts";
import type { TrackingService } from "../../domain/tracking/tracking.service";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ReferenceKind } from "../../generated/prisma/enums";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { Logger } from "../../observability/logger";
import { createSemaphore } from "../http/concurrency";
import { realSleep } from "../http/request";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy";
import { type AuthSession, createAuthSession } from "./auth";
import type { CarrierAdapter } from "./carrier-adapter";
import type { CarrierRegistry } from "./carrier-registry";
import { mapDcsaEvents } from "./dcsa-tnt.mapper";

/** A pushed event older than this (by its creation or update time) is left to the poll. */
export const PUSH_FRESHNESS_MS = 24 * 3_600_000;
/** A pushed event dated this far ahead of our clock is not believed. */
const FUTURE_SKEW_MS = 5 * 60_000;
/** How often the carrier is asked which subscriptions it still holds (lost ones are re-created). */
export const RENEW_AFTER_MS = 6 * 3_600_000;
export { SAFETY_NET_STRETCH };

const CALL_TIMEOUT_MS = 10_000;

export interface CarrierPushDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  registry: CarrierRegistry;
  tracking: TrackingService;
  background: BackgroundTracking;
  /** The carriers' events as they come (a baseline for a new subscription): the carrier gateway. */
  carriers: CarrierAdapter;
  /** This instance's public base URL (the callback URL is `${base}/carrier-push/<token>`). */
  publicUrl: () => string;
  /** Seals the subscriptions' secrets at rest (docs/decisions/secrets-at-rest.md). */
  secrets: SecretBox;
  fetch?: typeof fetch;
}

/** What the callback answers: the status and body the carrier gets. */
export interface PushAnswer {
  status: number;
  body?: unknown;
  /** For the log and tests: what the push did. */
  outcome: "applied" | "nothing-new" | "stale" | "unknown-subscription" | "bad-signature" | "malformed";
  applied?: number;
}

export interface ReconcileReport {
  created: number;
  removed: number;
  renewed: number;
  failed: number;
}

interface SubscriptionRow {
  id: string;
  carrierScac: string;
  referenceType: ReferenceKind;
  referenceKey: string;
  reference: string;
  version: string;
  subscriptionId: string | null;
  callbackToken: string;
  secret: string;
  events: unknown;
  renewedAt: Date | null;
}

type RawEvent = Record<string, unknown>;

const FILTER_OF: Record<ReferenceKind, string> = {
  container: "equipmentReference",
  bl: "transportDocumentReference",
  booking: "carrierBookingReference",
};

function eventId(event: RawEvent): string | null {
  return typeof event.eventID === "string" ? event.eventID : null;
}

/** When the carrier last wrote the event: 2.2 `eventCreatedDateTime`, 3.0 `eventUpdatedDateTime`. */
function eventStamp(event: RawEvent): string {
  const stamp = event.eventUpdatedDateTime ?? event.eventCreatedDateTime;
  return typeof stamp === "string" ? stamp : "";
}

function eventKey(event: RawEvent): string | null {
  const id = eventId(event);
  return id === null ? null : `${id}@${eventStamp(event)}`;
}

function asEvents(value: unknown): RawEvent[] {
  return Array.isArray(value)
    ? value.filter((e): e is RawEvent => typeof e === "object" && e !== null && !Array.isArray(e))
    : [];
}

/** Union by eventID, the newest write of each event kept (a revised estimate replaces its old one). */
export function mergeEvents(kept: readonly RawEvent[], incoming: readonly RawEvent[]): RawEvent[] {
  const byId = new Map<string, RawEvent>();
  const anonymous: RawEvent[] = [];
  for (const event of [...kept, ...incoming]) {
    const id = eventId(event);
    if (id === null) {
      anonymous.push(event);
      continue;
    }
    const known = byId.get(id);
    if (!known || Date.parse(eventStamp(event)) >= Date.parse(eventStamp(known))) byId.set(id, event);
  }
  return [...anonymous, ...byId.values()];
}

/** `sha256=<hex>` over the exact body bytes, keyed with the decoded secret, compared in constant time. */
export function signatureValid(secretBase64: string, body: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(
    `sha256=${createHmac("sha256", Buffer.from(secretBase64, "base64")).update(body).digest("hex")}`,
  );
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class CarrierPush {
  private readonly sessions = new Map<string, AuthSession>();

  constructor(private readonly deps: CarrierPushDeps) {}

  /** Whether the registry asks for subscriptions with this carrier. */
  covers(scac: string): boolean {
    const entry = this.deps.registry.get(scac);
    return entry?.push != null && entry.baseUrl !== null;
  }

  /**
   * Told a poll's raw events (the carrier gateway's answer sink): a subscribed reference keeps them,
   * merged with what was pushed, as the base the next push is merged into.
   */
  observe(query: CarrierQuery, events: readonly unknown[]): void {
    if (!this.covers(query.scac) || query.container) return;
    const parsed = parseReference(query.reference, query.referenceType);
    if (!parsed.ok) return;
    const where = {
      carrierScac_referenceType_referenceKey: {
        carrierScac: query.scac,
        referenceType: query.referenceType as ReferenceKind,
        referenceKey: parsed.value.normalized,
      },
    };
    void (async () => {
      const row = await this.deps.prisma.carrierSubscription.findUnique({ where });
      if (!row) return;
      const merged = mergeEvents(asEvents(row.events), asEvents([...events]));
      await this.deps.prisma.carrierSubscription.update({
        where: { id: row.id },
        data: { events: merged as object[] },
      });
    })().catch((error: unknown) => {
      this.deps.logger.warn({ err: error, scac: query.scac }, "A poll's events could not be kept for push");
    });
  }

  /**
   * Subscribes for every live reference of a push carrier that has no subscription, removes those no
   * shipment tracks any more (untracked, delivered, cancelled), asks the carrier whether it still holds
   * the old ones (re-creating what it lost), and stretches the polling of covered shipments.
   */
  async reconcile(): Promise<ReconcileReport> {
    const { prisma, clock } = this.deps;
    const report: ReconcileReport = { created: 0, removed: 0, renewed: 0, failed: 0 };
    const scacs = [...this.deps.registry.carriers.keys()].filter((scac) => this.covers(scac));
    const wanted = scacs.length
      ? await prisma.shipment.findMany({
          where: {
            carrierScac: { in: scacs },
            deletedAt: null,
            failedAt: null,
            status: { notIn: ["DELIVERED", "CANCELLED"] },
          },
          select: { carrierScac: true, referenceType: true, referenceKey: true, reference: true },
          distinct: ["carrierScac", "referenceType", "referenceKey"],
        })
      : [];
    const keyOf = (r: { carrierScac: string | null; referenceType: string; referenceKey: string }) =>
      `${r.carrierScac}|${r.referenceType}|${r.referenceKey}`;
    const rows = await prisma.carrierSubscription.findMany();
    const held = new Map(rows.map((row) => [keyOf(row), row]));
    const live = new Set(wanted.map(keyOf));
    for (const row of rows) {
      if (live.has(keyOf(row)) && this.covers(row.carrierScac)) continue;
      // Gone at the carrier first: a row kept after a failed DELETE is tried again next pass.
      if (await this.unsubscribe(row)) {
        await prisma.carrierSubscription.delete({ where: { id: row.id } });
        await subscriptionChanged(row);
        report.removed++;
      } else report.failed++;
    }
    // Renewal asks each carrier once for the list of what it holds (one request, not one per
    // subscription): a subscription it lost is registered again.
    const due = (row: SubscriptionRow) =>
      !row.subscriptionId ||
      !row.renewedAt ||
      clock.now().getTime() - row.renewedAt.getTime() >= RENEW_AFTER_MS;
    const holdings = new Map<string, Set<string> | null>();
    for (const shipment of wanted) {
      const scac = shipment.carrierScac!;
      const row = held.get(keyOf(shipment));
      if (row) {
        if (!due(row)) continue;
        if (!holdings.has(scac)) holdings.set(scac, await this.heldAt(scac));
        const ids = holdings.get(scac);
        if (ids === null || ids === undefined) {
          report.failed++;
          continue;
        }
        const renewed =
          row.subscriptionId && ids.has(row.subscriptionId)
            ? await prisma.carrierSubscription
                .update({ where: { id: row.id }, data: { renewedAt: clock.now() } })
                .then(() => subscriptionChanged(row))
                .then(() => true)
            : await this.register(row);
        if (renewed) report.renewed++;
        else {
          report.failed++;
          // The carrier no longer holds it and would not take it again: nothing is pushed, so the
          // reference is polled at its normal cadence until a later pass registers it again.
          if (row.subscriptionId) await this.markLost(row);
        }
        continue;
      }
      // A combined `<document>/<container>` reference is polled only: the subscription filters one
      // reference, and the box's own events would come under the document's filter anyway.
      if (shipment.reference.includes("/")) continue;
      const created = await this.subscribe(
        scac,
        shipment.referenceType,
        shipment.referenceKey,
        shipment.reference,
      );
      if (created) report.created++;
      else report.failed++;
    }
    await this.stretchPolling();
    return report;
  }

  /** A pushed request: verified, checked for freshness, de-duplicated and applied as a poll would be. */
  async receive(
    token: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ): Promise<PushAnswer> {
    const { prisma, clock, logger } = this.deps;
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const row = await prisma.carrierSubscription.findUnique({ where: { callbackToken: token } });
    // Unknown token or a Subscription-ID that is not ours: the same refusal, nothing said about which.
    if (!row?.subscriptionId || header("subscription-id") !== row.subscriptionId) {
      return { status: 404, outcome: "unknown-subscription" };
    }
    if (!signatureValid(this.deps.secrets.open(row.secret), body, header("notification-signature"))) {
      logger.warn(
        { scac: row.carrierScac, subscription: row.subscriptionId },
        "Carrier push refused: bad signature",
      );
      return { status: 401, outcome: "bad-signature" };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return { status: 400, body: this.feedback(row, "The body is not JSON."), outcome: "malformed" };
    }
    const list = Array.isArray(parsed)
      ? parsed
      : typeof parsed === "object" &&
          parsed !== null &&
          Array.isArray((parsed as { events?: unknown }).events)
        ? (parsed as { events: unknown[] }).events
        : null;
    if (list === null) {
      return { status: 400, body: this.feedback(row, "Expected a list of events."), outcome: "malformed" };
    }
    const accepted = this.acknowledge(row);
    const now = clock.now().getTime();
    const incoming = asEvents(list);
    const fresh = incoming.filter((event) => {
      const at = Date.parse(eventStamp(event));
      return Number.isFinite(at) && at >= now - PUSH_FRESHNESS_MS && at <= now + FUTURE_SKEW_MS;
    });
    if (fresh.length < incoming.length) {
      logger.info(
        { scac: row.carrierScac, stale: incoming.length - fresh.length },
        "Carrier push: events outside the freshness window left to the poll",
      );
    }
    if (fresh.length === 0) return { ...accepted, outcome: incoming.length ? "stale" : "nothing-new" };
    // The merge under the row's lock: two copies of one push, side by side, keep one.
    const merged = await prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ events: unknown }[]>`
        SELECT events FROM carrier_subscriptions WHERE id = ${row.id} FOR UPDATE`;
      const kept = asEvents(locked?.events);
      const keys = new Set(kept.map(eventKey));
      const news = fresh.filter((event) => {
        const key = eventKey(event);
        return key === null || !keys.has(key);
      });
      if (news.length === 0) return null;
      const events = mergeEvents(kept, news);
      await tx.carrierSubscription.update({
        where: { id: row.id },
        data: { events: events as object[], lastPushAt: clock.now() },
      });
      return { events, news: news.length };
    });
    if (!merged) return { ...accepted, outcome: "nothing-new" };
    await subscriptionChanged(row);
    await this.apply(row, merged.events);
    return { ...accepted, outcome: "applied", applied: merged.news };
  }

  /** The merged events mapped whole and handed to tracking for every organisation tracking the reference. */
  private async apply(row: SubscriptionRow, events: RawEvent[]): Promise<void> {
    const { prisma, clock, tracking, background, logger } = this.deps;
    const mapped = mapDcsaEvents(events, {
      reference: row.reference,
      referenceType: row.referenceType,
      carrierScac: row.carrierScac,
      fetchedAt: clock.now(),
      locationLookup: findPort,
    });
    if (!mapped.ok) {
      logger.warn(
        { scac: row.carrierScac, reason: mapped.reason },
        "Carrier push could not be mapped; the poll will tell",
      );
      return;
    }
    const shipments = await prisma.shipment.findMany({
      where: {
        carrierScac: row.carrierScac,
        referenceType: row.referenceType,
        referenceKey: row.referenceKey,
        deletedAt: null,
        failedAt: null,
      },
    });
    for (const shipment of shipments) {
      const actor = await background.actorFor(shipment);
      if (!actor) continue;
      await tracking.track(actor, {
        reference: shipment.reference,
        type: shipment.referenceType,
        carrier: row.carrierScac,
        freshness: "fetch",
        refresh: true,
        surface: "job",
        pushed: { scac: row.carrierScac, document: mapped.document },
      });
    }
    await this.stretchPolling({
      carrierScac: row.carrierScac,
      referenceType: row.referenceType,
      referenceKey: row.referenceKey,
    });
  }

  /** 2.2: 204 with no body; 3.0 (the redesign's `POST /events`): 200 with `{ feedbackElements }`. */
  private acknowledge(row: SubscriptionRow): { status: number; body?: unknown } {
    return row.version === "3.0" ? { status: 200, body: { feedbackElements: [] } } : { status: 204 };
  }

  private feedback(row: SubscriptionRow, message: string): unknown {
    return row.version === "3.0"
      ? { feedbackElements: [{ severity: "ERROR", code: "INVALID_REQUEST", message }] }
      : { message };
  }

  /**
   * A subscription the carrier lost: the row keeps its token, secret and events (the next registration
   * reuses them) but no subscriptionID, so it no longer counts as covering the reference, and its
   * shipments' stretched polls are brought back to the normal gap (due at once when that has passed).
   */
  private async markLost(row: SubscriptionRow): Promise<void> {
    const { prisma, clock, logger } = this.deps;
    logger.warn(
      { scac: row.carrierScac, subscription: row.subscriptionId },
      "Carrier push: the carrier lost the subscription; polled normally until it is registered again",
    );
    await prisma.carrierSubscription.update({ where: { id: row.id }, data: { subscriptionId: null } });
    await subscriptionChanged(row);
    const now = clock.now();
    const shipments = await prisma.shipment.findMany({
      where: {
        carrierScac: row.carrierScac,
        referenceType: row.referenceType,
        referenceKey: row.referenceKey,
        deletedAt: null,
        failedAt: null,
        nextRefreshAt: { not: null },
      },
      select: { id: true, organizationId: true, lastSyncedAt: true, eta: true, nextRefreshAt: true },
    });
    for (const s of shipments) {
      if (!s.lastSyncedAt || !s.nextRefreshAt) continue;
      const normal = new Date(Math.max(s.lastSyncedAt.getTime() + refreshGapMs(s.eta, now), now.getTime()));
      if (normal < s.nextRefreshAt) {
        await prisma.shipment.updateMany({
          where: { id: s.id, nextRefreshAt: s.nextRefreshAt },
          data: { nextRefreshAt: normal },
        });
        // Its next poll is shown (scheduledRefreshAt, carrierPush.nextPollAt).
        await answersChanged({ shipments: [s] });
      }
    }
  }

  /** Covered shipments' next poll: their gap times SAFETY_NET_STRETCH after the last sync. */
  private async stretchPolling(only?: {
    carrierScac: string;
    referenceType: ReferenceKind;
    referenceKey: string;
  }): Promise<void> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const rows = only
      ? [only]
      : await prisma.carrierSubscription.findMany({
          where: { subscriptionId: { not: null } },
          select: { carrierScac: true, referenceType: true, referenceKey: true },
        });
    for (const covered of rows) {
      const shipments = await prisma.shipment.findMany({
        where: { ...covered, deletedAt: null, failedAt: null, nextRefreshAt: { not: null } },
        select: { id: true, organizationId: true, lastSyncedAt: true, eta: true, nextRefreshAt: true },
      });
      for (const s of shipments) {
        if (!s.lastSyncedAt || !s.nextRefreshAt) continue;
        const stretched = new Date(s.lastSyncedAt.getTime() + refreshGapMs(s.eta, now) * SAFETY_NET_STRETCH);
        if (stretched > s.nextRefreshAt) {
          // Only while nothing else moved it (a refresh's lease, a poll's own schedule).
          await prisma.shipment.updateMany({
            where: { id: s.id, nextRefreshAt: s.nextRefreshAt },
            data: { nextRefreshAt: stretched },
          });
          await answersChanged({ shipments: [s] });
        }
      }
    }
  }

  private async subscribe(
    scac: string,
    referenceType: ReferenceKind,
    referenceKey: string,
    reference: string,
  ): Promise<boolean> {
    const { prisma, clock, logger } = this.deps;
    const entry = this.deps.registry.get(scac)!;
    const token = randomBytes(24).toString("base64url");
    const secret = randomBytes(32).toString("base64");
    // The baseline a first push is merged into: what the carrier answers now.
    const baseline = await this.deps.carriers.fetchEvents({ scac, reference, referenceType });
    if (baseline.kind !== "found" && baseline.kind !== "not-found") {
      logger.warn({ scac, outcome: baseline.kind }, "Carrier push: no baseline, subscription postponed");
      return false;
    }
    const row = await prisma.carrierSubscription.create({
      data: {
        carrierScac: scac,
        referenceType,
        referenceKey,
        reference,
        version: entry.tntVersion,
        callbackToken: token,
        secret: this.deps.secrets.seal(secret),
        events: (baseline.kind === "found" ? asEvents(baseline.events) : []) as object[],
        createdAt: clock.now(),
      },
    });
    await subscriptionChanged(row);
    return this.register(row);
  }

  /** POSTs the subscription to the carrier; the row keeps its subscriptionID. */
  private async register(row: SubscriptionRow): Promise<boolean> {
    const answer = await this.call(row.carrierScac, "POST", "", {
      callbackUrl: `${this.deps.publicUrl().replace(/\/$/, "")}/carrier-push/${row.callbackToken}`,
      secret: this.deps.secrets.open(row.secret),
      [FILTER_OF[row.referenceType]]: row.reference,
    });
    const id = (answer?.body as { subscriptionID?: unknown } | undefined)?.subscriptionID;
    if (answer?.status !== 201 || typeof id !== "string") {
      this.deps.logger.warn(
        { scac: row.carrierScac, status: answer?.status ?? null },
        "Carrier push: subscription refused",
      );
      return false;
    }
    await this.deps.prisma.carrierSubscription.update({
      where: { id: row.id },
      data: { subscriptionId: id, renewedAt: this.deps.clock.now() },
    });
    await subscriptionChanged(row);
    return true;
  }

  /** The subscriptionIDs the carrier holds for us (its list), or null when it could not be asked. */
  private async heldAt(scac: string): Promise<Set<string> | null> {
    const answer = await this.call(scac, "GET", "?limit=1000");
    if (answer?.status !== 200 || !Array.isArray(answer.body)) return null;
    return new Set(
      answer.body
        .map((item) => (item as { subscriptionID?: unknown }).subscriptionID)
        .filter((id): id is string => typeof id === "string"),
    );
  }

  private async unsubscribe(row: SubscriptionRow): Promise<boolean> {
    if (!row.subscriptionId || !this.deps.registry.get(row.carrierScac)?.baseUrl) return true;
    const answer = await this.call(row.carrierScac, "DELETE", `/${encodeURIComponent(row.subscriptionId)}`);
    return answer !== null && (answer.status === 204 || answer.status === 200 || answer.status === 404);
  }

  /** One request to the carrier's subscriptions resource, with its credentials; null when unreachable. */
  private async call(
    scac: string,
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown } | null> {
    const entry = this.deps.registry.get(scac);
    if (!entry?.push || !entry.baseUrl) return null;
    const fetchFn = this.deps.fetch ?? fetch;
    let session = this.sessions.get(scac);
    if (!session) {
      session = createAuthSession(entry.auth, entry.baseUrl, scac, {
        fetch: fetchFn,
        clock: this.deps.clock,
        sleep: realSleep,
        random: Math.random,
        semaphore: createSemaphore(2),
        timeoutMs: CALL_TIMEOUT_MS,
        retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 },
        maxBodyBytes: 1_000_000,
      });
      this.sessions.set(scac, session);
    }
    try {
      const credentials = await session.headers();
      if (!credentials.ok) {
        this.deps.logger.warn({ scac, outcome: credentials.outcome.kind }, "Carrier push: no credentials");
        return null;
      }
      const res = await fetchFn(`${entry.baseUrl}${entry.push.subscriptionsPath}${path}`, {
        method,
        headers: {
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...credentials.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: res.status, body: parsed };
    } catch (error) {
      this.deps.logger.warn(
        { err: error, scac },
        "Carrier push: the carrier's subscriptions could not be reached",
      );
      return null;
    }
  }
}

/** Drops the kept answers that show this reference's carrier push (`subscriptionsOf` notes the read). */
function subscriptionChanged(row: { carrierScac: string; referenceType: string; referenceKey: string }) {
  return answersChanged({ subscriptions: [subscriptionKeyOf(row)] });
}
