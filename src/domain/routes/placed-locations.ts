import { createRequire } from "node:module";
import { localDateTime } from "../../lib/time-zone";
import type { TrackedLocation, TrackingDocument } from "../tracking/model";

/**
 * A document's locations with what the carrier left out filled in from the rest of the document, so
 * that every place can be drawn on a map and every local date read in its zone:
 * - coordinates: the location's own, else those of a facility (terminal, depot) at that location;
 * - time zone: the location's own, else looked up from the coordinates (@photostructure/tz-lookup,
 *   bundled boundaries, no I/O), else the fixed-offset zone (`Etc/GMT-7` for +07:00) of the events
 *   dated there, else `Etc/UTC`.
 * Pure apart from the bundled lookup table; the stored document is not changed.
 */
export interface PlacedLocation extends TrackedLocation {
  timeZone: string;
}

const require = createRequire(import.meta.url);
const tzLookup = require("@photostructure/tz-lookup") as (lat: number, lng: number) => string;

/** `+07:00` -> `Etc/GMT-7` (the Etc zones count the other way round); null for half-hour offsets. */
export function fixedOffsetZone(offset: string): string | null {
  const m = /^([+-])(\d\d):(\d\d)$/.exec(offset);
  if (m?.[3] !== "00") return null;
  const hours = Number(m[2]);
  if (hours === 0) return "Etc/UTC";
  return `Etc/GMT${m[1] === "+" ? "-" : "+"}${hours}`;
}

function zoneFromCoordinates(lat: number, lng: number): string | null {
  try {
    return tzLookup(lat, lng);
  } catch {
    return null;
  }
}

export function placeLocations(doc: TrackingDocument): PlacedLocation[] {
  return doc.locations.map((location) => {
    let { lat, lng } = location;
    if (lat === null || lng === null) {
      const facility = doc.facilities.find(
        (f) => f.key.startsWith(`${location.key}/`) && f.lat !== null && f.lng !== null,
      );
      if (facility) ({ lat, lng } = facility);
    }
    const offset = doc.containers
      .flatMap((c) => c.events)
      .find((e) => e.locationKey === location.key && e.utcOffset)?.utcOffset;
    const timeZone =
      location.timeZone ??
      (lat !== null && lng !== null ? zoneFromCoordinates(lat, lng) : null) ??
      (offset ? fixedOffsetZone(offset) : null) ??
      "Etc/UTC";
    return { ...location, lat, lng, timeZone };
  });
}

/** `YYYY-MM-DD HH:MM:SS` wall-clock time of an instant in an IANA zone (UTC for an unknown zone). */
export function wallClock(instant: Date, timeZone: string): string {
  return localDateTime(instant, timeZone);
}
