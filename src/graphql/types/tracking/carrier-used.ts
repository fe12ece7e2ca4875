import { builder } from "../../builder";

export const CarrierUsedRef = builder
  .objectRef<{ scac: string; name: string; provided: boolean }>("CarrierUsed")
  .implement({
    fields: (t) => ({
      scac: t.exposeString("scac", { description: "The carrier that answered." }),
      name: t.exposeString("name"),
      provided: t.exposeBoolean("provided", { description: "Whether the caller named it." }),
    }),
  });
