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
