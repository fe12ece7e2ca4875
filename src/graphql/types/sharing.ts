import { findCarrierByScac } from "../../domain/carriers/carrier-directory";
import { type SharedShipmentView, sharedView } from "../../domain/sharing/share-view";
import type { TrackingDocument } from "../../domain/tracking/model";
import { builder } from "../builder";
import { GeoPointRef, LegTypeEnum } from "./tracking";

const SharedMilestone = builder
  .objectRef<SharedShipmentView["milestones"][number]>("SharedMilestone")
  .implement({
    fields: (t) => ({
      date: t.exposeString("date", { nullable: true }),
      description: t.exposeString("description"),
      place: t.exposeString("place"),
      actual: t.exposeBoolean("actual"),
    }),
  });

const SharedContainer = builder
  .objectRef<SharedShipmentView["containers"][number]>("SharedContainer")
  .implement({
    fields: (t) => ({
      number: t.exposeString("number"),
      description: t.exposeString("description", { nullable: true }),
      status: t.exposeString("status"),
    }),
  });

const SharedStop = builder.objectRef<SharedShipmentView["route"][number]>("SharedStop").implement({
  fields: (t) => ({ lat: t.exposeFloat("lat"), lng: t.exposeFloat("lng"), name: t.exposeString("name") }),
});

const SharedLeg = builder.objectRef<SharedShipmentView["paths"][number]>("SharedLeg").implement({
  description: "A leg as the page draws it: a sea leg along real sea lanes (MARNET), a land leg straight.",
  fields: (t) => ({
    kind: t.field({ type: LegTypeEnum, resolve: (leg) => leg.kind }),
    path: t.field({
      type: [GeoPointRef],
      extensions: { listSize: 400 },
      description: "The points to draw, in order; longitudes unwrapped across the antimeridian.",
      resolve: (leg) => leg.path.map(([lat, lng]) => ({ lat, lng })),
    }),
  }),
});

const SharedShipment = builder.objectRef<SharedShipmentView>("SharedShipment").implement({
  description: "The sanitised journey a public share page shows: never account, customer or key data.",
  fields: (t) => ({
    reference: t.exposeString("reference"),
    referenceType: t.exposeString("referenceType"),
    carrierName: t.exposeString("carrierName"),
    status: t.exposeString("status"),
    origin: t.exposeString("origin"),
    destination: t.exposeString("destination"),
    eta: t.exposeString("eta", { nullable: true }),
    etaActual: t.exposeBoolean("etaActual"),
    updatedAt: t.exposeString("updatedAt"),
    containers: t.field({
      type: [SharedContainer],
      extensions: { listSize: 10 },
      resolve: (v) => v.containers,
    }),
    milestones: t.field({
      type: [SharedMilestone],
      extensions: { listSize: 30 },
      resolve: (v) => v.milestones,
    }),
    route: t.field({ type: [SharedStop], extensions: { listSize: 10 }, resolve: (v) => v.route }),
    paths: t.field({
      type: [SharedLeg],
      extensions: { listSize: 6 },
      description: "The journey's legs as drawn: sea legs along real sea lanes (MARNET), land legs straight.",
      resolve: (v) => v.paths,
    }),
  }),
});

builder.queryFields((t) => ({
  sharedShipment: t.field({
    type: SharedShipment,
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
        stored.content as TrackingDocument,
        carrier?.name ?? stored.document.carrierScac,
        stored.document.lastSyncedAt ?? stored.version.fetchedAt,
      );
    },
  }),
}));
