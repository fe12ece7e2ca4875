import { normalizeIdentifier } from "../references/reference";

/**
 * Public numbers of workspace records, counted per organisation like shipment ids (`SHP-<n>`): a
 * ticket is `TCK-<n>` and a quote request `RFQ-<n>`, the organisation's first being 1, so a tenant's
 * numbers tell nothing about other tenants.
 */
export const ticketNumber = (number: bigint | number): string => `TCK-${number}`;
export const quoteRequestNumber = (number: bigint | number): string => `RFQ-${number}`;

// 18 digits stay below 2^63, the largest number the column holds.
const numberOf = (prefix: string, text: string): bigint | null => {
  const digits = new RegExp(`^${prefix}(\\d{1,18})$`).exec(normalizeIdentifier(text))?.[1];
  return digits === undefined ? null : BigInt(digits);
};

/** `TCK-12`, `tck 12`, `TCK12` (case, spaces and hyphens ignored) → 12; anything else → null. */
export const ticketNumberOf = (text: string): bigint | null => numberOf("TCK", text);
export const quoteRequestNumberOf = (text: string): bigint | null => numberOf("RFQ", text);
