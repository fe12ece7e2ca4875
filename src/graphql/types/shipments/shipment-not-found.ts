import { builder } from "../../builder";

export const ShipmentNotFoundRef = builder.objectRef<{ id: string }>("ShipmentNotFound").implement({
  description: "Not a shipment of this organisation (or, for changes, not one the key's own user added).",
  fields: (t) => ({ id: t.exposeString("id") }),
});
