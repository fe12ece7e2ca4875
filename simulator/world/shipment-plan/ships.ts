/**
 * Ships and voyages, and the sites (terminals, depots, customers) events happen at.
 */
import {
  bookableSailings,
  rotationOf,
  sailedCall,
  sailingDeparture,
  VESSEL_SWAP_SHARE,
  vesselOfSailing,
} from "../fleet";
import { hash32, type SeededRandom, unitHash } from "../hash";
import type { InlandPlace } from "../inland-places";
import type { Port, Terminal } from "../ports";
import type { LinerService } from "../services";
import { VESSELS } from "../vessels";
import { DAY, type LegSailing, type Site } from "./model";

/** The sailings a box can take, as many as a roll may need: the booked one, then the next ones. */
const SAILING_CHOICES = 4;

/**
 * The loop's sailings a leg from call k0 to call k1 (fleet.ts `sailedCall` numbering) can be booked on,
 * from `notBefore`: each with its ship, its proforma and its real times, and for a swapped ship the one
 * the carrier announced first.
 */
export function legSailings(service: LinerService, k0: number, k1: number, notBefore: number): LegSailing[] {
  const rotation = rotationOf(service);
  return bookableSailings(rotation, k0, k1, notBefore, SAILING_CHOICES).map((sailing) => {
    const load = sailedCall(rotation, sailing, k0);
    const discharge = sailedCall(rotation, sailing, k1);
    const vessel = vesselOfSailing(rotation, sailing);
    const legSailing: LegSailing = {
      sailing,
      vessel,
      loopDeparture: sailingDeparture(rotation, sailing),
      departure: load.proformaDeparture,
      arrival: discharge.proformaArrival,
      actualDeparture: load.departure,
      actualArrival: discharge.arrival,
      episodeDelay: discharge.episodeDelay,
    };
    if (unitHash("vessel-swap", service.name, sailing) >= VESSEL_SWAP_SHARE) return legSailing;
    const sisters = VESSELS.filter((v) => v.operator === vessel.operator && v.imo !== vessel.imo);
    const pool = sisters.length > 0 ? sisters : VESSELS.filter((v) => v.imo !== vessel.imo);
    const announced = pool[hash32("vessel-swap-announced", service.name, sailing) % pool.length]!;
    const learnedAfterDays = unitHash("vessel-swap-known", service.name, sailing, k0) * 8 - 6;
    return {
      ...legSailing,
      announcedVessel: announced,
      swapKnownAt: load.proformaDeparture + learnedAfterDays * DAY,
    };
  });
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
