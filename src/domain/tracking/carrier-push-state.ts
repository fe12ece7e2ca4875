/**
 * A shipment's carrier push as its users see it (docs/decisions/carrier-push.md): whether the carrier
 * holds a DCSA event subscription for its reference, and what that does to the polling.
 */

/** A covered reference's poll comes this many times later than an uncovered one's (12 h -> 48 h). */
export const SAFETY_NET_STRETCH = 4;

/**
 * PENDING: asked for, the carrier has not accepted it yet. ACTIVE: the carrier holds it and pushes.
 * LOST: the carrier held it once and no longer does (found at renewal); registered again on a later
 * pass, polled at the normal cadence meanwhile.
 */
export type CarrierPushStatus = "PENDING" | "ACTIVE" | "LOST";

export interface CarrierSubscriptionFacts {
  subscriptionId: string | null;
  renewedAt: Date | null;
  lastPushAt: Date | null;
}

/** A row's subscriptionID is kept only while the carrier holds it; renewedAt says it held it once. */
export function carrierPushStatus(row: CarrierSubscriptionFacts): CarrierPushStatus {
  if (row.subscriptionId) return "ACTIVE";
  return row.renewedAt ? "LOST" : "PENDING";
}
