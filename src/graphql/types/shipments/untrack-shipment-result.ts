import { shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentNotFoundRef } from "./shipment-not-found";
import { ShipmentUntrackedRef } from "./shipment-untracked";

const UntrackShipmentResultRef = builder.unionType("UntrackShipmentResult", {
  types: [ShipmentUntrackedRef, ShipmentNotFoundRef],
  resolveType: (v) => ("name" in (v as object) ? ShipmentUntrackedRef : ShipmentNotFoundRef),
});

builder.mutationFields((t) => ({
  untrackShipment: t.withAuth(WRITE_SCOPES).field({
    type: UntrackShipmentResultRef,
    nullable: true,
    description: "Stops tracking a shipment the key's own user added (soft delete; the slot is freed).",
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const deleted = await ctx.services.shipments.untrack(ctx.principal, id);
      return deleted ? { id: deleted.id, name: shipmentName(deleted.number) } : { id };
    },
  }),
}));
