import { builder } from "../../builder";

export const ShareLinkRef = builder
  .objectRef<{ token: string; createdAt: Date; created: boolean; shipmentName: string }>("ShareLink")
  .implement({
    description: "A public, sanitised, revocable page of one shipment.",
    fields: (t) => ({
      token: t.exposeString("token"),
      path: t.string({
        description: "The page's path on this service.",
        resolve: (l) => `/share/${l.token}`,
      }),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
      created: t.exposeBoolean("created", {
        description: "False when the shipment already had a live link.",
      }),
      shipmentId: t.exposeString("shipmentName"),
    }),
  });
