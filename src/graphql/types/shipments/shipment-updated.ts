import type { ShipmentChange } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";

export const ShipmentUpdatedRef = builder
  .objectRef<Extract<ShipmentChange, { kind: "updated" }>>("ShipmentUpdated")
  .implement({
    fields: (t) => ({
      shipment: t.prismaField({
        type: "Shipment",
        resolve: (q, u, _a, ctx) =>
          ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...q, where: { id: u.shipment.id } }),
      }),
      unchanged: t.exposeBoolean("unchanged", {
        description: "The values sent were the ones it already had.",
      }),
      stillFailed: t.exposeBoolean("stillFailed", {
        description: "Re-tracked, and the carrier still finds nothing.",
      }),
    }),
  });
