// visibleEvents: the core's one visibility rule, called here only until v1 selects typed events
// instead of the `content` document (issue 17).
import { type TrackedEvent, type TrackingDocument, visibleEvents } from "../../../src/domain/tracking/model";
import type { DocumentViewFieldsFragment, TrackOutcomeFieldsFragment } from "../../generated/operations";

/**
 * The v1 tracking document (spec v1 section 2.2) rendered from the canonical model. Pure: every
 * value comes from the core; this file only names and arranges fields. Table rows have fixed field
 * counts: voyage plan 9, containers 6, locations 11, facilities 7, ETA history 6, events 20 (24
 * when the event has a vessel), vessels 11. Their fields are documented in docs/decisions.md.
 */
export type DocumentView = DocumentViewFieldsFragment;

type ShipmentView = Extract<TrackOutcomeFieldsFragment, { __typename: "TrackSuccess" }>["shipment"];

/**
 * The canonical document the view carries as a JSON blob (`content`), as the core stored it. Read
 * here only until v1 selects typed fields instead (issue 17).
 */
export const canonicalDocument = (view: Pick<DocumentView, "content">) => view.content as TrackingDocument;

/** `route_json`: the journey's calls as a JSON text of [lat, lng] pairs. */
export const routeJson = (view: Pick<DocumentView, "routePoints">) =>
  JSON.stringify(view.routePoints.map((p) => [p.lat, p.lng]));

export const SHIPMENT_TYPE = {
  container: "Container",
  bl: "Bill of Lading",
  booking: "Bill of Lading",
} as const;

const flag = (b: boolean) => (b ? 1 : 0);

export function renderTables(doc: TrackingDocument) {
  const locationIds = new Map(doc.locations.map((l, i) => [l.key, i + 1]));
  const facilityIds = new Map(doc.facilities.map((f, i) => [f.key, i + 1]));
  const vesselIds = new Map(doc.vessels.map((v, i) => [v.key, i + 1]));
  const locode = (key: string | null) =>
    key ? (doc.locations.find((l) => l.key === key)?.unLocode ?? null) : null;
  const roles = new Map<string, string>();
  const setRole = (key: string | null, role: string) => key && !roles.has(key) && roles.set(key, role);
  setRole(doc.route.pol.locationKey, "pol");
  setRole(doc.route.pod.locationKey, "pod");
  setRole(doc.route.prepol.locationKey, "prepol");
  setRole(doc.route.postpod.locationKey, "postpod");
  for (const key of doc.transshipmentLocationKeys) setRole(key, "transshipment");

  const transportEvents = uniqueTransportEvents(doc);
  const legs = voyageLegs(transportEvents);

  return {
    voyage_plan_table: legs.map((leg, i) => ({
      leg: i + 1,
      vessel_name: leg.vesselKey ? (doc.vessels.find((v) => v.key === leg.vesselKey)?.name ?? null) : null,
      vessel_imo: leg.vesselKey ? (doc.vessels.find((v) => v.key === leg.vesselKey)?.imo ?? null) : null,
      voyage: leg.voyage,
      origin_locode: locode(leg.from?.locationKey ?? null),
      destination_locode: locode(leg.to?.locationKey ?? null),
      departure_date: leg.from?.localDateTime ?? null,
      arrival_date: leg.to?.localDateTime ?? null,
      status: leg.to?.actual ? "completed" : leg.from?.actual ? "sailing" : "planned",
    })),
    containers_table: doc.containers.map((c) => ({
      container_number: c.number,
      iso_code: c.isoCode,
      size_type: c.sizeType,
      container_description: c.description,
      status: c.status,
      last_event_date: [...c.events].reverse().find((e) => e.actual)?.localDateTime ?? null,
    })),
    locations_table: doc.locations.map((l, i) => ({
      id: i + 1,
      locode: l.unLocode,
      name: l.name,
      state: l.state,
      country: l.country,
      country_code: l.countryCode,
      lat: l.lat,
      lng: l.lng,
      timezone: l.timeZone,
      role: roles.get(l.key) ?? "other",
      sequence: i + 1,
    })),
    facilities_table: doc.facilities.map((f, i) => ({
      id: i + 1,
      name: f.name,
      locode: f.locode,
      country_code: f.countryCode,
      smdg_code: f.smdgCode,
      bic_code: f.bicCode,
      location_id: f.locode
        ? (locationIds.get(doc.locations.find((l) => l.unLocode === f.locode)?.key ?? "") ?? null)
        : null,
    })),
    eta_history_table: doc.etaHistory.map((r, i) => ({
      eta: r.localDateTime,
      eta_utc: r.eta,
      recorded_at: r.recordedAt,
      is_actual: flag(r.actual),
      source: "carrier",
      change_hours:
        i === 0 ? 0 : Math.round((Date.parse(r.eta) - Date.parse(doc.etaHistory[i - 1]!.eta)) / 3_600_000),
    })),
    events_table: doc.containers.flatMap((c) =>
      visibleEvents(c).map((e, i) => {
        const location = doc.locations.find((l) => l.key === e.locationKey);
        const facility = e.facilityKey ? doc.facilities.find((f) => f.key === e.facilityKey) : undefined;
        const vessel = e.vesselKey ? doc.vessels.find((v) => v.key === e.vesselKey) : undefined;
        return {
          container_number: c.number,
          order_id: i + 1,
          event_type: e.kind,
          event_code: e.eventCode,
          status: e.statusCode,
          description: e.description,
          date: e.localDateTime,
          date_utc_offset: e.utcOffset,
          date_utc: e.instant,
          is_actual: flag(e.actual),
          transport_mode: e.modeOfTransport,
          leg_type: e.legType,
          location_id: locationIds.get(e.locationKey) ?? null,
          locode: location?.unLocode ?? null,
          location_name: location?.name ?? null,
          facility_id: e.facilityKey ? (facilityIds.get(e.facilityKey) ?? null) : null,
          facility_name: facility?.name ?? null,
          is_additional: flag(e.isAdditional),
          empty_indicator: e.emptyIndicator,
          voyage: e.voyage,
          // Four more fields only when a vessel carried the box: a truck leg has none.
          ...(vessel
            ? {
                vessel_id: vesselIds.get(vessel.key) ?? null,
                vessel_name: vessel.name,
                vessel_imo: vessel.imo,
                vessel_mmsi: vessel.mmsi,
              }
            : {}),
        };
      }),
    ),
    vessels_table: doc.vessels.map((v, i) => {
      const own = legs.filter((l) => l.vesselKey === v.key);
      return {
        id: i + 1,
        name: v.name,
        imo: v.imo,
        mmsi: v.mmsi,
        call_sign: null,
        flag: null,
        voyages: [...new Set(own.map((l) => l.voyage).filter((x): x is string => x !== null))],
        from_locode: locode(own[0]?.from?.locationKey ?? null),
        to_locode: locode(own.at(-1)?.to?.locationKey ?? null),
        departure_date: own[0]?.from?.localDateTime ?? null,
        arrival_date: own.at(-1)?.to?.localDateTime ?? null,
      };
    }),
  };
}

