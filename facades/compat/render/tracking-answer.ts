import type { Member } from "../../facade";
import type {
  CompatCallMutation,
  CompatDocumentFragment,
  CompatPlaceFragment,
  CompatRoutePointFragment,
  CompatTrackMutation,
  CompatVesselFragment,
  ContentState,
  LegType,
  ReferenceType,
} from "../../generated/operations";
import type { CompatType } from "../params";
import { utcDateTime, utcDateTimeWithOffset } from "./dates";

/**
 * The compat tracking answer (spec section 2) rendered from the core's view of a stored document.
 * Pure: every value comes from the core; this file only names, numbers and arranges fields. Integer
 * ids are positions in the document's lists (1, 2, 3 ...), so the same document always gets the
 * same ids. Absent is not null: an undated event has no `date` key, and an event on a land leg
 * without a vessel has no `vessel` key.
 */

type PlacedLocationView = CompatPlaceFragment;

type TrackedDocument = Member<CompatTrackMutation["track"], "TrackSuccess">["document"];

/** The document view of both tracking and history-by-id; only tracking selects the route data. */
export type DocumentView = CompatDocumentFragment & Partial<Pick<TrackedDocument, "routeSegments" | "pin">>;

type EventView = CompatDocumentFragment["containers"][number]["events"][number];

/** The compat answer draws points as [lat, lng] pairs. */
const pair = (p: { lat: number; lng: number }): [number, number] => [p.lat, p.lng];

/** Event types in the compat vocabulary's lowercase. */
const LEG_TYPE: Record<LegType, "sea" | "land"> = { SEA: "sea", LAND: "land" };

export type UsageView = NonNullable<CompatCallMutation["usage"]>;

export interface AnswerContext {
  /** The type the caller asked with (BK stays BK), else the detected one. */
  type: CompatType | null;
  number: string;
  carrier: { scac: string; name: string };
  fromCache: boolean;
  stale: { reason: string; lastSyncedAt: string | null } | null;
  usage: UsageView | null;
}

const TYPE_OF: Record<ReferenceType, CompatType> = {
  container: "CT",
  bl: "BL",
  booking: "BK",
};

export function apiCalls(usage: UsageView | null) {
  return { total: null, used: usage?.calls ?? null, remaining: null };
}

export function uniqueShipments(usage: UsageView | null) {
  return {
    total: usage?.slotLimit ?? 0,
    used: usage?.slotsHeld ?? 0,
    remaining: usage?.slotsRemaining ?? 0,
  };
}

/** The success message of what the document has to show (spec section 7). */
const SUCCESS_MESSAGE = {
  OK: "OK",
  NO_CONTAINERS: "NO_CONTAINERS",
  NO_EVENTS: "NO_EVENTS",
  CANCELLED: "SEALINE_CANCELED_SHIPMENT",
} as const satisfies Record<ContentState, string>;

/** Which success message the answer carries (spec section 7; conditions in docs/decisions). */
export function successMessage(view: Pick<DocumentView, "contentState">) {
  return SUCCESS_MESSAGE[view.contentState];
}

function ids<T extends { key: string }>(items: readonly T[]): Map<string, number> {
  return new Map(items.map((item, i) => [item.key, i + 1]));
}

interface Ids {
  locations: Map<string, number>;
  facilities: Map<string, number>;
  vessels: Map<string, number>;
}

/** The document's locations are its placed locations, in the same order. */
function idsOf(view: DocumentView): Ids {
  return {
    locations: ids(view.placedLocations),
    facilities: ids(view.facilities),
    vessels: ids(view.vessels),
  };
}

export function renderMetadata(view: DocumentView, context: AnswerContext) {
  return {
    type: context.type ?? TYPE_OF[view.referenceType],
    number: context.number,
    sealine: context.carrier.scac,
    sealine_name: context.carrier.name,
    status: view.status,
    is_status_from_sealine: view.statusFromCarrier,
    from_cache: context.fromCache,
    updated_at: utcDateTime(view.lastSyncedAt ?? view.fetchedAt),
    cache_expires: utcDateTime(view.cacheExpiresAt),
    api_calls: apiCalls(context.usage),
    unique_shipments: uniqueShipments(context.usage),
    ...(context.stale
      ? {
          stale_reason: context.stale.reason,
          last_synced_at: utcDateTime(context.stale.lastSyncedAt ?? view.fetchedAt),
        }
      : {}),
  };
}

/** A location object; `id` and `timezone` as the answer needs them. */
function location(place: PlacedLocationView, options: { id?: number; timezone: boolean }) {
  return {
    ...(options.id !== undefined ? { id: options.id } : {}),
    name: place.name,
    state: place.state ?? "",
    country: place.country ?? "",
    country_code: place.countryCode ?? "",
    locode: place.unLocode,
    lat: place.lat,
    lng: place.lng,
    ...(options.timezone ? { timezone: place.timeZone } : {}),
  };
}

