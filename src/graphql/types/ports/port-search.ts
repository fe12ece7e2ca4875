import { z } from "zod";
import { MAX_PORT_RESULTS, type PortEntry, type PortSource } from "../../../domain/ports/port-directory";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { PortRef } from "./port";
import { PortCatalogueEnum, portCatalogueOf } from "./port-catalogue";

const PortSearchRef = builder.objectRef<{ source: PortSource; ports: PortEntry[] }>("PortSearch").implement({
  fields: (t) => ({
    source: t.field({ type: PortCatalogueEnum, resolve: (r) => portCatalogueOf(r.source) }),
    total: t.int({ description: "How many ports are listed.", resolve: (r) => r.ports.length }),
    items: t.field({ type: [PortRef], extensions: LIST_SIZE(MAX_PORT_RESULTS), resolve: (r) => r.ports }),
  }),
});

builder.queryFields((t) => ({
  ports: t.field({
    type: PortSearchRef,
    nullable: true,
    description:
      "Port search on UN/LOCODE (or a carrier alias such as CNSHA), name or city, ignoring case and accents: at most 25, exact locode matches first, then busiest.",
    authScopes: { developerMode: true },
    args: {
      search: t.arg.string({
        required: true,
        validate: z.string().trim().min(2, "search needs at least 2 characters").max(100),
      }),
      first: t.arg.int({
        required: false,
        defaultValue: MAX_PORT_RESULTS,
        validate: z.number().int().min(1).max(MAX_PORT_RESULTS),
      }),
    },
    resolve: (_root, { search, first }, ctx) =>
      ctx.services.lookups.ports.search(search.trim(), first ?? MAX_PORT_RESULTS),
  }),
}));
