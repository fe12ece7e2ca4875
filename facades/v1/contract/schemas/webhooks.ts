/**
 * Webhooks (spec v1 section 6).
 */
import { z } from "zod";
import { dateTime, nullable, shipmentType, status } from "./common";

const shipmentEventData = z.object({
  shipment_id: z.string().meta({ example: "SHP-1000" }),
  reference_number: z.string(),
  carrier: nullable(z.string()),
  status,
  previous_status: status,
  eta: nullable(dateTime),
  previous_eta: nullable(dateTime),
  ata: nullable(dateTime),
});

const envelope = <T extends z.ZodType>(event: string, data: T, description: string) =>
  z
    .object({
      event: z.literal(event),
      created: z.number().int().meta({ description: "Unix seconds." }),
      data,
    })
    .meta({ id: `Webhook_${event.replace(".", "_")}`, description });

export const WEBHOOK_PAYLOADS = {
  "shipment.updated": envelope(
    "shipment.updated",
    shipmentEventData,
    "A milestone landed and the status changed (any transition other than arrival).",
  ),
  "shipment.vessel_arrived": envelope(
    "shipment.vessel_arrived",
    shipmentEventData,
    "The vessel arrived at the final port of discharge; `ata` carries the date.",
  ),
  "shipment.arrived": envelope("shipment.arrived", shipmentEventData, "Status became delivered."),
  "eta.changed": envelope("eta.changed", shipmentEventData, "The carrier revised the ETA."),
  "discovery.recovered": envelope(
    "discovery.recovered",
    z.object({
      reference_number: z.string(),
      type: shipmentType,
      carrier: z.string(),
      carrier_name: z.string(),
      shipment_id: z.string(),
    }),
    "A shipment that failed to track was recovered under the correct carrier.",
  ),
  "webhook.test": envelope(
    "webhook.test",
    z.object({ endpoint_id: z.string(), message: z.string() }),
    "Only sent by a manual test send, never by a subscription.",
  ),
} as const;
