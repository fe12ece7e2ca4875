import type { SharedShipmentView } from "../../../domain/sharing/share-view";
import { builder } from "../../builder";

export const SharedStopRef = builder.objectRef<SharedShipmentView["route"][number]>("SharedStop").implement({
  fields: (t) => ({ lat: t.exposeFloat("lat"), lng: t.exposeFloat("lng"), name: t.exposeString("name") }),
});
