import type { PrismaClient } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

/** The followers of one shipment, earliest first (no relation field: the User model stays as it was). */
async function followersOf(
  prisma: PrismaClient,
  query: object,
  shipment: { id: string; organizationId: string },
) {
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
}

const SHIPMENT_ARG = {
  required: true,
  description: "Container, bill-of-lading or booking number, or SHP id, as `shipment(id:)` takes it.",
} as const;

const notFound = () => publicError("NOT_FOUND", "No such shipment or user in your organisation.");

builder.queryFields((t) => ({
  shipmentFollowers: t.withAuth({ developerMode: true }).prismaField({
    type: ["User"],
    nullable: true,
    description:
      "Users of the organisation who receive e-mail about a shipment, earliest follower first; null when the organisation does not track it.",
    args: { shipment: t.arg.string(SHIPMENT_ARG) },
    resolve: async (query, _root, { shipment: id }, ctx) => {
      const shipment = await ctx.services.shipments.read(ctx.principal, id);
      return shipment ? followersOf(ctx.services.db.prisma, query, shipment) : null;
    },
  }),
}));

builder.mutationFields((t) => {
  const args = {
    shipment: t.arg.string(SHIPMENT_ARG),
    userId: t.arg.id({
      required: false,
      description: "A user of the organisation (`viewer.organization.users`); the asking user when left out.",
    }),
  };
  return {
    followShipment: t.withAuth(WRITE_SCOPES).prismaField({
      type: ["User"],
      nullable: true,
      description:
        "Makes a user (the asking one by default) a follower of a shipment: they receive its e-mail as their preferences say. Answers the shipment's followers.",
      args,
      resolve: async (query, _root, { shipment: id, userId }, ctx) => {
        const principal = ctx.principal;
        const shipment = await ctx.services.shipments.read(principal, id);
        if (!shipment) throw notFound();
        const user = userId ? String(userId) : principal.user.id;
        if (!(await ctx.services.notifications.follow(principal.organization.id, shipment.id, user))) {
          throw notFound();
        }
        return followersOf(ctx.services.db.prisma, query, shipment);
      },
    }),
    unfollowShipment: t.withAuth(WRITE_SCOPES).prismaField({
      type: ["User"],
      nullable: true,
      description:
        "Stops a user's (the asking one's by default) e-mail about a shipment. Answers its followers.",
      args,
      resolve: async (query, _root, { shipment: id, userId }, ctx) => {
        const principal = ctx.principal;
        const shipment = await ctx.services.shipments.read(principal, id);
        if (!shipment) throw notFound();
        const user = userId ? String(userId) : principal.user.id;
        if (!(await ctx.services.notifications.unfollow(principal.organization.id, shipment.id, user))) {
          throw notFound();
        }
        return followersOf(ctx.services.db.prisma, query, shipment);
      },
    }),
  };
});
