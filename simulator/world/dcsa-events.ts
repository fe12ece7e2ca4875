/**
 * Renders a shipment as DCSA T&T 2.2 events at a moment in time. What has happened and been reported
 * is ACT; what lies ahead is EST, or PLN when it is more than three weeks away. Estimates carry the
 * delays the carrier has published so far, and their eventCreatedDateTime is the moment of the latest
 * revision, so a revised ETA is a new event (new eventID) as most carriers send it.
 */
import type {
  DcsaDocumentReference,
  DcsaEquipmentEvent,
  DcsaEvent,
  DcsaLocation,
  DcsaShipmentEvent,
  DcsaTransportCall,
  DcsaTransportEvent,
  EquipmentEventTypeCode,
  ShipmentEventTypeCode,
  TransportEventTypeCode,
} from "../dcsa-types";
import { uuidFrom } from "./hash";
import { toLocalIso, toUtcIso } from "./local-time";
import type { Milestone, ShipmentPlan, Site, TransportRef } from "./shipment-plan";
import { voyageOf } from "./shipment-plan";
import {
  actualTime,
  knownShifts,
  type LegShifts,
  latestRevision,
  namedVessel,
  reportedAt,
  sailingOf,
  shiftOf,
  type Timeline,
} from "./shipment-timeline";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Estimates further ahead than this are still the plan (PLN), not an estimate (EST). */
const PLANNING_HORIZON = 21 * DAY;
const ESTIMATE_ROUNDING = 15 * MINUTE;
const DELAY_WORTH_EXPLAINING = 12 * 60 * MINUTE;

export interface EventDocuments {
  carrierBookingReference: string;
  transportDocumentReference: string;
}

export interface RenderOptions {
  /** Only this box's equipment events (transport events of its journey are kept). */
  equipmentReference?: string;
  includeShipmentEvents: boolean;
}

function coordinate(value: number): string {
  return value.toFixed(5);
}

function locationOf(site: Site, withFacility: boolean): DcsaLocation {
  return {
    locationName: site.locationName,
    latitude: coordinate(site.lat),
    longitude: coordinate(site.lng),
    UNLocationCode: site.unLocode,
    ...(withFacility && site.smdgCode
      ? { facilityCode: site.smdgCode, facilityCodeListProvider: "SMDG" as const }
      : {}),
  };
}

function facilityOf(site: Site): Pick<DcsaTransportCall, "facilityCode" | "facilityCodeListProvider"> {
  return site.smdgCode ? { facilityCode: site.smdgCode, facilityCodeListProvider: "SMDG" } : {};
}

function transportCallOf(
  plan: ShipmentPlan,
  ref: TransportRef,
  shifts: LegShifts,
  now: number,
): DcsaTransportCall | undefined {
  if (ref.kind === "truck") {
    return {
      transportCallID: uuidFrom(`${plan.seed}|truck|${ref.site.unLocode}|${ref.site.facilityType}`),
      UNLocationCode: ref.site.unLocode,
      facilityTypeCode: ref.site.facilityType,
      modeOfTransport: "TRUCK",
      location: locationOf(ref.site, false),
    };
  }
  if (ref.kind === "land") {
    const leg = ref.leg === "pre" ? plan.preCarriage : plan.onCarriage;
    if (!leg) return undefined;
    const site = ref.end === "from" ? leg.from : leg.to;
    return {
      transportCallID: uuidFrom(`${plan.seed}|${ref.leg}|${ref.end}`),
      transportCallSequenceNumber: ref.end === "from" ? 1 : 2,
      UNLocationCode: site.unLocode,
      ...facilityOf(site),
      facilityTypeCode: site.facilityType,
      modeOfTransport: leg.mode,
      location: locationOf(site, false),
    };
  }
  const leg = plan.legs[ref.leg];
  if (!leg) return undefined;
  // The sailing the box takes (a rolled box's later one), and the ship the carrier names for it.
  const sailing = sailingOf(plan, ref.leg, shifts);
  if (!sailing) return undefined;
  const vessel = namedVessel(sailing, now);
  const atLoad = ref.end === "load";
  const voyage = voyageOf(plan, leg, sailing, !atLoad);
  const port = atLoad ? leg.loadPort : leg.dischargePort;
  const site = atLoad ? leg.loadSite : leg.dischargeSite;
  const sequence = atLoad ? leg.loadSequence : leg.dischargeSequence;
  return {
    transportCallID: uuidFrom(`${vessel.imo}|${voyage}|${port.unLocode}|${sequence}`),
    ...(leg.serviceCode && vessel.operator === leg.service.operator
      ? { carrierServiceCode: leg.serviceCode }
      : {}),
    exportVoyageNumber: voyage,
    importVoyageNumber: voyage,
    transportCallSequenceNumber: sequence,
    UNLocationCode: port.unLocode,
    ...facilityOf(site),
    facilityTypeCode: "POTE",
    modeOfTransport: "VESSEL",
    location: locationOf(site, false),
    vessel: {
      vesselIMONumber: vessel.imo,
      vesselName: vessel.name,
      vesselFlag: vessel.flag,
      ...(vessel.callSign ? { vesselCallSignNumber: vessel.callSign } : {}),
      vesselOperatorCarrierCode: vessel.operator,
      vesselOperatorCarrierCodeListProvider: "NMFTA",
    },
  };
}

