import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import type { Logger } from "../../observability/logger";
import type { Metrics } from "../../observability/metrics";
import { inSpan, markFailed, SpanKind } from "../../observability/tracing";
import { type AttemptOutcome, AttemptRecorder, attemptOutcome, type LaneState } from "./attempt-recorder";
import { ACK_TIMEOUT_MS, signedPost, type WebhookAnswer, type WebhookSender } from "./sender";
import { checkTarget, type TargetPolicy } from "./target-guard";

export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 6 * 3_600_000;
/** Attempts per delivery (the first included): 30 s, 1, 2, 4 ... minutes, capped at 6 h: about 30 hours. */
export const MAX_ATTEMPTS = 15;
/**
 * An endpoint's lease: while it holds, no other sender (in this process or another) sends to it.
 * A sender starts no attempt later than `LEASE_MS - ACK_TIMEOUT_MS - LEASE_MARGIN_MS` after its claim,
 * so its last attempt ends (at the 10 s deadline at worst) and is recorded well before the lease does.
 */
export const LEASE_MS = 30_000;
const LEASE_MARGIN_MS = 10_000;
/** Deliveries one claim takes per endpoint; an endpoint with more is claimed again at once. */
export const CHAIN_LENGTH = 50;
/**
 * Outcomes a lane may have sent but not yet seen written before it waits: what a crash can make it
 * send again (at-least-once) stays this small even when the database is slower than the receiver.
 */
export const MAX_UNRECORDED = 8;

export function retryDelayMs(attemptsMade: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attemptsMade - 1));
}

/** An endpoint leased to this sender with its due deliveries, oldest change first. */
export interface EndpointClaim {
  endpointId: string;
  organizationId: string;
  url: string;
  /** The signing secret in clear (opened from the sealed column for this claim only). */
  secret: string;
  token: string;
  claimedAt: Date;
  deliveries: { id: string; event: string; body: string; attempts: number }[];
}

/** What stops a sender between attempts: the process is shutting down. */
export interface DeliverySignal {
  stopping: boolean;
}

/**
 * Webhook delivery per endpoint. A claim leases endpoints that have deliveries due (never one another
 * sender holds, across processes: the lease is a row update under `FOR UPDATE SKIP LOCKED`) and takes
 * up to `CHAIN_LENGTH` of each one's due deliveries; each endpoint is then served on its own, one
 * attempt at a time in the order of the changes, so a slow or dead receiver holds only its own lane.
 * Outcomes are recorded in bulk (`AttemptRecorder`), and the lease is given back after them.
 */
