import { secondsUntilCycleEnd } from "../../domain/tracking/billing-cycle";
import type { DocumentChange } from "../../domain/tracking/document-diff";
import { etaRevisions } from "../../domain/tracking/eta-revisions";
import { type LOCATION_ROLES, locationRole, locationRoles } from "../../domain/tracking/location-roles";
import {
  type CONTENT_STATES,
  contentState,
  isDateFromCarrier,
  lastActualEvent,
  milestones,
} from "../../domain/tracking/milestones";
import {
  type COMPAT_STATUS_CODES,
  EMPTY_INDICATORS,
  type EVENT_CODES,
  type EVENT_KINDS,
  type LegType,
  MODES_OF_TRANSPORT,
  type RoutePoint,
  type TrackedContainer,
  type TrackedEvent,
  type TrackedFacility,
  type TrackedLocation,
  type TrackedVessel,
  type TrackingDocument,
  visibleEvents,
} from "../../domain/tracking/model";
import {
  arrivalLocalDateTime,
  containerSummary,
  currentPosition,
  facilityCountryCode,
  facilityLocation,
  isActive,
  isDelayed,
  journeyDays,
  originAndDestination,
  routePoints,
} from "../../domain/tracking/shipment-facts";
import type { TrackOutcome } from "../../domain/tracking/tracking.service";
import {
  legsOfVessel,
  type VOYAGE_LEG_STATUSES,
  type VoyageLeg,
  voyageLegs,
  voyagesOfVessel,
} from "../../domain/tracking/voyage-legs";
import type { CarrierDocument, DocumentVersion } from "../../generated/prisma/client";
import { builder } from "../builder";
import { LIST_SIZE } from "../limits";
import { CarrierUnavailableReasonEnum } from "./carriers/carrier-unavailable-reason";
import { DiscoveryIneligibilityEnum } from "./shipments/discovery-ineligibility";

/** A stored carrier document as GraphQL serves it: the canonical content plus store facts. */
export interface StoredDocumentView {
  document: CarrierDocument;
  version: Pick<DocumentVersion, "id" | "version" | "fetchedAt">;
  content: TrackingDocument;
}

/**
 * Facts derived from a whole document, computed once per document object: the content is loaded
 * fresh for every request, so the cache lives as long as the request's objects and no longer.
 */
export function perDocument<T>(compute: (doc: TrackingDocument) => T): (doc: TrackingDocument) => T {
  const cache = new WeakMap<TrackingDocument, T>();
  return (doc) => {
    if (!cache.has(doc)) cache.set(doc, compute(doc));
    return cache.get(doc)!;
  };
}
const rolesOf = perDocument(locationRoles);
const legsOf = perDocument(voyageLegs);

export const ReferenceTypeEnum = builder.enumType("ReferenceType", {
  values: {
    container: { description: "An ISO 6346 container number." },
    bl: { description: "A bill of lading." },
    booking: { description: "A carrier booking." },
  } as const,
});

export const ShipmentStatusEnum = builder.enumType("ShipmentStatus", {
  description: "The journey's status: PLANNED, IN_TRANSIT, DELIVERED, CANCELLED, or UNKNOWN.",
  values: ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const,
});

const EventKindEnum = builder.enumType("EventKind", {
  values: {
    EQUIPMENT: { description: "Something done to the container (gate in, loading, discharge ...)." },
    TRANSPORT: { description: "A move of the vessel or vehicle carrying it (departure, arrival)." },
  } satisfies Record<(typeof EVENT_KINDS)[number], { description: string }>,
});

