import { builder } from "../../builder";

export const ShareRevokedRef = builder
  .objectRef<{ revoked: number; shipmentName: string }>("ShareRevoked")
  .implement({
    fields: (t) => ({ revoked: t.exposeInt("revoked"), shipmentId: t.exposeString("shipmentName") }),
  });
