import { minimumPlanFor } from "../../../domain/accounts/plans";
import { featureAccess } from "../../../domain/accounts/principal";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { publicError } from "../../errors";
import { principalOf } from "../../principal";
import { WRITE_SCOPES } from "../../scopes";
import { CreateWebhookEndpointInput } from "./create-webhook-endpoint-input";
import { webhookEndpointNotFound } from "./webhook-endpoint";

const WebhookEndpointWithSecretRef = builder
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

function requireWebhooks(ctx: GraphQLContext) {
  const access = featureAccess(principalOf(ctx).organization, "webhooks");
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

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.withAuth(WRITE_SCOPES).field({
    type: WebhookEndpointWithSecretRef,
    nullable: true,
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      requireWebhooks(ctx);
      const created = await ctx.services.webhooks.create(
        ctx.principal.organization.id,
        input.url,
        input.events,
      );
      if ("kind" in created) throw publicError("BAD_USER_INPUT", created.reason, { reason: created.kind });
      return created;
    },
  }),
  rotateWebhookSecret: t.withAuth(WRITE_SCOPES).field({
    type: WebhookEndpointWithSecretRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const rotated = await ctx.services.webhooks.rotateSecret(ctx.principal.organization.id, String(id));
      if (!rotated) throw webhookEndpointNotFound();
      return rotated;
    },
  }),
}));
