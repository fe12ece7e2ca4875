/**
 * Sandbox webhook fire.
 */
import { z } from "zod";
import type { WebhookEvent } from "../../../generated/operations";
import { nullable } from "./common";

/** The core's webhook events under the names deliveries carry, in the order the contract lists them. */
export const WEBHOOK_EVENT_NAMES = {
  SHIPMENT_UPDATED: "shipment.updated",
  SHIPMENT_VESSEL_ARRIVED: "shipment.vessel_arrived",
  SHIPMENT_ARRIVED: "shipment.arrived",
  ETA_CHANGED: "eta.changed",
  DISCOVERY_RECOVERED: "discovery.recovered",
  WEBHOOK_TEST: "webhook.test",
} as const satisfies Record<WebhookEvent, string>;

/** The core's value of an event name the contract accepts. */
export const webhookEventNamed = (name: (typeof WEBHOOK_EVENT_NAMES)[WebhookEvent]): WebhookEvent =>
  (Object.keys(WEBHOOK_EVENT_NAMES) as WebhookEvent[]).find((event) => WEBHOOK_EVENT_NAMES[event] === name)!;

export const WebhookFireBody = z
  .object({
    url: z
      .string({ error: "url must be a public https URL." })
      .meta({ description: "A public https URL.", example: "https://example.com/hooks/quayside" }),
    event: z
      .enum(WEBHOOK_EVENT_NAMES, {
        error: `event must be one of: ${Object.values(WEBHOOK_EVENT_NAMES).join(", ")}.`,
      })
      .meta({ example: "shipment.updated" }),
  })
  .meta({
    id: "WebhookFireRequest",
    example: { url: "https://example.com/hooks/quayside", event: "shipment.updated" },
  });

export const WebhookFireAnswer = z
  .object({
    success: z.literal(true),
    mode: z.literal("sandbox"),
    persisted: z.literal(false),
    delivery_id: z.string(),
    event: z.string(),
    signing_secret: z
      .string()
      .meta({ description: "The one-time secret this delivery was signed with (`whsec_...`)." }),
    response_status: nullable(z.number().int()).meta({
      description: "The receiver's status; null when it failed.",
    }),
    error: nullable(z.string()),
    delivered: z.boolean(),
    body: z.string().meta({ description: "The exact bytes sent (verify the signature over these)." }),
  })
  .meta({ id: "WebhookFireResult" });
