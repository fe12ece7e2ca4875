import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Logger } from "../../observability/logger";
import type { Metrics } from "../../observability/metrics";
import { disabledReason, type EndpointHealth, foldHealth, shouldDisable } from "./endpoint-health";

/** The verdict of one attempt, as the sender saw it. */
export interface AttemptOutcome {
  deliveryId: string;
  endpointId: string;
  attemptedAt: Date;
  finishedAt: Date;
  status: number | null;
  error: string | null;
  /** The start of the receiver's answer body, when one came. */
  excerpt: string | null;
  ok: boolean;
  /** The delivery's attempt count with this one, its status and next due time after it. */
  attempts: number;
  deliveryStatus: "pending" | "delivered" | "failed";
  nextAttemptAt: Date | null;
}

/** An attempt's outcome as the metrics and spans name it. */
export function attemptOutcome(outcome: AttemptOutcome): "delivered" | "retry" | "failed" {
  return outcome.ok ? "delivered" : outcome.deliveryStatus === "failed" ? "failed" : "retry";
}

/** A sender's view of its endpoint: set when a write finds the endpoint switched off. */
export interface LaneState {
  stopped: boolean;
}

type Item =
  | { kind: "attempt"; outcome: AttemptOutcome; lane: LaneState; done: Settle }
  | { kind: "release"; endpointId: string; token: string; done: Settle };
type Settle = { resolve: () => void; reject: (error: unknown) => void };

/** At most this many items per transaction; more wait for the next one. */
const MAX_GROUP = 500;

/**
 * Records attempts in bulk (group commit): senders hand over outcomes without waiting, and one write at
 * a time takes everything handed over since the last began: the attempt rows, the deliveries' new
 * states, each endpoint's failure streak (and its switching off) and the leases given back, in one
 * transaction. Under load a write carries many attempts; when idle, each outcome is written at once,
 * so a crash loses only what was sent in the last write's time (those deliveries are sent again:
 * at-least-once). A lease is given back only in a write that follows its endpoint's last outcome.
 */
export class AttemptRecorder {
  private queue: Item[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly deps: { prisma: PrismaClient; logger: Logger; metrics: Metrics }) {}

  record(outcome: AttemptOutcome, lane: LaneState): Promise<void> {
    return this.enqueue((done) => ({ kind: "attempt", outcome, lane, done }));
  }

  /** Gives the endpoint's lease back once everything recorded before this is written. */
  release(endpointId: string, token: string): Promise<void> {
    return this.enqueue((done) => ({ kind: "release", endpointId, token, done }));
  }

