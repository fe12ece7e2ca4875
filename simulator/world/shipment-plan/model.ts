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

export interface VesselLeg {
  service: LinerService;
  /** Service code published for the booking carrier, if any. */
  serviceCode?: string;
  /** Ship of the planned sailing, then of the next weekly sailings should the box be rolled. */
  vessels: readonly Vessel[];
  loadPort: Port;
  dischargePort: Port;
  loadSite: Site;
  dischargeSite: Site;
  /** Call sequence numbers of the two calls within the rotation. */
  loadSequence: number;
  dischargeSequence: number;
  outboundDirection: string;
  inboundDirection: string;
  departureRel: number;
  arrivalRel: number;
  /** How much later (or earlier, if negative) the ship really arrives than planned. */
  arrivalDelay: number;
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
