import type { PreparedSql, PreparedStatement } from "../../db/database";
import { answerReads } from "../../lib/answer-scope";

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

/** A carrier reference as subscriptions are keyed: `<scac>|<reference type>|<reference key>`. */
export type SubscriptionKey = `${string}|${string}|${string}`;

export function subscriptionKeyOf(r: {
  carrierScac: string;
  referenceType: string;
  referenceKey: string;
}): SubscriptionKey {
  return `${r.carrierScac}|${r.referenceType}|${r.referenceKey}`;
}

/** By the unique (carrier, reference type, reference key) index, for a page of keys at once. */
const SUBSCRIPTIONS_OF: PreparedStatement = {
  name: "carrier_subscriptions_of",
  text: `SELECT c.carrier_scac, c.reference_type::text AS reference_type, c.reference_key, c.subscription_id,
       c.renewed_at AT TIME ZONE 'UTC' AS renewed_at, c.last_push_at AT TIME ZONE 'UTC' AS last_push_at
  FROM unnest($1::text[], $2::text[], $3::text[]) AS w(scac, kind, key)
  JOIN carrier_subscriptions c
    ON c.carrier_scac = w.scac AND c.reference_type = w.kind::"ReferenceKind" AND c.reference_key = w.key`,
};

/**
 * The subscription held or sought for each key, in order (null where none): one prepared statement, as
 * the shipment reads that show it. Each key is noted as read by the answer being built, found or not:
 * a subscription created, accepted, lost or pushed to announces its key (`subscriptions`).
 */
export async function subscriptionsOf(
  sql: PreparedSql,
  keys: readonly SubscriptionKey[],
): Promise<(CarrierSubscriptionFacts | null)[]> {
  for (const key of keys) answerReads("CarrierSubscription", key);
  const parts = keys.map((key) => key.split("|") as [string, string, string]);
  const rows = await sql.query<{
    carrier_scac: string;
    reference_type: string;
    reference_key: string;
    subscription_id: string | null;
    renewed_at: Date | null;
    last_push_at: Date | null;
  }>(SUBSCRIPTIONS_OF, [parts.map((p) => p[0]), parts.map((p) => p[1]), parts.map((p) => p[2])]);
  const byKey = new Map(
    rows.map((r) => [
      `${r.carrier_scac}|${r.reference_type}|${r.reference_key}`,
      { subscriptionId: r.subscription_id, renewedAt: r.renewed_at, lastPushAt: r.last_push_at },
    ]),
  );
  return keys.map((key) => byKey.get(key) ?? null);
}
