import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { CarrierUsedRef } from "./carrier-used";
import { DocumentChangeRef } from "./document-change";
import { TrackingDocumentRef } from "./tracking-document";

type Tracked = Extract<TrackOutcome, { kind: "tracked" }>;
export const TrackSuccessRef = builder.objectRef<Tracked>("TrackSuccess").implement({
  fields: (t) => ({
    shipment: t.prismaField({
      type: "Shipment",
      resolve: (query, o, _a, ctx) =>
        ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...query, where: { id: o.shipment.id } }),
    }),
    document: t.field({ type: TrackingDocumentRef, resolve: (o) => o.stored }),
    carrier: t.field({ type: CarrierUsedRef, resolve: (o) => o.carrier }),
    fromCache: t.exposeBoolean("fromCache", { description: "Served from the store, not fetched now." }),
    staleReason: t.string({
      nullable: true,
      description: "Only when the carrier could not be reached and a stored document was served.",
      resolve: (o) => o.stale?.reason ?? null,
    }),
    staleLastSyncedAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (o) => o.stale?.lastSyncedAt ?? null,
    }),
    slotConsumed: t.exposeBoolean("slotConsumed", {
      description: "Whether this lookup took a shipment slot.",
    }),
    lookupId: t.int({
      description: "The lookup log entry (compat /history id).",
      resolve: (o) => o.lookupId(),
    }),
    changes: t.field({
      type: [DocumentChangeRef],
      extensions: LIST_SIZE(10),
      description: "What changed since the previous stored version; empty for the first.",
      resolve: (o) => o.changes,
    }),
  }),
});
