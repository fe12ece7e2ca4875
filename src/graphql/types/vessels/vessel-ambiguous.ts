import type { VesselLookupOutcome } from "../../../domain/vessels/vessel-positions.service";
import { builder } from "../../builder";
import { LookupAllowanceRef } from "../lookups/lookup-allowance";
import { VesselIdentityRef } from "./vessel-identity";

export const VesselAmbiguousRef = builder
  .objectRef<Extract<VesselLookupOutcome, { kind: "ambiguous" }>>("VesselAmbiguous")
  .implement({
    description:
      "Several vessels bear the name asked (names are not unique): none is chosen. Ask again by IMO number. The lookup reached a source and is spent.",
    fields: (t) => ({
      name: t.string({
        nullable: true,
        description: "The name asked (nullable only to match VesselNotFound.name in one selection).",
        resolve: (o) => o.query.name,
      }),
      candidates: t.field({
        type: [VesselIdentityRef],
        description: "The vessels of that name the first source knowing the name listed (at most 10).",
        resolve: (o) => o.candidates,
      }),
      allowance: t.field({ type: LookupAllowanceRef, nullable: true, resolve: (o) => o.allowance }),
    }),
  });
