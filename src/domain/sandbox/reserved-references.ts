/**
 * The sandbox's reserved references (spec v1 section 4.3): each answers one production error, so
 * an integration can exercise its error handling without a key. Everything else resolves.
 */
export const RESERVED_REFERENCES = {
  /** The carrier has no record: a real "not found" from the sandbox's carrier. */
  notFound: "SBXU0000003",
  /** Malformed: 400. */
  malformed: "NOT-A-REFERENCE",
  /** Every shipment slot of the cycle is used: 402 `shipment_limit_reached`. */
  slotsUsed: "SBXU4020008",
  /** Payment failed and the grace period ended: 402 `payment_overdue`. */
  paymentOverdue: "SBXU4029999",
  /** The per-minute window is spent: 429 with `Retry-After` and the reset time. */
  rateLimited: "SBXU4290003",
  /** The carrier failed: 502, retryable. */
  carrierFailure: "SBXU5020002",
} as const;

export type ReservedReference = keyof typeof RESERVED_REFERENCES;

/** How reserved references are compared: case, spaces and hyphens ignored, as every identifier. */
export function reservedKey(reference: string): string {
  return reference.toUpperCase().replace(/[\s-]/g, "");
}

const BY_KEY = new Map(
  Object.entries(RESERVED_REFERENCES).map(([name, reference]) => [
    reservedKey(reference),
    name as ReservedReference,
  ]),
);

export function reservedReference(reference: string): ReservedReference | undefined {
  return BY_KEY.get(reservedKey(reference));
}

/** In the sandbox's payment-overdue answer: three weeks overdue, past the organisation's grace. */
export const SANDBOX_OVERDUE_DAYS = 21;