const EventCodeEnum = builder.enumType("EventCode", {
  description:
    "DCSA Track & Trace event code. Container.events returns PICK, GTIN, GTOT, LOAD, DEPA, ARRI and DISC; the others only with includeHidden: true.",
  values: {
    PICK: { description: "Picked up." },
    GTIN: { description: "Gated in at a terminal or depot." },
    GTOT: { description: "Gated out of a terminal or depot." },
    LOAD: { description: "Loaded onto the vessel or vehicle." },
    DEPA: { description: "The vessel or vehicle departed." },
    ARRI: { description: "The vessel or vehicle arrived." },
    DISC: { description: "Discharged from the vessel or vehicle." },
    DROP: { description: "Dropped off (e.g. delivered to the consignee); hidden." },
    STUF: { description: "Stuffed (packed); hidden." },
    STRP: { description: "Stripped (unpacked); hidden." },
    INSP: { description: "Inspected; hidden." },
    RSEA: { description: "Resealed; hidden." },
    RMVD: { description: "Removed; hidden." },
  } satisfies Record<(typeof EVENT_CODES)[number], { description: string }>,
});

const EventStatusCodeEnum = builder.enumType("EventStatusCode", {
  description:
    "What the event means for the journey, in the status vocabulary of the compatibility API (also v1's event status).",
  values: {
    CEP: { description: "Empty container to the shipper." },
    CPS: { description: "Container picked up at the shipper." },
    CGI: { description: "Gated in at the first port of loading." },
    CLL: { description: "Loaded at the first port of loading." },
    VDL: { description: "Vessel departed from the first port of loading." },
    VAT: { description: "Vessel arrived at a transshipment port." },
    CDT: { description: "Discharged at a transshipment port." },
    TSD: { description: "Transshipment delay." },
    CLT: { description: "Loaded at a transshipment port." },
    VDT: { description: "Vessel departed from a transshipment port." },
    VAD: { description: "Vessel arrived at the final port of discharge." },
    CDD: { description: "Discharged at the final port of discharge." },
    CGO: { description: "Gated out of the final port of discharge." },
    CDC: { description: "Delivered to the consignee." },
    CER: { description: "Empty container returned to the depot." },
    LTS: { description: "Land transshipment (a rail or truck leg change)." },
    BTS: { description: "Barge transshipment." },
    UNK: { description: "Unknown." },
  } satisfies Record<(typeof COMPAT_STATUS_CODES)[number], { description: string }>,
});

export const ModeOfTransportEnum = builder.enumType("ModeOfTransport", {
  values: MODES_OF_TRANSPORT,
});

/** Stored lowercase (`sea`, `land`); named in capitals like every other closed set of the core. */
const LEG_TYPE = { sea: "SEA", land: "LAND" } as const satisfies Record<LegType, string>;
export const LegTypeEnum = builder.enumType("LegType", {
  values: {
    SEA: { description: "On a vessel." },
    LAND: { description: "On land or inland water: truck, rail or barge, or a stay at a place." },
  } as const,
});

const EmptyIndicatorEnum = builder.enumType("EmptyIndicator", { values: EMPTY_INDICATORS });

const LocationRoleEnum = builder.enumType("LocationRole", {
  description:
    "The part a place plays in the journey. A place playing several shows the first of: port of loading, port of discharge, place of receipt, place of delivery, transshipment.",
  values: {
    PLACE_OF_RECEIPT: { description: "Where the carrier takes the cargo in, before the port of loading." },
    PORT_OF_LOADING: { description: "The first port where the box is loaded onto a vessel." },
    TRANSSHIPMENT: { description: "A port where the box changes vessel." },
    PORT_OF_DISCHARGE: { description: "The last port where the box is discharged from a vessel." },
    PLACE_OF_DELIVERY: {
      description: "Where the carrier hands the cargo over, after the port of discharge.",
    },
    OTHER: { description: "A place off the route (an empty depot, an inland stop)." },
  } satisfies Record<(typeof LOCATION_ROLES)[number], { description: string }>,
});

const VoyageLegStatusEnum = builder.enumType("VoyageLegStatus", {
  values: {
    PLANNED: { description: "The departure has not happened." },
    SAILING: { description: "Departed, not arrived yet." },
    COMPLETED: { description: "Arrived." },
  } satisfies Record<(typeof VOYAGE_LEG_STATUSES)[number], { description: string }>,
});

