import {
  EVENT_DESCRIPTIONS,
  SUBSCRIBABLE_EVENTS,
  type WebhookEventName,
} from "../../../domain/webhooks/events";
import { builder } from "../../builder";

/**
 * The events a webhook delivery can carry. GraphQL names cannot hold the dots of the names sent in
 * `X-Service-Event` (`shipment.updated`), so each value is that name in capitals with underscores.
 */
const WEBHOOK_EVENTS = {
  SHIPMENT_UPDATED: { value: "shipment.updated", description: EVENT_DESCRIPTIONS["shipment.updated"] },
  SHIPMENT_VESSEL_ARRIVED: {
    value: "shipment.vessel_arrived",
    description: EVENT_DESCRIPTIONS["shipment.vessel_arrived"],
  },
  SHIPMENT_ARRIVED: { value: "shipment.arrived", description: EVENT_DESCRIPTIONS["shipment.arrived"] },
  ETA_CHANGED: { value: "eta.changed", description: EVENT_DESCRIPTIONS["eta.changed"] },
  DISCOVERY_RECOVERED: {
    value: "discovery.recovered",
    description: EVENT_DESCRIPTIONS["discovery.recovered"],
  },
  WEBHOOK_TEST: { value: "webhook.test", description: EVENT_DESCRIPTIONS["webhook.test"] },
} as const satisfies Record<string, { value: WebhookEventName; description: string }>;

// Every event the domain can send has a value: one it adds fails typecheck here until it is named.
type Named = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS]["value"];
type NothingLeft<T extends never> = T;
export type UnnamedWebhookEvents = NothingLeft<Exclude<WebhookEventName, Named>>;

export const WebhookEventEnum = builder.enumType("WebhookEvent", {
  description: "An event a webhook delivery carries.",
  values: WEBHOOK_EVENTS,
});

const WebhookEventInfoRef = builder
  .objectRef<{ name: WebhookEventName; description: string; subscribable: boolean }>("WebhookEventInfo")
  .implement({
    description: "One event of the catalogue, with what it means.",
    fields: (t) => ({
      name: t.exposeString("name", { description: "As sent in X-Service-Event, e.g. shipment.updated." }),
      description: t.exposeString("description"),
      subscribable: t.exposeBoolean("subscribable", {
        description: "An endpoint may subscribe to it (webhook.test is only sent by a test send).",
      }),
    }),
  });

builder.queryField("webhookEvents", (t) =>
  t.field({
    type: [WebhookEventInfoRef],
    description: "Every event a webhook delivery can carry, with its description.",
    resolve: () =>
      (Object.keys(EVENT_DESCRIPTIONS) as WebhookEventName[]).map((name) => ({
        name,
        description: EVENT_DESCRIPTIONS[name],
        subscribable: (SUBSCRIBABLE_EVENTS as readonly string[]).includes(name),
      })),
  }),
);