  private enqueue(item: (done: Settle) => Item): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push(item({ resolve, reject }));
      this.writing ??= this.drain().finally(() => {
        this.writing = undefined;
      });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      try {
        await this.write(group);
        for (const item of group) item.done.resolve();
      } catch (error) {
        // The deliveries stay pending under a lease that runs out: they are sent again (at-least-once).
        this.deps.logger.error(
          { err: error, items: group.length },
          "Recording webhook attempts failed; those deliveries are sent again after the lease",
        );
        for (const item of group) item.done.reject(error);
      }
    }
  }

  private async write(group: Item[]): Promise<void> {
    const { prisma, metrics } = this.deps;
    const attempts = group.filter((i): i is Extract<Item, { kind: "attempt" }> => i.kind === "attempt");
    const releases = group.filter((i): i is Extract<Item, { kind: "release" }> => i.kind === "release");
    const switchedOff = await prisma.$transaction(async (tx) => {
      const off = new Set<string>();
      if (attempts.length > 0) {
        const outcomes = attempts.map((a) => a.outcome);
        // One statement whatever the group's size, as the updates below: Prisma's `createMany`
        // compiled a plan of every row on each write (13 % of the sender's CPU under a fan-out).
        const attemptRows = JSON.stringify(
          outcomes.map((o) => ({
            id: randomUUID(),
            delivery_id: o.deliveryId,
            attempted_at: o.attemptedAt,
            duration_ms: o.finishedAt.getTime() - o.attemptedAt.getTime(),
            response_status: o.status,
            response_excerpt: o.excerpt,
            error: o.error,
          })),
        );
        await tx.$executeRaw`
          INSERT INTO webhook_attempts
                 (id, delivery_id, attempted_at, duration_ms, response_status, response_excerpt, error)
          SELECT a.id, a.delivery_id, a.attempted_at, a.duration_ms, a.response_status, a.response_excerpt, a.error
            FROM jsonb_to_recordset(${attemptRows}::jsonb) AS a(
                   id text, delivery_id text, attempted_at timestamp(3), duration_ms int,
                   response_status int, response_excerpt text, error text)`;
        const deliveries = JSON.stringify(
          outcomes.map((o) => ({
            id: o.deliveryId,
            status: o.deliveryStatus,
            attempts: o.attempts,
            attempted_at: o.attemptedAt,
            next_attempt_at: o.nextAttemptAt,
            delivered_at: o.ok ? o.finishedAt : null,
          })),
        );
        // Only a pending row moves: a delivery recorded by a sender whose lease ran out stays as it is.
        await tx.$executeRaw`
          UPDATE webhook_deliveries d
             SET status = o.status, attempts = o.attempts, last_attempt_at = o.attempted_at,
                 next_attempt_at = coalesce(o.next_attempt_at, d.next_attempt_at),
                 delivered_at = coalesce(o.delivered_at, d.delivered_at)
            FROM jsonb_to_recordset(${deliveries}::jsonb) AS o(
                   id text, status text, attempts int, attempted_at timestamp(3),
                   next_attempt_at timestamp(3), delivered_at timestamp(3))
           WHERE d.id = o.id AND d.status = 'pending'`;

        // Each endpoint's streak, folded over its outcomes in the order they were sent.
        const byEndpoint = new Map<string, AttemptOutcome[]>();
        for (const o of outcomes) byEndpoint.set(o.endpointId, [...(byEndpoint.get(o.endpointId) ?? []), o]);
        const rows = await tx.$queryRaw<
          {
            id: string;
            enabled: boolean;
            consecutive_failures: number;
            failing_since: Date | null;
            last_failed_at: Date | null;
          }[]
        >`
          SELECT id, enabled, consecutive_failures, failing_since, last_failed_at FROM webhook_endpoints
           WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...byEndpoint.keys()])}::jsonb))
           ORDER BY id
           FOR UPDATE`;
        const updates = rows.map((row) => {
          const before: EndpointHealth = {
            consecutiveFailures: row.consecutive_failures,
            failingSince: row.failing_since,
            lastFailedAt: row.last_failed_at,
          };
          const sent = byEndpoint.get(row.id) ?? [];
          const after = foldHealth(
            before,
            sent.map((o) => ({ ok: o.ok, at: o.attemptedAt })),
          );
          const disable = row.enabled && shouldDisable(after);
          if (!row.enabled || disable) off.add(row.id);
          return {
            id: row.id,
            consecutive_failures: after.consecutiveFailures,
            failing_since: after.failingSince,
            last_failed_at: after.lastFailedAt,
            disable,
            disabled_at: disable ? sent.at(-1)!.finishedAt : null,
            disabled_reason: disable ? disabledReason(after) : null,
          };
        });
        await tx.$executeRaw`
          UPDATE webhook_endpoints e
             SET consecutive_failures = u.consecutive_failures, failing_since = u.failing_since,
                 last_failed_at = u.last_failed_at,
                 enabled = e.enabled AND NOT u.disable,
                 disabled_at = CASE WHEN u.disable THEN u.disabled_at ELSE e.disabled_at END,
                 disabled_reason = CASE WHEN u.disable THEN u.disabled_reason ELSE e.disabled_reason END
            FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(
                   id text, consecutive_failures int, failing_since timestamp(3), last_failed_at timestamp(3),
                   disable boolean, disabled_at timestamp(3), disabled_reason text)
           WHERE e.id = u.id`;
      }
      if (releases.length > 0) {
        const leases = JSON.stringify(releases.map((r) => ({ id: r.endpointId, token: r.token })));
        await tx.$executeRaw`
          UPDATE webhook_endpoints e SET leased_until = NULL, lease_token = NULL
            FROM jsonb_to_recordset(${leases}::jsonb) AS r(id text, token text)
           WHERE e.id = r.id AND e.lease_token = r.token`;
      }
      return off;
    });
    for (const { outcome, lane } of attempts) {
      metrics.webhookAttempts.inc({ outcome: attemptOutcome(outcome) });
      if (switchedOff.has(outcome.endpointId)) lane.stopped = true;
    }
  }
}