const ContentStateEnum = builder.enumType("ContentState", {
  description:
    "What a tracked document has to show; the first that applies: CANCELLED, NO_CONTAINERS, NO_EVENTS, OK.",
  values: {
    CANCELLED: { description: "The carrier cancelled the shipment." },
    NO_CONTAINERS: { description: "The carrier named no container." },
    NO_EVENTS: { description: "No container has an event a client sees." },
    OK: { description: "Containers with events." },
  } satisfies Record<(typeof CONTENT_STATES)[number], { description: string }>,
});

export interface InDocument<T> {
  item: T;
  doc: TrackingDocument;
}
const inDocument =
  (doc: TrackingDocument) =>
  <T>(item: T): InDocument<T> => ({ item, doc });
const locationIn = (doc: TrackingDocument, key: string | null): InDocument<TrackedLocation> | null => {
  const location = key === null ? undefined : doc.locations.find((l) => l.key === key);
  return location ? { item: location, doc } : null;
};
export const vesselIn = (doc: TrackingDocument, key: string | null): TrackedVessel | null =>
  key === null ? null : (doc.vessels.find((v) => v.key === key) ?? null);

const LocationRef = builder.objectRef<InDocument<TrackedLocation>>("Location").implement({
  description: "A place of the journey: a port, terminal city or inland place.",
  fields: (t) => ({
    key: t.string({ description: "Stable within one document.", resolve: ({ item }) => item.key }),
    unLocode: t.string({
      nullable: true,
      description: "UN/LOCODE, e.g. NLRTM.",
      resolve: ({ item }) => item.unLocode,
    }),
    name: t.string({ resolve: ({ item }) => item.name }),
    state: t.string({ nullable: true, resolve: ({ item }) => item.state }),
    country: t.string({ nullable: true, resolve: ({ item }) => item.country }),
    countryCode: t.string({
      nullable: true,
      description: "ISO 3166-1 alpha-2.",
      resolve: ({ item }) => item.countryCode,
    }),
    lat: t.float({ nullable: true, resolve: ({ item }) => item.lat }),
    lng: t.float({ nullable: true, resolve: ({ item }) => item.lng }),
    timeZone: t.string({
      nullable: true,
      description: "IANA time zone, e.g. Europe/Amsterdam.",
      resolve: ({ item }) => item.timeZone,
    }),
    role: t.field({
      type: LocationRoleEnum,
      description: "The part the place plays in the journey.",
      resolve: ({ item, doc }) => locationRole(rolesOf(doc), item.key),
    }),
  }),
});

const FacilityRef = builder.objectRef<InDocument<TrackedFacility>>("Facility").implement({
  description: "A terminal or depot.",
  fields: (t) => ({
    key: t.string({ resolve: ({ item }) => item.key }),
    name: t.string({ resolve: ({ item }) => item.name }),
    locode: t.string({ nullable: true, resolve: ({ item }) => item.locode }),
    countryCode: t.string({
      nullable: true,
      description: "ISO 3166-1 alpha-2; null when the UN/LOCODE's country part is a user-assigned code (XZ).",
      resolve: ({ item }) => item.countryCode,
    }),
    locodeCountryCode: t.string({
      nullable: true,
      description:
        "countryCode, else the first two letters of the UN/LOCODE (a user-assigned code such as XZ included); null without either.",
      resolve: ({ item }) => facilityCountryCode(item),
    }),
    smdgCode: t.string({
      nullable: true,
      description: "SMDG terminal code.",
      resolve: ({ item }) => item.smdgCode,
    }),
    bicCode: t.string({
      nullable: true,
      description: "BIC facility code.",
      resolve: ({ item }) => item.bicCode,
    }),
    lat: t.float({ nullable: true, resolve: ({ item }) => item.lat }),
    lng: t.float({ nullable: true, resolve: ({ item }) => item.lng }),
    location: t.field({
      type: LocationRef,
      nullable: true,
      description: "The location of the document with the facility's UN/LOCODE.",
      resolve: ({ item, doc }) => {
        const location = facilityLocation(doc, item);
        return location ? { item: location, doc } : null;
      },
    }),
  }),
});

// Events, vessels and voyage legs refer to one another: declared first, implemented below.
const EventRef = builder.objectRef<InDocument<TrackedEvent>>("Event");
export const VesselRef = builder.objectRef<InDocument<TrackedVessel>>("Vessel");
const VoyageLegRef = builder.objectRef<InDocument<VoyageLeg>>("VoyageLeg");

