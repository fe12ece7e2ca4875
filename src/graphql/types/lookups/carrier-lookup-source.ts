import type { LookupSource } from "../../../domain/lookups/carrier-lookup";
import { builder } from "../../builder";

/** The domain names two sources with a hyphen, which a GraphQL enum value cannot hold. */
const VALUE_OF = {
  history: "history",
  spec: "spec",
  "bl-sealines": "bl_sealines",
  "bl-prefix": "bl_prefix",
  bic: "bic",
  "prefix-popularity": "prefix_popularity",
} as const satisfies Record<LookupSource, string>;

export const carrierLookupSourceOf = (source: LookupSource) => VALUE_OF[source];

export const CarrierLookupSourceEnum = builder.enumType("CarrierLookupSource", {
  description: "The evidence a carrier lookup candidate rests on, strongest first.",
  values: {
    history: { description: "High confidence: the carrier answered for this reference before." },
    spec: { description: "High: the number matches the carrier's published bill-of-lading layout." },
    bl_sealines: { description: "High: the bill of lading starts with one of the line's SCACs." },
    bl_prefix: { description: "Medium: another bill-of-lading prefix the carrier uses." },
    bic: { description: "Medium: the container's owner prefix is the carrier's." },
    prefix_popularity: {
      description: "Low: the carrier answered most often for references with the same prefix.",
    },
  } as const,
});
