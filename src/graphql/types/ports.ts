import { z } from "zod";
import { MAX_PORT_RESULTS, type PortEntry, type PortSource } from "../../domain/ports/port-directory";
import { builder } from "../builder";
import type { GraphQLContext } from "../context";
import { LIST_SIZE } from "../limits";

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

const PortSearchRef = builder.objectRef<{ source: PortSource; ports: PortEntry[] }>("PortSearch").implement({
  fields: (t) => ({
    source: t.string({
      description: "unlocode (imported UN/LOCODE ports) or sea-ports (the embedded set).",
      resolve: (r) => r.source,
    }),
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
  port: t.field({
    type: PortRef,
    nullable: true,
    description: "A port by UN/LOCODE or carrier alias; null when the catalogue has none.",
    authScopes: { developerMode: true },
    args: { locode: t.arg.string({ required: true }) },
    resolve: (_root, { locode }, ctx) => loadPort(ctx, locode),
  }),
}));
