/**
 * Builds the embedded catalogue's zone table (scripts/port-time-zones.ts writes it; a test rebuilds it
 * and compares). Importer-side code: it loads geo-tz's full data set and reads the system's tzdata
 * tables, so the API process never imports it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadTimeZoneResolver, zoneCountriesFromTables, zoneForPort } from "./time-zones";

const ZONEINFO = process.env.ZONEINFO ?? "/usr/share/zoneinfo";

interface SeaPortsEntry {
  coordinates?: [number, number];
  timezone?: string;
}

export async function computeEmbeddedTimeZones(): Promise<{ zones: Record<string, string>; ports: number }> {
  const require = createRequire(import.meta.url);
  const ports = require("sea-ports/lib/ports.json") as Record<string, SeaPortsEntry>;
  const zoneOf = await loadTimeZoneResolver();
  const countries = zoneCountriesFromTables(
    readFileSync(`${ZONEINFO}/zone.tab`, "utf8"),
    readFileSync(`${ZONEINFO}/zone1970.tab`, "utf8"),
  );
  const zones: Record<string, string> = {};
  for (const code of Object.keys(ports).sort()) {
    const entry = ports[code]!;
    const zone = zoneForPort(
      {
        countryCode: code.slice(0, 2),
        // sea-ports stores [longitude, latitude].
        lat: entry.coordinates?.[1] ?? null,
        lng: entry.coordinates?.[0] ?? null,
        listedZone: entry.timezone ?? null,
      },
      zoneOf,
      countries,
    );
    if (zone) zones[code] = zone;
  }
  return { zones, ports: Object.keys(ports).length };
}
