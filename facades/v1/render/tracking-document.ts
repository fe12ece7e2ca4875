import type {
  DocumentViewFieldsFragment,
  LegType,
  LocationRole,
  TrackingTablesFragment,
  TrackOutcomeFieldsFragment,
  VoyageLegFieldsFragment,
  VoyageLegStatus,
} from "../../generated/operations";
import { renderFinalDestinationEta, renderPredictiveEta } from "./predictive-eta";

/**
 * The v1 tracking document (spec v1 section 2.2) rendered from the core's typed facts. Pure: every
 * value comes from the core; this file only names, numbers and arranges fields. Integer ids are
 * positions in the document's lists (1, 2, 3 ...). Table rows have fixed field counts: voyage plan 9,
 * containers 6, locations 11, facilities 7, ETA history 6, events 20 (24 when the event has a
 * vessel), vessels 11. Their fields are documented in docs/decisions.
 */
export type DocumentView = DocumentViewFieldsFragment;

type ShipmentView = Extract<TrackOutcomeFieldsFragment, { __typename: "TrackSuccess" }>["shipment"];

export const SHIPMENT_TYPE = {
  container: "Container",
  bl: "Bill of Lading",
  booking: "Bill of Lading",
} as const;

/** v1 names the roles with the compat abbreviations. */
const ROLE: Record<LocationRole, string> = {
  PLACE_OF_RECEIPT: "prepol",
  PORT_OF_LOADING: "pol",
  TRANSSHIPMENT: "transshipment",
  PORT_OF_DISCHARGE: "pod",
  PLACE_OF_DELIVERY: "postpod",
  OTHER: "other",
};
const LEG_TYPE: Record<LegType, string> = { SEA: "sea", LAND: "land" };
const LEG_STATUS: Record<VoyageLegStatus, string> = {
  PLANNED: "planned",
  SAILING: "sailing",
  COMPLETED: "completed",
};

const flag = (b: boolean) => (b ? 1 : 0);

/** Position ids (1, 2, 3 ...) by key. */
const idsOf = (items: readonly { key: string }[]) => new Map(items.map((item, i) => [item.key, i + 1]));

/** `route_json`: the journey's calls as a JSON text of [lat, lng] pairs. */
export const routeJson = (view: Pick<TrackingTablesFragment, "routePoints">) =>
  JSON.stringify(view.routePoints.map((p) => [p.lat, p.lng]));

function voyagePlanRow(leg: VoyageLegFieldsFragment) {
  return {
    leg: leg.sequence,
    vessel_name: leg.vessel?.name ?? null,
    vessel_imo: leg.vessel?.imo ?? null,
    voyage: leg.voyage,
    origin_locode: leg.from?.unLocode ?? null,
    destination_locode: leg.to?.unLocode ?? null,
    departure_date: leg.departure.localDateTime,
    arrival_date: leg.arrival?.localDateTime ?? null,
    status: LEG_STATUS[leg.status],
  };
}

export function renderTables(doc: TrackingTablesFragment) {
  const locationIds = idsOf(doc.locations);
  const facilityIds = idsOf(doc.facilities);
  const vesselIds = idsOf(doc.vessels);
  const locationId = (location: { key: string } | null) =>
    location ? (locationIds.get(location.key) ?? null) : null;

  return {
    voyage_plan_table: doc.voyageLegs.map(voyagePlanRow),
    containers_table: doc.containers.map((c) => ({
      container_number: c.number,
      iso_code: c.isoCode,
      size_type: c.sizeType,
      container_description: c.description,
      status: c.status,
      last_event_date: c.lastActualEvent?.localDateTime ?? null,
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
      role: ROLE[l.role],
      sequence: i + 1,
    })),
    facilities_table: doc.facilities.map((f, i) => ({
      id: i + 1,
      name: f.name,
      locode: f.locode,
      country_code: f.countryCode,
      smdg_code: f.smdgCode,
      bic_code: f.bicCode,
      location_id: locationId(f.location),
    })),
    eta_history_table: doc.etaHistory.map((r) => ({
      eta: r.localDateTime,
      eta_utc: r.eta,
      recorded_at: r.recordedAt,
      is_actual: flag(r.actual),
      source: "carrier",
      change_hours: r.changeHours,
    })),
    events_table: doc.containers.flatMap((c) =>
      c.events.map((e, i) => ({
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
        leg_type: LEG_TYPE[e.legType],
        location_id: locationId(e.location),
        locode: e.location?.unLocode ?? null,
        location_name: e.location?.name ?? null,
        facility_id: e.facility ? (facilityIds.get(e.facility.key) ?? null) : null,
        facility_name: e.facility?.name ?? null,
        is_additional: flag(e.isAdditional),
        empty_indicator: e.emptyIndicator,
        voyage: e.voyage,
        // Four more fields only when a vessel carried the box: a truck leg has none.
        ...(e.vessel
          ? {
              vessel_id: vesselIds.get(e.vessel.key) ?? null,
              vessel_name: e.vessel.name,
              vessel_imo: e.vessel.imo,
              vessel_mmsi: e.vessel.mmsi,
            }
          : {}),
        // Only on a partner's event (issue 41): a row without it is the carrier's own.
        ...(e.source.kind === "PARTNER"
          ? {
              source: {
                kind: "partner",
                name: e.source.name,
                partner_source_id: e.source.partnerSourceId,
                event_id: e.source.eventId,
              },
            }
          : {}),
      })),
    ),
    vessels_table: doc.vessels.map((v, i) => {
      const first = v.voyageLegs[0];
      const last = v.voyageLegs.at(-1);
      return {
        id: i + 1,
        name: v.name,
        imo: v.imo,
        mmsi: v.mmsi,
        call_sign: null,
        flag: null,
        voyages: v.voyages,
        from_locode: first?.from?.unLocode ?? null,
        to_locode: last?.to?.unLocode ?? null,
        departure_date: first?.departure.localDateTime ?? null,
        arrival_date: last?.arrival?.localDateTime ?? null,
      };
    }),
  };
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
  return {
    reference_number: view.reference,
    origin: view.origin,
    destination: view.destination,
    sealine: carrier.scac,
    sealine_name: carrier.name,
    carrier: { sealine: carrier.scac, provided: carrier.provided },
    number_of_containers: view.containers.length,
    eta: view.route.portOfDischarge.localDateTime,
    // The same moment in UTC (docs/decisions/times.md): `eta` is the port's wall clock.
    eta_utc: view.route.portOfDischarge.instant,
    last_updated_at: view.fetchedAt,
    created_at: shipment.createdAt,
    last_synced_at: view.lastSyncedAt,
    is_active: flag(view.isActive),
    is_delayed: flag(view.isDelayed),
    is_failed_shipment: flag(shipment.failed),
    closed_at: view.deliveredAt,
    shipment_type: SHIPMENT_TYPE[view.referenceType],
    total_days: view.totalDays,
    remaining_days: view.remainingDays,
    latitude: view.position?.lat ?? null,
    longitude: view.position?.lng ?? null,
    status: view.status,
    route_json: routeJson(view),
    shipment_uid: shipment.id,
    container_summary: view.containerSummary,
    ...renderPredictiveEta(view),
    ...renderFinalDestinationEta(view),
    ...(input.staleReason ? { stale_reason: input.staleReason } : {}),
    ...renderTables(view),
  };
}
