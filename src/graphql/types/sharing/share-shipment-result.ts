import { shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentNotFoundRef } from "../shipments/shipment-not-found";
import { ShareLinkRef } from "./share-link";
import { ShipmentNotShareableRef } from "./shipment-not-shareable";

const ShareShipmentResultRef = builder.unionType("ShareShipmentResult", {
  types: [ShareLinkRef, ShipmentNotShareableRef, ShipmentNotFoundRef],
  resolveType: (v) =>
    "token" in (v as object)
      ? ShareLinkRef
      : "notShareable" in (v as object)
        ? ShipmentNotShareableRef
        : ShipmentNotFoundRef,
});

builder.mutationFields((t) => ({
  shareShipment: t.withAuth(WRITE_SCOPES).field({
    type: ShareShipmentResultRef,
    nullable: true,
    description:
      "Creates (or returns) the public page of a shipment of the organisation; refused (ShipmentNotShareable) while no carrier has found it, since the page would answer 404.",
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const shared = await ctx.services.shipments.share(ctx.principal, id);
      if (!shared) return { id };
      if ("notShareable" in shared) {
        return {
          notShareable: true as const,
          shipmentName: shipmentName(shared.notShareable.number),
          reference: shared.notShareable.reference,
        };
      }
      return {
        token: shared.link.token,
        createdAt: shared.link.createdAt,
        created: shared.created,
        shipmentName: shipmentName(shared.shipment.number),
      };
    },
  }),
}));
