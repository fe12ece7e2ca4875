import { createRequire } from "node:module";
import { geoNaturalEarth1, geoPath } from "d3-geo";
import type { Feature, FeatureCollection, LineString, MultiPolygon, Polygon } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

/**
 * The route map of a share page, drawn on the server as SVG: land from Natural Earth (world-atlas,
 * public domain), the journey as great-circle arcs between its calls, no script and no request.
 */
const WIDTH = 720;
const HEIGHT = 360;

let land: FeatureCollection<Polygon | MultiPolygon> | Feature<Polygon | MultiPolygon> | undefined;

function loadLand() {
  if (!land) {
    const require = createRequire(import.meta.url);
    const topology = require("world-atlas/land-110m.json") as Topology<{ land: GeometryCollection }>;
    land = feature(topology, topology.objects.land) as FeatureCollection<Polygon | MultiPolygon>;
  }
  return land;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One leg of the journey as the core draws it (`SharedShipment.paths`). */
export interface RouteLeg {
  path: readonly { lat: number; lng: number }[];
}

/** A road, rail or barge leg drawn from a partner's positions (`InlandLeg`), in its own stroke. */
export interface InlandRouteLeg extends RouteLeg {
  mode: "TRUCK" | "RAIL" | "BARGE";
}

const INLAND_WORDS = { TRUCK: "Truck", RAIL: "Rail", BARGE: "Barge" } as const;

/** A marked point on the map (the vessel now), with its label. */
export interface MapPin {
  lat: number;
  lng: number;
  label: string;
}

export function routeMapSvg(
  stops: { lat: number; lng: number; name: string }[],
  legs: RouteLeg[] = [],
  pin?: MapPin,
  inland: InlandRouteLeg[] = [],
): string {
  // Legs as drawn by the core (sea lanes), else straight lines between the stops.
  const coordinates =
    legs.length > 0
      ? legs.flatMap((l) => l.path.map(({ lat, lng }) => [lng, lat]))
      : stops.map((s) => [s.lng, s.lat]);
  const line: Feature<LineString> = {
    type: "Feature",
    properties: {},
    geometry: { type: "LineString", coordinates },
  };
  const inlandLines = inland.map(
    (leg): Feature<LineString> => ({
      type: "Feature",
      properties: {},
      geometry: { type: "LineString", coordinates: leg.path.map(({ lat, lng }) => [lng, lat]) },
    }),
  );
  // Centre the map on the journey (circular mean of longitudes), so a trans-Pacific route is not cut.
  const sin = coordinates.reduce((a, [lng]) => a + Math.sin(((lng ?? 0) * Math.PI) / 180), 0);
  const cos = coordinates.reduce((a, [lng]) => a + Math.cos(((lng ?? 0) * Math.PI) / 180), 0);
  const centre = coordinates.length > 0 ? (Math.atan2(sin, cos) * 180) / Math.PI : 0;
  const projection = geoNaturalEarth1().rotate([-centre, 0]);
  if (stops.length > 0)
    projection.fitExtent(
      [
        [40, 30],
        [WIDTH - 40, HEIGHT - 30],
      ],
      // The inland legs may reach past the carrier's last call (a truck beyond the port): keep them in view.
      inlandLines.length > 0 ? { type: "FeatureCollection", features: [line, ...inlandLines] } : line,
    );
  else projection.fitSize([WIDTH, HEIGHT], { type: "Sphere" });
  // A single stop or a short hop would zoom in absurdly: keep at least a regional view.
  if (projection.scale() > 1200) projection.scale(1200);
  const path = geoPath(projection);
  const markers = stops
    .map((s, i) => {
      const point = projection([s.lng, s.lat]);
      if (!point) return "";
      const [x, y] = point;
      const role = i === 0 ? "origin" : i === stops.length - 1 ? "destination" : "call";
      return `<g class="stop ${role}"><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="5"/><text x="${(x + 8).toFixed(1)}" y="${(y - 8).toFixed(1)}">${escapeHtml(s.name)}</text></g>`;
    })
    .join("");
  const pinPoint = pin ? projection([pin.lng, pin.lat]) : null;
  const pinMark =
    pin && pinPoint
      ? `\n<g class="pin"><circle cx="${pinPoint[0].toFixed(1)}" cy="${pinPoint[1].toFixed(1)}" r="7"/><text x="${(pinPoint[0] + 10).toFixed(1)}" y="${(pinPoint[1] + 14).toFixed(1)}">${escapeHtml(pin.label)}</text></g>`
      : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Route map" class="route-map">
<rect width="${WIDTH}" height="${HEIGHT}" class="sea"/>
<path d="${path(loadLand()) ?? ""}" class="land"/>
${coordinates.length > 1 ? `<path d="${path(line) ?? ""}" class="route"/>` : ""}
${inland
  .map(
    (leg, i) =>
      `<path d="${path(inlandLines[i]!) ?? ""}" class="inland ${leg.mode.toLowerCase()}"><title>${INLAND_WORDS[leg.mode]} leg from the partner's positions</title></path>`,
  )
  .join("")}
${markers}${pinMark}
</svg>`;
}
