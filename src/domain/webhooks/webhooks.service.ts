import { randomUUID } from "node:crypto";
import type { PrismaClient, WebhookDelivery, WebhookEndpoint } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { Logger } from "../../observability/logger";
import type { Metrics } from "../../observability/metrics";
import { type DeliverySignal, type EndpointClaim, WebhookDeliveryService } from "./delivery.service";
import { type DomainEvent, SUBSCRIBABLE_EVENTS, type WebhookEventName } from "./events";
import { type EndpointTarget, signedPost, type WebhookAnswer, type WebhookSender } from "./sender";
import { generateSigningSecret } from "./signature";
import { checkTarget, resolveTarget, type TargetCheck, type TargetPolicy } from "./target-guard";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Where a delivery stands: waiting for its next attempt, acknowledged, or given up after the last. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export { MAX_ATTEMPTS, retryDelayMs } from "./delivery.service";
export { DISABLE_AFTER_FAILING_MS, DISABLE_AFTER_FAILURES } from "./endpoint-health";
export { ACK_TIMEOUT_MS } from "./sender";

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

/**
 * Another consumer of the change stream (e-mail notifications): called with the same events, in the
 * same transaction, as the webhook outbox.
 */
export type ChangeListener = (tx: Tx, organizationId: string, events: DomainEvent[]) => Promise<void>;

/**
 * Makes the organisation's outbox numbers (`webhook_deliveries.seq`, taken at insert) follow commit
 * order: the sender sends an endpoint's deliveries in `seq` order, so a transaction that took a lower
 * number and committed after a higher one was sent would reach the receiver out of order. Every
 * transaction that writes deliveries takes this lock before its first insert and holds it to its end
 * (one lock per organisation: no order between several to deadlock on), so the next one numbers its
 * rows only after this one is visible. Held only from the outbox insert to the commit.
 */
async function inOutboxOrder(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-outbox:${organizationId}`}))`;
}

export class WebhooksService {
  private readonly delivery: WebhookDeliveryService;
  private readonly listeners: ChangeListener[] = [];

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      metrics: Metrics;
      sender: WebhookSender;
      allowPrivateTargets: boolean;
      /** Seals the endpoints' signing secrets at rest (docs/decisions/secrets-at-rest.md). */
      secrets: SecretBox;
    },
  ) {
    this.delivery = new WebhookDeliveryService({ ...deps, targetPolicy: this.targetPolicy });
  }

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
        secret: this.deps.secrets.seal(secret),
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
      data: { secret: this.deps.secrets.seal(secret), updatedAt: this.deps.clock.now() },
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
        ? {
            enabled: true,
            disabledAt: null,
            disabledReason: null,
            consecutiveFailures: 0,
            failingSince: null,
            lastFailedAt: null,
            updatedAt: now,
          }
        : { enabled: false, disabledAt: now, disabledReason: "disabled by a user", updatedAt: now },
    });
  }

  /**
   * Deletes an endpoint with its deliveries and their attempts (nothing more is sent to it). Null when
   * the organisation has no such endpoint.
   */
  async deleteEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = await this.find(organizationId, id);
    if (!endpoint) return null;
    await this.deps.prisma.webhookEndpoint.deleteMany({ where: { id, organizationId } });
    return endpoint;
  }

  /**
   * Sends a delivery again, as Stripe's "resend": a new delivery of the same event with the same
   * body (so the same `created`), due now, with its own id and attempt log, after the endpoint's
   * earlier deliveries. A delivery still being tried is not doubled.
   */
  async resend(
    organizationId: string,
    deliveryId: string,
  ): Promise<
    { kind: "not_found" } | { kind: "still_pending" } | { kind: "queued"; delivery: WebhookDelivery }
  > {
    const original = await this.deps.prisma.webhookDelivery.findFirst({
      where: { id: deliveryId, organizationId },
    });
    if (!original) return { kind: "not_found" };
    if (original.status === "pending") return { kind: "still_pending" };
    const now = this.deps.clock.now();
    const delivery = await this.deps.prisma.$transaction(async (tx) => {
      await inOutboxOrder(tx, organizationId);
      return tx.webhookDelivery.create({
        data: {
          id: randomUUID(),
          endpointId: original.endpointId,
          organizationId,
          event: original.event,
          body: original.body,
          nextAttemptAt: now,
          createdAt: now,
        },
      });
    });
    return { kind: "queued", delivery };
  }

  /** `webhook.test`: only ever sent this way, never by a subscription. */
  async sendTest(organizationId: string, id: string): Promise<WebhookDelivery | null> {
    const endpoint = await this.find(organizationId, id);
    if (!endpoint) return null;
    const [delivery] = await this.deps.prisma.$transaction(async (tx) => {
      await inOutboxOrder(tx, organizationId);
      return this.write(tx, [endpoint], {
        event: "webhook.test",
        data: { endpoint_id: endpoint.id, message: "This is a test delivery from Quayside." },
      });
    });
    return delivery ?? null;
  }

  /**
   * The outbox: called inside the transaction that changed the shipment, so an event exists if and
   * only if the change does, whatever crashes afterwards.
   */
  async enqueue(tx: Tx, organizationId: string, events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const listener of this.listeners) await listener(tx, organizationId, events);
    const endpoints = await tx.webhookEndpoint.findMany({ where: { organizationId } });
    const deliveries = events
      .map((event) => ({
        event,
        subscribed: endpoints.filter((e) => e.events.includes("*") || e.events.includes(event.event)),
      }))
      .filter((d) => d.subscribed.length > 0);
    // No endpoint wants these events: nothing is written, and the change's transaction waits for no lock.
    if (deliveries.length === 0) return;
    await inOutboxOrder(tx, organizationId);
    for (const { event, subscribed } of deliveries) await this.write(tx, subscribed, event);
  }

  private async write(db: Tx, endpoints: WebhookEndpoint[], event: DomainEvent) {
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

  /** Adds a consumer of the change stream (the composition root wires notifications here). */
  onChanges(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Leases endpoints with deliveries due (see `WebhookDeliveryService.claim`). */
  claimDue(
    limit: number,
    fairness?: { perOrganization: number; held: ReadonlyMap<string, number> },
  ): Promise<EndpointClaim[]> {
    return this.delivery.claim(limit, fairness);
  }

  /** Serves one leased endpoint (see `WebhookDeliveryService.serve`). */
  serve(claim: EndpointClaim, signal: DeliverySignal): Promise<{ more: boolean }> {
    return this.delivery.serve(claim, signal);
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
   * One POST, never following a redirect (a 3xx is a failed attempt), cut at the 10 s deadline. The
   * target is judged again under today's setting: an IP literal here, a name at connect time through
   * the sender's guarded lookup (DNS rebinding).
   */
  private post(
    endpoint: EndpointTarget,
    delivery: Pick<WebhookDelivery, "id" | "event" | "body">,
  ): Promise<WebhookAnswer> {
    const target = checkTarget(endpoint.url, this.targetPolicy);
    if (!target.ok) {
      this.deps.logger.warn({ deliveryId: delivery.id, reason: target.reason }, "webhook target blocked");
      return Promise.resolve({ status: null, error: `blocked: ${target.reason}` });
    }
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    return this.deps.sender.post(signedPost(target.url, endpoint.secret, delivery, now));
  }

  async pendingCount(): Promise<number> {
    return this.deps.prisma.webhookDelivery.count({ where: { status: "pending" } });
  }
}
