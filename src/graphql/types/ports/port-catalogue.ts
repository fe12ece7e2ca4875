import type { PortSource } from "../../../domain/ports/port-directory";
import { builder } from "../../builder";

/** The domain names the embedded set with a hyphen, which a GraphQL enum value cannot hold. */
const VALUE_OF = { unlocode: "unlocode", "sea-ports": "sea_ports" } as const satisfies Record<
  PortSource,
  string
>;

export const portCatalogueOf = (source: PortSource) => VALUE_OF[source];

export const PortCatalogueEnum = builder.enumType("PortCatalogue", {
  description: "Which port catalogue answered.",
  values: {
    unlocode: { description: "The UN/LOCODE ports an operator imported (`quayside ports import`)." },
    sea_ports: { description: "The embedded sea-ports set, when nothing was imported." },
  } as const,
});
