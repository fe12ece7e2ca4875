import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { CarrierDownRef } from "./carrier-down";
import { CarrierUnavailableRef } from "./carrier-unavailable";
import { CarrierUndetectableRef } from "./carrier-undetectable";
import { ContainerNotOnDocumentRef } from "./container-not-on-document";
import { PaymentOverdueRef } from "./payment-overdue";
import { ReferenceInvalidRef } from "./reference-invalid";
import { ReferenceNotFoundRef } from "./reference-not-found";
import { ReferenceTypeEnum } from "./reference-type";
import { ShipmentLimitReachedRef } from "./shipment-limit-reached";
import { TrackModeEnum } from "./track-mode";
import { TrackSuccessRef } from "./track-success";

/** `track`: the typed outcomes of a lookup. Every expected ending is a member of the union. */
export const TRACK_RESULT_MEMBERS = {
  tracked: TrackSuccessRef,
  not_found: ReferenceNotFoundRef,
  invalid_reference: ReferenceInvalidRef,
  carrier_down: CarrierDownRef,
  carrier_unavailable: CarrierUnavailableRef,
  no_candidates: CarrierUndetectableRef,
  shipment_limit_reached: ShipmentLimitReachedRef,
  payment_overdue: PaymentOverdueRef,
  container_not_on_document: ContainerNotOnDocumentRef,
} as const;

export const TrackResultRef = builder.unionType("TrackResult", {
  description: "Every way a lookup ends. Expected failures are members, not errors.",
  types: Object.values(TRACK_RESULT_MEMBERS),
  resolveType: (value) => TRACK_RESULT_MEMBERS[(value as TrackOutcome).kind],
});

builder.mutationFields((t) => ({
  track: t.withAuth({ $all: { developerMode: true, writableKey: true } }).field({
    type: TrackResultRef,
    nullable: true,
    description:
      "Tracks a reference for the organisation: resolves the carrier, accounts for the slot, stores the answer.",
    args: {
      reference: t.arg.string({
        required: true,
        description: "Container, bill-of-lading or booking number, e.g. MSCU1234566.",
      }),
      type: t.arg({ type: ReferenceTypeEnum, required: false, description: "Detected when absent." }),
      carrier: t.arg.string({ required: false, description: "SCAC, e.g. MAEU. Detected when absent." }),
      force: t.arg.boolean({
        required: false,
        description: "Skip the 12-hour wait (capped per reference per day).",
      }),
      mode: t.arg({ type: TrackModeEnum, required: false, defaultValue: "FETCH" }),
      localOnly: t.arg.boolean({
        required: false,
        description: "Without a carrier: one locally resolved attempt only.",
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.tracking.track(ctx.principal, {
        reference: args.reference,
        type: args.type ?? undefined,
        carrier: args.carrier ?? undefined,
        force: args.force ?? false,
        freshness: args.mode === "SERVE_FRESH" ? "serve-fresh" : "fetch",
        localOnly: args.localOnly ?? false,
        surface: ctx.surface,
      }),
  }),
}));