VesselRef.implement({
  fields: (t) => ({
    key: t.string({ resolve: ({ item }) => item.key }),
    name: t.string({ resolve: ({ item }) => item.name }),
    imo: t.int({ nullable: true, description: "IMO number (7 digits).", resolve: ({ item }) => item.imo }),
    mmsi: t.int({
      nullable: true,
      description: "MMSI (9 digits), when known.",
      resolve: ({ item }) => item.mmsi,
    }),
    voyageLegs: t.field({
      type: [VoyageLegRef],
      extensions: LIST_SIZE(6),
      description: "The legs it sailed in this journey, in sailing order.",
      resolve: ({ item, doc }) => legsOfVessel(legsOf(doc), item.key).map(inDocument(doc)),
    }),
    voyages: t.stringList({
      description: "Its voyage numbers in this journey, once each, in sailing order.",
      resolve: ({ item, doc }) => voyagesOfVessel(legsOf(doc), item.key),
    }),
  }),
});

VoyageLegRef.implement({
  description:
    "A vessel's (or barge's) departure and the arrival that follows it, as the carrier dated them; the same call mirrored into several containers counts once.",
  fields: (t) => ({
    sequence: t.int({ description: "1, 2, 3 ... in sailing order.", resolve: ({ item }) => item.sequence }),
    vessel: t.field({
      type: VesselRef,
      nullable: true,
      resolve: ({ item, doc }) => {
        const vessel = vesselIn(doc, item.vesselKey);
        return vessel ? { item: vessel, doc } : null;
      },
    }),
    voyage: t.string({ nullable: true, resolve: ({ item }) => item.voyage }),
    departure: t.field({ type: EventRef, resolve: ({ item, doc }) => ({ item: item.departure, doc }) }),
    arrival: t.field({
      type: EventRef,
      nullable: true,
      description: "Null while no arrival follows the departure.",
      resolve: ({ item, doc }) => (item.arrival ? { item: item.arrival, doc } : null),
    }),
    from: t.field({
      type: LocationRef,
      nullable: true,
      description: "Where it departs: the departure's location.",
      resolve: ({ item, doc }) => locationIn(doc, item.departure.locationKey),
    }),
    to: t.field({
      type: LocationRef,
      nullable: true,
      description: "Where it arrives: the arrival's location; null without an arrival.",
      resolve: ({ item, doc }) => locationIn(doc, item.arrival?.locationKey ?? null),
    }),
    status: t.field({ type: VoyageLegStatusEnum, resolve: ({ item }) => item.status }),
  }),
});

EventRef.implement({
  description: "A milestone of a container or its transport, actual or estimated.",
  fields: (t) => ({
    kind: t.field({ type: EventKindEnum, resolve: ({ item }) => item.kind }),
    eventCode: t.field({ type: EventCodeEnum, resolve: ({ item }) => item.eventCode }),
    statusCode: t.field({
      type: EventStatusCodeEnum,
      nullable: true,
      description: "Null when no status of the vocabulary applies (always for the hidden codes).",
      resolve: ({ item }) => item.statusCode,
    }),
    description: t.string({ resolve: ({ item }) => item.description }),
    localDateTime: t.string({
      nullable: true,
      description:
        "Wall-clock time at the location, YYYY-MM-DD HH:MM:SS; null when the carrier gave no date.",
      resolve: ({ item }) => item.localDateTime,
    }),
    isDateFromCarrier: t.boolean({
      description: "False when the carrier gave no date, or one so implausible that it was dropped.",
      resolve: ({ item }) => isDateFromCarrier(item),
    }),
    utcOffset: t.string({
      nullable: true,
      description: "The location's offset at that time, e.g. +08:00.",
      resolve: ({ item }) => item.utcOffset,
    }),
    instant: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.instant ? new Date(item.instant) : null),
    }),
    actual: t.boolean({
      description: "True when it happened; false when estimated or planned.",
      resolve: ({ item }) => item.actual,
    }),
    modeOfTransport: t.field({
      type: ModeOfTransportEnum,
      nullable: true,
      resolve: ({ item }) => item.modeOfTransport,
    }),
    legType: t.field({ type: LegTypeEnum, resolve: ({ item }) => LEG_TYPE[item.legType] }),
    voyage: t.string({ nullable: true, resolve: ({ item }) => item.voyage }),
    emptyIndicator: t.field({
      type: EmptyIndicatorEnum,
      nullable: true,
      resolve: ({ item }) => item.emptyIndicator,
    }),
    isAdditional: t.boolean({
      description: "At a place off the route (not a place of receipt, port or place of delivery).",
      resolve: ({ item }) => item.isAdditional,
    }),
    location: t.field({
      type: LocationRef,
      nullable: true,
      resolve: ({ item, doc }) => locationIn(doc, item.locationKey),
    }),
    facility: t.field({
      type: FacilityRef,
      nullable: true,
      resolve: ({ item, doc }) => {
        const facility = item.facilityKey
          ? doc.facilities.find((f) => f.key === item.facilityKey)
          : undefined;
        return facility ? { item: facility, doc } : null;
      },
    }),
    vessel: t.field({
      type: VesselRef,
      nullable: true,
      resolve: ({ item, doc }) => {
        const vessel = vesselIn(doc, item.vesselKey);
        return vessel ? { item: vessel, doc } : null;
      },
    }),
  }),
});

const ContainerRef = builder.objectRef<InDocument<TrackedContainer>>("Container").implement({
  fields: (t) => ({
    number: t.string({ description: "ISO 6346 container number.", resolve: ({ item }) => item.number }),
    isoCode: t.string({
      nullable: true,
      description: "ISO 6346 size-type code (e.g. 45G1), only when valid.",
      resolve: ({ item }) => item.isoCode,
    }),
    sizeType: t.string({
      nullable: true,
      description: "Shorthand such as 40HQ when that is what the carrier gave.",
      resolve: ({ item }) => item.sizeType,
    }),
    description: t.string({
      nullable: true,
      description: "Readable equipment, e.g. 40' High Cube Dry.",
      resolve: ({ item }) => item.description,
    }),
    status: t.field({ type: ShipmentStatusEnum, resolve: ({ item }) => item.status }),
    statusFromCarrier: t.boolean({ resolve: ({ item }) => item.statusFromCarrier }),
    eventsMirrored: t.boolean({
      description: "True when the events were copied from the transport, not the box.",
      resolve: ({ item }) => item.eventsMirrored,
    }),
    deliveredAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.deliveredAt ? new Date(item.deliveredAt) : null),
    }),
    events: t.field({
      type: [EventRef],
      description:
        "The container's events in the carrier's order, planned ones included. Only the codes every surface shows (PICK, GTIN, GTOT, LOAD, DEPA, ARRI, DISC); the carrier's other codes (DROP, STUF, STRP, INSP, RSEA, RMVD) are kept for the status rules and returned only with includeHidden: true.",
      args: {
        includeHidden: t.arg.boolean({
          required: true,
          defaultValue: false,
          description:
            "Also return the events no surface shows (DROP, STUF, STRP, INSP, RSEA, RMVD), in place.",
        }),
      },
      extensions: LIST_SIZE(25),
      resolve: ({ item, doc }, { includeHidden }) =>
        (includeHidden ? item.events : visibleEvents(item)).map(inDocument(doc)),
    }),
    lastActualEvent: t.field({
      type: EventRef,
      nullable: true,
      description:
        "The latest of its events (as `events` returns them) that happened, in the carrier's order; null before any.",
      resolve: ({ item, doc }) => {
        const event = lastActualEvent(item);
        return event ? { item: event, doc } : null;
      },
    }),
  }),
});

