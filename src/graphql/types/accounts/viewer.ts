import { peekRateWindows } from "../../../domain/limits/rate-windows";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";
import { principalOf } from "../../principal";
import { RateWindowRef } from "./rate-window";

const ViewerRef = builder.objectRef<{ ctx: GraphQLContext }>("Viewer").implement({
  description: "Who the calling key acts for.",
  fields: (t) => ({
    organization: t.prismaField({
      type: "Organization",
      resolve: (query, { ctx }) =>
        ctx.services.db.prisma.organization.findUniqueOrThrow({
          ...query,
          where: { id: principalOf(ctx).organization.id },
        }),
    }),
    user: t.prismaField({
      type: "User",
      resolve: (query, { ctx }) =>
        ctx.services.db.prisma.user.findUniqueOrThrow({ ...query, where: { id: principalOf(ctx).user.id } }),
    }),
    apiKey: t.prismaField({
      type: "ApiKey",
      nullable: true,
      description: "The key making this request; null for a person signed in to the dashboard.",
      resolve: (query, { ctx }) => {
        const key = principalOf(ctx).apiKey;
        return key
          ? ctx.services.db.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } })
          : null;
      },
    }),
    rateLimit: t.field({
      type: RateWindowRef,
      resolve: async ({ ctx }) => {
        return peekRateWindows(ctx.services.limiter, principalOf(ctx));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: "The organisation, user and key behind the calling API key. Works with developer mode off.",
    authScopes: (_p, _a, ctx) => ctx.principal !== null,
    resolve: (_root, _args, ctx) => ({ ctx }),
  }),
}));
