/**
 * Ships and voyages, and the sites (terminals, depots, customers) events happen at.
 */
import type { Carrier } from "../../../reference-data/carriers";
import type { CarrierProfile } from "../carrier-profiles";
import type { SeededRandom } from "../hash";
import type { InlandPlace } from "../inland-places";
import type { Port, Terminal } from "../ports";
import type { LinerService } from "../services";
import { VESSELS, type Vessel } from "../vessels";
import type { Site } from "./model";

export function chooseVessels(
  rng: SeededRandom,
  service: LinerService,
  profile: CarrierProfile,
  carrier: Carrier,
): Vessel[] {
  const group = profile.fleet ?? carrier.scac;
  // Trade sizes are typical, not limits; the Panama Canal's neo-Panamax locks are (about 15,000 TEU).
  const throughPanama = service.passages.some((passages) => passages.includes("panama"));
  const fits = (vessel: Vessel) => vessel.teu <= (throughPanama ? 15_500 : service.maxTeu * 1.2);
  const own = VESSELS.filter((vessel) => vessel.operator === group);
  const operatorShips = VESSELS.filter((vessel) => vessel.operator === service.operator);
  // A carrier puts its own ships on loops it shares; otherwise it buys slots on the operator's ships.
  // A loop too small for those fleets is sailed by a chartered ship that fits.
  const pools = [own.filter(fits), operatorShips.filter(fits), VESSELS.filter(fits)];
  const pool = pools.find((candidates) => candidates.length > 0) ?? VESSELS;
  return [rng.pick(pool), rng.pick(pool), rng.pick(pool)];
}

function siteOfTerminal(port: Port, terminal: Terminal | undefined): Site {
  return {
    unLocode: port.unLocode,
    locationName: terminal?.name ?? port.name,
    lat: terminal?.lat ?? port.lat,
    lng: terminal?.lng ?? port.lng,
    timeZone: port.timeZone,
    facilityType: "POTE",
    ...(terminal ? { smdgCode: terminal.smdgCode } : {}),
  };
}

export function portTerminal(rng: SeededRandom, port: Port): Site {
  return siteOfTerminal(port, port.terminals.length > 0 ? rng.pick(port.terminals) : undefined);
}

export function depotAt(port: Port | InlandPlace): Site {
  return {
    unLocode: port.unLocode,
    locationName: `${port.name} empty container depot`,
    lat: port.lat,
    lng: port.lng,
    timeZone: port.timeZone,
    facilityType: "DEPO",
  };
}

export function customerAt(place: InlandPlace | Port, party: "Shipper" | "Consignee"): Site {
  return {
    unLocode: place.unLocode,
    locationName: `${party} premises, ${place.name}`,
    lat: place.lat,
    lng: place.lng,
    timeZone: place.timeZone,
    facilityType: "CLOC",
  };
}

export function inlandTerminalAt(place: InlandPlace, mode: "RAIL" | "BARGE"): Site {
  return {
    unLocode: place.unLocode,
    locationName:
      place.terminal?.name ?? `${place.name} ${mode === "RAIL" ? "rail terminal" : "inland barge terminal"}`,
    lat: place.terminal?.lat ?? place.lat,
    lng: place.terminal?.lng ?? place.lng,
    timeZone: place.timeZone,
    facilityType: mode === "RAIL" ? "RAMP" : "INTE",
    ...(place.terminal ? { smdgCode: place.terminal.smdgCode } : {}),
  };
}