const RoutePointRef = builder.objectRef<InDocument<RoutePoint>>("RoutePoint").implement({
  fields: (t) => ({
    location: t.field({
      type: LocationRef,
      nullable: true,
      resolve: ({ item, doc }) => locationIn(doc, item.locationKey),
    }),
    localDateTime: t.string({ nullable: true, resolve: ({ item }) => item.localDateTime }),
    instant: t.field({
      type: "DateTime",
      nullable: true,
      resolve: ({ item }) => (item.instant ? new Date(item.instant) : null),
    }),
    actual: t.boolean({
      nullable: true,
      description: "true confirmed, false estimated, null not known yet.",
      resolve: ({ item }) => item.actual,
    }),
  }),
});

const RouteRef = builder.objectRef<TrackingDocument>("Route").implement({
  description:
    "The journey's four ends: place of receipt, port of loading, port of discharge, place of delivery.",
  fields: (t) => ({
    placeOfReceipt: t.field({
      type: RoutePointRef,
      description: "Where the carrier takes the cargo in, before the port of loading.",
      resolve: (doc) => ({ item: doc.route.prepol, doc }),
    }),
    portOfLoading: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pol, doc }) }),
    portOfDischarge: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pod, doc }) }),
    placeOfDelivery: t.field({
      type: RoutePointRef,
      description: "Where the carrier hands the cargo over, after the port of discharge.",
      resolve: (doc) => ({ item: doc.route.postpod, doc }),
    }),
    prepol: t.field({
      type: RoutePointRef,
      deprecationReason: "Use placeOfReceipt.",
      resolve: (doc) => ({ item: doc.route.prepol, doc }),
    }),
    pol: t.field({
      type: RoutePointRef,
      deprecationReason: "Use portOfLoading.",
      resolve: (doc) => ({ item: doc.route.pol, doc }),
    }),
    pod: t.field({
      type: RoutePointRef,
      deprecationReason: "Use portOfDischarge.",
      resolve: (doc) => ({ item: doc.route.pod, doc }),
    }),
    postpod: t.field({
      type: RoutePointRef,
      deprecationReason: "Use placeOfDelivery.",
      resolve: (doc) => ({ item: doc.route.postpod, doc }),
    }),
  }),
});

const EtaRevisionRef = builder.objectRef<ReturnType<typeof etaRevisions>[number]>("EtaRevision").implement({
  fields: (t) => ({
    eta: t.field({ type: "DateTime", resolve: (r) => new Date(r.eta) }),
    localDateTime: t.exposeString("localDateTime"),
    recordedAt: t.field({ type: "DateTime", resolve: (r) => new Date(r.recordedAt) }),
    actual: t.exposeBoolean("actual"),
    changeHours: t.exposeInt("changeHours", {
      description:
        "Whole hours this revision moved the arrival against the one before (positive later, negative earlier); 0 for the first.",
    }),
  }),
});

export const GeoPointRef = builder.objectRef<{ lat: number; lng: number }>("GeoPoint").implement({
  fields: (t) => ({ lat: t.exposeFloat("lat"), lng: t.exposeFloat("lng") }),
});

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
      resolve: (d, _a, ctx) => journeyDays(d.content, ctx.services.clock.now()).totalDays,
    }),
    remainingDays: t.int({
      description: "Days until the estimated arrival; 0 once arrived.",
      resolve: (d, _a, ctx) => journeyDays(d.content, ctx.services.clock.now()).remainingDays,
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
  }),
});

// ---------------------------------------------------------------------------------------------
// track: the typed outcomes of a lookup. Every expected ending is a member of the union.

const CarrierUsedRef = builder
  .objectRef<{ scac: string; name: string; provided: boolean }>("CarrierUsed")
  .implement({
    fields: (t) => ({
      scac: t.exposeString("scac", { description: "The carrier that answered." }),
      name: t.exposeString("name"),
      provided: t.exposeBoolean("provided", { description: "Whether the caller named it." }),
    }),
  });

