import type { RouteSegment } from "../../../domain/routes/route-segments";
import type { TrackingDocument } from "../../../domain/tracking/model";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { GeoPointRef } from "./geo-point";
import { vesselIn } from "./in-document";
import { placedOf } from "./journey-facts";
import { LegTypeEnum } from "./leg-type";
import { ModeOfTransportEnum } from "./mode-of-transport";
import { PlacedLocationRef } from "./placed-location";
import { VesselRef } from "./vessel";

export const RouteSegmentRef = builder
  .objectRef<{ segment: RouteSegment; doc: TrackingDocument }>("RouteSegment")
  .implement({
    description:
      "A leg of the journey: SEA between port calls along the sea route (Eurostat MARNET), LAND to and from the ports as a straight line.",
    fields: (t) => ({
      kind: t.field({ type: LegTypeEnum, resolve: ({ segment }) => segment.kind }),
      modeOfTransport: t.field({
        type: ModeOfTransportEnum,
        description: "VESSEL on SEA legs; TRUCK, RAIL or BARGE on LAND legs.",
        resolve: ({ segment }) => segment.modeOfTransport,
      }),
      from: t.field({
        type: PlacedLocationRef,
        resolve: ({ segment, doc }) => placedOf(doc).find((p) => p.key === segment.fromLocationKey)!,
      }),
      to: t.field({
        type: PlacedLocationRef,
        resolve: ({ segment, doc }) => placedOf(doc).find((p) => p.key === segment.toLocationKey)!,
      }),
      vesselKey: t.string({
        nullable: true,
        description: "Key of the vessel (in the document's vessels) sailing the leg.",
        resolve: ({ segment }) => segment.vesselKey,
      }),
      vessel: t.field({
        type: VesselRef,
        nullable: true,
        description: "The vessel that loaded or departed at the leg's start (SEA legs only).",
        resolve: ({ segment, doc }) => vesselIn(doc, segment.vesselKey),
      }),
      voyage: t.string({ nullable: true, resolve: ({ segment }) => segment.voyage }),
      path: t.field({
        type: [GeoPointRef],
        extensions: LIST_SIZE(400),
        description:
          "The points to draw, in order; longitudes unwrapped across the antimeridian (may pass ±180).",
        resolve: ({ segment }) => segment.path.map(([lat, lng]) => ({ lat, lng })),
      }),
      lengthNm: t.float({
        description: "Length in nautical miles.",
        resolve: ({ segment }) => Math.round(segment.lengthNm * 10) / 10,
      }),
    }),
  });
