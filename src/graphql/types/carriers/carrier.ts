import { z } from "zod";
import {
  type Carrier,
  isTracked,
  scacCodesOf,
  searchCarriers,
} from "../../../domain/carriers/carrier-directory";
import { builder } from "../../builder";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { CarrierStatusEnum } from "./carrier-status";

export const CarrierRef = builder.objectRef<Carrier>("Carrier").implement({
  description: "An ocean carrier (shipping line) of the directory.",
  fields: (t) => ({
    scac: t.exposeString("scac", { description: "Standard Carrier Alpha Code, 4 characters (e.g. MAEU)." }),
    scacCodes: t.stringList({
      description: "Every code the carrier is known by, the main SCAC first (e.g. MSCU, MEDU).",
      resolve: (c) => scacCodesOf(c),
    }),
    name: t.exposeString("name"),
    slug: t.exposeString("slug"),
    status: t.field({ type: CarrierStatusEnum, resolve: (c) => c.status }),
    tracked: t.boolean({
      description:
        "Whether this service tracks with the carrier: true unless the operator disabled it or the deployment has no connection to it (status `not_connected`); a carrier under maintenance is still tracked, and says so in its status.",
      resolve: (c) => isTracked(c),
    }),
    ownerPrefixes: t.exposeStringList("ownerPrefixes", {
      description: "BIC owner prefixes of the containers it operates (e.g. MSKU).",
    }),
    blPrefixes: t.exposeStringList("blPrefixes", {
      description: "Prefixes its bill-of-lading numbers carry.",
    }),
    resolvesBookings: t.exposeBoolean("resolvesBookings"),
    supportedTypes: t.field({
      type: [ReferenceTypeEnum],
      description: "The reference types it can be asked about.",
      resolve: (c) => [...c.supportedTypes],
    }),
    dcsa: t.exposeBoolean("dcsa", { description: "Publishes a DCSA Track & Trace API." }),
  }),
});

builder.queryFields((t) => ({
  carriers: t.field({
    type: [CarrierRef],
    // Nullable at the root so a refusal of this field leaves the rest of the answer intact.
    nullable: true,
    description:
      "The carrier directory, most popular first. `search` (at least 2 characters) matches SCAC, name or slug, case-insensitively; exact SCAC or slug matches come first.",
    authScopes: { developerMode: true },
    args: {
      search: t.arg.string({
        required: false,
        validate: z.string().trim().min(2, "search needs at least 2 characters").max(100),
      }),
    },
    resolve: (_root, { search }, ctx) => searchCarriers(search ?? "", ctx.services.carriers),
  }),
}));
