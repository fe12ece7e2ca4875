import type { VesselLookupOutcome } from "../../../domain/vessels/vessel-positions.service";
import { builder } from "../../builder";
import { LookupAllowanceRef } from "../lookups/lookup-allowance";

export const VesselNotFoundRef = builder
  .objectRef<Extract<VesselLookupOutcome, { kind: "not_found" }>>("VesselNotFound")
  .implement({
    description: "No source knows where this vessel is.",
    fields: (t) => ({
      imo: t.string({
        nullable: true,
        description: "The IMO number asked; null for a name.",
        resolve: (o) => o.query.imo,
      }),
      mmsi: t.string({
        nullable: true,
        description: "The MMSI asked, if any.",
        resolve: (o) => o.query.mmsi,
      }),
      name: t.string({
        nullable: true,
        description: "The name asked; null for an IMO number.",
        resolve: (o) => o.query.name,
      }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });
