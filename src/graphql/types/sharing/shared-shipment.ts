import { findCarrierByScac } from "../../../domain/carriers/carrier-directory";
import { inlandLegs } from "../../../domain/eta/final-destination";
import { type SharedShipmentView, sharedView } from "../../../domain/sharing/share-view";
import { builder } from "../../builder";
import { InlandLegRef, partnerFactsOf } from "../eta/final-destination-eta";
import { ReferenceTypeEnum } from "../tracking/reference-type";
import { ShipmentStatusEnum } from "../tracking/shipment-status";
import { SharedContainerRef } from "./shared-container";
import { SharedLegRef } from "./shared-leg";
import { SharedMilestoneRef } from "./shared-milestone";
import { SharedStopRef } from "./shared-stop";

const SharedShipmentRef = builder.objectRef<SharedShipmentView>("SharedShipment").implement({
  description: "The sanitised journey a public share page shows: never account, customer or key data.",
  fields: (t) => ({
    reference: t.exposeString("reference"),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (v) => v.referenceType }),
    carrierName: t.exposeString("carrierName"),
    status: t.field({ type: ShipmentStatusEnum, resolve: (v) => v.status }),
    origin: t.exposeString("origin"),
    destination: t.exposeString("destination"),
    eta: t.exposeString("eta", { nullable: true }),
    etaActual: t.exposeBoolean("etaActual"),
    updatedAt: t.exposeString("updatedAt"),
    containers: t.field({
      type: [SharedContainerRef],
      extensions: { listSize: 10 },
      resolve: (v) => v.containers,
    }),
    milestones: t.field({
      type: [SharedMilestoneRef],
      extensions: { listSize: 30 },
      resolve: (v) => v.milestones,
    }),
    route: t.field({ type: [SharedStopRef], extensions: { listSize: 10 }, resolve: (v) => v.route }),
    paths: t.field({
      type: [SharedLegRef],
      extensions: { listSize: 6 },
      description: "The journey's legs as drawn: sea legs along real sea lanes (MARNET), land legs straight.",
      resolve: (v) => v.paths,
    }),
    inlandLegs: t.field({
      type: [InlandLegRef],
      extensions: { listSize: 6 },
      description:
        "Road, rail and barge legs drawn from the shipment's partner positions (its organisation's partner sources); empty without them.",
      resolve: (v) => v.inlandLegs,
    }),
  }),
});

builder.queryFields((t) => ({
  sharedShipment: t.field({
    type: SharedShipmentRef,
    nullable: true,
    description:
      "The public view behind a share link; null once the link is revoked or the shipment untracked.",
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_r, { token }, ctx) => {
      const shipment = await ctx.services.shipments.sharedShipment(token);
      if (!shipment?.documentId) return null;
      const document = await ctx.services.db.prisma.carrierDocument.findUnique({
        where: { id: shipment.documentId },
      });
      const stored = document ? await ctx.services.documents.latest(document) : null;
      if (!stored) return null;
      const carrier = findCarrierByScac(stored.document.carrierScac, ctx.services.carriers);
      return sharedView(
        stored.content,
        carrier?.name ?? stored.document.carrierScac,
        stored.document.lastSyncedAt ?? stored.version.fetchedAt,
        inlandLegs(stored.content, await partnerFactsOf(ctx, shipment)),
      );
    },
  }),
}));
