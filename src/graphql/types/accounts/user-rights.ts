import { builder } from "../../builder";

/**
 * What the asking user may do to a teammate, said by the core (the rules `removeTeammate` and
 * `changeTeammateRole` enforce), so the team page offers only what would succeed and never compares
 * people itself.
 */
builder.prismaObjectFields("User", (t) => ({
  isViewer: t.boolean({
    description:
      "True when this user is the one asking (in a shipment's followers: whether the asker follows it).",
    select: { id: true },
    resolve: (user, _a, ctx) => ctx.principal !== null && user.id === ctx.principal.user.id,
  }),
  removableByViewer: t.boolean({
    description:
      "True when the asking user may remove this teammate now: an owner of the same organisation, and not themselves (another owner removes them).",
    select: { id: true, organizationId: true, removedAt: true },
    resolve: async (user, _a, ctx) =>
      ctx.principal !== null && (await ctx.services.people.teamRights(ctx.principal.user, user)).removable,
  }),
  roleChangeableByViewer: t.boolean({
    description:
      "True when the asking user may give this teammate another role now: an owner of the same organisation; for their own row only while another owner remains (an organisation keeps an owner).",
    select: { id: true, organizationId: true, removedAt: true },
    resolve: async (user, _a, ctx) =>
      ctx.principal !== null &&
      (await ctx.services.people.teamRights(ctx.principal.user, user)).roleChangeable,
  }),
}));
