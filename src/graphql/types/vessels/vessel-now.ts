import { currentPin } from "../../../domain/routes/current-pin";
import { currentPosition } from "../../../domain/tracking/shipment-facts";
import { type VesselNow, vesselNow, vesselUnderWay } from "../../../domain/vessels/vessel-now";
import { builder } from "../../builder";
import { legsOf } from "../tracking/in-document";
import { segmentsOf } from "../tracking/journey-facts";
import { TrackingDocumentRef } from "../tracking/tracking-document";

const VesselNowSourceEnum = builder.enumType("VesselNowSource", {
  values: {
    AIS: { value: "ais", description: "The ship's own AIS report, at most 6 hours old." },
    ROUTE_ESTIMATE: {
      value: "route_estimate",
      description: "No recent AIS report: the point along the sea route the time since departure puts it at.",
    },
  } as const,
});

const VesselNowRef = builder.objectRef<VesselNow>("VesselNow").implement({
  description: "Where the vessel carrying the shipment is now, and how that is known.",
  fields: (t) => ({
    name: t.exposeString("name"),
    imo: t.exposeInt("imo", { nullable: true }),
    voyage: t.exposeString("voyage", { nullable: true }),
    lat: t.exposeFloat("lat"),
    lng: t.exposeFloat("lng"),
    source: t.field({ type: VesselNowSourceEnum, resolve: (v) => v.source }),
    observedAt: t.expose("observedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the AIS report was made; null for an estimate.",
    }),
  }),
});

builder.objectFields(TrackingDocumentRef, (t) => ({
  vesselNow: t.field({
    type: VesselNowRef,
    nullable: true,
    description:
      "The vessel of the leg under way and where it is now: its stored AIS report when at most 6 hours old (no lookup is spent), else the route estimate. Null when no vessel leg is under way.",
    resolve: async (d, _a, ctx) => {
      const underWay = vesselUnderWay(d.content, legsOf(d.content));
      if (!underWay) return null;
      const { imo, mmsi } = underWay.vessel;
      const report =
        mmsi !== null || imo !== null
          ? await ctx.services.db.prisma.vesselPosition.findFirst({
              where: mmsi !== null ? { mmsi: String(mmsi) } : { imo: String(imo) },
              orderBy: { positionAt: "desc" },
              select: { lat: true, lon: true, positionAt: true },
            })
          : null;
      const now = ctx.services.clock.now();
      const estimate = currentPin(d.content, segmentsOf(d.content), currentPosition(d.content), now);
      return vesselNow(underWay, report, estimate, now);
    },
  }),
}));
