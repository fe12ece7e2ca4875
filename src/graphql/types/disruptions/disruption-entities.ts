import type { DisruptionRecord } from "../../../domain/disruptions/disruptions.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";

export const DisruptionEntitiesRef = builder
  .objectRef<DisruptionRecord["entities"]>("DisruptionEntities")
  .implement({
    description: "What the event's reports name, as codes.",
    fields: (t) => ({
      ports: t.exposeStringList("ports", {
        extensions: LIST_SIZE(20),
        description: "UN/LOCODEs.",
      }),
      carriers: t.exposeStringList("carriers", {
        extensions: LIST_SIZE(20),
        description: "SCACs.",
      }),
      countries: t.exposeStringList("countries", {
        extensions: LIST_SIZE(20),
        description: "ISO 3166 alpha-2 codes.",
      }),
      chokepoints: t.exposeStringList("chokepoints", {
        extensions: LIST_SIZE(11),
        description:
          "Chokepoint ids: suez_canal, bab_el_mandeb, strait_of_hormuz, malacca_strait, panama_canal, bosporus_strait, gibraltar_strait, cape_of_good_hope, dover_strait, taiwan_strait, korea_strait.",
      }),
    }),
  });
