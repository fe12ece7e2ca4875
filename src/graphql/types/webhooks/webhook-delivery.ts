import { z } from "zod";
import { deliveryHeaders } from "../../../domain/webhooks/sender";
import type { DeliveryStatus } from "../../../domain/webhooks/webhooks.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";
import { WebhookDeliveryStatusEnum } from "./webhook-delivery-status";
import { webhookEndpointNotFound } from "./webhook-endpoint";

const WebhookHeaderRef = builder.objectRef<{ name: string; value: string }>("WebhookHeader").implement({
  description: "One header of a webhook request.",
  fields: (t) => ({ name: t.exposeString("name"), value: t.exposeString("value") }),
});

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event for one endpoint; its id is the X-Service-Delivery header, stable across retries.",
  fields: (t) => ({
    id: t.exposeID("id"),
    event: t.exposeString("event"),
    // Stored as text, written only from this closed set by the webhook service.
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status as DeliveryStatus }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime" }),
    retryAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "When the next attempt is due while the delivery is pending; null once it was delivered or has failed for good.",
      resolve: (d) => (d.status === "pending" ? d.nextAttemptAt : null),
    }),
    requestHeaders: t.field({
      type: [WebhookHeaderRef],
      description:
        "The headers every attempt sends; X-Service-Signature is added per attempt (it signs the attempt's time) and is not kept.",
      resolve: (d) => Object.entries(deliveryHeaders(d)).map(([name, value]) => ({ name, value })),
    }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    body: t.exposeString("body", { description: "The exact JSON body sent." }),
    endpoint: t.relation("endpoint"),
    attemptLog: t.relation("attemptLog", { query: { orderBy: { attemptedAt: "asc" } } }),
  }),
});

builder.queryFields((t) => ({
  webhookDeliveries: t.withAuth({ developerMode: true }).prismaField({
    type: ["WebhookDelivery"],
    nullable: true,
    description: "Recent deliveries, newest first, with their attempts.",
    args: {
      endpointId: t.arg.id({ required: false }),
      first: t.arg.int({ required: false, defaultValue: 20, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (q, _r, { endpointId, first }, ctx) =>
      ctx.services.db.prisma.webhookDelivery.findMany({
        ...q,
        where: {
          organizationId: ctx.principal.organization.id,
          ...(endpointId ? { endpointId: String(endpointId) } : {}),
        },
        // Newest first; a resend made in the same millisecond as its original still comes after it.
        orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
        take: first ?? 20,
      }),
  }),
  webhookDelivery: t.withAuth({ developerMode: true }).prismaField({
    type: "WebhookDelivery",
    nullable: true,
    description: "One delivery of the organisation, with its request and every attempt's answer.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (q, _r, { id }, ctx) =>
      ctx.services.db.prisma.webhookDelivery.findFirst({
        ...q,
        where: { id: String(id), organizationId: ctx.principal.organization.id },
      }),
  }),
}));

builder.mutationFields((t) => ({
  sendTestWebhook: t.withAuth(WRITE_SCOPES).prismaField({
    type: "WebhookDelivery",
    nullable: true,
    description: "Queues one webhook.test delivery to the endpoint (the only way webhook.test is sent).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (q, _r, { id }, ctx) => {
      const delivery = await ctx.services.webhooks.sendTest(ctx.principal.organization.id, String(id));
      if (!delivery) throw webhookEndpointNotFound();
      return ctx.services.db.prisma.webhookDelivery.findUniqueOrThrow({ ...q, where: { id: delivery.id } });
    },
  }),
  resendWebhookDelivery: t.withAuth(WRITE_SCOPES).prismaField({
    type: "WebhookDelivery",
    nullable: true,
    description:
      "Sends a delivered or failed delivery again: a new delivery of the same event with the same body, due now, with its own id. A delivery still being tried is refused.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (q, _r, { id }, ctx) => {
      const resent = await ctx.services.webhooks.resend(ctx.principal.organization.id, String(id));
      if (resent.kind === "not_found") throw publicError("NOT_FOUND", "No such webhook delivery.");
      if (resent.kind === "still_pending") {
        throw publicError(
          "BAD_USER_INPUT",
          "This delivery is still being tried; it can be sent again once it is delivered or has failed.",
          { reason: "still_pending" },
        );
      }
      return ctx.services.db.prisma.webhookDelivery.findUniqueOrThrow({
        ...q,
        where: { id: resent.delivery.id },
      });
    },
  }),
}));