interface Moment {
  classifier: "ACT" | "EST" | "PLN";
  at: number;
  createdAt: number;
  shifts: LegShifts;
}

function momentOf(milestone: Milestone, timeline: Timeline, now: number, known: LegShifts): Moment {
  const reported = reportedAt(milestone, timeline);
  if (reported <= now) {
    return {
      classifier: "ACT",
      at: actualTime(milestone, timeline),
      createdAt: reported,
      shifts: timeline.actual,
    };
  }
  const estimate =
    Math.round((timeline.bookedAt + milestone.rel + shiftOf(milestone.shift, known)) / ESTIMATE_ROUNDING) *
    ESTIMATE_ROUNDING;
  const planning = estimate - now > PLANNING_HORIZON;
  const revised = latestRevision(milestone, timeline, now);
  let createdAt = Math.max(timeline.bookedAt, revised ?? timeline.bookedAt);
  // An estimate is made when the event comes within the planning horizon.
  if (!planning) createdAt = Math.max(createdAt, Math.min(now, estimate - PLANNING_HORIZON));
  return { classifier: planning ? "PLN" : "EST", at: estimate, createdAt, shifts: known };
}

interface RenderedEvent {
  event: DcsaEvent;
  /** Instant of eventDateTime, for sorting. */
  at: number;
  order: number;
}

