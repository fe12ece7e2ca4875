import { z } from "zod";
import { minimumPlanFor } from "../../domain/accounts/plans";
import { featureAccess } from "../../domain/accounts/principal";
import { SUBSCRIBABLE_EVENTS } from "../../domain/webhooks/events";
import { builder } from "../builder";
import type { GraphQLContext } from "../context";
import { publicError } from "../errors";

const WebhookEndpointRef = builder.prismaObject("WebhookEndpoint", {
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
    consecutiveFailures: t.exposeInt("consecutiveFailures"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("WebhookAttempt", {
  fields: (t) => ({
    id: t.exposeID("id"),
    attemptedAt: t.expose("attemptedAt", { type: "DateTime" }),
    durationMs: t.exposeInt("durationMs"),
    responseStatus: t.exposeInt("responseStatus", { nullable: true }),
    error: t.exposeString("error", { nullable: true }),
  }),
});

const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event for one endpoint; its id is the X-Service-Delivery header, stable across retries.",
  fields: (t) => ({
    id: t.exposeID("id"),
    event: t.exposeString("event"),
    status: t.exposeString("status", { description: "pending, delivered or failed." }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime" }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    body: t.exposeString("body", { description: "The exact JSON body sent." }),
    endpoint: t.relation("endpoint"),
    attemptLog: t.relation("attemptLog", { query: { orderBy: { attemptedAt: "asc" } } }),
  }),
});

const EndpointWithSecret = builder
  .objectRef<{ endpoint: { id: string }; signingSecret: string }>("WebhookEndpointWithSecret")
  .implement({
    fields: (t) => ({
      endpoint: t.prismaField({
        type: "WebhookEndpoint",
        resolve: (q, p, _a, ctx) =>
          ctx.services.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...q, where: { id: p.endpoint.id } }),
      }),
      signingSecret: t.exposeString("signingSecret", {
        description: "whsec_...: shown this once. Verify X-Service-Signature with it.",
      }),
    }),
  });

const CreateWebhookEndpointInput = builder.inputType("CreateWebhookEndpointInput", {
  fields: (t) => ({
    url: t.string({ required: true, description: "https URL of a public host." }),
    events: t.stringList({ required: true, validate: z.array(z.string()).min(1).max(10) }),
  }),
});

function requireWebhooks(ctx: GraphQLContext) {
  const access = featureAccess(ctx.principal!.organization, "webhooks");
  if (access === "plan_required") {
    throw publicError("FORBIDDEN", `Webhooks start with the ${minimumPlanFor("webhooks").code} plan.`, {
      reason: "plan_required",
    });
  }
  if (access === "feature_disabled")
    throw publicError("FORBIDDEN", "Webhooks are switched off for this organisation.", {
      reason: "feature_disabled",
    });
}

const notFound = () => publicError("NOT_FOUND", "No such webhook endpoint.");

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaField({
    type: ["WebhookEndpoint"],
    nullable: true,
    authScopes: { developerMode: true },
    extensions: { listSize: 20 },
    resolve: (q, _r, _a, ctx) =>
      ctx.services.db.prisma.webhookEndpoint.findMany({
        ...q,
        where: { organizationId: ctx.principal!.organization.id },
        orderBy: { createdAt: "asc" },
      }),
  }),
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

const changes = { $all: { developerMode: true, writableKey: true } } as const;

const RetryFailedResultRef = builder
  .objectRef<{ examined: number; queued: number; skipped: number; retryAfterSeconds: number | null }>(
    "RetryFailedResult",
  )
  .implement({
    fields: (f) => ({
      examined: f.exposeInt("examined", { description: "Failed shipments of the last 7 days that matched." }),
      queued: f.exposeInt("queued", { description: "Discovery jobs started." }),
      skipped: f.exposeInt("skipped", {
        description: "Matched but not queued: the plan has no carrier discovery.",
      }),
      retryAfterSeconds: f.exposeInt("retryAfterSeconds", {
        nullable: true,
        description: "Set when called again within 15 minutes of the last call.",
      }),
    }),
  });

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: EndpointWithSecret,
    nullable: true,
    authScopes: changes,
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      requireWebhooks(ctx);
      const created = await ctx.services.webhooks.create(
        ctx.principal!.organization.id,
        input.url,
        input.events,
      );
      if ("kind" in created) throw publicError("BAD_USER_INPUT", created.reason, { reason: created.kind });
      return created;
    },
  }),
  rotateWebhookSecret: t.field({
    type: EndpointWithSecret,
    nullable: true,
    authScopes: changes,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const rotated = await ctx.services.webhooks.rotateSecret(ctx.principal!.organization.id, String(id));
      if (!rotated) throw notFound();
      return rotated;
    },
  }),
  setWebhookEndpointEnabled: t.prismaField({
    type: "WebhookEndpoint",
    nullable: true,
    description: "Disables, or re-enables (clearing the failure count so pending deliveries go out again).",
    authScopes: changes,
    args: { id: t.arg.id({ required: true }), enabled: t.arg.boolean({ required: true }) },
    resolve: async (q, _r, { id, enabled }, ctx) => {
      const updated = await ctx.services.webhooks.setEnabled(
        ctx.principal!.organization.id,
        String(id),
        enabled,
      );
      if (!updated) throw notFound();
      return ctx.services.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...q, where: { id: updated.id } });
    },
  }),
  sendTestWebhook: t.prismaField({
    type: "WebhookDelivery",
    nullable: true,
    description: "Queues one webhook.test delivery to the endpoint (the only way webhook.test is sent).",
    authScopes: changes,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (q, _r, { id }, ctx) => {
      const delivery = await ctx.services.webhooks.sendTest(ctx.principal!.organization.id, String(id));
      if (!delivery) throw notFound();
      return ctx.services.db.prisma.webhookDelivery.findUniqueOrThrow({ ...q, where: { id: delivery.id } });
    },
  }),
  retryFailedShipments: t.field({
    type: RetryFailedResultRef,
    nullable: true,
    description:
      "Retries carrier discovery for shipments that failed in the last 7 days (at most 200; once per 15 minutes).",
    authScopes: changes,
    args: {
      shipmentIds: t.arg.stringList({ required: false, validate: z.array(z.string().max(100)).max(1000) }),
    },
    resolve: async (_r, { shipmentIds }, ctx) => {
      const result = await ctx.services.background.queueRetryFailed(ctx.principal!, shipmentIds ?? undefined);
      if (result.kind === "too_soon")
        return { examined: 0, queued: 0, skipped: 0, retryAfterSeconds: result.retryAfterSeconds };
      return { ...result, retryAfterSeconds: null };
    },
  }),
}));

export { WebhookDeliveryRef, WebhookEndpointRef };
