import type { ModeOfTransport, TrackedEvent, TrackingDocument } from "../tracking/model";
import type { PlacedLocation } from "./placed-locations";
import { type GeoPoint, haversineKm, seaRoute } from "./sea-route";

/**
 * The journey as drawable legs: LAND from the place of dispatch to the port of loading, SEA from port
 * to port (port of loading, each transshipment call, port of discharge), LAND from the port of
 * discharge to the destination. A SEA leg's path is the sea route between the two calls (MARNET, see
 * sea-route.ts); a LAND leg's is the straight line. A leg whose end has no coordinates is left out:
 * it cannot be drawn.
 */
export interface RouteSegment {
  kind: "SEA" | "LAND";
  /** VESSEL on SEA legs; TRUCK, RAIL or BARGE on LAND legs (TRUCK when the events do not say). */
  modeOfTransport: ModeOfTransport;
  fromLocationKey: string;
  toLocationKey: string;
  /** The vessel that loaded or departed at the leg's start (SEA legs only). */
  vesselKey: string | null;
  voyage: string | null;
  /** [lat, lng] pairs. */
  path: [number, number][];
  lengthNm: number;
}

const KM_PER_NM = 1.852;

/** The calls of the journey in order, with the index range of its sea part. */
export function journeyCalls(doc: TrackingDocument): { keys: string[]; seaFrom: number; seaTo: number } {
  const keys: string[] = [];
  const push = (key: string | null) => {
    if (key && keys.at(-1) !== key) keys.push(key);
  };
  push(doc.route.prepol.locationKey);
  const seaFromKey = doc.route.pol.locationKey;
  push(seaFromKey);
  for (const key of doc.transshipmentLocationKeys) push(key);
  push(doc.route.pod.locationKey);
  const seaToKey = doc.route.pod.locationKey;
  push(doc.route.postpod.locationKey);
  const seaFrom = seaFromKey ? keys.indexOf(seaFromKey) : -1;
  const seaTo = seaToKey ? keys.lastIndexOf(seaToKey) : -1;
  return { keys, seaFrom, seaTo };
}

const allEvents = (doc: TrackingDocument): TrackedEvent[] => doc.containers.flatMap((c) => c.events);

/** The vessel event that starts a sea leg at a call: a departure, else a load, with a vessel. */
function departureAt(doc: TrackingDocument, locationKey: string): TrackedEvent | undefined {
  const events = allEvents(doc).filter((e) => e.locationKey === locationKey && e.vesselKey !== null);
  return events.find((e) => e.eventCode === "DEPA") ?? events.find((e) => e.eventCode === "LOAD");
}

function landModeBetween(doc: TrackingDocument, from: string, to: string): ModeOfTransport {
  const event = allEvents(doc).find(
    (e) =>
      (e.locationKey === from || e.locationKey === to) &&
      e.legType === "land" &&
      e.modeOfTransport !== null &&
      e.modeOfTransport !== "VESSEL",
  );
  return event?.modeOfTransport ?? "TRUCK";
}

const pointOf = (place: PlacedLocation | undefined): GeoPoint | null =>
  place && place.lat !== null && place.lng !== null ? { lat: place.lat, lng: place.lng } : null;

export function routeSegments(doc: TrackingDocument, places: readonly PlacedLocation[]): RouteSegment[] {
  const { keys, seaFrom, seaTo } = journeyCalls(doc);
  const byKey = new Map(places.map((p) => [p.key, p]));
  const segments: RouteSegment[] = [];
  for (let i = 1; i < keys.length; i++) {
    const fromKey = keys[i - 1]!;
    const toKey = keys[i]!;
    const from = pointOf(byKey.get(fromKey));
    const to = pointOf(byKey.get(toKey));
    if (!from || !to) continue;
    const atSea = seaFrom >= 0 && seaTo >= 0 && i - 1 >= seaFrom && i <= seaTo;
    if (atSea) {
      const departure = departureAt(doc, fromKey);
      const route = seaRoute(from, to);
      const path: [number, number][] = route?.path ?? [
        [from.lat, from.lng],
        [to.lat, to.lng],
      ];
      segments.push({
        kind: "SEA",
        modeOfTransport: "VESSEL",
        fromLocationKey: fromKey,
        toLocationKey: toKey,
        vesselKey: departure?.vesselKey ?? null,
        voyage: departure?.voyage ?? null,
        path,
        lengthNm: route?.lengthNm ?? haversineKm(from, to) / KM_PER_NM,
      });
    } else {
      segments.push({
        kind: "LAND",
        modeOfTransport: landModeBetween(doc, fromKey, toKey),
        fromLocationKey: fromKey,
        toLocationKey: toKey,
        vesselKey: null,
        voyage: null,
        path: [
          [from.lat, from.lng],
          [to.lat, to.lng],
        ],
        lengthNm: haversineKm(from, to) / KM_PER_NM,
      });
    }
  }
  return segments;
}
