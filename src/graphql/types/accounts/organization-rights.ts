import { builder } from "../../builder";

/**
 * What the asking user may do to the organisation itself, said by the core (the rule of the `owner`
 * scope the team, developer-mode and billing mutations carry), so a page offers only what would work.
 */
builder.prismaObjectFields("Organization", (t) => ({
  manageableByViewer: t.boolean({
    description:
      "True when the asking user may manage the organisation: invite, change and remove teammates, switch developer mode, revoke any key (owners).",
    select: { id: true },
    resolve: (_org, _a, ctx) => ctx.principal?.user.role === "owner",
  }),
}));