/** All events of a shipment visible at `now`, oldest first. */
export function renderEvents(
  plan: ShipmentPlan,
  timeline: Timeline,
  documents: EventDocuments,
  now: number,
  options: RenderOptions,
): DcsaEvent[] {
  if (now < timeline.bookedAt) return [];
  const known = knownShifts(plan, timeline, now);
  const cancelled = plan.cancelledRel !== undefined && timeline.bookedAt + plan.cancelledRel <= now;
  const documentReferences: DcsaDocumentReference[] = [
    { documentReferenceType: "BKG", documentReferenceValue: documents.carrierBookingReference },
    { documentReferenceType: "TRD", documentReferenceValue: documents.transportDocumentReference },
  ];
  const assigned = new Set<number>();
  plan.containers.forEach((_, index) => {
    const firstMove = plan.milestones.find((m) => m.container === index);
    // A box is known to a booking only once it has left the depot for it.
    if (firstMove && reportedAt(firstMove, timeline) <= now) assigned.add(index);
  });
  const rendered: RenderedEvent[] = [];
  for (const milestone of plan.milestones) {
    if (milestone.eventType === "SHIPMENT") {
      if (!options.includeShipmentEvents) continue;
      const at = timeline.bookedAt + milestone.rel;
      if (at > now) continue;
      if (milestone.code === "ISSU" && plan.cancelledRel !== undefined) continue;
      const stamp = toUtcIso(at);
      const event: DcsaShipmentEvent = {
        eventID: uuidFrom(`${plan.seed}|${milestone.key}|ACT|${stamp}`),
        eventCreatedDateTime: stamp,
        eventType: "SHIPMENT",
        eventClassifierCode: "ACT",
        // 2.2: "Value for eventDateTime must be the same value as eventCreatedDateTime".
        eventDateTime: stamp,
        shipmentEventTypeCode: milestone.code as ShipmentEventTypeCode,
        documentID:
          milestone.documentTypeCode === "TRD"
            ? documents.transportDocumentReference
            : documents.carrierBookingReference,
        documentTypeCode: milestone.documentTypeCode ?? "BKG",
        ...(milestone.reason ? { reason: milestone.reason } : {}),
      };
      rendered.push({ event, at, order: milestone.order });
      continue;
    }
    if (cancelled) continue;
    if (milestone.eventType === "EQUIPMENT") {
      const index = milestone.container ?? -1;
      const box = plan.containers[index];
      if (!box || !assigned.has(index)) continue;
      if (options.equipmentReference && box.equipmentReference !== options.equipmentReference) continue;
    }
    const moment = momentOf(milestone, timeline, now, known);
    const site = milestone.site;
    if (!site) continue;
    const transportCall = milestone.transport
      ? transportCallOf(plan, milestone.transport, moment.shifts, now)
      : undefined;
    const created = toUtcIso(moment.createdAt);
    const eventID = uuidFrom(`${plan.seed}|${milestone.key}|${moment.classifier}|${created}`);
    const eventDateTime = toLocalIso(moment.at, site.timeZone);
    if (milestone.eventType === "TRANSPORT") {
      if (!transportCall) continue;
      const legIndex = milestone.transport?.kind === "vessel" ? milestone.transport.leg : undefined;
      const leg = legIndex === undefined ? undefined : plan.legs[legIndex];
      // Carriers explain an arrival that moved by half a day or more, once they publish the move.
      const delayShown =
        milestone.code === "ARRI" &&
        legIndex !== undefined &&
        Math.abs(moment.shifts.arrival[legIndex] ?? 0) >= DELAY_WORTH_EXPLAINING;
      const event: DcsaTransportEvent = {
        eventID,
        eventCreatedDateTime: created,
        eventType: "TRANSPORT",
        eventClassifierCode: moment.classifier,
        eventDateTime,
        transportEventTypeCode: milestone.code as TransportEventTypeCode,
        ...(delayShown && leg?.delayReasonCode ? { delayReasonCode: leg.delayReasonCode } : {}),
        ...(delayShown && leg?.changeRemark ? { changeRemark: leg.changeRemark } : {}),
        transportCall,
        documentReferences,
      };
      rendered.push({ event, at: moment.at, order: milestone.order });
      continue;
    }
    const box = plan.containers[milestone.container ?? -1];
    if (!box) continue;
    const event: DcsaEquipmentEvent = {
      eventID,
      eventCreatedDateTime: created,
      eventType: "EQUIPMENT",
      eventClassifierCode: moment.classifier,
      eventDateTime,
      equipmentEventTypeCode: milestone.code as EquipmentEventTypeCode,
      equipmentReference: box.equipmentReference,
      ISOEquipmentCode: box.isoEquipmentCode,
      emptyIndicatorCode: milestone.empty ? "EMPTY" : "LADEN",
      eventLocation: locationOf(site, true),
      ...(transportCall ? { transportCall } : {}),
      documentReferences,
      ...(milestone.empty
        ? {}
        : { seals: [{ sealNumber: box.sealNumber, sealSource: "CAR" as const, sealType: "BLT" as const }] }),
    };
    rendered.push({ event, at: moment.at, order: milestone.order });
  }
  rendered.sort((a, b) => a.at - b.at || a.order - b.order);
  return rendered.map((entry) => entry.event);
}
