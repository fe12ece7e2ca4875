import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

builder.prismaObjectField("Shipment", "followers", (t) =>
  t.prismaField({
    type: ["User"],
    description: "Users of the organisation who receive e-mail about this shipment, earliest follower first.",
    select: { id: true, organizationId: true },
    resolve: async (query, shipment, _args, ctx) => {
      const { prisma } = ctx.services.db;
      const follows = await prisma.shipmentFollower.findMany({
        where: { shipmentId: shipment.id, organizationId: shipment.organizationId },
        orderBy: { createdAt: "asc" },
        select: { userId: true },
      });
      const users = await prisma.user.findMany({
        ...query,
        where: { id: { in: follows.map((f) => f.userId) }, organizationId: shipment.organizationId },
      });
      return follows.flatMap((f) => users.filter((u) => u.id === f.userId));
    },
  }),
);

const followArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  shipment: t.arg.string({
    required: true,
    description: "Container, bill-of-lading or booking number, or SHP id, as `shipment(id:)` takes it.",
  }),
  userId: t.arg.id({
    required: false,
    description: "A user of the organisation (`viewer.organization.users`); the asking user when left out.",
  }),
});

const notFound = () => publicError("NOT_FOUND", "No such shipment or user in your organisation.");

builder.mutationFields((t) => ({
  followShipment: t.prismaField({
    type: "Shipment",
    nullable: true,
    description:
      "Makes a user (the asking one by default) a follower of a shipment: they receive its e-mail notifications as their preferences say.",
    authScopes: WRITE_SCOPES,
    args: followArgs(t),
    resolve: async (query, _root, { shipment: id, userId }, ctx) => {
      const principal = ctx.principal!;
      const shipment = await ctx.services.shipments.read(principal, id);
      if (!shipment) throw notFound();
      const user = userId ? String(userId) : principal.user.id;
      const followed = await ctx.services.notifications.follow(principal.organization.id, shipment.id, user);
      if (!followed) throw notFound();
      return ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...query, where: { id: shipment.id } });
    },
  }),
  unfollowShipment: t.prismaField({
    type: "Shipment",
    nullable: true,
    description: "Stops a user's (the asking one's by default) e-mail about a shipment.",
    authScopes: WRITE_SCOPES,
    args: followArgs(t),
    resolve: async (query, _root, { shipment: id, userId }, ctx) => {
      const principal = ctx.principal!;
      const shipment = await ctx.services.shipments.read(principal, id);
      if (!shipment) throw notFound();
      await ctx.services.notifications.unfollow(
        principal.organization.id,
        shipment.id,
        userId ? String(userId) : principal.user.id,
      );
      return ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...query, where: { id: shipment.id } });
    },
  }),
}));
