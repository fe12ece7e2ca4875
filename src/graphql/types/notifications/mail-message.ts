import { z } from "zod";
import { hostOnly } from "../../../domain/notifications/preferences";
import { builder } from "../../builder";
import { WebhookEndpointRef } from "../webhooks/webhook-endpoint";

builder.prismaObject("MailMessage", {
  description:
    "One e-mail to one recipient: queued, sent through SMTP, or kept in the outbox when no SMTP server is configured.",
  fields: (t) => ({
    id: t.exposeID("id"),
    kind: t.exposeString("kind", {
      description:
        "status_changed, delivered, eta_changed, vessel_departed, transshipment, vessel_arrived, available_for_pickup, hold_placed, hold_released, lfd_72h, lfd_24h, disruption, digest, ticket, quote, or mail (sent by another feature).",
    }),
    to: t.exposeString("toAddress"),
    subject: t.exposeString("subject"),
    text: t.exposeString("text"),
    html: t.exposeString("html", { nullable: true }),
    status: t.exposeString("status", {
      description:
        "pending (waiting, e.g. for quiet hours to end), sent, failed, bounced (the receiving server refused the address for good), cancelled (e-mail or this kind of mail switched off, or the address stopped after a bounce or complaint), or expired (its moment passed before it could be sent).",
    }),
    transport: t.exposeString("transport", {
      nullable: true,
      description: "smtp, or outbox (stored only: no SMTP server configured); null until sent.",
    }),
    attempts: t.exposeInt("attempts"),
    notBefore: t.expose("nextAttemptAt", { type: "DateTime", description: "Not sent before this." }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true }),
    lastError: t.exposeString("lastError", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  mailOutbox: t.withAuth({ developerMode: true }).prismaField({
    type: ["MailMessage"],
    nullable: true,
    description:
      "The organisation's e-mail, newest first: what was sent, what waits, and (without SMTP) the outbox itself.",
    args: {
      first: t.arg.int({ required: false, defaultValue: 20, validate: z.number().int().min(1).max(100) }),
    },
    resolve: (query, _root, { first }, ctx) =>
      ctx.services.db.prisma.mailMessage.findMany({
        ...query,
        where: { organizationId: ctx.principal.organization.id },
        orderBy: { createdAt: "desc" },
        take: first ?? 20,
      }),
  }),
}));

builder.objectField(WebhookEndpointRef, "urlHost", (t) =>
  t.string({
    description:
      "The URL's host alone (no scheme, path, query or credentials), for surfaces that must not show URLs.",
    resolve: (endpoint) => hostOnly(endpoint.url),
  }),
);
