import { normalizeIdentifier } from "../references/reference";

/**
 * The public id of a shipment, `SHP-<digits>`: the organisation's own running number (its first
 * shipment is SHP-1), never the row's UUID, so that ids tell nothing about other organisations.
 */
export function shipmentName(number: bigint | number): string {
  return `SHP-${number}`;
}

// 18 digits stay below 2^63, the largest number the column holds: a longer one is no shipment id.
const SHIPMENT_NAME = /^SHP(\d{1,18})$/;

/**
 * The number behind a shipment id as a person writes it (`SHP-12`, `shp 12`, `SHP12`: case, spaces
 * and hyphens ignored, like every identifier), or null when the text is not a shipment id and names a
 * container, bill-of-lading or booking number instead.
 */
export function shipmentNumberOf(id: string): bigint | null {
  const digits = SHIPMENT_NAME.exec(normalizeIdentifier(id))?.[1];
  return digits === undefined ? null : BigInt(digits);
}

/**
 * Which live shipment of an organisation an id names: by number for a shipment id, else by the
 * reference it tracks. The one reading of "a shipment by id" every lookup, change and the GraphQL
 * `shipment(id:)` field share.
 */
export function shipmentIdWhere(organizationId: string, id: string) {
  const number = shipmentNumberOf(id);
  return {
    organizationId,
    deletedAt: null,
    ...(number !== null ? { number } : { referenceKey: normalizeIdentifier(id) }),
  };
}
