import { z } from "zod";
import type { McpShipmentsQuery } from "../../generated/operations";

/**
 * Shapes shared by the shipment tools. Every key is always present (null when unknown), so an
 * assistant can rely on the keys of one version in every later one.
 */
export const instant = z
  .string()
  .nullable()
  .describe("ISO 8601 instant in UTC, e.g. 2026-11-22T08:30:00.000Z");
export const wallClock = z.string().nullable().describe("Local time at the place, YYYY-MM-DD HH:MM:SS");

export const referenceArgument = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe(
    "Container number (e.g. MSCU1234566), bill-of-lading or booking number, or shipment id (e.g. SHP-1042); case, spaces and hyphens are ignored",
  );

export const carrierShape = z
  .object({
    scac: z.string().describe("Standard Carrier Alpha Code, e.g. MAEU"),
    name: z.string().nullable(),
  })
  .nullable();

export const shipmentSummaryShape = z.object({
  shipmentId: z.string().describe("SHP-<digits>"),
  reference: z.string().describe("The container, bill-of-lading or booking number tracked"),
  referenceType: z.enum(["container", "bl", "booking"]),
  carrier: carrierShape,
  status: z.string().describe("PLANNED, IN_TRANSIT, DELIVERED, CANCELLED or UNKNOWN"),
  origin: z.string().nullable().describe("Place of dispatch, else port of loading"),
  destination: z.string().nullable().describe("Final destination, else port of discharge"),
  eta: instant.describe("Estimated (or actual) arrival at the port of discharge, UTC"),
  etaLocal: wallClock.describe("The same arrival as local time at the port of discharge"),
  etaUtcOffset: z
    .string()
    .nullable()
    .describe(
      "The clock `etaLocal` is on: the port's offset from UTC then, e.g. +01:00; null when `etaLocal` is null",
    ),
  ata: instant.describe("Vessel arrival at the final port of discharge; null until then"),
  isActive: z.boolean().describe("Still moving: not delivered, cancelled or untracked"),
  isDelayed: z
    .boolean()
    .nullable()
    .describe("ETA more than a day later than first recorded; null without data"),
  failed: z.boolean().describe("True while no carrier has found the reference"),
  customer: z.string().nullable(),
  lastSyncedAt: instant.describe("When the carrier data was last refreshed"),
  trackedSince: instant,
});

export type ShipmentSummary = z.input<typeof shipmentSummaryShape>;

/** The selection every summary is rendered from: McpShipments' items (McpShipmentStatus selects more). */
export type ShipmentSummaryData = NonNullable<McpShipmentsQuery["shipmentSearch"]>["items"][number];

export const orNull = (text: string | null | undefined): string | null => (text ? text : null);

export function renderShipmentSummary(s: ShipmentSummaryData): ShipmentSummary {
  return {
    shipmentId: s.name,
    reference: s.reference,
    referenceType: s.referenceType,
    carrier: s.carrierScac ? { scac: s.carrierScac, name: s.carrier?.name ?? null } : null,
    status: s.status,
    origin: orNull(s.document?.origin),
    destination: orNull(s.document?.destination),
    eta: s.eta,
    etaLocal: s.document?.route.portOfDischarge.localDateTime ?? null,
    etaUtcOffset: s.document?.route.portOfDischarge.utcOffset ?? null,
    ata: s.ata,
    isActive: s.isActive,
    isDelayed: s.document ? s.document.isDelayed : null,
    failed: s.failed,
    customer: s.customers[0] ?? null,
    lastSyncedAt: s.lastSyncedAt,
    trackedSince: s.createdAt,
  };
}

export const notTracked = (reference: string) =>
  `No shipment "${reference}" is tracked by your organisation. list_my_shipments lists the ones that are.`;
