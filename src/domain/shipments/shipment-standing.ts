/**
 * How a shipment stands, in words a person acts on: what a failed shipment's page says instead of a
 * raw code, and whether a share link would show anything. Pure, so every surface says the same.
 */
import type { DiscoveryStatus } from "./carrier-discovery";

export interface FailedShipmentFacts {
  reference: string;
  /** The carrier the person named, else null (a detected carrier is only a guess until it answers). */
  namedCarrier: string | null;
  discoveryStatus: DiscoveryStatus | null;
  /** SCACs asked so far, in order. */
  triedCarriers: readonly string[];
}

/** The sentence a failed shipment's page leads with. */
export function failureExplanation(facts: FailedShipmentFacts): string {
  const asked = facts.triedCarriers.length === 0 ? "" : ` Asked so far: ${facts.triedCarriers.join(", ")}.`;
  if (facts.namedCarrier) {
    return `${facts.namedCarrier} does not know ${facts.reference} (yet).${asked} Check the number and the carrier, or untrack it to free its slot.`;
  }
  switch (facts.discoveryStatus) {
    case "queued":
    case "running":
      return `No carrier has found ${facts.reference} yet; other carriers are being asked now.${asked}`;
    case "recovered":
      return `A carrier found ${facts.reference}; its data arrives with the next refresh.`;
    case "exhausted":
      return `No carrier we can ask knows ${facts.reference}.${asked} Check the number for a typo, or untrack it to free its slot.`;
    default:
      return `No carrier has found ${facts.reference} yet.${asked} Check the number, name the carrier, or untrack it to free its slot.`;
  }
}

/**
 * A share link shows the carrier's journey, so it only works once a carrier has answered and while the
 * shipment is tracked: offering one before that hands out a link that answers 404.
 */
export function isShareable(s: { documentId: string | null; deletedAt: Date | null }): boolean {
  return s.documentId !== null && s.deletedAt === null;
}
