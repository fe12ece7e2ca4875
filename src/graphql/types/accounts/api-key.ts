import { builder } from "../../builder";
import { publicError } from "../../errors";

builder.prismaObject("ApiKey", {
  description: "An API key. The raw key is shown once, when created; only its hash is stored.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    displayPrefix: t.exposeString("displayPrefix", { description: "The first characters of the key." }),
    viewOnly: t.exposeBoolean("viewOnly"),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    expired: t.boolean({
      description: "The key's expiry has passed (server clock); an expired key authenticates nothing.",
      resolve: (key, _a, ctx) => key.expiresAt !== null && key.expiresAt <= ctx.services.clock.now(),
    }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    user: t.relation("user"),
  }),
});

builder.mutationFields((t) => ({
  revokeApiKey: t.withAuth({ writableKey: true }).prismaField({
    type: "ApiKey",
    description: "Revokes a key at once. Members revoke their own keys; owners any key of the organisation.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const p = ctx.principal;
      const key = await ctx.services.db.prisma.apiKey.findFirst({
        where: {
          id: String(id),
          organizationId: p.organization.id,
          ...(p.user.role === "owner" ? {} : { userId: p.user.id }),
        },
      });
      if (!key) throw publicError("NOT_FOUND", "No such API key.");
      await ctx.services.accounts.revokeApiKey({ keyId: key.id, organizationId: p.organization.id });
      return ctx.services.db.prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
    },
  }),
}));