/** Transport events once (they are mirrored into every container on the call), in time order. */
function uniqueTransportEvents(doc: TrackingDocument): TrackedEvent[] {
  const seen = new Map<string, TrackedEvent>();
  for (const e of doc.containers.flatMap((c) => c.events)) {
    if (e.modeOfTransport !== "VESSEL" && e.modeOfTransport !== "BARGE") continue;
    if (e.eventCode !== "DEPA" && e.eventCode !== "ARRI") continue;
    const key = `${e.eventCode}|${e.locationKey}|${e.vesselKey ?? ""}|${e.voyage ?? ""}`;
    if (!seen.has(key)) seen.set(key, e);
  }
  return [...seen.values()].sort((a, b) => (a.instant ?? "").localeCompare(b.instant ?? ""));
}

interface Leg {
  vesselKey: string | null;
  voyage: string | null;
  from: TrackedEvent | undefined;
  to: TrackedEvent | undefined;
}

/** A sea leg is a departure followed by the next arrival. */
function voyageLegs(events: TrackedEvent[]): Leg[] {
  const legs: Leg[] = [];
  let open: TrackedEvent | undefined;
  for (const e of events) {
    if (e.eventCode === "DEPA") {
      if (open) legs.push({ vesselKey: open.vesselKey, voyage: open.voyage, from: open, to: undefined });
      open = e;
    } else if (open) {
      legs.push({
        vesselKey: open.vesselKey ?? e.vesselKey,
        voyage: open.voyage ?? e.voyage,
        from: open,
        to: e,
      });
      open = undefined;
    }
  }
  if (open) legs.push({ vesselKey: open.vesselKey, voyage: open.voyage, from: open, to: undefined });
  return legs;
}

/** The whole tracking document of spec section 2.2. */
export function renderTrackingDocument(input: {
  view: DocumentView;
  shipment: ShipmentView;
  carrier: { scac: string; name: string; provided: boolean };
  /** Only when the carrier could not be reached and the stored document was served. */
  staleReason?: string | null;
}) {
  const { view, shipment, carrier } = input;
  const doc = canonicalDocument(view);
  const delivered = doc.status === "DELIVERED";
  return {
    reference_number: doc.reference,
    origin: view.origin,
    destination: view.destination,
    sealine: carrier.scac,
    sealine_name: carrier.name,
    carrier: { sealine: carrier.scac, provided: carrier.provided },
    number_of_containers: doc.containers.length,
    eta: doc.route.pod.localDateTime,
    last_updated_at: view.fetchedAt,
    created_at: shipment.createdAt,
    last_synced_at: view.lastSyncedAt,
    is_active: flag(!delivered && doc.status !== "CANCELLED"),
    is_delayed: flag(view.isDelayed),
    is_failed_shipment: flag(shipment.failed),
    closed_at: doc.deliveredAt,
    shipment_type: SHIPMENT_TYPE[doc.referenceType],
    total_days: view.totalDays,
    remaining_days: view.remainingDays,
    latitude: view.position?.lat ?? null,
    longitude: view.position?.lng ?? null,
    status: doc.status,
    route_json: routeJson(view),
    shipment_uid: shipment.id,
    container_summary: view.containerSummary,
    ...(input.staleReason ? { stale_reason: input.staleReason } : {}),
    ...renderTables(doc),
  };
}
