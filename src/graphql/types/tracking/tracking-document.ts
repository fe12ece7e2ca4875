import { featureAccess } from "../../../domain/accounts/principal";
import { currentPin } from "../../../domain/routes/current-pin";
import { predictArrival } from "../../../domain/routes/predictive-eta";
import { FRESHNESS_MS } from "../../../domain/tracking/document-store";
import { etaRevisions } from "../../../domain/tracking/eta-revisions";
import { contentState, milestones } from "../../../domain/tracking/milestones";
import {
  arrivalLocalDateTime,
  containerSummary,
  currentPosition,
  daysLeftChangesAt,
  isActive,
  isDelayed,
  journeyDays,
  originAndDestination,
  routePoints,
} from "../../../domain/tracking/shipment-facts";
import { utcOffsetOf } from "../../../domain/tracking/utc-offset";
import { answerValidUntil } from "../../../lib/answer-scope";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { ContainerRef } from "./container";
import { ContentStateEnum } from "./content-state";
import { EtaRevisionRef } from "./eta-revision";
import { EventRef } from "./event";
import { FacilityRef } from "./facility";
import { GeoPointRef } from "./geo-point";
import { inDocument, legsOf, type StoredDocumentView } from "./in-document";
import { placedOf, segmentsOf } from "./journey-facts";
import { LocationRef } from "./location";
import { PlacedLocationRef } from "./placed-location";
import { PredictedArrivalRef } from "./predicted-arrival";
import { ReferenceTypeEnum } from "./reference-type";
import { RouteRef } from "./route";
import { RouteSegmentRef } from "./route-segment";
import { ShipmentStatusEnum } from "./shipment-status";
import { VesselRef } from "./vessel";
import { VoyageLegRef } from "./voyage-leg";

