import type { DisruptionRecord } from "../../../domain/disruptions/disruptions.service";
import type { MatchType } from "../../../domain/disruptions/matching";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { DisruptionRef } from "./disruption";
import { DisruptionMatchTypeEnum } from "./disruption-match-type";

export const ShipmentDisruptionRef = builder
  .objectRef<{ disruption: DisruptionRecord; matchTypes: MatchType[] }>("ShipmentDisruption")
  .implement({
    description: "An active disruption touching a shipment, and how.",
    fields: (t) => ({
      disruption: t.field({ type: DisruptionRef, resolve: (s) => s.disruption }),
      matchTypes: t.field({
        type: [DisruptionMatchTypeEnum],
        extensions: LIST_SIZE(6),
        resolve: (s) => s.matchTypes,
      }),
    }),
  });