export function renderLocations(view: DocumentView, options: { timezone: boolean }) {
  return view.placedLocations.map((place, i) => location(place, { id: i + 1, timezone: options.timezone }));
}

export function renderFacilities(view: DocumentView) {
  return view.facilities.map((f, i) => ({
    id: i + 1,
    name: f.name,
    country_code: f.locodeCountryCode ?? "",
    locode: f.locode,
    bic_code: f.bicCode,
    smdg_code: f.smdgCode,
    lat: f.lat,
    lng: f.lng,
  }));
}

export function renderRoute(view: DocumentView) {
  const locationIds = ids(view.placedLocations);
  const point = (p: CompatRoutePointFragment) => ({
    location: p.location ? (locationIds.get(p.location.key) ?? null) : null,
    date: p.localDateTime,
    actual: p.actual,
  });
  const { route } = view;
  return {
    // SeaRates fills prepol and postpod with the port itself when the carrier names no inland place.
    prepol: point(route.origin),
    pol: point(route.portOfLoading),
    pod: { ...point(route.portOfDischarge), predictive_eta: view.podPredictedArrival?.localDateTime ?? null },
    // Our predicted arrival at the place of delivery beyond the port, shaped like pod's. The contract
    // puts predictive_eta on pod only, so it is here only when there is one: every other answer is the
    // contract's to the byte (docs/decisions/final-destination-eta.md).
    postpod: {
      ...point(route.destination),
      ...(view.finalDestinationEta ? { predictive_eta: view.finalDestinationEta.localDateTime } : {}),
    },
  };
}

/**
 * The contract types `imo` and `mmsi` integer, with no null: an unknown one is 0, as the contract's
 * other unknown integers default to 0 (`unique_shipments`) and unknown strings are "" (a place's
 * `state`). 0 is no ship's number (an MMSI starts with its country's digits 2 to 7, an IMO number is
 * 7 digits), so a client that looks it up finds nothing rather than another ship
 * (docs/decisions/compat-api.md, issue 39 item 11).
 */
function vessel(v: CompatVesselFragment, id?: number) {
  return {
    ...(id !== undefined ? { id } : {}),
    name: v.name,
    imo: v.imo ?? 0,
    mmsi: v.mmsi ?? 0,
    call_sign: null,
    flag: null,
  };
}

export function renderVessels(view: DocumentView) {
  return view.vessels.map((v, i) => vessel(v, i + 1));
}

/** A land leg without a vessel has no `vessel` key; a sea leg whose vessel is unknown has null. */
function vesselField(event: EventView, vesselIds: Map<string, number>) {
  if (event.vessel) return { vessel: vesselIds.get(event.vessel.key) ?? null };
  return event.legType === "LAND" ? {} : { vessel: null };
}

/** Every event has a location (the core says where it happened). */
const locationId = (event: EventView, ids: Ids) => ids.locations.get(event.location!.key)!;

function renderEvent(event: EventView, index: number, ids: Ids) {
  return {
    order_id: index + 1,
    location: locationId(event, ids),
    facility: event.facility ? (ids.facilities.get(event.facility.key) ?? null) : null,
    description: event.description,
    event_type: event.kind,
    event_code: event.eventCode,
    status: event.statusCode ?? "UNK",
    ...(event.localDateTime !== null ? { date: event.localDateTime } : {}),
    actual: event.actual,
    is_date_from_sealine: event.isDateFromCarrier,
    is_additional_event: event.isAdditional,
    type: LEG_TYPE[event.legType],
    transport_type: event.modeOfTransport,
    ...vesselField(event, ids.vessels),
    voyage: event.voyage,
  };
}

export function renderContainers(view: DocumentView) {
  const all = idsOf(view);
  return view.containers.map((c) => ({
    number: c.number,
    iso_code: c.isoCode ?? "",
    size_type: c.description ?? c.sizeType ?? c.isoCode ?? "",
    status: c.status,
    is_status_from_sealine: c.statusFromCarrier,
    events_mirrored: c.eventsMirrored,
    events: c.events.map((e, i) => renderEvent(e, i, all)),
  }));
}

/** `route_data`: the legs with their paths, and the current pin. `ais` is never sent. */
export function renderRouteData(view: DocumentView) {
  const segments = view.routeSegments ?? [];
  return {
    route:
      segments.length === 0
        ? null
        : segments.map((s) => ({
            path: s.path.map(pair),
            type: s.kind,
            transport_type: s.modeOfTransport,
            from: location(s.from, { timezone: true }),
            to: location(s.to, { timezone: true }),
            ...(s.vessel ? { vessel: vessel(s.vessel) } : {}),
          })),
    pin: view.pin ? pair(view.pin) : null,
  };
}

/**
 * What an answer draws from its document alone, rendered once per document object: a stored answer
 * served from the answer cache is the same object on every call, so only its metadata (usage, the
 * type asked with) is drawn per call. Weakly held: a document the cache drops takes its parts along.
 * The parts are never changed after they are made (the answer only picks from them).
 */
