import type { SharedShipmentView } from "../../../domain/sharing/share-view";
import { builder } from "../../builder";
import { ShipmentStatusEnum } from "../tracking/shipment-status";

export const SharedContainerRef = builder
  .objectRef<SharedShipmentView["containers"][number]>("SharedContainer")
  .implement({
    fields: (t) => ({
      number: t.exposeString("number"),
      description: t.exposeString("description", { nullable: true }),
      status: t.field({ type: ShipmentStatusEnum, resolve: (c) => c.status }),
    }),
  });
