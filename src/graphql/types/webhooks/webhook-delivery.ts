import { z } from "zod";
import type { DeliveryStatus } from "../../../domain/webhooks/webhooks.service";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { WebhookDeliveryStatusEnum } from "./webhook-delivery-status";
import { webhookEndpointNotFound } from "./webhook-endpoint";

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event for one endpoint; its id is the X-Service-Delivery header, stable across retries.",
  fields: (t) => ({
    id: t.exposeID("id"),
    event: t.exposeString("event"),
    // Stored as text, written only from this closed set by the webhook service.
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status as DeliveryStatus }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime" }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    body: t.exposeString("body", { description: "The exact JSON body sent." }),
    endpoint: t.relation("endpoint"),
    attemptLog: t.relation("attemptLog", { query: { orderBy: { attemptedAt: "asc" } } }),
  }),
});

builder.queryFields((t) => ({
  webhookDeliveries: t.prismaField({
    type: ["WebhookDelivery"],
    nullable: true,
    description: "Recent deliveries, newest first, with their attempts.",
    authScopes: { developerMode: true },
    args: {
      endpointId: t.arg.id({ required: false }),
      first: t.arg.int({ required: false, defaultValue: 20, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (q, _r, { endpointId, first }, ctx) =>
      ctx.services.db.prisma.webhookDelivery.findMany({
        ...q,
        where: {
          organizationId: ctx.principal!.organization.id,
          ...(endpointId ? { endpointId: String(endpointId) } : {}),
        },
        orderBy: { createdAt: "desc" },
        take: first ?? 20,
      }),
  }),
}));

builder.mutationFields((t) => ({
  sendTestWebhook: t.prismaField({
    type: "WebhookDelivery",
    nullable: true,
    description: "Queues one webhook.test delivery to the endpoint (the only way webhook.test is sent).",
    authScopes: WRITE_SCOPES,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (q, _r, { id }, ctx) => {
      const delivery = await ctx.services.webhooks.sendTest(ctx.principal!.organization.id, String(id));
      if (!delivery) throw webhookEndpointNotFound();
      return ctx.services.db.prisma.webhookDelivery.findUniqueOrThrow({ ...q, where: { id: delivery.id } });
    },
  }),
}));
