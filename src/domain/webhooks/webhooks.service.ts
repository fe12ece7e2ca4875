import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { PrismaClient, WebhookDelivery, WebhookEndpoint } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../observability/logger";
import type { Metrics } from "../../observability/metrics";
import { type DomainEvent, SUBSCRIBABLE_EVENTS, type WebhookEventName } from "./events";
import { generateSigningSecret, signatureHeader } from "./signature";
import {
  checkTarget,
  guardedLookup,
  resolveTarget,
  type TargetCheck,
  type TargetPolicy,
} from "./target-guard";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Where a delivery stands: waiting for its next attempt, acknowledged, or given up after the last. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delivery rules (spec v1 section 6; the two limits are ours, in docs/decisions/background-work.md). */
export const ACK_TIMEOUT_MS = 10_000;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 6 * 3_600_000;
/** Attempts per delivery (the first included): 30 s, 1, 2, 4 ... minutes, capped at 6 h: about 30 hours. */
export const MAX_ATTEMPTS = 15;
/** Consecutive failed attempts after which an endpoint is switched off until re-enabled. */
export const DISABLE_AFTER_FAILURES = 25;
/** A claimed delivery is leased this long, so a crashed sender's work is picked up again. */
const LEASE_MS = 60_000;
const USER_AGENT = "Service-Webhooks/1";

export function retryDelayMs(attemptsMade: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1));
}

export type EndpointInputError =
  | { kind: "invalid_target"; reason: string }
  | { kind: "invalid_events"; reason: string };

/** One sample delivery, sent and stored nowhere: what the sandbox's webhook fire answers with. */
export type SampleDelivery =
  | { kind: "invalid_target"; reason: string }
  | {
      kind: "sent";
      deliveryId: string;
      signingSecret: string;
      body: string;
      status: number | null;
      error: string | null;
    };

/**
 * Sample deliveries whose data comes from a world of their own (the sandbox's shipments): present
 * only in that world's services.
 */
export interface SampleDeliveries {
  send(url: string, event: WebhookEventName): Promise<SampleDelivery>;
}

