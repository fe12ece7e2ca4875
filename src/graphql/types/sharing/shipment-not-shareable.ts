import { builder } from "../../builder";

/** Refused share: the page would show the carrier's journey, and there is none yet. */
export const ShipmentNotShareableRef = builder
  .objectRef<{ notShareable: true; shipmentName: string; reference: string }>("ShipmentNotShareable")
  .implement({
    description:
      "The shipment has no journey to show: no carrier has found its reference yet, so a share link would answer 404. Share it once a carrier has answered.",
    fields: (t) => ({
      shipmentId: t.exposeString("shipmentName"),
      message: t.string({
        description: "What happened and what to do, in plain words.",
        resolve: (r) =>
          `${r.reference} cannot be shared yet: no carrier has found it, so the page would have no journey to show. Share it once a carrier has answered.`,
      }),
    }),
  });
