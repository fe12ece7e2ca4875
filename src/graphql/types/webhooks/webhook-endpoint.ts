import { SUBSCRIBABLE_EVENTS } from "../../../domain/webhooks/events";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

export const WebhookEndpointRef = builder.prismaObject("WebhookEndpoint", {
  description: "A webhook target. Its signing secret is shown only when created or rotated.",
  fields: (t) => ({
    id: t.exposeID("id"),
    url: t.exposeString("url"),
    events: t.exposeStringList("events", {
      description: `Event names (${SUBSCRIBABLE_EVENTS.join(", ")}) or *.`,
    }),
    enabled: t.exposeBoolean("enabled"),
    disabledAt: t.expose("disabledAt", { type: "DateTime", nullable: true }),
    disabledReason: t.exposeString("disabledReason", { nullable: true }),
    consecutiveFailures: t.exposeInt("consecutiveFailures", {
      description:
        "Failed attempts in the current failure streak (reset by a success or a quiet gap of 12 hours).",
    }),
    failingSince: t.expose("failingSince", {
      type: "DateTime",
      nullable: true,
      description:
        "When the current failure streak began; the endpoint is disabled once it has lasted 3 days with at least 25 failed attempts.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const webhookEndpointNotFound = () => publicError("NOT_FOUND", "No such webhook endpoint.");

builder.queryFields((t) => ({
  webhookEndpoints: t.withAuth({ developerMode: true }).prismaField({
    type: ["WebhookEndpoint"],
    nullable: true,
    extensions: { listSize: 20 },
    resolve: (q, _r, _a, ctx) =>
      ctx.services.db.prisma.webhookEndpoint.findMany({
        ...q,
        where: { organizationId: ctx.principal.organization.id },
        orderBy: { createdAt: "asc" },
      }),
  }),
}));

builder.mutationFields((t) => ({
  setWebhookEndpointEnabled: t.withAuth(WRITE_SCOPES).prismaField({
    type: "WebhookEndpoint",
    nullable: true,
    description: "Disables, or re-enables (clearing the failure count so pending deliveries go out again).",
    args: { id: t.arg.id({ required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: async (q, _r, { id, enabled }, ctx) => {
      const updated = await ctx.services.webhooks.setEnabled(
        ctx.principal.organization.id,
        String(id),
        enabled,
      );
      if (!updated) throw webhookEndpointNotFound();
      return ctx.services.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...q, where: { id: updated.id } });
    },
  }),
  deleteWebhookEndpoint: t.withAuth(WRITE_SCOPES).id({
    nullable: true,
    description:
      "Deletes an endpoint with its deliveries and their attempts: nothing more is sent to it. Answers its id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const deleted = await ctx.services.webhooks.deleteEndpoint(ctx.principal.organization.id, String(id));
      if (!deleted) throw webhookEndpointNotFound();
      return deleted.id;
    },
  }),
}));