export class WebhookDeliveryService {
  private readonly recorder: AttemptRecorder;

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      logger: Logger;
      metrics: Metrics;
      sender: WebhookSender;
      targetPolicy: TargetPolicy;
      secrets: SecretBox;
    },
  ) {
    this.recorder = new AttemptRecorder(deps);
  }

  /**
   * Leases up to `limit` endpoints with deliveries due, taking each organisation's endpoints in turn
   * (the one waiting longest first) and at most `perOrganization` lanes per organisation counting the
   * `held` ones, so one tenant's many endpoints never take every lane.
   */
  async claim(
    limit: number,
    fairness: { perOrganization: number; held: ReadonlyMap<string, number> } = {
      perOrganization: limit,
      held: new Map(),
    },
  ): Promise<EndpointClaim[]> {
    if (limit <= 0) return [];
    const { prisma, clock } = this.deps;
    const now = clock.now();
    const token = randomUUID();
    const held = JSON.stringify(Object.fromEntries(fairness.held));
    const rows = await prisma.$queryRaw<
      {
        endpoint_id: string;
        organization_id: string;
        url: string;
        secret: string;
        id: string;
        event: string;
        body: string;
        attempts: number;
      }[]
    >`
      WITH held AS (
        SELECT key AS organization_id, value::int AS lanes FROM jsonb_each_text(${held}::jsonb)
      ), ranked AS (
        SELECT e.id, due.oldest,
               row_number() OVER (PARTITION BY e.organization_id ORDER BY due.oldest, e.id)
                 + coalesce(h.lanes, 0) AS turn
          FROM webhook_endpoints e
          CROSS JOIN LATERAL (
            SELECT min(d.next_attempt_at) AS oldest FROM webhook_deliveries d
             WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${now}) due
          LEFT JOIN held h ON h.organization_id = e.organization_id
         WHERE e.enabled AND (e.leased_until IS NULL OR e.leased_until <= ${now})
           AND due.oldest IS NOT NULL
      ), picked AS (
        SELECT e.id FROM webhook_endpoints e JOIN ranked r ON r.id = e.id
         WHERE r.turn <= ${fairness.perOrganization}
           AND e.enabled AND (e.leased_until IS NULL OR e.leased_until <= ${now})
         ORDER BY r.turn, r.oldest
         LIMIT ${limit}
         FOR UPDATE OF e SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_endpoints e
           SET leased_until = ${new Date(now.getTime() + LEASE_MS)}, lease_token = ${token}
          FROM picked WHERE e.id = picked.id
        RETURNING e.id, e.organization_id, e.url, e.secret
      )
      SELECT c.id AS endpoint_id, c.organization_id, c.url, c.secret, d.id, d.event, d.body, d.attempts
        FROM claimed c
        CROSS JOIN LATERAL (
          SELECT id, event, body, attempts, seq FROM webhook_deliveries
           WHERE endpoint_id = c.id AND status = 'pending' AND next_attempt_at <= ${now}
           ORDER BY seq
           LIMIT ${CHAIN_LENGTH}) d
       ORDER BY c.id, d.seq`;
    const claims = new Map<string, EndpointClaim>();
    const unopened = new Set<string>();
    for (const row of rows) {
      if (unopened.has(row.endpoint_id)) continue;
      let claim = claims.get(row.endpoint_id);
      if (!claim) {
        const secret = this.openSecret(row.endpoint_id, row.secret);
        if (secret === null) {
          unopened.add(row.endpoint_id);
          continue;
        }
        claim = {
          endpointId: row.endpoint_id,
          organizationId: row.organization_id,
          url: row.url,
          secret,
          token,
          claimedAt: now,
          deliveries: [],
        };
        claims.set(row.endpoint_id, claim);
      }
      claim.deliveries.push({ id: row.id, event: row.event, body: row.body, attempts: row.attempts });
    }
    return [...claims.values()];
  }

  /**
   * The endpoint's secret in clear; null when it does not open under this instance's key (instances
   * with different keys, docs/decisions/secrets-at-rest.md). Such an endpoint is sent nothing (never
   * signed with a wrong secret, its deliveries stay due and its lease lapses), while the rest of the
   * claim is served; the operator is told in the log.
   */
  private openSecret(endpointId: string, stored: string): string | null {
    try {
      return this.deps.secrets.open(stored);
    } catch {
      this.deps.logger.error(
        { endpointId },
        "webhook endpoint's signing secret does not open under this instance's secrets key (QUAYSIDE_SECRETS_KEY)",
      );
      return null;
    }
  }

  /**
   * Serves one claimed endpoint: its deliveries one after another, each POST cut at the 10 s deadline,
   * outcomes handed to the recorder without waiting, then the lease given back after them. Stops early
   * when the process stops, when a write finds the endpoint switched off, or when another attempt might
   * outlast the lease. Answers whether the endpoint may have more due (claim it again now).
   */
  async serve(claim: EndpointClaim, signal: DeliverySignal): Promise<{ more: boolean }> {
    const { clock, logger, metrics, sender, targetPolicy } = this.deps;
    // Judged again under today's setting, whatever it was when the endpoint was saved.
    const target = checkTarget(claim.url, targetPolicy);
    const lane: LaneState = { stopped: false };
    const writes: Promise<void>[] = [];
    const lastStart = claim.claimedAt.getTime() + LEASE_MS - ACK_TIMEOUT_MS - LEASE_MARGIN_MS;
    let sent = 0;
    for (const delivery of claim.deliveries) {
      if (signal.stopping || lane.stopped || clock.now().getTime() > lastStart) break;
      const started = clock.now();
      const timer = performance.now();
      const outcome = await inSpan(
        "webhook.deliver",
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "quayside.webhook.endpoint_id": claim.endpointId,
            "quayside.webhook.delivery_id": delivery.id,
            "quayside.webhook.event": delivery.event,
            "quayside.webhook.attempt": delivery.attempts + 1,
          },
        },
        async (span) => {
          let answer: WebhookAnswer;
          if (target.ok) {
            answer = await sender.post(
              signedPost(target.url, claim.secret, delivery, Math.floor(started.getTime() / 1000)),
            );
          } else {
            logger.warn({ deliveryId: delivery.id, reason: target.reason }, "webhook target blocked");
            answer = { status: null, error: `blocked: ${target.reason}` };
          }
          const result = outcomeOf(delivery, claim.endpointId, { answer, started, finished: clock.now() });
          if (answer.status !== null) span?.setAttribute("http.response.status_code", answer.status);
          span?.setAttribute("quayside.webhook.outcome", attemptOutcome(result));
          if (!result.ok) markFailed(span);
          return result;
        },
      );
      metrics.webhookDeliveryDuration.observe(
        { outcome: attemptOutcome(outcome) },
        (performance.now() - timer) / 1000,
      );
      writes.push(this.recorder.record(outcome, lane));
      sent++;
      // Writes finish in the order they were handed over: waiting for the oldest bounds the backlog.
      const oldest = writes[writes.length - MAX_UNRECORDED];
      if (oldest) await oldest.catch(() => undefined);
    }
    writes.push(this.recorder.release(claim.endpointId, claim.token));
    const results = await Promise.allSettled(writes);
    const recorded = results.every((r) => r.status === "fulfilled");
    return {
      more: recorded && !lane.stopped && (sent < claim.deliveries.length || sent === CHAIN_LENGTH),
    };
  }
}

function outcomeOf(
  delivery: EndpointClaim["deliveries"][number],
  endpointId: string,
  attempt: { answer: WebhookAnswer; started: Date; finished: Date },
): AttemptOutcome {
  const { answer, started, finished } = attempt;
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const attempts = delivery.attempts + 1;
  const deliveryStatus = ok ? "delivered" : attempts >= MAX_ATTEMPTS ? "failed" : "pending";
  return {
    deliveryId: delivery.id,
    endpointId,
    attemptedAt: started,
    finishedAt: finished,
    status: answer.status,
    error: answer.error,
    // Text columns refuse NUL; a binary answer keeps only its readable part.
    excerpt: answer.excerpt ? answer.excerpt.replaceAll("\u0000", "") : null,
    ok,
    attempts,
    deliveryStatus,
    nextAttemptAt:
      deliveryStatus === "pending" ? new Date(finished.getTime() + retryDelayMs(attempts)) : null,
  };
}
