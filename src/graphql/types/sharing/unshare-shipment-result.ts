import { shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentNotFoundRef } from "../shipments/shipment-not-found";
import { ShareRevokedRef } from "./share-revoked";

const UnshareShipmentResultRef = builder.unionType("UnshareShipmentResult", {
  types: [ShareRevokedRef, ShipmentNotFoundRef],
  resolveType: (v) => ("revoked" in (v as object) ? ShareRevokedRef : ShipmentNotFoundRef),
});

builder.mutationFields((t) => ({
  unshareShipment: t.withAuth(WRITE_SCOPES).field({
    type: UnshareShipmentResultRef,
    nullable: true,
    description: "Revokes the public page: the link stops resolving at once.",
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const result = await ctx.services.shipments.revokeShare(ctx.principal, id);
      return result
        ? { revoked: result.revoked, shipmentName: shipmentName(result.shipment.number) }
        : { id };
    },
  }),
}));
