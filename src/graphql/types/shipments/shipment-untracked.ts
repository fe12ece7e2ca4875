import { builder } from "../../builder";

export const ShipmentUntrackedRef = builder
  .objectRef<{ id: string; name: string }>("ShipmentUntracked")
  .implement({
    fields: (t) => ({
      id: t.exposeID("id"),
      shipmentId: t.exposeString("name", { description: "The real SHP id of the row, whatever was sent." }),
    }),
  });
