import type { ScheduleItem } from "./model";

/**
 * What the schedule search needs from a carrier: its sailings on a lane, as schedule items. How the
 * carrier is asked and read (DCSA Commercial Schedules and its mapper today) is the adapter's business,
 * in src/upstream. Expected failures are values; only a caller's abort rejects.
 */
export interface ScheduleSource {
  /** The carrier whose schedules these are. */
  readonly scac: string;
  pointToPoint(request: PointToPointRequest, signal?: AbortSignal): Promise<ScheduleSourceAnswer>;
  /** The carrier's proforma calls at one port on one local date (DCSA CS 1.0 port schedules). */
  portSchedule(request: PortScheduleRequest, signal?: AbortSignal): Promise<PortScheduleAnswer>;
}

/** A lane and a window of local dates (YYYY-MM-DD) on departures or on arrivals. */
export interface PointToPointRequest {
  placeOfReceipt: string;
  placeOfDelivery: string;
  departureStartDate?: string;
  departureEndDate?: string;
  arrivalStartDate?: string;
  arrivalEndDate?: string;
}

export type ScheduleSourceAnswer =
  | { kind: "sailings"; items: ScheduleItem[] }
  | { kind: "unavailable"; reason: string };

/** One port (UN/LOCODE) and one local date there (YYYY-MM-DD). */
export interface PortScheduleRequest {
  locode: string;
  date: string;
}

/** A vessel's call at the port as the carrier's schedule plans it (the proforma, not an estimate). */
export interface ScheduledPortCall {
  vesselImo: string | null;
  vesselName: string | null;
  /** The carrier's voyage numbers for the call (import and export; often the same). */
  voyages: string[];
  /** Planned arrival, ISO 8601 UTC instant; null when the schedule gives none. */
  plannedArrival: string | null;
}

export type PortScheduleAnswer =
  | { kind: "calls"; calls: ScheduledPortCall[] }
  | { kind: "unavailable"; reason: string };
