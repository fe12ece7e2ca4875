import { matchOf, type VesselLookupOutcome } from "../../../domain/vessels/vessel-positions.service";
import { builder } from "../../builder";
import { LookupAllowanceRef } from "../lookups/lookup-allowance";
import { VesselMatchEnum } from "./vessel-match";
import { VesselPositionRef } from "./vessel-position";

export const VesselTrackRef = builder
  .objectRef<Extract<VesselLookupOutcome, { kind: "found" }>>("VesselTrack")
  .implement({
    fields: (t) => ({
      position: t.field({ type: VesselPositionRef, resolve: (o) => o.position }),
      matchedBy: t.field({
        type: VesselMatchEnum,
        description: "Whether the vessel asked was read as an IMO number or as a name.",
        resolve: (o) => matchOf(o.query),
      }),
      cached: t.exposeBoolean("cached", { description: "Served from the 5-minute cache (free)." }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });
