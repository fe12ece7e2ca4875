/**
 * `GET /vessels/position?imo=&mmsi=` or `?name=`: where a ship of the world is at the simulator's clock,
 * in the shape of a commercial AIS position API (there is no DCSA standard for positions). A ship is
 * found by IMO number (the MMSI is optional), by MMSI when no IMO number is given, or by its whole name
 * ignoring case, accents, punctuation and spacing (`name`, not with the numbers). One the world does not
 * know answers 404; a name several ships bear answers 300 with them listed, so the caller can ask by IMO.
 * The fix is the latest report the service holds (world/ais.ts): usually minutes old, sometimes hours,
 * now and then days, with `positionDateTime` saying when the ship was there.
 */
import { latestReportAt } from "./world/ais";
import { findVessel, vesselFix } from "./world/fleet";
import { toLocalIso, toUtcIso } from "./world/local-time";
import { portTrafficAt } from "./world/port-traffic";
import { findPort } from "./world/ports";
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
  const reportedAt = vessel ? latestReportAt(vessel.imo, nowMs) : nowMs;
  const fix = vessel ? vesselFix(vessel, reportedAt) : undefined;
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
      positionDateTime: toUtcIso(reportedAt),
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

/**
 * `GET /vessels/area?port=LOCODE`: every container ship at anchor off a port or alongside it at the
 * simulator's clock, as an AIS receiver covering the port area reports them (world/port-traffic.ts).
 * Each carries the port as its AIS destination. 404 for a port the world does not have.
 */
export function portAreaAnswer(params: URLSearchParams, nowMs: number): VesselPositionAnswer {
  const code = params.get("port")?.trim() ?? "";
  if (!/^[A-Za-z]{2}[A-Za-z0-9]{3}$/.test(code)) {
    return { status: 400, body: { error: "port is a 5-character UN/LOCODE" } };
  }
  const port = findPort(code);
  if (!port) return { status: 404, body: { error: "No such port in the simulated world." } };
  return {
    status: 200,
    body: {
      port: { UNLocationCode: port.unLocode, locationName: port.name },
      positionDateTime: toUtcIso(nowMs),
      vessels: portTrafficAt(port, nowMs).map((vessel) => ({
        MMSINumber: vessel.mmsi,
        vesselIMONumber: vessel.imo,
        vesselName: vessel.name,
        latitude: vessel.lat,
        longitude: vessel.lng,
        speedOverGround: 0,
        navigationalStatus: vessel.status === "at-anchor" ? "At anchor" : "Moored",
        destination: vessel.destination,
      })),
    },
  };
}