const DocumentChangeKindEnum = builder.enumType("DocumentChangeKind", {
  values: {
    STATUS: { value: "status", description: "The status moved: statusFrom, statusTo." },
    ETA: { value: "eta", description: "The arrival at the port of discharge moved: etaFrom, etaTo." },
    VESSEL_ARRIVED: {
      value: "vessel_arrived",
      description: "The vessel arrived at the port of discharge: at.",
    },
    DELIVERED: { value: "delivered", description: "Delivered to the consignee: at (null when undated)." },
    CONTAINER_ADDED: { value: "container_added", description: "A container joined: container." },
    EVENT_ADDED: {
      value: "event_added",
      description: "A container has a new event: container, eventCode, locationKey, actual.",
    },
    EVENT_ACTUALISED: {
      value: "event_actualised",
      description: "A planned event of a container happened: container, eventCode, locationKey.",
    },
  } as const satisfies Record<string, { value: DocumentChange["kind"]; description: string }>,
});

/** One change, flat: each kind fills the fields its description names, the others are null. */
const DocumentChangeRef = builder.objectRef<DocumentChange>("DocumentChange").implement({
  description: "A change between two stored versions of a document, as the webhooks report it.",
  fields: (t) => ({
    kind: t.field({ type: DocumentChangeKindEnum, resolve: (c) => c.kind }),
    statusFrom: t.field({
      type: ShipmentStatusEnum,
      nullable: true,
      resolve: (c) => (c.kind === "status" ? c.from : null),
    }),
    statusTo: t.field({
      type: ShipmentStatusEnum,
      nullable: true,
      resolve: (c) => (c.kind === "status" ? c.to : null),
    }),
    etaFrom: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => (c.kind === "eta" && c.from ? new Date(c.from) : null),
    }),
    etaTo: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => (c.kind === "eta" && c.to ? new Date(c.to) : null),
    }),
    at: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (c) => {
        const at = c.kind === "vessel_arrived" ? c.ata : c.kind === "delivered" ? c.at : null;
        return at ? new Date(at) : null;
      },
    }),
    container: t.string({ nullable: true, resolve: (c) => ("container" in c ? c.container : null) }),
    eventCode: t.field({
      type: EventCodeEnum,
      nullable: true,
      resolve: (c) => ("eventCode" in c ? c.eventCode : null),
    }),
    locationKey: t.string({ nullable: true, resolve: (c) => ("locationKey" in c ? c.locationKey : null) }),
    actual: t.boolean({ nullable: true, resolve: (c) => (c.kind === "event_added" ? c.actual : null) }),
  }),
});

type Tracked = Extract<TrackOutcome, { kind: "tracked" }>;
const TrackSuccessRef = builder.objectRef<Tracked>("TrackSuccess").implement({
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
    lookupId: t.exposeInt("lookupId", { description: "The lookup log entry (compat /history id)." }),
    changes: t.field({
      type: [DocumentChangeRef],
      extensions: LIST_SIZE(10),
      description: "What changed since the previous stored version; empty for the first.",
      resolve: (o) => o.changes,
    }),
  }),
});

type NotFound = Extract<TrackOutcome, { kind: "not_found" }>;
const ReferenceNotFoundRef = builder.objectRef<NotFound>("ReferenceNotFound").implement({
  description: "No carrier asked has a record of the reference (yet).",
  fields: (t) => ({
    referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
    reference: t.exposeString("reference"),
    tried: t.exposeStringList("tried", {
      description: "Carriers asked; `(auto)` marks an attempt the caller did not name.",
    }),
    carrierProvided: t.exposeBoolean("carrierProvided"),
    shipment: t.prismaField({
      type: "Shipment",
      description: "The failed shipment kept for reading back and recovery.",
      resolve: (query, o, _a, ctx) =>
        ctx.services.db.prisma.shipment.findUniqueOrThrow({ ...query, where: { id: o.shipment.id } }),
    }),
    discoveryEligible: t.boolean({ resolve: (o) => o.discovery.eligible }),
    discoveryQueued: t.boolean({
      description:
        "A background search of the other likely carriers was queued: read the shipment back for its outcome, and do not write the reference off meanwhile.",
      resolve: (o) => o.discoveryQueued,
    }),
    discoveryReason: t.field({
      type: DiscoveryIneligibilityEnum,
      nullable: true,
      description: "Why no discovery runs; null when it is eligible.",
      resolve: (o) => (o.discovery.eligible ? null : o.discovery.reason),
    }),
    upgradeMinPlan: t.string({
      nullable: true,
      description:
        "Only for discoveryReason plan on the free plan: the cheapest plan with carrier discovery.",
      resolve: (o) => o.upgrade?.minPlan ?? null,
    }),
    lookupId: t.exposeInt("lookupId"),
  }),
});

const ReferenceInvalidRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "invalid_reference" }>>("ReferenceInvalid")
  .implement({
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      reason: t.exposeString("reason"),
      message: t.exposeString("message"),
    }),
  });

const CarrierDownRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "carrier_down" }>>("CarrierDown")
  .implement({
    description: "The carrier could not be reached and nothing is stored for the reference.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      scac: t.exposeString("scac"),
      reason: t.exposeString("reason"),
      retryAfterSeconds: t.exposeInt("retryAfterSeconds"),
    }),
  });

const CarrierUnavailableRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "carrier_unavailable" }>>("CarrierUnavailable")
  .implement({
    description: "The named carrier is under maintenance, disabled, or does not resolve this reference type.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      scac: t.exposeString("scac"),
      // Not `reason`: CarrierDown.reason is free text, and one name with two types across the
      // members of TrackResult could not be selected together.
      cause: t.field({ type: CarrierUnavailableReasonEnum, resolve: (o) => o.reason }),
    }),
  });

const CarrierUndetectableRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "no_candidates" }>>("CarrierUndetectable")
  .implement({
    description: "No carrier could be placed for the reference; name the carrier.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      discoveryReason: t.field({
        type: DiscoveryIneligibilityEnum,
        // Nullable only so that it reads alike with ReferenceNotFound.discoveryReason in one selection.
        nullable: true,
        description: "Always no_candidates: with no carrier to ask, there is none to discover either.",
        resolve: () => "no_candidates" as const,
      }),
    }),
  });

const ShipmentLimitReachedRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "shipment_limit_reached" }>>("ShipmentLimitReached")
  .implement({
    fields: (t) => ({
      limit: t.exposeInt("limit"),
      used: t.exposeInt("used"),
      cycleEnd: t.expose("cycleEnd", { type: "DateTime" }),
      retryAfterSeconds: t.int({
        description: "Seconds until the cycle ends and new slots open: the Retry-After of this refusal.",
        resolve: (o, _a, ctx) => secondsUntilCycleEnd(o.cycleEnd, ctx.services.clock.now()),
      }),
    }),
  });

const PaymentOverdueRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "payment_overdue" }>>("PaymentOverdue")
  .implement({
    fields: (t) => ({
      overdueDays: t.exposeInt("overdueDays"),
      graceDays: t.exposeInt("graceDays"),
      plan: t.exposeString("plan"),
    }),
  });

export const TRACK_RESULT_MEMBERS = {
  tracked: TrackSuccessRef,
  not_found: ReferenceNotFoundRef,
  invalid_reference: ReferenceInvalidRef,
  carrier_down: CarrierDownRef,
  carrier_unavailable: CarrierUnavailableRef,
  no_candidates: CarrierUndetectableRef,
  shipment_limit_reached: ShipmentLimitReachedRef,
  payment_overdue: PaymentOverdueRef,
} as const;

export const TrackResultRef = builder.unionType("TrackResult", {
  description: "Every way a lookup ends. Expected failures are members, not errors.",
  types: Object.values(TRACK_RESULT_MEMBERS),
  resolveType: (value) => TRACK_RESULT_MEMBERS[(value as TrackOutcome).kind],
});

const TrackModeEnum = builder.enumType("TrackMode", {
  values: {
    FETCH: { description: "Always ask the carrier (v1 /container and /bl)." },
    SERVE_FRESH: { description: "Serve the stored document while it is younger than 12 hours." },
  } as const,
});

builder.mutationFields((t) => ({
  track: t.field({
    type: TrackResultRef,
    nullable: true,
    description:
      "Tracks a reference for the organisation: resolves the carrier, accounts for the slot, stores the answer.",
    authScopes: { $all: { developerMode: true, writableKey: true } },
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
      ctx.services.tracking.track(ctx.principal!, {
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
