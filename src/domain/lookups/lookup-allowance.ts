import type { Principal } from "../accounts/principal";
import { DAY_MS, type FixedWindowLimiter, type WindowDecision } from "../limits/fixed-window";

/**
 * The daily lookup allowances of a key (v1 section 8), in fixed UTC-day windows over the same atomic
 * counters as the rate limits, so they are exact under concurrency and shared between processes through
 * Redis:
 * - `vessel_schedule`: vessel positions and sailing schedules together, by plan (100 to 10,000); the
 *   same allowance is spent by REST and by MCP tools, because both run the same GraphQL fields;
 * - `carrier`: carrier lookups, `carrierLookupsPerDay` (1,000).
 * Only answers that reach a source spend: cache hits do not. A lookup whose provider failed is refunded.
 */
export type AllowanceKind = "vessel_schedule" | "carrier";

export interface AllowanceState {
  kind: AllowanceKind;
  limit: number;
  /** What is left after this answer. */
  remaining: number;
  /** When the window resets (the next UTC midnight). */
  resetAt: Date;
  retryAfterSeconds: number;
}

export type AllowanceSpend =
  | { allowed: true; state: AllowanceState }
  | { allowed: false; state: AllowanceState };

function limitOf(principal: Principal, kind: AllowanceKind): number {
  return kind === "carrier" ? principal.plan.carrierLookupsPerDay : principal.plan.lookupsPerDay;
}

function subjectOf(principal: Principal, kind: AllowanceKind): string {
  return `lookups:${kind}:${principal.apiKey.id}`;
}

function stateOf(kind: AllowanceKind, decision: WindowDecision): AllowanceState {
  return {
    kind,
    limit: decision.limit,
    remaining: decision.remaining,
    resetAt: new Date(decision.resetAt * 1000),
    retryAfterSeconds: decision.retryAfterSeconds,
  };
}

export class LookupAllowanceService {
  constructor(private readonly limiter: FixedWindowLimiter) {}

  /** Spends one lookup; refused (nothing left) answers `allowed: false` and spends nothing usable. */
  async spend(principal: Principal, kind: AllowanceKind): Promise<AllowanceSpend> {
    const decision = await this.limiter.consume(subjectOf(principal, kind), limitOf(principal, kind), DAY_MS);
    return { allowed: decision.allowed, state: stateOf(kind, decision) };
  }

  /** Gives back a lookup whose provider failed; answers the state after the refund. */
  async refund(principal: Principal, kind: AllowanceKind): Promise<AllowanceState> {
    const decision = await this.limiter.consume(
      subjectOf(principal, kind),
      limitOf(principal, kind),
      DAY_MS,
      -1,
    );
    return stateOf(kind, decision);
  }

  /** The state without spending. */
  async peek(principal: Principal, kind: AllowanceKind): Promise<AllowanceState> {
    return stateOf(
      kind,
      await this.limiter.peek(subjectOf(principal, kind), limitOf(principal, kind), DAY_MS),
    );
  }
}
