import type { ShipmentStatus } from "../../generated/prisma/enums";
import type { InlandLeg } from "../eta/final-destination";
import { placeLocations } from "../routes/placed-locations";
import { routeSegments } from "../routes/route-segments";
import { type TrackingDocument, visibleEvents } from "../tracking/model";
import { originAndDestination, routePoints } from "../tracking/shipment-facts";

/**
 * What a public share page may show: the journey only. No account, customer, key or user data ever
 * enters this shape, so the page cannot leak it whatever the template does.
 */
export interface SharedShipmentView {
  reference: string;
  referenceType: "container" | "bl" | "booking";
  carrierName: string;
  status: ShipmentStatus;
  origin: string;
  destination: string;
  eta: string | null;
  etaActual: boolean;
  containers: { number: string; description: string | null; status: ShipmentStatus }[];
  milestones: { date: string | null; description: string; place: string; actual: boolean }[];
  route: { lat: number; lng: number; name: string }[];
  /** The journey's legs as drawn: sea legs along real sea lanes, land legs straight. */
  paths: { kind: "SEA" | "LAND"; path: [number, number][] }[];
  /** Road, rail and barge legs drawn from the organisation's partner positions (issue 41); empty without them. */
  inlandLegs: InlandLeg[];
  updatedAt: string;
}

export function sharedView(
  doc: TrackingDocument,
  carrierName: string,
  updatedAt: Date,
  inland: InlandLeg[] = [],
): SharedShipmentView {
  const { origin, destination } = originAndDestination(doc);
  const place = (key: string) => doc.locations.find((l) => l.key === key)?.name ?? "";
  // Milestones of the journey (transport moves and gate moves), once each, in time order.
  const seen = new Set<string>();
  const milestones = doc.containers
    .flatMap(visibleEvents)
    .sort((a, b) => (a.instant ?? "").localeCompare(b.instant ?? ""))
    .filter((e) => {
      const key = `${e.eventCode}|${e.locationKey}|${e.localDateTime}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((e) => ({
      date: e.localDateTime,
      description: e.description,
      place: place(e.locationKey),
      actual: e.actual,
    }));
  const keys = [
    doc.route.prepol.locationKey,
    doc.route.pol.locationKey,
    ...doc.transshipmentLocationKeys,
    doc.route.pod.locationKey,
    doc.route.postpod.locationKey,
  ].filter((k): k is string => k !== null);
  const route = [...new Set(keys)]
    .map((k) => doc.locations.find((l) => l.key === k))
    .filter((l): l is NonNullable<typeof l> => l?.lat != null && l.lng != null)
    .map((l) => ({ lat: l.lat!, lng: l.lng!, name: l.name }));
  return {
    reference: doc.reference,
    referenceType: doc.referenceType,
    carrierName,
    status: doc.status,
    origin,
    destination,
    eta: doc.route.pod.localDateTime,
    etaActual: doc.route.pod.actual === true,
    containers: doc.containers.map((c) => ({
      number: c.number,
      description: c.description,
      status: c.status,
    })),
    milestones,
    route: route.length > 0 ? route : routePoints(doc).map(({ lat, lng }) => ({ lat, lng, name: "" })),
    paths: routeSegments(doc, placeLocations(doc)).map((s) => ({ kind: s.kind, path: s.path })),
    inlandLegs: inland,
    updatedAt: updatedAt.toISOString(),
  };
}
