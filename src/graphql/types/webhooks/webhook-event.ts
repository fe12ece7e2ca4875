import type { WebhookEventName } from "../../../domain/webhooks/events";
import { builder } from "../../builder";

/**
 * The events a webhook delivery can carry. GraphQL names cannot hold the dots of the names sent in
 * `X-Service-Event` (`shipment.updated`), so each value is that name in capitals with underscores.
 */
const WEBHOOK_EVENTS = {
  SHIPMENT_UPDATED: {
    value: "shipment.updated",
    description: "The status changed (other than to delivered).",
  },
  SHIPMENT_VESSEL_ARRIVED: {
    value: "shipment.vessel_arrived",
    description: "The vessel arrived at the port of discharge (the arrival newly set).",
  },
  SHIPMENT_ARRIVED: { value: "shipment.arrived", description: "The status became DELIVERED." },
  ETA_CHANGED: {
    value: "eta.changed",
    description: "The arrival at the port of discharge moved (never on the first one).",
  },
  DISCOVERY_RECOVERED: {
    value: "discovery.recovered",
    description: "Carrier discovery found the carrier of a reference no carrier had found.",
  },
  WEBHOOK_TEST: { value: "webhook.test", description: "A test delivery, about no shipment." },
} as const satisfies Record<string, { value: WebhookEventName; description: string }>;

// Every event the domain can send has a value: one it adds fails typecheck here until it is named.
type Named = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS]["value"];
type NothingLeft<T extends never> = T;
export type UnnamedWebhookEvents = NothingLeft<Exclude<WebhookEventName, Named>>;

export const WebhookEventEnum = builder.enumType("WebhookEvent", {
  description: "An event a webhook delivery carries.",
  values: WEBHOOK_EVENTS,
});
