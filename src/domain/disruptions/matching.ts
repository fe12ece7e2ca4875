/**
 * Matching a tracked shipment against a disruption, pure. The shipment's side is precomputed when its
 * route is (its ports, their countries, its carrier, and the chokepoints its remaining sea route
 * passes), so matching every active shipment against every active event is set intersection.
 */
import type { DisruptionEntities } from "./entities";
import { CHOKEPOINTS } from "./gazetteer";

export const MATCH_TYPES = ["pol", "pod", "transship", "carrier", "lane_interest", "country"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** What a shipment exposes to disruptions. */
export interface ShipmentExposure {
  portOfLoading: string | null;
  portOfDischarge: string | null;
  transshipmentPorts: readonly string[];
  carrierScac: string | null;
  /** Countries of the port of loading, discharge and transshipment ports. */
  countries: readonly string[];
  /** Chokepoints the remaining sea route passes. */
  chokepoints: readonly string[];
}

/** The ways an event touches a shipment, in the contract's order; empty when it does not. */
export function matchTypes(exposure: ShipmentExposure, entities: DisruptionEntities): MatchType[] {
  const ports = new Set(entities.ports);
  const found: MatchType[] = [];
  if (exposure.portOfLoading && ports.has(exposure.portOfLoading)) found.push("pol");
  if (exposure.portOfDischarge && ports.has(exposure.portOfDischarge)) found.push("pod");
  if (exposure.transshipmentPorts.some((p) => ports.has(p))) found.push("transship");
  if (exposure.carrierScac && entities.carriers.includes(exposure.carrierScac)) found.push("carrier");
  if (exposure.chokepoints.some((c) => entities.chokepoints.includes(c))) found.push("lane_interest");
  if (exposure.countries.some((c) => entities.countries.includes(c))) found.push("country");
  return found;
}

const EARTH_RADIUS_NM = 3440.065;

function toRad(deg: number): number {
  return (deg * Math.PI) / 180;
}

/**
 * Distance in nautical miles from a point to a segment, on a local equirectangular projection
 * around the point (accurate enough within a few hundred miles, which is all the radius needs).
 */
function distanceToSegmentNm(p: [number, number], a: [number, number], b: [number, number]): number {
  const cos = Math.cos(toRad(p[0]));
  const project = (q: [number, number]) => {
    let dLng = q[1] - p[1];
    dLng = ((((dLng + 180) % 360) + 360) % 360) - 180;
    return [toRad(dLng) * cos * EARTH_RADIUS_NM, toRad(q[0] - p[0]) * EARTH_RADIUS_NM] as const;
  };
  const [ax, ay] = project(a);
  const [bx, by] = project(b);
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/**
 * The chokepoints a sea route passes: those within their radius of the path. `path` is [lat, lng]
 * pairs as `seaRoute` draws them (longitudes may run past ±180).
 */
export function chokepointsOnRoute(path: readonly [number, number][]): string[] {
  const found: string[] = [];
  for (const chokepoint of CHOKEPOINTS) {
    const at: [number, number] = [chokepoint.lat, chokepoint.lng];
    for (let i = 0; i < path.length; i++) {
      const a = path[i]!;
      const b = path[Math.min(i + 1, path.length - 1)]!;
      if (distanceToSegmentNm(at, a, b) <= chokepoint.radiusNm) {
        found.push(chokepoint.id);
        break;
      }
    }
  }
  return found;
}