export class WebhooksService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      metrics: Metrics;
      allowPrivateTargets: boolean;
    },
  ) {}

  private get targetPolicy(): TargetPolicy {
    return { allowPrivate: this.deps.allowPrivateTargets };
  }

  /** At creation and for a sandbox fire: the address checks plus resolution of a name. */
  private async checkNewTarget(url: string): Promise<TargetCheck> {
    const shape = checkTarget(url, this.targetPolicy);
    return shape.ok ? resolveTarget(shape, this.targetPolicy) : shape;
  }

  private async checkInput(
    url: string,
    events: string[],
  ): Promise<EndpointInputError | { url: string; events: string[] }> {
    const target = await this.checkNewTarget(url);
    if (!target.ok) return { kind: "invalid_target", reason: target.reason };
    const unique = [...new Set(events)];
    if (unique.length === 0)
      return { kind: "invalid_events", reason: "subscribe to at least one event, or *" };
    const unknown = unique.filter(
      (e) => e !== "*" && !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e),
    );
    if (unknown.length > 0) {
      return {
        kind: "invalid_events",
        reason: `unknown events: ${unknown.join(", ")} (webhook.test is only sent by a test send)`,
      };
    }
    return { url: target.url.toString(), events: unique.includes("*") ? ["*"] : unique };
  }

  async create(organizationId: string, url: string, events: string[]) {
    const checked = await this.checkInput(url, events);
    if ("kind" in checked) return checked;
    const secret = generateSigningSecret();
    const now = this.deps.clock.now();
    const endpoint = await this.deps.prisma.webhookEndpoint.create({
      data: {
        id: randomUUID(),
        organizationId,
        url: checked.url,
        events: checked.events,
        secret,
        createdAt: now,
        updatedAt: now,
      },
    });
    return { endpoint, signingSecret: secret };
  }

  async find(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.deps.prisma.webhookEndpoint.findFirst({ where: { id, organizationId } });
  }

  async rotateSecret(organizationId: string, id: string) {
    const endpoint = await this.find(organizationId, id);
    if (!endpoint) return null;
    const secret = generateSigningSecret();
    const updated = await this.deps.prisma.webhookEndpoint.update({
      where: { id },
      data: { secret, updatedAt: this.deps.clock.now() },
    });
    return { endpoint: updated, signingSecret: secret };
  }

  /** Re-enabling clears the failure count; deliveries still pending then go out again. */
  async setEnabled(organizationId: string, id: string, enabled: boolean) {
    const endpoint = await this.find(organizationId, id);
    if (!endpoint) return null;
    const now = this.deps.clock.now();
    return this.deps.prisma.webhookEndpoint.update({
      where: { id },
      data: enabled
        ? { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, updatedAt: now }
        : { enabled: false, disabledAt: now, disabledReason: "disabled by a user", updatedAt: now },
    });
  }

  /** `webhook.test`: only ever sent this way, never by a subscription. */
  async sendTest(organizationId: string, id: string): Promise<WebhookDelivery | null> {
    const endpoint = await this.find(organizationId, id);
    if (!endpoint) return null;
    const [delivery] = await this.write(this.deps.prisma, [endpoint], {
      event: "webhook.test",
      data: { endpoint_id: endpoint.id, message: "This is a test delivery from Quayside." },
    });
    return delivery ?? null;
  }

  /**
   * The outbox: called inside the transaction that changed the shipment, so an event exists if and
   * only if the change does, whatever crashes afterwards.
   */
  async enqueue(tx: Tx, organizationId: string, events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    const endpoints = await tx.webhookEndpoint.findMany({ where: { organizationId } });
    for (const event of events) {
      const subscribed = endpoints.filter((e) => e.events.includes("*") || e.events.includes(event.event));
      await this.write(tx, subscribed, event);
    }
  }

  private async write(db: Tx | PrismaClient, endpoints: WebhookEndpoint[], event: DomainEvent) {
    const now = this.deps.clock.now();
    const created = Math.floor(now.getTime() / 1000);
    const rows = endpoints.map((endpoint) => ({
      id: randomUUID(),
      endpointId: endpoint.id,
      organizationId: endpoint.organizationId,
      event: event.event,
      // Serialised once: every attempt sends these exact bytes, so signatures and de-duplication hold.
      body: JSON.stringify({ event: event.event, created, data: event.data }),
      nextAttemptAt: now,
      createdAt: now,
    }));
    if (rows.length > 0) await db.webhookDelivery.createMany({ data: rows });
    return rows as unknown as WebhookDelivery[];
  }

  /**
   * Sends what is due: claims deliveries (skipping rows another process holds), leases them, sends,
   * and records the outcome. At-least-once: a crash after the send and before the record resends.
   */
  async deliverDue(limit = 50): Promise<number> {
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const claimed = await prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT d.id FROM webhook_deliveries d
          JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND e.enabled
                  ORDER BY d.next_attempt_at, d.seq
         LIMIT ${limit}
         FOR UPDATE OF d SKIP LOCKED`;
      if (rows.length === 0) return [];
      await tx.webhookDelivery.updateMany({
        where: { id: { in: rows.map((r) => r.id) } },
        data: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
      });
      return tx.webhookDelivery.findMany({
        where: { id: { in: rows.map((r) => r.id) } },
        include: { endpoint: true },
        orderBy: { seq: "asc" },
      });
    });
    // Endpoints in parallel; each endpoint's deliveries one after another, in the order of the changes.
    const byEndpoint = new Map<string, typeof claimed>();
    for (const d of claimed) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d]);
    await Promise.all(
      [...byEndpoint.values()].map(async (deliveries) => {
        for (const d of deliveries) await this.attempt(d, d.endpoint);
      }),
    );
    return claimed.length;
  }

  private async attempt(delivery: WebhookDelivery, endpoint: WebhookEndpoint): Promise<void> {
    const { prisma, clock, metrics } = this.deps;
    const started = clock.now();
    const result = await this.post(endpoint, delivery);
    const finished = clock.now();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attempts = delivery.attempts + 1;
    metrics.webhookAttempts.inc({
      outcome: ok ? "delivered" : attempts >= MAX_ATTEMPTS ? "failed" : "retry",
    });
    await prisma.$transaction(async (tx) => {
      await tx.webhookAttempt.create({
        data: {
          id: randomUUID(),
          deliveryId: delivery.id,
          attemptedAt: started,
          durationMs: finished.getTime() - started.getTime(),
          responseStatus: result.status,
          error: result.error,
        },
      });
      if (ok) {
        await tx.webhookDelivery.update({
          where: { id: delivery.id },
          data: { status: "delivered", attempts, lastAttemptAt: started, deliveredAt: finished },
        });
        await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutiveFailures: 0 } });
        return;
      }
      await tx.webhookDelivery.update({
        where: { id: delivery.id },
        data: {
          status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
          attempts,
          lastAttemptAt: started,
          nextAttemptAt: new Date(finished.getTime() + retryDelayMs(attempts)),
        },
      });
      // Attempts of one batch run in parallel: count atomically, decide on the counted value.
      const counted = await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: { consecutiveFailures: { increment: 1 } },
      });
      if (counted.enabled && counted.consecutiveFailures >= DISABLE_AFTER_FAILURES) {
        await tx.webhookEndpoint.update({
          where: { id: endpoint.id },
          data: {
            enabled: false,
            disabledAt: finished,
            disabledReason: `${counted.consecutiveFailures} failed attempts in a row`,
          },
        });
      }
    });
  }

  /**
   * The sandbox's `webhooks/fire`: one signed delivery of `event` to `url`, under the same target
   * checks as a registered endpoint, with a secret made for it alone. Nothing is stored.
   */
  async sendSample(
    url: string,
    event: WebhookEventName,
    data: Record<string, unknown>,
  ): Promise<SampleDelivery> {
    const target = await this.checkNewTarget(url);
    if (!target.ok) return { kind: "invalid_target", reason: target.reason };
    const signingSecret = generateSigningSecret();
    const created = Math.floor(this.deps.clock.now().getTime() / 1000);
    const delivery = { id: randomUUID(), event, body: JSON.stringify({ event, created, data }) };
    const result = await this.post({ url: target.url.toString(), secret: signingSecret }, delivery);
    return { kind: "sent", deliveryId: delivery.id, signingSecret, body: delivery.body, ...result };
  }

  /**
   * One POST, never following a redirect (a 3xx is a failed attempt). The target is judged again
   * under today's setting, whatever it was when the endpoint was saved: an IP literal here, a name at
   * connect time through the guarded lookup (DNS rebinding).
   */
  private post(
    endpoint: Pick<WebhookEndpoint, "url" | "secret">,
    delivery: Pick<WebhookDelivery, "id" | "event" | "body">,
  ): Promise<{ status: number | null; error: string | null }> {
    const target = checkTarget(endpoint.url, this.targetPolicy);
    if (!target.ok) {
      this.deps.logger.warn({ deliveryId: delivery.id, reason: target.reason }, "webhook target blocked");
      return Promise.resolve({ status: null, error: `blocked: ${target.reason}` });
    }
    const { url } = target;
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const client = url.protocol === "https:" ? https : http;
    return new Promise((resolve) => {
      const request = client.request(
        url,
        {
          method: "POST",
          timeout: ACK_TIMEOUT_MS,
          lookup: guardedLookup(this.targetPolicy),
          headers: {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "x-service-event": delivery.event as WebhookEventName,
            "x-service-delivery": delivery.id,
            "x-service-signature": signatureHeader(endpoint.secret, delivery.body, now),
          },
        },
        (response) => {
          response.resume(); // the body is ignored; only the status acknowledges
          response.on("end", () => resolve({ status: response.statusCode ?? null, error: null }));
          response.on("error", () => resolve({ status: response.statusCode ?? null, error: null }));
        },
      );
      request.on("timeout", () => request.destroy(new Error(`no answer within ${ACK_TIMEOUT_MS / 1000} s`)));
      request.on("error", (error) => resolve({ status: null, error: error.message.slice(0, 300) }));
      request.end(delivery.body);
    });
  }

  async pendingCount(): Promise<number> {
    return this.deps.prisma.webhookDelivery.count({ where: { status: "pending" } });
  }
}
