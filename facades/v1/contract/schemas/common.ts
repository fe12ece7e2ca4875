/**
 * Field shapes every part of the v1 contract uses.
 */
import "zod-openapi";
import { z } from "zod";
import type { EventStatusCode, ShipmentStatus } from "../../../generated/operations";
import { everyValueOf } from "./core-values";

export const SHIPMENT_STATUSES = everyValueOf<ShipmentStatus>()([
  "PLANNED",
  "IN_TRANSIT",
  "DELIVERED",
  "CANCELLED",
  "UNKNOWN",
]);

/** An event's status code, in the order of the compat vocabulary's table. */
export const EVENT_STATUS_CODES = everyValueOf<EventStatusCode>()([
  "CEP",
  "CPS",
  "CGI",
  "CLL",
  "VDL",
  "VAT",
  "CDT",
  "TSD",
  "CLT",
  "VDT",
  "VAD",
  "CDD",
  "CGO",
  "CDC",
  "CER",
  "LTS",
  "BTS",
  "UNK",
]);

export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
export const flag = z.union([z.literal(0), z.literal(1)]).meta({ description: "1 for yes, 0 for no." });
export const dateTime = z
  .string()
  .meta({ description: "ISO 8601 date-time.", example: "2026-11-22T08:30:00Z" });
export const localDateTime = z.string().meta({
  description:
    "Wall-clock time at the port, `YYYY-MM-DD HH:MM:SS`, no offset; the field's `_utc` companion (or the place's `timezone`) says which clock it is on (docs/decisions/times.md).",
  example: "2026-11-29 14:00:00",
});

/**
 * The UTC companion of a port-local field (docs/decisions/times.md): the same moment as `field`, in
 * UTC with `Z`; null exactly when `field` is.
 */
export const utcCompanion = (field: string) =>
  nullable(dateTime).meta({
    description: `The same moment as \`${field}\`, in UTC (ISO 8601 with Z); null when \`${field}\` is null.`,
    example: "2026-11-29T13:00:00.000Z",
  });
export const shipmentType = z.enum(["Container", "Bill of Lading"]);
export const status = z.enum(SHIPMENT_STATUSES).meta({ description: "Shipment status (spec v1 section 3)." });
export const sandboxMode = z
  .literal("sandbox")
  .optional()
  .meta({ description: "Present on sandbox answers only (every success body except `?include=full`)." });
export const persisted = z
  .literal(false)
  .optional()
  .meta({ description: "Sandbox writes only: the answer has the real shape, but nothing changed." });
