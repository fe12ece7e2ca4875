import { builder } from "../../builder";

/**
 * Who may revoke a key, said by the core (the same rule `revokeApiKey` enforces), so a page offers the
 * action only where it would succeed: owners any live key of the organisation, members their own.
 */
builder.prismaObjectFields("ApiKey", (t) => ({
  revocableByViewer: t.boolean({
    description:
      "True when the asking user may revoke this key now: it is not revoked yet, and the user is an owner or the key's own user.",
    select: { revokedAt: true, userId: true },
    resolve: (key, _a, ctx) =>
      ctx.principal !== null &&
      key.revokedAt === null &&
      (ctx.principal.user.role === "owner" || key.userId === ctx.principal.user.id),
  }),
}));
