import { createRequire } from "node:module";

/**
 * The embedded port dataset (the `sea-ports` package: about 1,600 ports keyed by UN/LOCODE with
 * coordinates and IANA zone). It fills what carrier events rarely carry: names, countries, places.
 */
export interface Port {
  locode: string;
  name: string;
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string;
  lat: number | null;
  lng: number | null;
  timeZone: string | null;
}

interface SeaPortsEntry {
  name: string;
  city?: string;
  province?: string;
  country?: string;
  coordinates?: [number, number];
  timezone?: string;
  unlocs?: string[];
}

let ports: ReadonlyMap<string, Port> | undefined;

function load(): ReadonlyMap<string, Port> {
  const require = createRequire(import.meta.url);
  const raw = require("sea-ports/lib/ports.json") as Record<string, SeaPortsEntry>;
  const map = new Map<string, Port>();
  for (const [code, entry] of Object.entries(raw)) {
    const port: Port = {
      locode: code,
      name: entry.name,
      city: entry.city ?? null,
      state: entry.province ?? null,
      country: entry.country ?? null,
      countryCode: code.slice(0, 2),
      // sea-ports stores [longitude, latitude].
      lat: entry.coordinates?.[1] ?? null,
      lng: entry.coordinates?.[0] ?? null,
      timeZone: entry.timezone ?? null,
    };
    for (const alias of [code, ...(entry.unlocs ?? [])]) if (!map.has(alias)) map.set(alias, port);
  }
  return map;
}

export function findPort(locode: string): Port | undefined {
  ports ??= load();
  return ports.get(locode.trim().toUpperCase());
}
