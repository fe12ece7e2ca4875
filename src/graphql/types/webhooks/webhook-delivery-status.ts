import { builder } from "../../builder";

export const WebhookDeliveryStatusEnum = builder.enumType("WebhookDeliveryStatus", {
  values: {
    pending: { description: "Waiting for its next attempt." },
    delivered: { description: "The endpoint acknowledged it." },
    failed: { description: "Every attempt failed; no more are made." },
  } as const,
});