const documentParts = new WeakMap<
  DocumentView,
  {
    containers: ReturnType<typeof renderContainers>;
    locations: ReturnType<typeof renderLocations>;
    facilities: ReturnType<typeof renderFacilities>;
    route: ReturnType<typeof renderRoute>;
    vessels: ReturnType<typeof renderVessels>;
    routeData?: ReturnType<typeof renderRouteData>;
  }
>();

function partsOf(view: DocumentView) {
  let parts = documentParts.get(view);
  if (!parts) {
    parts = {
      containers: renderContainers(view),
      locations: renderLocations(view, { timezone: true }),
      facilities: renderFacilities(view),
      route: renderRoute(view),
      vessels: renderVessels(view),
    };
    documentParts.set(view, parts);
  }
  return parts;
}

/** `/tracking` and `/reference`: containers[]; `/container`: the one container asked for. */
export function renderTrackingAnswer(
  view: DocumentView,
  context: AnswerContext,
  options: { route: boolean; singleContainer?: string },
) {
  const parts = partsOf(view);
  const { containers } = parts;
  const body: Record<string, unknown> = {
    metadata: renderMetadata(view, context),
    locations: parts.locations,
    facilities: parts.facilities,
    route: parts.route,
    vessels: parts.vessels,
  };
  if (options.singleContainer !== undefined) {
    body.container = containers.find((c) => c.number === options.singleContainer) ?? containers[0] ?? null;
  } else {
    body.containers = containers;
  }
  if (options.route) {
    parts.routeData ??= renderRouteData(view);
    body.route_data = parts.routeData;
  }
  return body;
}

/**
 * The parts' JSON text, made once per part object: a kept answer's parts are the same objects on
 * every call (above), so its bytes are its serialisation once, not a `JSON.stringify` of the whole
 * answer per request (a twentieth of a kept compat answer's CPU in issue 37's profile).
 */
const partsJson = new WeakMap<object, string>();

function jsonOfPart(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  let json = partsJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    partsJson.set(value, json);
  }
  return json;
}

/**
 * `renderTrackingAnswer` as JSON text, byte for byte what `JSON.stringify` makes of it: the metadata
 * (made per call) serialised per call, the document's parts from their kept text.
 */
export function trackingAnswerJson(
  view: DocumentView,
  context: AnswerContext,
  options: { route: boolean; singleContainer?: string },
): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(renderTrackingAnswer(view, context, options))) {
    if (value === undefined) continue;
    members.push(`${JSON.stringify(key)}:${key === "metadata" ? JSON.stringify(value) : jsonOfPart(value)}`);
  }
  return `{${members.join(",")}}`;
}

// -------------------------------------------------------------------------------------------------
// History

export interface HistoryMetadataInput {
  type: CompatType;
  number: string;
  sealine: string | null;
  sealineName: string | null;
  status: string | null;
  updatedAt: string | null;
  usage: UsageView | null;
}

/** The history operations' metadata: only these eight fields (spec section 2.2). */
export function renderHistoryMetadata(input: HistoryMetadataInput) {
  return {
    type: input.type,
    number: input.number,
    sealine: input.sealine,
    sealine_name: input.sealineName,
    status: input.status ?? "UNKNOWN",
    updated_at: utcDateTime(input.updatedAt),
    api_calls: apiCalls(input.usage),
    unique_shipments: uniqueShipments(input.usage),
  };
}

export function renderHistoryList(
  metadata: HistoryMetadataInput,
  lookups: readonly { id: number; createdAt: string; carrierScac: string | null }[],
) {
  return {
    metadata: renderHistoryMetadata(metadata),
    requests: lookups.map((l) => ({
      date: utcDateTime(l.createdAt),
      sealine: (l.carrierScac ?? "").toLowerCase(),
      id: l.id,
    })),
  };
}

/**
 * History-by-id: the stored document the call was answered with, reduced. Events carry only
 * location, description, status, date (UTC with `+00`), actual, type, vessel and voyage; containers
 * only number, iso_code, status and events; locations have no `timezone`.
 */
export function renderHistoryDocument(view: DocumentView, metadata: HistoryMetadataInput) {
  const all = idsOf(view);
  return {
    metadata: renderHistoryMetadata(metadata),
    locations: renderLocations(view, { timezone: false }),
    facilities: renderFacilities(view),
    route: renderRoute(view),
    vessels: renderVessels(view),
    containers: view.containers.map((c) => ({
      number: c.number,
      iso_code: c.isoCode ?? "",
      status: c.status,
      events: c.events.map((e) => {
        const date = utcDateTimeWithOffset(e.instant);
        return {
          location: locationId(e, all),
          description: e.description,
          status: e.statusCode ?? "UNK",
          ...(date !== null ? { date } : {}),
          actual: e.actual,
          type: LEG_TYPE[e.legType],
          ...vesselField(e, all.vessels),
          voyage: e.voyage,
        };
      }),
    })),
  };
}