export const TrackingDocumentRef = builder.objectRef<StoredDocumentView>("TrackingDocument").implement({
  description:
    "A carrier's answer for one reference, in the canonical model every surface renders. Stored per organisation: versions, fetch times and ETA history come only from the organisation's own tracking.",
  fields: (t) => ({
    version: t.int({
      description: "Stored version; a new one is written only when the content changed.",
      resolve: (d) => d.version.version,
    }),
    versionId: t.id({ resolve: (d) => d.version.id }),
    fetchedAt: t.field({
      type: "DateTime",
      description: "When this version was fetched.",
      resolve: (d) => d.version.fetchedAt,
    }),
    lastSyncedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the carrier last truly answered.",
      resolve: (d) => d.document.lastSyncedAt,
    }),
    lastFailureReason: t.string({
      nullable: true,
      description: "Why the last attempt to ask the carrier failed.",
      resolve: (d) => d.document.lastFailureReason,
    }),
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (d) => d.content.referenceType }),
    reference: t.string({ resolve: (d) => d.content.reference }),
    carrierScac: t.string({ resolve: (d) => d.content.carrierScac }),
    status: t.field({ type: ShipmentStatusEnum, resolve: (d) => d.content.status }),
    statusFromCarrier: t.boolean({ resolve: (d) => d.content.statusFromCarrier }),
    isActive: t.boolean({
      description: "Still moving: neither delivered nor cancelled.",
      resolve: (d) => isActive(d.content.status),
    }),
    contentState: t.field({
      type: ContentStateEnum,
      description: "What the document has to show (the compatibility API's success message).",
      resolve: (d) => contentState(d.content),
    }),
    locations: t.field({
      type: [LocationRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.locations.map(inDocument(d.content)),
    }),
    facilities: t.field({
      type: [FacilityRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.facilities.map(inDocument(d.content)),
    }),
    vessels: t.field({
      type: [VesselRef],
      extensions: LIST_SIZE(5),
      resolve: (d) => d.content.vessels.map(inDocument(d.content)),
    }),
    containers: t.field({
      type: [ContainerRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.containers.map(inDocument(d.content)),
    }),
    voyageLegs: t.field({
      type: [VoyageLegRef],
      extensions: LIST_SIZE(6),
      description: "The vessel and barge legs of the journey, in sailing order.",
      resolve: (d) => legsOf(d.content).map(inDocument(d.content)),
    }),
    lastMilestone: t.field({
      type: EventRef,
      nullable: true,
      description:
        "The latest dated event that happened, across every container (of the events `Container.events` returns).",
      resolve: (d) => {
        const event = milestones(d.content).last;
        return event ? { item: event, doc: d.content } : null;
      },
    }),
    nextMilestone: t.field({
      type: EventRef,
      nullable: true,
      description: "The earliest dated event still expected, across every container.",
      resolve: (d) => {
        const event = milestones(d.content).next;
        return event ? { item: event, doc: d.content } : null;
      },
    }),
    route: t.field({ type: RouteRef, resolve: (d) => d.content }),
    etaHistory: t.field({
      type: [EtaRevisionRef],
      extensions: LIST_SIZE(10),
      description:
        "The arrival at the port of discharge as the organisation's fetches found it, oldest first: a revision each time it moved or became actual.",
      resolve: (d) => etaRevisions(d.content.etaHistory),
    }),
    transshipmentLocationKeys: t.stringList({ resolve: (d) => d.content.transshipmentLocationKeys }),
    ata: t.field({
      type: "DateTime",
      nullable: true,
      description: "Vessel arrival at the final port of discharge.",
      resolve: (d) => (d.content.ata ? new Date(d.content.ata) : null),
    }),
    ataLocalDateTime: t.string({
      nullable: true,
      description:
        "The same arrival as wall-clock time at the port of discharge, YYYY-MM-DD HH:MM:SS; null until then.",
      resolve: (d) => arrivalLocalDateTime(d.content),
    }),
    ataUtcOffset: t.string({
      nullable: true,
      description:
        "The clock ataLocalDateTime is on: its offset from UTC at that moment, e.g. +01:00; null until the vessel arrived.",
      resolve: (d) => utcOffsetOf(arrivalLocalDateTime(d.content), d.content.route.pod.instant),
    }),
    deliveredAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "Verified delivery to the consignee; never port arrival or empty return.",
      resolve: (d) => (d.content.deliveredAt ? new Date(d.content.deliveredAt) : null),
    }),
    currentPosition: t.field({
      type: GeoPointRef,
      nullable: true,
      resolve: (d) => d.content.currentPosition,
    }),
    origin: t.string({
      description: "Place of receipt, else port of loading, as text.",
      resolve: (d) => originAndDestination(d.content).origin,
    }),
    destination: t.string({
      description: "Place of delivery, else port of discharge, as text.",
      resolve: (d) => originAndDestination(d.content).destination,
    }),
    isDelayed: t.boolean({
      description: "True when the ETA moved more than a day later than the first ETA recorded.",
      resolve: (d) => isDelayed(d.content),
    }),
    totalDays: t.int({
      description: "Days from departure to (estimated) arrival.",
      // Does not move with the clock: the read is covered for good.
      resolve: (d, _a, ctx) => {
        answerValidUntil(null);
        return journeyDays(d.content, ctx.services.clock.now()).totalDays;
      },
    }),
    remainingDays: t.int({
      description: "Days until the estimated arrival; 0 once arrived.",
      resolve: (d, _a, ctx) => {
        const now = ctx.services.clock.now();
        const { route, status } = d.content;
        const countsDown = route.pod.instant && status !== "DELIVERED" && !route.pod.actual;
        answerValidUntil(daysLeftChangesAt(countsDown ? Date.parse(route.pod.instant!) : null, now));
        return journeyDays(d.content, now).remainingDays;
      },
    }),
    containerSummary: t.string({
      description: "Counts of boxes by known type, e.g. 2 x 40' High Cube Dry.",
      resolve: (d) => containerSummary(d.content),
    }),
    position: t.field({
      type: GeoPointRef,
      nullable: true,
      description: "The carrier's position, else the last place with an actual event.",
      resolve: (d) => currentPosition(d.content),
    }),
    routePoints: t.field({
      type: [GeoPointRef],
      extensions: LIST_SIZE(8),
      description:
        "The journey's calls with coordinates, in order: place of receipt, port of loading, transshipments, port of discharge, place of delivery; a place repeated in a row once.",
      resolve: (d) => routePoints(d.content),
    }),
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
    podArrivalEstimate: t.field({
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
  }),
});
