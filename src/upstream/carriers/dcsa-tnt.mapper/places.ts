/**
 * Locations, facilities, vessels.
 */
import type { TrackedFacility, TrackedLocation, TrackedVessel } from "../../../domain/tracking/model";
import { clean, countryName } from "./candidates";
import type { Candidate, FacilityData, LocationLookupResult, MappingRun, PlaceData } from "./mapping-run";

interface World {
  locations: Map<string, TrackedLocation>;
  facilities: Map<string, TrackedFacility>;
  vessels: Map<string, TrackedVessel>;
}

const slug = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function locationKeyOf(place: PlaceData): string | null {
  if (place.locode) return place.locode;
  if (place.name) return `name:${slug(place.name)}`;
  if (place.lat !== null && place.lng !== null) return `geo:${place.lat.toFixed(3)},${place.lng.toFixed(3)}`;
  return null;
}

// ISO 3166 keeps these for private use; a UN/LOCODE starting with one is a test or made-up code.
function isUserAssignedCountry(cc: string): boolean {
  return cc === "AA" || cc === "ZZ" || (cc[0] === "Q" && cc >= "QM") || cc[0] === "X";
}

export function resolvePlaces(candidates: Candidate[], run: MappingRun): World {
  const world: World = { locations: new Map(), facilities: new Map(), vessels: new Map() };
  const lookups = new Map<string, LocationLookupResult | undefined>();
  const lookup = (locode: string) => {
    if (!lookups.has(locode)) lookups.set(locode, run.context.locationLookup?.(locode));
    return lookups.get(locode);
  };

  // A transport call named by one event locates the other events of the same call that omit it.
  // Transport events name the call's own place; an equipment event's place is the fallback.
  const callPlaces = new Map<string, PlaceData>();
  for (const kind of ["TRANSPORT", "EQUIPMENT"] as const) {
    for (const c of candidates) {
      if (c.kind !== kind || !c.transportCallId || !c.place || callPlaces.has(c.transportCallId)) continue;
      if (locationKeyOf(c.place) !== null) callPlaces.set(c.transportCallId, c.place);
    }
  }

  for (const c of candidates) {
    let place = c.place;
    if ((place === null || locationKeyOf(place) === null) && c.transportCallId) {
      place = callPlaces.get(c.transportCallId) ?? null;
    }
    const key = place ? locationKeyOf(place) : null;
    if (place === null || key === null) {
      run.warn(`event ${c.index} dropped: ${c.kind.toLowerCase()} event ${c.code} has no location`);
      continue;
    }
    c.locationKey = key;
    mergeLocation(world, key, place, { lookup, run });
    c.facilityKey = place.facility ? mergeFacility(world, key, place, place.facility) : null;
    if (c.vessel) c.vesselKey = mergeVessel(world, c.vessel);
  }
  return world;
}

function mergeLocation(
  world: World,
  key: string,
  place: PlaceData,
  { lookup, run }: { lookup: (locode: string) => LocationLookupResult | undefined; run: MappingRun },
): void {
  const existing = world.locations.get(key);
  if (existing) {
    existing.state ??= place.state;
    existing.country ??= place.country;
    if (existing.lat === null && place.lat !== null && place.lng !== null) {
      existing.lat = place.lat;
      existing.lng = place.lng;
    }
    return;
  }
  const found = place.locode ? lookup(place.locode) : undefined;
  let countryCode = found?.countryCode ?? null;
  if (countryCode === null && place.locode) {
    const prefix = place.locode.slice(0, 2);
    if (isUserAssignedCountry(prefix)) {
      run.warn(`UN/LOCODE ${place.locode} has no real country (${prefix} is a private-use code)`);
    } else {
      countryCode = prefix;
    }
  }
  const lookupHasPosition = typeof found?.lat === "number" && typeof found?.lng === "number";
  world.locations.set(key, {
    key,
    unLocode: place.locode,
    name: clean(found?.name) ?? place.name ?? place.locode ?? key,
    state: clean(found?.state) ?? place.state,
    country: clean(found?.country) ?? place.country ?? countryName(countryCode),
    countryCode,
    lat: lookupHasPosition ? (found?.lat ?? null) : place.lat,
    lng: lookupHasPosition ? (found?.lng ?? null) : place.lng,
    timeZone: clean(found?.timeZone),
  });
}

function mergeFacility(world: World, locationKey: string, place: PlaceData, f: FacilityData): string | null {
  const identity = f.code
    ? `${f.provider ?? "CODE"}:${f.code.toUpperCase()}`
    : f.name
      ? `name:${slug(f.name)}`
      : null;
  if (identity === null) return null;
  const key = `${locationKey}/${identity}`;
  const existing = world.facilities.get(key);
  if (existing) {
    // A named sighting beats one that only had the code.
    if (f.name && existing.name === (f.code ?? "")) existing.name = f.name;
    if (existing.lat === null && f.lat !== null && f.lng !== null) {
      existing.lat = f.lat;
      existing.lng = f.lng;
    }
    return key;
  }
  world.facilities.set(key, {
    key,
    name: f.name ?? f.code ?? key,
    locode: place.locode,
    countryCode:
      place.locode && !isUserAssignedCountry(place.locode.slice(0, 2)) ? place.locode.slice(0, 2) : null,
    smdgCode: f.provider === "SMDG" ? f.code : null,
    bicCode: f.provider === "BIC" ? f.code : null,
    lat: f.lat,
    lng: f.lng,
  });
  return key;
}

function mergeVessel(world: World, v: { imo: number | null; name: string | null }): string {
  const key = v.imo !== null ? `imo:${v.imo}` : `name:${slug(v.name ?? "")}`;
  const existing = world.vessels.get(key);
  if (existing) {
    if (v.name && existing.name.startsWith("IMO ")) existing.name = v.name;
    return key;
  }
  world.vessels.set(key, { key, name: v.name ?? `IMO ${v.imo}`, imo: v.imo, mmsi: null });
  return key;
}
