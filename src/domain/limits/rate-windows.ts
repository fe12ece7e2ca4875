import { organizationRatePerMinute } from "../accounts/plans";
import type { Principal } from "../accounts/principal";
import { type FixedWindowLimiter, MINUTE_MS, type WindowDecision } from "./fixed-window";

/** A one-minute window: the counter's subject and its limit. */
export interface RateWindow {
  subject: string;
  limit: number;
}

/** The key's own window: the plan's requests per minute (spec v1 section 8). */
export function keyRateWindow(principal: Principal): RateWindow {
  return { subject: `key:${callerId(principal)}`, limit: principal.plan.ratePerMinute };
}

/**
 * What a per-key window or allowance is counted against: the key, or for a person signed in to the
 * dashboard the person (all their sessions together count as one key).
 */
export function callerId(principal: Principal): string {
  return principal.apiKey ? principal.apiKey.id : `user:${principal.user.id}`;
}

/** The organisation's window: its keys together, a multiple of the per-key window. */
export function organizationRateWindow(principal: Principal): RateWindow {
  return { subject: `org:${principal.organization.id}`, limit: organizationRatePerMinute(principal.plan) };
}

/** The window a client is told about: the key's, unless the organisation has less left. */
export function tighterWindow(key: WindowDecision, organization: WindowDecision): WindowDecision {
  return organization.remaining < key.remaining ? organization : key;
}

/** The state of the windows of a key without spending (what the X-RateLimit-* headers would say). */
export async function peekRateWindows(
  limiter: FixedWindowLimiter,
  principal: Principal,
): Promise<WindowDecision> {
  const [key, organization] = await Promise.all(
    [keyRateWindow(principal), organizationRateWindow(principal)].map((w) =>
      limiter.peek(w.subject, w.limit, MINUTE_MS),
    ),
  );
  return tighterWindow(key!, organization!);
}
