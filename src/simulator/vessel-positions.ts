/**
 * `GET /vessels/position?imo=&mmsi=`: where a ship of the world is at the simulator's clock, in the shape
 * of a commercial AIS position API (there is no DCSA standard for positions). A ship is found by IMO
 * number, or by MMSI when no IMO number is given; one the world does not know answers 404.
 */
import { findVessel, vesselFix } from "./world/fleet";
import { toLocalIso, toUtcIso } from "./world/local-time";

export type VesselPositionAnswer =
  | { status: 200; body: object }
  | { status: 400 | 404; body: { error: string } };

export function vesselPositionAnswer(params: URLSearchParams, nowMs: number): VesselPositionAnswer {
  const imo = params.get("imo") ?? undefined;
  const mmsi = params.get("mmsi") ?? undefined;
  if (!imo && !mmsi) return { status: 400, body: { error: "imo or mmsi is required" } };
  if ((imo && !/^\d{7}$/.test(imo)) || (mmsi && !/^\d{9}$/.test(mmsi))) {
    return { status: 400, body: { error: "imo is 7 digits, mmsi 9 digits" } };
  }
  const vessel = findVessel(imo, mmsi);
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
      navigationalStatus: fix.atSea ? "Under way using engine" : "Moored",
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
