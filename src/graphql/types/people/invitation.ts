import { invitationPath } from "../../../domain/people/people.service";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { UserRoleEnum } from "../accounts/user-role";
import { mapPeopleErrors } from "./map-account-errors";

builder.prismaObject("Invitation", {
  description: "An open invitation of a teammate to the organisation.",
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    role: t.field({ type: UserRoleEnum, resolve: (i) => i.role }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    invitedBy: t.relation("invitedBy"),
  }),
});

const InvitationWithLinkRef = builder
  .objectRef<{ invitation: { id: string }; rawToken: string }>("InvitationWithLink")
  .implement({
    fields: (t) => ({
      invitation: t.prismaField({
        type: "Invitation",
        resolve: (query, p, _a, ctx) =>
          ctx.services.db.prisma.invitation.findUniqueOrThrow({ ...query, where: { id: p.invitation.id } }),
      }),
      acceptPath: t.string({
        description:
          "Where the invited person accepts, relative to the deployment's address. Shown this once: only a hash of its token is stored.",
        resolve: (p) => invitationPath(p.rawToken),
      }),
    }),
  });

builder.queryFields((t) => ({
  invitations: t.withAuth({ owner: true }).prismaField({
    type: ["Invitation"],
    description: "Open invitations of the organisation, newest first. Owners only.",
    resolve: (query, _root, _args, ctx) =>
      ctx.services.db.prisma.invitation.findMany({
        ...query,
        where: {
          organizationId: ctx.principal.organization.id,
          acceptedAt: null,
          revokedAt: null,
          expiresAt: { gt: ctx.services.clock.now() },
        },
        orderBy: { createdAt: "desc" },
      }),
  }),
}));

builder.mutationFields((t) => ({
  inviteTeammate: t.withAuth({ $all: { writableKey: true, owner: true } }).field({
    type: InvitationWithLinkRef,
    description:
      "Invites a person to the organisation as owner or member; the answer carries the link to accept it (valid 7 days). Owners only.",
    args: {
      email: t.arg.string({ required: true }),
      role: t.arg({ type: UserRoleEnum, required: false }),
    },
    resolve: (_root, { email, role }, ctx) =>
      mapPeopleErrors(() =>
        ctx.services.people.invite({
          organization: ctx.principal.organization,
          invitedBy: ctx.principal.user,
          email,
          role: role ?? "member",
        }),
      ),
  }),
  changeTeammateRole: t.withAuth({ $all: { writableKey: true, owner: true } }).prismaField({
    type: "User",
    description:
      "Gives a teammate the owner or member role. The organisation keeps at least one owner. Owners only.",
    args: { userId: t.arg.id({ required: true }), role: t.arg({ type: UserRoleEnum, required: true }) },
    resolve: async (query, _root, { userId, role }, ctx) => {
      const user = await mapPeopleErrors(() =>
        ctx.services.people.changeRole({
          organizationId: ctx.principal.organization.id,
          userId: String(userId),
          role,
        }),
      );
      return ctx.services.db.prisma.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  removeTeammate: t.withAuth({ $all: { writableKey: true, owner: true } }).prismaField({
    type: "User",
    description:
      "Removes a teammate: their API keys are revoked, their sessions end and they get no more mail; the shipments they added stay. Not yourself, not the last owner. Owners only.",
    args: { userId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { userId }, ctx) => {
      const user = await mapPeopleErrors(() =>
        ctx.services.people.removeTeammate({
          organizationId: ctx.principal.organization.id,
          actingUserId: ctx.principal.user.id,
          userId: String(userId),
        }),
      );
      return ctx.services.db.prisma.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  revokeInvitation: t.withAuth({ $all: { writableKey: true, owner: true } }).prismaField({
    type: "Invitation",
    description: "Withdraws an open invitation: its link stops working. Owners only.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const revoked = await mapPeopleErrors(() =>
        ctx.services.people.revokeInvitation(ctx.principal.organization.id, String(id)),
      );
      const found = await ctx.services.db.prisma.invitation.findUnique({
        ...query,
        where: { id: revoked.id },
      });
      if (!found) throw publicError("NOT_FOUND", "No such invitation.");
      return found;
    },
  }),
}));
