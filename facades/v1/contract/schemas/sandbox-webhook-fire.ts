/**
 * Sandbox webhook fire.
 */
import { z } from "zod";
import { SUBSCRIBABLE_EVENTS } from "../../../../src/domain/webhooks/events";
import { nullable } from "./common";

export const WebhookFireBody = z
  .object({
    url: z
      .string()
      .meta({ description: "A public https URL.", example: "https://example.com/hooks/quayside" }),
    event: z.enum([...SUBSCRIBABLE_EVENTS, "webhook.test"]).meta({ example: "shipment.updated" }),
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
