import { builder } from "../../builder";
import { publicError } from "../../errors";
import { principalOf } from "../../principal";
import { INTERNAL } from "../../schema-visibility";

/** Most saved filters one person keeps. */
const MAX_SAVED_FILTERS = 20;

/**
 * A dashboard user's named shipment-list filters (internal: the saved value is the dashboard's list
 * URL query, which means nothing to an API client).
 */
builder.prismaObject("SavedShipmentFilter", {
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    query: t.exposeString("query"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  savedShipmentFilters: t.prismaField({
    type: ["SavedShipmentFilter"],
    extensions: INTERNAL,
    authScopes: (_p, _a, ctx) => ctx.principal !== null,
    resolve: (query, _root, _args, ctx) =>
      ctx.services.db.prisma.savedShipmentFilter.findMany({
        ...query,
        where: { userId: principalOf(ctx).user.id },
        orderBy: { name: "asc" },
      }),
  }),
}));

builder.mutationFields((t) => ({
  saveShipmentFilter: t.withAuth({ writableKey: true }).prismaField({
    type: "SavedShipmentFilter",
    extensions: INTERNAL,
    args: {
      name: t.arg.string({ required: true }),
      query: t.arg.string({ required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const name = args.name.trim();
      if (name.length < 1 || name.length > 60)
        throw publicError("BAD_USER_INPUT", "A filter's name has 1 to 60 characters.");
      if (args.query.length > 500) throw publicError("BAD_USER_INPUT", "That filter is too long to save.");
      const { prisma } = ctx.services.db;
      const userId = ctx.principal.user.id;
      if ((await prisma.savedShipmentFilter.count({ where: { userId } })) >= MAX_SAVED_FILTERS) {
        throw publicError("BAD_USER_INPUT", `At most ${MAX_SAVED_FILTERS} saved filters; delete one first.`);
      }
      return prisma.savedShipmentFilter.create({
        ...query,
        data: {
          organizationId: ctx.principal.organization.id,
          userId,
          name,
          query: args.query,
          createdAt: ctx.services.clock.now(),
        },
      });
    },
  }),
  deleteSavedShipmentFilter: t.withAuth({ writableKey: true }).boolean({
    extensions: INTERNAL,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const deleted = await ctx.services.db.prisma.savedShipmentFilter.deleteMany({
        where: { id: String(id), userId: ctx.principal.user.id },
      });
      if (deleted.count === 0) throw publicError("NOT_FOUND", "No such saved filter.");
      return true;
    },
  }),
}));
