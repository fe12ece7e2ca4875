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
