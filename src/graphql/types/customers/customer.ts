import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";

const STILL_MOVING: Prisma.ShipmentWhereInput = {
  deletedAt: null,
  status: { notIn: ["DELIVERED", "CANCELLED"] },
};

builder.prismaObject("Customer", {
  description: "A customer of the organisation, named on shipments.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    shipmentCount: t.relationCount("shipments", {
      description: "Tracked shipments (teammates' included) naming this customer.",
      where: { deletedAt: null },
    }),
    activeShipmentCount: t.relationCount("shipments", {
      description: "Of those, shipments still moving (not delivered or cancelled).",
      where: STILL_MOVING,
    }),
  }),
});
