import type { TrackingDocument } from "./model";

/**
 * The part a location plays in the journey, in shipping words. The compat and v1 abbreviations
 * (prepol, pol, pod, postpod) are the facades' translation of these.
 */
export const LOCATION_ROLES = [
  "PLACE_OF_RECEIPT",
  "PORT_OF_LOADING",
  "TRANSSHIPMENT",
  "PORT_OF_DISCHARGE",
  "PLACE_OF_DELIVERY",
  "OTHER",
] as const;
export type LocationRole = (typeof LOCATION_ROLES)[number];

/**
 * Every location's role. A place can play several (the place of receipt is often the port of loading
 * itself, and a round trip loads and discharges at one port), but each shows one: the first that
 * applies, in this order: port of loading, port of discharge, place of receipt, place of delivery,
 * transshipment. The order is the one the v1 locations table has always used, so its `role` column
 * does not move.
 */
export function locationRoles(doc: TrackingDocument): Map<string, LocationRole> {
  const roles = new Map<string, LocationRole>();
  const assign = (key: string | null, role: LocationRole) => {
    if (key !== null && !roles.has(key)) roles.set(key, role);
  };
  assign(doc.route.pol.locationKey, "PORT_OF_LOADING");
  assign(doc.route.pod.locationKey, "PORT_OF_DISCHARGE");
  assign(doc.route.prepol.locationKey, "PLACE_OF_RECEIPT");
  assign(doc.route.postpod.locationKey, "PLACE_OF_DELIVERY");
  for (const key of doc.transshipmentLocationKeys) assign(key, "TRANSSHIPMENT");
  return roles;
}

/** One location's role; OTHER for a place off the route (an empty depot, an inland stop). */
export function locationRole(roles: ReadonlyMap<string, LocationRole>, locationKey: string): LocationRole {
  return roles.get(locationKey) ?? "OTHER";
}
