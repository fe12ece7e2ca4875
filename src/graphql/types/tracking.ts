import { secondsUntilCycleEnd } from "../../domain/tracking/billing-cycle";
import {
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
  containerSummary,
  currentPosition,
  isDelayed,
  journeyDays,
  originAndDestination,
  routePoints,
} from "../../domain/tracking/shipment-facts";
import type { TrackOutcome } from "../../domain/tracking/tracking.service";
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

const LocationRef = builder.objectRef<TrackedLocation>("Location").implement({
  description: "A place of the journey: a port, terminal city or inland place.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "Stable within one document." }),
    unLocode: t.exposeString("unLocode", { nullable: true, description: "UN/LOCODE, e.g. NLRTM." }),
    name: t.exposeString("name"),
    state: t.exposeString("state", { nullable: true }),
    country: t.exposeString("country", { nullable: true }),
    countryCode: t.exposeString("countryCode", { nullable: true, description: "ISO 3166-1 alpha-2." }),
    lat: t.exposeFloat("lat", { nullable: true }),
    lng: t.exposeFloat("lng", { nullable: true }),
    timeZone: t.exposeString("timeZone", {
      nullable: true,
      description: "IANA time zone, e.g. Europe/Amsterdam.",
    }),
  }),
});

const FacilityRef = builder.objectRef<TrackedFacility>("Facility").implement({
  description: "A terminal or depot.",
  fields: (t) => ({
    key: t.exposeString("key"),
    name: t.exposeString("name"),
    locode: t.exposeString("locode", { nullable: true }),
    countryCode: t.exposeString("countryCode", { nullable: true }),
    smdgCode: t.exposeString("smdgCode", { nullable: true, description: "SMDG terminal code." }),
    bicCode: t.exposeString("bicCode", { nullable: true, description: "BIC facility code." }),
    lat: t.exposeFloat("lat", { nullable: true }),
    lng: t.exposeFloat("lng", { nullable: true }),
  }),
});

const VesselRef = builder.objectRef<TrackedVessel>("Vessel").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    name: t.exposeString("name"),
    imo: t.exposeInt("imo", { nullable: true, description: "IMO number (7 digits)." }),
    mmsi: t.exposeInt("mmsi", { nullable: true, description: "MMSI (9 digits), when known." }),
  }),
});

interface InDocument<T> {
  item: T;
  doc: TrackingDocument;
}
const locationIn = (doc: TrackingDocument, key: string | null) =>
  key === null ? null : (doc.locations.find((l) => l.key === key) ?? null);

const EventRef = builder.objectRef<InDocument<TrackedEvent>>("Event").implement({
  description: "A milestone of a container or its transport, actual or estimated.",
  fields: (t) => ({
    kind: t.string({ description: "EQUIPMENT or TRANSPORT.", resolve: ({ item }) => item.kind }),
    eventCode: t.string({
      description:
        "DCSA event code: PICK, GTIN, GTOT, LOAD, DEPA, ARRI, DISC; with events(includeHidden: true) also DROP, STUF, STRP, INSP, RSEA, RMVD.",
      resolve: ({ item }) => item.eventCode,
    }),
    statusCode: t.string({
      nullable: true,
      description: "The compatibility API's status code (e.g. VDL).",
      resolve: ({ item }) => item.statusCode,
    }),
    description: t.string({ resolve: ({ item }) => item.description }),
    localDateTime: t.string({
      nullable: true,
      description:
        "Wall-clock time at the location, YYYY-MM-DD HH:MM:SS; null when the carrier gave no date.",
      resolve: ({ item }) => item.localDateTime,
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
    modeOfTransport: t.string({
      nullable: true,
      description: "VESSEL, TRUCK, RAIL or BARGE.",
      resolve: ({ item }) => item.modeOfTransport,
    }),
    legType: t.string({ description: "sea or land.", resolve: ({ item }) => item.legType }),
    voyage: t.string({ nullable: true, resolve: ({ item }) => item.voyage }),
    emptyIndicator: t.string({
      nullable: true,
      description: "EMPTY or LADEN.",
      resolve: ({ item }) => item.emptyIndicator,
    }),
    isAdditional: t.boolean({ resolve: ({ item }) => item.isAdditional }),
    location: t.field({
      type: LocationRef,
      nullable: true,
      resolve: ({ item, doc }) => locationIn(doc, item.locationKey),
    }),
    facility: t.field({
      type: FacilityRef,
      nullable: true,
      resolve: ({ item, doc }) =>
        item.facilityKey ? (doc.facilities.find((f) => f.key === item.facilityKey) ?? null) : null,
    }),
    vessel: t.field({
      type: VesselRef,
      nullable: true,
      resolve: ({ item, doc }) =>
        item.vesselKey ? (doc.vessels.find((v) => v.key === item.vesselKey) ?? null) : null,
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
        (includeHidden ? item.events : visibleEvents(item)).map((e) => ({ item: e, doc })),
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
    "Place of dispatch (prepol), port of loading (pol), port of discharge (pod), destination (postpod).",
  fields: (t) => ({
    prepol: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.prepol, doc }) }),
    pol: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pol, doc }) }),
    pod: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.pod, doc }) }),
    postpod: t.field({ type: RoutePointRef, resolve: (doc) => ({ item: doc.route.postpod, doc }) }),
  }),
});

const EtaRevisionRef = builder.objectRef<TrackingDocument["etaHistory"][number]>("EtaRevision").implement({
  fields: (t) => ({
    eta: t.field({ type: "DateTime", resolve: (r) => new Date(r.eta) }),
    localDateTime: t.exposeString("localDateTime"),
    recordedAt: t.field({ type: "DateTime", resolve: (r) => new Date(r.recordedAt) }),
    actual: t.exposeBoolean("actual"),
  }),
});

const GeoPointRef = builder.objectRef<{ lat: number; lng: number }>("GeoPoint").implement({
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
    locations: t.field({
      type: [LocationRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.locations,
    }),
    facilities: t.field({
      type: [FacilityRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.facilities,
    }),
    vessels: t.field({ type: [VesselRef], extensions: LIST_SIZE(5), resolve: (d) => d.content.vessels }),
    containers: t.field({
      type: [ContainerRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.containers.map((c) => ({ item: c, doc: d.content })),
    }),
    route: t.field({ type: RouteRef, resolve: (d) => d.content }),
    etaHistory: t.field({
      type: [EtaRevisionRef],
      extensions: LIST_SIZE(10),
      resolve: (d) => d.content.etaHistory,
    }),
    transshipmentLocationKeys: t.stringList({ resolve: (d) => d.content.transshipmentLocationKeys }),
    ata: t.field({
      type: "DateTime",
      nullable: true,
      description: "Vessel arrival at the final port of discharge.",
      resolve: (d) => (d.content.ata ? new Date(d.content.ata) : null),
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
    content: t.field({
      type: "JSON",
      description: "The whole canonical document as JSON.",
      resolve: (d) => d.content,
    }),
    origin: t.string({
      description: "Place of dispatch, else port of loading, as text.",
      resolve: (d) => originAndDestination(d.content).origin,
    }),
    destination: t.string({
      description: "Final destination, else port of discharge, as text.",
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
      type: "JSON",
      description: "The journey's calls as [lat, lng] pairs.",
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
      type: "JSON",
      description: "What changed since the previous stored version.",
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
