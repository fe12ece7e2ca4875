/**
 * Where the vessel carrying a shipment is now, for the shipment page's map: the vessel of the leg
 * under way, at its last AIS report when that report is recent, else at the point the route and the
 * clock put it (the same estimate as the shipment's pin). Null when no leg is under way: the box is
 * then on land or waiting, and the pin alone says where.
 */
import type { GeoPoint, TrackingDocument } from "../tracking/model";
import type { VoyageLeg } from "../tracking/voyage-legs";

/** An AIS report older than this says where the ship was, not where it is. */
export const AIS_FRESH_MS = 6 * 3_600_000;

export interface VesselNow {
  name: string;
  imo: number | null;
  voyage: string | null;
  lat: number;
  lng: number;
  source: "ais" | "route_estimate";
  /** When the AIS report was made; null for an estimate. */
  observedAt: Date | null;
}

export interface AisReport {
  lat: number;
  lon: number;
  positionAt: Date;
}

/** The vessel of the leg under way (departed, not arrived), if any. */
export function vesselUnderWay(doc: TrackingDocument, legs: readonly VoyageLeg[]) {
  const leg = legs.find((l) => l.status === "SAILING");
  const vessel = leg?.vesselKey ? doc.vessels.find((v) => v.key === leg.vesselKey) : undefined;
  return leg && vessel ? { leg, vessel } : null;
}

export function vesselNow(
  underWay: ReturnType<typeof vesselUnderWay>,
  ais: AisReport | null,
  estimate: GeoPoint | null,
  now: Date,
): VesselNow | null {
  if (!underWay) return null;
  const base = { name: underWay.vessel.name, imo: underWay.vessel.imo, voyage: underWay.leg.voyage };
  if (ais && now.getTime() - ais.positionAt.getTime() <= AIS_FRESH_MS) {
    return { ...base, lat: ais.lat, lng: ais.lon, source: "ais", observedAt: ais.positionAt };
  }
  if (!estimate) return null;
  return { ...base, lat: estimate.lat, lng: estimate.lng, source: "route_estimate", observedAt: null };
}
