import { shipmentName } from "../../../domain/shipments/shipment-id";
import { builder } from "../../builder";
import { WRITE_SCOPES } from "../../scopes";
import { ShipmentNotFoundRef } from "../shipments/shipment-not-found";
import { ShareLinkRef } from "./share-link";

const ShareShipmentResultRef = builder.unionType("ShareShipmentResult", {
  types: [ShareLinkRef, ShipmentNotFoundRef],
  resolveType: (v) => ("token" in (v as object) ? ShareLinkRef : ShipmentNotFoundRef),
});

builder.mutationFields((t) => ({
  shareShipment: t.field({
    type: ShareShipmentResultRef,
    nullable: true,
    description: "Creates (or returns) the public page of a shipment of the organisation.",
    authScopes: WRITE_SCOPES,
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const shared = await ctx.services.shipments.share(ctx.principal!, id);
      if (!shared) return { id };
      return {
        token: shared.link.token,
        createdAt: shared.link.createdAt,
        created: shared.created,
        shipmentName: shipmentName(shared.shipment.number),
      };
    },
  }),
}));
