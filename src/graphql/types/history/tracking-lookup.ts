import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import type { LookupOutcome, LookupSurface } from "../../../domain/history/tracking-history.service";
import type { TrackingLookup } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { CarrierRef } from "../carriers/carrier";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { TrackingDocumentRef } from "../tracking/tracking-document";
import { LookupOutcomeEnum } from "./lookup-outcome";
import { LookupSurfaceEnum } from "./lookup-surface";

export const TrackingLookupRef = builder.objectRef<TrackingLookup>("TrackingLookup").implement({
  description:
    "One logged track of a reference (compat `/history` entry): who asked is the organisation; the document is the exact stored version the call was answered with.",
  fields: (t) => ({
    id: t.int({
      description:
        "The history id (compat `/history?id=`): numbered per organisation, 1 for its first logged call.",
      resolve: (l) => l.number,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the call was answered." }),
    // The log stores both as text, written only from these closed sets.
    surface: t.field({ type: LookupSurfaceEnum, resolve: (l) => l.surface as LookupSurface }),
    reference: t.exposeString("reference", { description: "The reference as looked up." }),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (l) => l.referenceType }),
    carrierScac: t.exposeString("carrierScac", { nullable: true, description: "The carrier that answered." }),
    carrier: t.field({
      type: CarrierRef,
      nullable: true,
      resolve: (l, _a, ctx) =>
        l.carrierScac ? (findCarrierByScac(l.carrierScac, ctx.services.carriers) ?? null) : null,
    }),
    outcome: t.field({ type: LookupOutcomeEnum, resolve: (l) => l.outcome as LookupOutcome }),
    fromCache: t.exposeBoolean("fromCache", { description: "Answered from the store, not fetched then." }),
    document: t.field({
      type: TrackingDocumentRef,
      nullable: true,
      description: "The stored document version the call was answered with (null for a refusal).",
      resolve: (l, _a, ctx) => ctx.services.history.documentOf(l),
    }),
  }),
});

builder.queryFields((t) => ({
  trackingLookup: t.withAuth({ developerMode: true }).field({
    type: TrackingLookupRef,
    nullable: true,
    description:
      "One logged call by its history id; null when it is not the organisation's, or not a call about `reference` (of `type`) when those are given.",
    args: {
      id: t.arg.int({ required: true }),
      reference: t.arg.string({ required: false }),
      type: t.arg({ type: ReferenceTypeEnum, required: false }),
    },
    resolve: (_root, { id, reference, type }, ctx) =>
      ctx.services.history.lookup(ctx.principal.organization.id, id, {
        reference: reference ?? undefined,
        type: type ?? undefined,
      }),
  }),
}));
