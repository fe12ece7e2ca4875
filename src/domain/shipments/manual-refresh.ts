import type { Shipment } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Principal } from "../accounts/principal";
import { isActive, refreshSchedule } from "../tracking/shipment-facts";
import type { TrackingService, TrackOutcome } from "../tracking/tracking.service";

/**
 * Why a person may not ask the carrier again now: the refresh gap of the contract (spec v1 section 8:
 * 12 hours, 4 while arriving) has not elapsed since the last answer; the shipment no longer moves
 * (delivered, cancelled); or no carrier has found it yet, so there is nothing to refresh (a failed
 * reference is retried by carrier discovery or tracked again corrected).
 */
export type RefreshRefusal =
  | { reason: "too_soon"; nextRefreshEligibleAt: Date; retryAfterSeconds: number }
  | { reason: "not_moving"; nextRefreshEligibleAt: null; retryAfterSeconds: null }
  | { reason: "never_found"; nextRefreshEligibleAt: null; retryAfterSeconds: null };

/**
 * Whether a manual refresh is allowed now: the same schedule the shipment's `refreshEligibleNow` and
 * `nextRefreshEligibleAt` show, so the button and the answer never disagree. Pure: time comes in.
 */
export function manualRefreshRefusal(
  shipment: Pick<Shipment, "status" | "lastSyncedAt" | "eta" | "deletedAt" | "failedAt">,
  now: Date,
): RefreshRefusal | null {
  if (shipment.failedAt !== null || shipment.lastSyncedAt === null) {
    return { reason: "never_found", nextRefreshEligibleAt: null, retryAfterSeconds: null };
  }
  if (!isActive(shipment.status, shipment.deletedAt)) {
    return { reason: "not_moving", nextRefreshEligibleAt: null, retryAfterSeconds: null };
  }
  const schedule = refreshSchedule({ ...shipment, now });
  if (schedule.refreshEligibleNow || !schedule.nextRefreshEligibleAt) return null;
  const wait = schedule.nextRefreshEligibleAt.getTime() - now.getTime();
  return {
    reason: "too_soon",
    nextRefreshEligibleAt: schedule.nextRefreshEligibleAt,
    // Rounded up: a client that waits this long is never refused again for the same gap.
    retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
  };
}

export type ManualRefreshOutcome =
  | { kind: "not_found"; id: string }
  | ({ kind: "refused"; shipment: Shipment } & RefreshRefusal)
  | { kind: "tracking"; outcome: TrackOutcome };

/**
 * A person's "refresh now" on one shipment of the organisation (a teammate's included): the carrier
 * is asked again under the shipment's own carrier and type, at most once per refresh gap. No slot is
 * used (the reference is already tracked).
 */
export async function refreshShipmentNow(
  deps: {
    clock: Clock;
    tracking: TrackingService;
    find: (principal: Principal, id: string) => Promise<Shipment | null>;
  },
  principal: Principal,
  id: string,
  surface: "v1" | "compat" | "graphql" | "mcp",
): Promise<ManualRefreshOutcome> {
  const shipment = await deps.find(principal, id);
  if (!shipment || shipment.deletedAt) return { kind: "not_found", id };
  const refusal = manualRefreshRefusal(shipment, deps.clock.now());
  if (refusal) return { kind: "refused", shipment, ...refusal };
  const outcome = await deps.tracking.track(principal, {
    reference: shipment.reference,
    type: shipment.referenceType,
    carrier: shipment.carrierScac ?? undefined,
    freshness: "fetch",
    surface,
  });
  return { kind: "tracking", outcome };
}
