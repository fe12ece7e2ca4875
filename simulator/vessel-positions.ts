/**
 * `GET /vessels/position?imo=&mmsi=` or `?name=`: where a ship of the world is at the simulator's clock,
 * in the shape of a commercial AIS position API (there is no DCSA standard for positions). A ship is
 * found by IMO number (the MMSI is optional), by MMSI when no IMO number is given, or by its whole name
 * ignoring case, accents, punctuation and spacing (`name`, not with the numbers). One the world does not
 * know answers 404; a name several ships bear answers 300 with them listed, so the caller can ask by IMO.
 */
import { findVessel, vesselFix } from "./world/fleet";
import { toLocalIso, toUtcIso } from "./world/local-time";
import { VESSELS, type Vessel } from "./world/vessels";

export type VesselPositionAnswer =
  | { status: 200; body: object }
  | { status: 300; body: { error: string; vessels: object[] } }
  | { status: 400 | 404; body: { error: string } };

const nameKey = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[Øø]/g, "O")
    .replace(/[Ææ]/g, "AE")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();

/** The world's ships bearing a name, compared whole (case, accents, punctuation and spacing ignored). */
export function vesselsNamed(name: string): Vessel[] {
  const wanted = nameKey(name);
  return wanted ? VESSELS.filter((v) => nameKey(v.name) === wanted) : [];
}

export function vesselPositionAnswer(params: URLSearchParams, nowMs: number): VesselPositionAnswer {
  const imo = params.get("imo") ?? undefined;
  const mmsi = params.get("mmsi") ?? undefined;
  const name = params.get("name")?.trim() || undefined;
  if (name && (imo || mmsi)) {
    return { status: 400, body: { error: "name is asked alone, without imo or mmsi" } };
  }
  if (!imo && !mmsi && !name) return { status: 400, body: { error: "imo, mmsi or name is required" } };
  if ((imo && !/^\d{7}$/.test(imo)) || (mmsi && !/^\d{9}$/.test(mmsi))) {
    return { status: 400, body: { error: "imo is 7 digits, mmsi 9 digits" } };
  }
  if (name && (name.length < 2 || name.length > 100)) {
    return { status: 400, body: { error: "name is 2 to 100 characters" } };
  }
  const named = name ? vesselsNamed(name) : [];
  if (named.length > 1) {
    return {
      status: 300,
      body: {
        error: "Several ships bear this name; ask by IMO number.",
        vessels: named.map((v) => ({
          vesselIMONumber: v.imo,
          MMSINumber: v.mmsi ?? null,
          vesselName: v.name,
        })),
      },
    };
  }
  const vessel = name ? named[0] : findVessel(imo, mmsi);
  const fix = vessel ? vesselFix(vessel, nowMs) : undefined;
  if (!vessel || !fix) return { status: 404, body: { error: "No such vessel in the simulated world." } };
  return {
    status: 200,
    body: {
      vesselIMONumber: vessel.imo,
      MMSINumber: vessel.mmsi ?? mmsi ?? null,
      vesselName: vessel.name,
      flag: vessel.flag,
      latitude: fix.lat,
      longitude: fix.lng,
      speedOverGround: fix.speed,
      courseOverGround: fix.course,
      trueHeading: fix.heading,
      navigationalStatus: fix.atAnchor ? "At anchor" : fix.atSea ? "Under way using engine" : "Moored",
      draught: fix.draught,
      positionDateTime: toUtcIso(nowMs),
      service: fix.rotation.service.name,
      lastPortCall: {
        UNLocationCode: fix.lastCall.port.unLocode,
        locationName: fix.lastCall.port.name,
        departureDateTime: toLocalIso(fix.lastCall.departedAt, fix.lastCall.port.timeZone),
      },
      nextPortCall: {
        UNLocationCode: fix.nextCall.port.unLocode,
        locationName: fix.nextCall.port.name,
        arrivalDateTime: toLocalIso(fix.nextCall.arrivesAt, fix.nextCall.port.timeZone),
      },
    },
  };
}
