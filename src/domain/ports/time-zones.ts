/**
 * Time zones for imported ports, computed once at import time. geo-tz's full data set (`geo-tz/all`,
 * about 220 MB in memory) is loaded only by the importer process, never by the API, which reads the
 * stored zone. Points at sea or on a coarse, slightly offshore geocode get an `Etc/GMT±n` zone from
 * geo-tz; @photostructure/tz-lookup, which snaps coastal points to land zones, is asked then.
 */
import type { TimeZoneResolver } from "./port-import";

export async function loadTimeZoneResolver(): Promise<TimeZoneResolver> {
  const { find } = await import("geo-tz/all");
  const { default: tzLookup } = await import("@photostructure/tz-lookup");
  return (lat, lng) => {
    const exact = find(lat, lng)[0];
    if (exact && !exact.startsWith("Etc/")) return exact;
    try {
      const coarse = tzLookup(lat, lng);
      if (coarse && !coarse.startsWith("Etc/")) return coarse;
      return exact ?? coarse ?? null;
    } catch {
      return exact ?? null;
    }
  };
}

/** Which zones each country uses, and which countries each zone is used in (tzdata's zone tables). */
export interface ZoneCountries {
  zonesOf(countryCode: string): readonly string[];
  countriesOf(zone: string): readonly string[];
}

/**
 * Reads tzdata's `zone.tab` (one country per zone, every zone a country uses) and `zone1970.tab` (the
 * countries a zone has served since 1970), as installed with the system's tzdata.
 */
export function zoneCountriesFromTables(zoneTab: string, zone1970Tab: string): ZoneCountries {
  const byCountry = new Map<string, Set<string>>();
  const byZone = new Map<string, Set<string>>();
  for (const table of [zoneTab, zone1970Tab]) {
    for (const line of table.split("\n")) {
      if (line.startsWith("#") || line.trim() === "") continue;
      const [codes, , zone] = line.split("\t");
      if (!codes || !zone) continue;
      for (const code of codes.split(",")) {
        if (table === zoneTab) byCountry.set(code, (byCountry.get(code) ?? new Set()).add(zone));
        byZone.set(zone, (byZone.get(zone) ?? new Set()).add(code));
      }
    }
  }
  return {
    zonesOf: (code) => [...(byCountry.get(code) ?? [])],
    countriesOf: (zone) => [...(byZone.get(zone) ?? [])],
  };
}

/**
 * The zone of one catalogue port. The coordinates decide, as long as the zone they fall in is one of
 * the port's country (by the country's own name for it when the zone is shared and the country has one
 * zone: Asia/Ho_Chi_Minh, not Asia/Bangkok) (a coarse geocode a few kilometres off can land across a border: Macau's falls in
 * Zhuhai, Asia/Shanghai). Otherwise, or without coordinates, the country's zone when it has only one,
 * else the catalogue's own zone when it is one of the country's, else the coordinates' zone; null when
 * nothing fits.
 */
export function zoneForPort(
  port: { countryCode: string; lat: number | null; lng: number | null; listedZone: string | null },
  zoneOf: TimeZoneResolver,
  countries: ZoneCountries,
): string | null {
  const fromPoint = port.lat !== null && port.lng !== null ? zoneOf(port.lat, port.lng) : null;
  const ofCountry = (zone: string | null) =>
    zone !== null && countries.countriesOf(zone).includes(port.countryCode);
  const countryZones = countries.zonesOf(port.countryCode);
  if (ofCountry(fromPoint)) {
    // A zone several countries have shared since 1970 (Haiphong's point answers Asia/Bangkok): the
    // country's own name for it when it has only one.
    if (fromPoint !== null && !countryZones.includes(fromPoint) && countryZones.length === 1) {
      return countryZones[0]!;
    }
    return fromPoint;
  }
  if (countryZones.length === 1) return countryZones[0]!;
  if (ofCountry(port.listedZone)) return port.listedZone;
  return fromPoint;
}
