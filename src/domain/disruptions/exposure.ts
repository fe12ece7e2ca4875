/**
 * A shipment's exposure to disruptions, from its stored tracking document: the ports it loads,
 * transships and discharges at, their countries, its carrier, and the chokepoints the part of its
 * sea route still ahead passes (the route Quayside draws, MARNET; sea-route.ts). Pure.
 */
import { placeLocations } from "../routes/placed-locations";
import { routeSegments } from "../routes/route-segments";
import type { TrackingDocument } from "../tracking/model";
import { chokepointsOnRoute, type ShipmentExposure } from "./matching";

/** Whether the vessel has already arrived at a call: an actual arrival or discharge there. */
function reached(doc: TrackingDocument, locationKey: string): boolean {
  return doc.containers.some((c) =>
    c.events.some(
      (e) => e.locationKey === locationKey && e.actual && (e.eventCode === "ARRI" || e.eventCode === "DISC"),
    ),
  );
}

export function exposureOf(doc: TrackingDocument, carrierScac: string | null): ShipmentExposure {
  const byKey = new Map(doc.locations.map((l) => [l.key, l]));
  const locode = (key: string | null) => (key ? (byKey.get(key)?.unLocode ?? null) : null);
  const portOfLoading = locode(doc.route.pol.locationKey);
  const portOfDischarge = locode(doc.route.pod.locationKey);
  const transshipmentPorts = doc.transshipmentLocationKeys.map(locode).filter((c): c is string => c !== null);
  const keys = [doc.route.pol.locationKey, ...doc.transshipmentLocationKeys, doc.route.pod.locationKey];
  const countries = [
    ...new Set(
      keys
        .map((k) => (k ? (byKey.get(k)?.countryCode ?? null) : null))
        .filter((c): c is string => c !== null),
    ),
  ].sort();
  const ahead = routeSegments(doc, placeLocations(doc)).filter(
    (s) => s.kind === "SEA" && !reached(doc, s.toLocationKey),
  );
  const chokepoints = [...new Set(ahead.flatMap((s) => chokepointsOnRoute(s.path)))].sort();
  return {
    portOfLoading,
    portOfDischarge,
    transshipmentPorts: [...new Set(transshipmentPorts)],
    carrierScac: carrierScac ?? doc.carrierScac ?? null,
    countries,
    chokepoints,
  };
}
