import { ORGANIZATION_BOUNDS } from "../accounts/plans";
import type { Principal } from "../accounts/principal";
import { DAY_MS, type FixedWindowLimiter, type WindowDecision } from "../limits/fixed-window";
import { callerId } from "../limits/rate-windows";

/**
 * The daily lookup allowances of a key (v1 section 8), in fixed UTC-day windows over the same atomic
 * counters as the rate limits, so they are exact under concurrency and shared between processes through
 * Redis:
 * - `vessel_schedule`: vessel positions and sailing schedules together, by plan (100 to 10,000); the
 *   same allowance is spent by REST and by MCP tools, because both run the same GraphQL fields;
 * - `carrier`: carrier lookups, `carrierLookupsPerDay` (1,000).
 * Only answers that reach a source spend: cache hits do not. A lookup whose provider failed is refunded.
 *
 * Each allowance is also bounded per organisation: its keys together spend at most
 * `ORGANIZATION_BOUNDS.keyMultiple` times the per-key allowance, so minting keys does not multiply it.
 * The state reported is the tighter of the two (the key's unless the organisation has less left).
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

interface Allowance {
  subject: string;
  limit: number;
}

function keyAllowance(principal: Principal, kind: AllowanceKind): Allowance {
  return { subject: `lookups:${kind}:${callerId(principal)}`, limit: limitOf(principal, kind) };
}

function organizationAllowance(principal: Principal, kind: AllowanceKind): Allowance {
  return {
    subject: `lookups:${kind}:org:${principal.organization.id}`,
    limit: limitOf(principal, kind) * ORGANIZATION_BOUNDS.keyMultiple,
  };
}

const tighter = (key: WindowDecision, organization: WindowDecision) =>
  organization.remaining < key.remaining ? organization : key;

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

  /**
   * Spends one lookup from the key's allowance, then from the organisation's. Refused (nothing left)
   * answers `allowed: false` and spends nothing usable: a lookup the key's allowance refuses never
   * reaches the organisation's, and one the organisation's refuses is given back to both.
   */
  async spend(principal: Principal, kind: AllowanceKind): Promise<AllowanceSpend> {
    const ofKey = keyAllowance(principal, kind);
    const key = await this.limiter.consume(ofKey.subject, ofKey.limit, DAY_MS);
    if (!key.allowed) return { allowed: false, state: stateOf(kind, key) };
    const ofOrganization = organizationAllowance(principal, kind);
    const organization = await this.limiter.consume(ofOrganization.subject, ofOrganization.limit, DAY_MS);
    if (!organization.allowed) {
      // Both given back: the organisation's count stays the lookups actually served, so a refund
      // after a provider failure frees a lookup for the next key that asks.
      await Promise.all([
        this.limiter.consume(ofKey.subject, ofKey.limit, DAY_MS, -1),
        this.limiter.consume(ofOrganization.subject, ofOrganization.limit, DAY_MS, -1),
      ]);
      return { allowed: false, state: stateOf(kind, organization) };
    }
    return { allowed: true, state: stateOf(kind, tighter(key, organization)) };
  }

  /** Gives back a lookup whose provider failed; answers the state after the refund. */
  async refund(principal: Principal, kind: AllowanceKind): Promise<AllowanceState> {
    const [key, organization] = await Promise.all(
      [keyAllowance(principal, kind), organizationAllowance(principal, kind)].map((a) =>
        this.limiter.consume(a.subject, a.limit, DAY_MS, -1),
      ),
    );
    return stateOf(kind, tighter(key!, organization!));
  }

  /** The state without spending. */
  async peek(principal: Principal, kind: AllowanceKind): Promise<AllowanceState> {
    const [key, organization] = await Promise.all(
      [keyAllowance(principal, kind), organizationAllowance(principal, kind)].map((a) =>
        this.limiter.peek(a.subject, a.limit, DAY_MS),
      ),
    );
    return stateOf(kind, tighter(key!, organization!));
  }
}
