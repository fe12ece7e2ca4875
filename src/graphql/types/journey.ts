import { featureAccess } from "../../domain/accounts/principal";
import { currentPin } from "../../domain/routes/current-pin";
import { type PlacedLocation, placeLocations } from "../../domain/routes/placed-locations";
import { type PredictedArrival, predictArrival } from "../../domain/routes/predictive-eta";
import { type RouteSegment, routeSegments } from "../../domain/routes/route-segments";
import { FRESHNESS_MS } from "../../domain/tracking/document-store";
import type { TrackingDocument } from "../../domain/tracking/model";
import { currentPosition } from "../../domain/tracking/shipment-facts";
import { builder } from "../builder";
import { LIST_SIZE } from "../limits";
import {
  GeoPointRef,
  LegTypeEnum,
  ModeOfTransportEnum,
  perDocument,
  TrackingDocumentRef,
  VesselRef,
  vesselIn,
} from "./tracking";

/**
 * The journey on a map and in time, derived from a stored document: its places with coordinates and
 * time zones filled in, its legs along real sea routes, where to pin it now, our own arrival estimate
 * when the carrier gave none, and until when the stored document is served.
 */

const placedOf = perDocument(placeLocations);
const segmentsOf = perDocument((doc) => routeSegments(doc, placedOf(doc)));

const PlacedLocationRef = builder.objectRef<PlacedLocation>("PlacedLocation").implement({
  description:
    "A location of the document with coordinates (else its terminal's) and an IANA time zone (else from the coordinates, else from the offset of its events, else Etc/UTC) always filled where they can be.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "The location's key in the document." }),
    unLocode: t.exposeString("unLocode", { nullable: true }),
    name: t.exposeString("name"),
    state: t.exposeString("state", { nullable: true }),
    country: t.exposeString("country", { nullable: true }),
    countryCode: t.exposeString("countryCode", { nullable: true, description: "ISO 3166-1 alpha-2." }),
    lat: t.exposeFloat("lat", { nullable: true, description: "Null only when no coordinates are known." }),
    lng: t.exposeFloat("lng", { nullable: true }),
    timeZone: t.exposeString("timeZone", { description: "IANA zone name." }),
  }),
});

const RouteSegmentRef = builder
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
        resolve: ({ segment, doc }) => {
          const vessel = vesselIn(doc, segment.vesselKey);
          return vessel ? { item: vessel, doc } : null;
        },
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

const PredictedArrivalRef = builder.objectRef<PredictedArrival>("PredictedArrival").implement({
  description:
    "Our arrival estimate at the port of discharge: the last dated departure plus the remaining sea route at 14 knots and a day per call on the way.",
  fields: (t) => ({
    instant: t.field({ type: "DateTime", resolve: (p) => new Date(p.instant) }),
    localDateTime: t.exposeString("localDateTime", {
      description: "Wall-clock time at the port of discharge, YYYY-MM-DD HH:MM:SS.",
    }),
    fromLocationKey: t.exposeString("fromLocationKey", { description: "The call it sails from." }),
    departedAt: t.field({ type: "DateTime", resolve: (p) => new Date(p.departedAt) }),
    distanceNm: t.exposeInt("distanceNm"),
  }),
});

builder.objectFields(TrackingDocumentRef, (t) => ({
  placedLocations: t.field({
    type: [PlacedLocationRef],
    extensions: LIST_SIZE(10),
    description: "The locations, in document order, with coordinates and time zone filled in.",
    resolve: (d) => placedOf(d.content),
  }),
  routeSegments: t.field({
    type: [RouteSegmentRef],
    extensions: LIST_SIZE(6),
    description:
      "The journey's legs with their paths. Sea routes are computed once per pair of ports and cached.",
    resolve: (d) => segmentsOf(d.content).map((segment) => ({ segment, doc: d.content })),
  }),
  pin: t.field({
    type: GeoPointRef,
    nullable: true,
    description:
      "Where the shipment is now: along the sea route while a vessel is between calls (by time elapsed), else the carrier's position or the place of the last actual event.",
    resolve: (d, _a, ctx) =>
      currentPin(d.content, segmentsOf(d.content), currentPosition(d.content), ctx.services.clock.now()),
  }),
  predictiveEta: t.field({
    type: PredictedArrivalRef,
    nullable: true,
    description:
      "Only when the carrier gave no arrival date at the port of discharge, and only for plans with predictive ETA switched on; null otherwise.",
    resolve: (d, _a, ctx) => {
      const organization = ctx.principal?.organization;
      if (!organization || featureAccess(organization, "predictive_eta") !== "on") return null;
      return predictArrival(d.content, placedOf(d.content));
    },
  }),
  cacheExpiresAt: t.field({
    type: "DateTime",
    nullable: true,
    description:
      "Until when the stored document is served without asking the carrier (last sync plus 12 hours).",
    resolve: (d) =>
      d.document.lastSyncedAt ? new Date(d.document.lastSyncedAt.getTime() + FRESHNESS_MS) : null,
  }),
}));
