import type { PortEntry } from "../../../domain/ports/port-directory";
import { builder } from "../../builder";
import type { GraphQLContext } from "../../context";

/**
 * Ports, loaded by UN/LOCODE through a dataloader: every field of a request that names a port (a
 * schedule's origin, a vessel's destination) shares one batched load per request.
 */
export const PortRef = builder.loadableObject("Port", {
  description:
    "A port of the catalogue: imported UN/LOCODE ports when an operator ran `quayside ports import`, else the embedded sea-ports set.",
  load: async (codes: string[], ctx: GraphQLContext) => {
    const found = await ctx.services.lookups.ports.findMany(codes);
    return found.map((port, i) => port ?? new Error(`No port ${codes[i]}`));
  },
  fields: (t) => ({
    locode: t.exposeString("locode", { description: "UN/LOCODE, e.g. NLRTM." }),
    name: t.exposeString("name"),
    city: t.exposeString("city", { nullable: true }),
    state: t.exposeString("state", { nullable: true, description: "Subdivision (state, province) name." }),
    country: t.exposeString("country", { nullable: true }),
    countryCode: t.exposeString("countryCode", { description: "ISO 3166-1 alpha-2." }),
    region: t.exposeString("region", {
      nullable: true,
      description: "UN M49 region of the country, e.g. Western Europe, Eastern Asia, Caribbean.",
    }),
    slug: t.exposeString("slug", { description: "<name>-<locode>, lower-case ASCII, e.g. rotterdam-nlrtm." }),
    lat: t.exposeFloat("lat", { nullable: true }),
    lng: t.exposeFloat("lng", { nullable: true }),
    timeZone: t.exposeString("timeZone", { nullable: true, description: "IANA time zone." }),
    functions: t.exposeString("functions", {
      nullable: true,
      description: "UN/LOCODE function classifier, e.g. 12345--- (1 port, 2 rail, 3 road, 4 airport...).",
    }),
    throughputRank: t.exposeInt("throughputRank", {
      nullable: true,
      description: "Rank among the 60 largest container ports by 2024 throughput.",
    }),
    busyness: t.exposeInt("busyness", {
      description:
        "Bigger is busier: 1000 minus the throughput rank for the 60 largest container ports, else the number of transport functions.",
    }),
  }),
});

/** A port by code for a field that may name an unknown one. */
export function loadPort(ctx: GraphQLContext, locode: string | null | undefined): Promise<PortEntry | null> {
  if (!locode) return Promise.resolve(null);
  return PortRef.getDataloader(ctx)
    .load(locode.trim().toUpperCase())
    .catch(() => null);
}

builder.queryFields((t) => ({
  port: t.field({
    type: PortRef,
    nullable: true,
    description: "A port by UN/LOCODE or carrier alias; null when the catalogue has none.",
    authScopes: { developerMode: true },
    args: { locode: t.arg.string({ required: true }) },
    resolve: (_root, { locode }, ctx) => loadPort(ctx, locode),
  }),
}));
