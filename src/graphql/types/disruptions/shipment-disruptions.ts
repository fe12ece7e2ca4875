import type { DisruptionRecord } from "../../../domain/disruptions/disruptions.service";
import type { MatchType } from "../../../domain/disruptions/matching";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { ShipmentDisruptionRef } from "./shipment-disruption";

export const ShipmentDisruptionsRef = builder
  .objectRef<{
    shipmentId: string;
    reference: string;
    items: { disruption: DisruptionRecord; matchTypes: MatchType[] }[];
  }>("ShipmentDisruptions")
  .implement({
    description: "The active disruptions touching one shipment: at most ten, most severe first.",
    fields: (t) => ({
      shipmentId: t.exposeString("shipmentId", { description: "SHP-<digits>." }),
      reference: t.exposeString("reference"),
      items: t.field({ type: [ShipmentDisruptionRef], extensions: LIST_SIZE(10), resolve: (s) => s.items }),
    }),
  });
