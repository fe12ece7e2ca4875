/**
 * What a shipment plan is: sites, boxes, legs, milestones, and the units its times are counted in.
 */
import type { Carrier } from "../../../reference-data/carriers";
import type { CarrierProfile } from "../carrier-profiles";
import type { InlandMode, InlandPlace } from "../inland-places";
import type { Port } from "../ports";
import type { LinerService } from "../services";
import type { Vessel } from "../vessels";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const MINUTE = 60_000;

export type FacilityType = "POTE" | "DEPO" | "CLOC" | "RAMP" | "INTE";

/** A place an event happens at, with the facility DCSA names it by. */
export interface Site {
  unLocode: string;
  locationName: string;
  lat: number;
  lng: number;
  timeZone: string;
  facilityType: FacilityType;
  /** SMDG terminal code, when the site is a terminal in the SMDG list. */
  smdgCode?: string;
}

export interface PlannedContainer {
  equipmentReference: string;
  isoEquipmentCode: string;
  sealNumber: string;
}

/**
 * One sailing of the leg's loop (world/fleet.ts): the ship that sails it and the times of the leg's two
 * calls, as published (proforma) and as they really happen. A plan's sailings are the fleet's: the ship
 * named is where the plan says, at the time it says.
 */
export interface LegSailing {
  /** Sailing number on the loop's weekly grid (fleet.ts `sailingDeparture`). */
  sailing: number;
  vessel: Vessel;
  /**
   * A swapped ship (fleet.ts VESSEL_SWAP_SHARE): the one the carrier announced, named in its events until
   * `swapKnownAt`; `vessel` is the one that really sails.
   */
  announcedVessel?: Vessel;
  swapKnownAt?: number;
  /** Loop departure of the sailing (from its first call): the voyage number's year and week. */
  loopDeparture: number;
  /** Proforma departure from the port of loading and arrival at the port of discharge (ms). */
  departure: number;
  arrival: number;
  /** Real departure and arrival of the ship (every incident, anchorage wait and episode included). */
  actualDeparture: number;
  actualArrival: number;
  /**
   * What the world's episodes (a restricted canal on the last stretch, a closed or struck port of
   * discharge) added to the arrival; the rest of its lateness is the ship's own.
   */
  episodeDelay: number;
}

export interface VesselLeg {
  service: LinerService;
  /** Service code published for the booking carrier, if any. */
  serviceCode?: string;
  /**
   * The sailing the box is booked on, then the loop's next bookable sailings from the same port, should
   * the box be rolled (a missed connection).
   */
  sailings: readonly LegSailing[];
  loadPort: Port;
  dischargePort: Port;
  loadSite: Site;
  dischargeSite: Site;
  /** Call sequence numbers of the two calls within the rotation. */
  loadSequence: number;
  dischargeSequence: number;
  outboundDirection: string;
  inboundDirection: string;
  /** The booked sailing's proforma departure and arrival, relative to the booking confirmation. */
  departureRel: number;
  arrivalRel: number;
  /** Share of the delay the carrier publishes at its first estimate revision. */
  firstRevisionShare: number;
  changeRemark?: string;
  delayReasonCode?: string;
}

export interface LandLeg {
  mode: "RAIL" | "BARGE";
  from: Site;
  to: Site;
  departureRel: number;
  arrivalRel: number;
}

/** Which part of the journey a milestone belongs to, so it moves with the right delays. */
export type Shift =
  | { kind: "none" }
  /** Moves with the real departure of vessel leg `leg` (0-based), which a missed connection postpones. */
  | { kind: "departure"; leg: number }
  /** Moves with the real arrival of vessel leg `leg`. */
  | { kind: "arrival"; leg: number };

export type TransportRef =
  | { kind: "vessel"; leg: number; end: "load" | "discharge" }
  | { kind: "land"; leg: "pre" | "on"; end: "from" | "to" }
  | { kind: "truck"; site: Site };

export interface Milestone {
  /** Stable within the shipment; part of event IDs. */
  key: string;
  eventType: "TRANSPORT" | "EQUIPMENT" | "SHIPMENT";
  code: string;
  rel: number;
  shift: Shift;
  /** Real time minus planned time, before delays. */
  jitter: number;
  /** How long after the fact the carrier publishes it. */
  reportingLag: number;
  site?: Site;
  container?: number;
  empty?: boolean;
  transport?: TransportRef;
  documentTypeCode?: "BKG" | "TRD";
  reason?: string;
  order: number;
}

export interface ShipmentPlan {
  seed: string;
  /** When the booking is confirmed (ms): the plan's times are relative to it. */
  bookedAt: number;
  carrier: Carrier;
  profile: CarrierProfile;
  containers: readonly PlannedContainer[];
  transportDocumentTypeCode: "BOL" | "SWB";
  origin?: { place: InlandPlace; mode: InlandMode };
  destination?: { place: InlandPlace; mode: InlandMode };
  legs: readonly VesselLeg[];
  preCarriage?: LandLeg;
  onCarriage?: LandLeg;
  /** Relative time of the booking cancellation, for the rare cancelled booking. */
  cancelledRel?: number;
  milestones: readonly Milestone[];
}
