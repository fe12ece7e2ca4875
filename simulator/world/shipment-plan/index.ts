/**
 * Plans one shipment: route, ships, boxes and a timeline of milestones, all drawn from one seeded
 * stream. Times are planned relative to the booking confirmation; the timeline of what really happens
 * (late arrivals, missed connections) and of what the carrier knows at a given moment is derived from
 * the plan in shipment-timeline.ts.
 *
 * Figures follow published ones where there are some (fleet speeds reported by Clarksons and BIMCO,
 * Sea-Intelligence schedule reliability, port dwell studies): speeds of 13.5-16.5 kn, connections at a
 * hub of 3-10 days, import dwell by region, 45-90% of arrivals on time by alliance and about 5 days
 * average delay for late ships (lognormal).
 *
 * model.ts holds what a plan is; route.ts, ships.ts, boxes.ts and timeline.ts plan its parts, and
 * `planShipment` (timeline.ts) draws them in order.
 */

export { type BoxSpec, sizeTypeOf } from "./boxes";
export type {
  FacilityType,
  LandLeg,
  LegSailing,
  Milestone,
  PlannedContainer,
  Shift,
  ShipmentPlan,
  Site,
  TransportRef,
  VesselLeg,
} from "./model";
export { MINIMUM_CONNECTION, type PlanRequest, planShipment, voyageOf } from "./timeline";
