import type { VesselLookupOutcome } from "../../../domain/vessels/vessel-positions.service";
import { builder } from "../../builder";
import { UPSTREAM_CALL } from "../../limits";
import { LookupInputInvalidRef } from "../lookups/lookup-input-invalid";
import { LookupLimitExceededRef } from "../lookups/lookup-limit-exceeded";
import { LookupProviderUnavailableRef } from "../lookups/lookup-provider-unavailable";
import { VesselAmbiguousRef } from "./vessel-ambiguous";
import { VesselNotFoundRef } from "./vessel-not-found";
import { VesselTrackRef } from "./vessel-track";

const MEMBERS = {
  found: VesselTrackRef,
  not_found: VesselNotFoundRef,
  ambiguous: VesselAmbiguousRef,
  limit_exceeded: LookupLimitExceededRef,
  unavailable: LookupProviderUnavailableRef,
  invalid: LookupInputInvalidRef,
} as const;

const VesselTrackOutcomeRef = builder.unionType("VesselTrackOutcome", {
  types: Object.values(MEMBERS),
  resolveType: (value) => MEMBERS[(value as VesselLookupOutcome).kind],
});

builder.queryFields((t) => ({
  vesselPosition: t.withAuth({ developerMode: true }).field({
    extensions: UPSTREAM_CALL,
    type: VesselTrackOutcomeRef,
    nullable: true,
    description:
      "Where a vessel is now, by IMO number (7 digits; the MMSI, 9 digits, is optional and helps an AIS source), by name alone, or by `vessel` as a person writes it. A name is matched whole, ignoring case, accents, punctuation and spacing; when several vessels bear it the answer is VesselAmbiguous listing them. Served from a 5-minute cache (free) or spends one lookup of the key's daily vessel-and-schedule allowance.",
    args: {
      imo: t.arg.string({ description: "IMO number, 7 digits, e.g. 9811000." }),
      mmsi: t.arg.string({ description: "MMSI, 9 digits; only with imo." }),
      name: t.arg.string({ description: "The vessel's name, e.g. EVER GIVEN; without imo or mmsi." }),
      vessel: t.arg.string({
        description:
          "A name or an IMO number as a person writes it (EVER GIVEN, 9811000, IMO 9811000), read as an IMO number when it is one, else as a name; alone. Any other number (an MMSI, a mistyped IMO number) is refused as LookupInputInvalid.",
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.lookups.vesselPositions.track(ctx.principal, {
        imo: args.imo,
        mmsi: args.mmsi,
        name: args.name,
        vessel: args.vessel,
      }),
  }),
}));
