import { builder } from "../../builder";
import { publicError } from "../../errors";
import { INTERNAL } from "../../schema-visibility";
import { mapPeopleErrors } from "./map-account-errors";

/**
 * What only the dashboard asks, as internal fields: a person's password and accepting an invitation.
 * The schema on /graphql does not have them (an API key has no password to change).
 */
const InvitationPreviewRef = builder
  .objectRef<{ email: string; organizationName: string; role: string }>("InvitationPreview")
  .implement({
    fields: (t) => ({
      email: t.exposeString("email"),
      organizationName: t.exposeString("organizationName"),
      role: t.exposeString("role"),
    }),
  });

builder.queryFields((t) => ({
  invitationByToken: t.field({
    type: InvitationPreviewRef,
    nullable: true,
    extensions: INTERNAL,
    description: "An open invitation by the token of its link; null when used, revoked or expired.",
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, { token }, ctx) => {
      const found = await ctx.services.people.findOpenInvitation(token);
      return found
        ? { email: found.email, organizationName: found.organization.name, role: found.role }
        : null;
    },
  }),
}));

builder.mutationFields((t) => ({
  changePassword: t.boolean({
    extensions: INTERNAL,
    description: "Changes the signed-in person's password; their other sessions end.",
    args: {
      current: t.arg.string({ required: true }),
      next: t.arg.string({ required: true }),
    },
    resolve: async (_root, { current, next }, ctx) => {
      const principal = ctx.principal;
      if (!principal?.sessionId)
        throw publicError("FORBIDDEN", "Only a person signed in to the dashboard may do this.");
      await mapPeopleErrors(() =>
        ctx.services.people.changePassword({
          userId: principal.user.id,
          sessionId: principal.sessionId ?? null,
          current,
          next,
        }),
      );
      return true;
    },
  }),
  acceptInvitation: t.field({
    type: "String",
    extensions: INTERNAL,
    description:
      "Accepts an invitation: creates the user with the chosen password. Answers the e-mail address.",
    args: {
      token: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, { token, name, password }, ctx) => {
      const user = await mapPeopleErrors(() =>
        ctx.services.people.acceptInvitation({ rawToken: token, name, password }),
      );
      return user.email;
    },
  }),
}));
