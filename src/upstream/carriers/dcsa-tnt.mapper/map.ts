/**
 * The mapping run: validate, read each event into a candidate, resolve places, order, and build the
 * document.
 */
import {
  isEmittedEventCode,
  type ShipmentStatus,
  type TrackedContainer,
  type TrackingDocument,
} from "../../../domain/tracking/model";
import { parseDcsaDateTime } from "../dcsa-datetime";
import { type DcsaEvent, dcsaEventSchema } from "../dcsa-tnt.schema";
import { candidateFrom } from "./candidates";
import { bookingCancelled, containerStatus, journeyOf, shipmentStatus, toTrackedEvent } from "./journey";
import {
  type Candidate,
  type DcsaMapContext,
  EARLIEST_PLAUSIBLE_MS,
  FUTURE_TOLERANCE_MS,
  MappingRun,
  type MapResult,
  type ShipmentFact,
} from "./mapping-run";
import { normaliseEvent } from "./normalise";
import { currentPosition, iso, orderedUsed } from "./output";
import { resolvePlaces } from "./places";
import { keepRequestedBox } from "./requested-box";
import { buildRoute, etaHistory, podArrivalOf, routeOut } from "./route";
import {
  applyTime,
  assignContainers,
  chronological,
  containerOrder,
  dedupeMilestones,
  distributeEvents,
  equipmentOf,
} from "./sequence";
import { dropRepeatedEventIds, readEventId, shipmentFact } from "./validation";

export function mapDcsaEvents(answer: unknown, context: DcsaMapContext): MapResult {
  // T&T 3.0 (and some 2.2 carriers, Maersk by third-party accounts) wrap the list as `{ "events": [...] }`.
  const events =
    typeof answer === "object" && answer !== null && !Array.isArray(answer) && "events" in answer
      ? (answer as { events: unknown }).events
      : answer;
  if (!Array.isArray(events)) {
    return { ok: false, reason: "malformed", detail: "the carrier answer is not a JSON array of events" };
  }
  try {
    return mapArray(events, new MappingRun(context));
  } catch (error) {
    // An anti-corruption layer must not turn a carrier's surprise into a crash of the request.
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: "malformed", detail: `events could not be mapped: ${message}` };
  }
}

function mapArray(events: readonly unknown[], run: MappingRun): MapResult {
  const { context } = run;
  const fetchedMs = context.fetchedAt.getTime();
  const validated: Array<{ index: number; event: DcsaEvent; createdMs: number; eventId: string | null }> = [];

  let setAside = 0;
  events.forEach((raw, index) => {
    const normalised = normaliseEvent(raw, index, run);
    if (normalised === undefined) {
      setAside += 1;
      return;
    }
    const parsed = dcsaEventSchema.safeParse(normalised);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(event)"}: ${i.message}`)
        .join("; ");
      run.warn(`event ${index} dropped: ${issues}`);
      return;
    }
    const created = parseDcsaDateTime(parsed.data.eventCreatedDateTime);
    if (created === null) return;
    let createdMs = created.instantMs;
    if (createdMs < EARLIEST_PLAUSIBLE_MS || createdMs > fetchedMs + FUTURE_TOLERANCE_MS) {
      // Metadata only: a placeholder creation time costs the record's order among revisions, not the event.
      const own = parsed.data.eventDateTime ? parseDcsaDateTime(parsed.data.eventDateTime) : null;
      createdMs = own?.instantMs ?? fetchedMs;
      run.warn(
        `event ${index}: eventCreatedDateTime ${parsed.data.eventCreatedDateTime} is not plausible; kept, taken as ${own ? "its eventDateTime" : "the time of the lookup"}`,
      );
    }
    validated.push({
      index,
      event: parsed.data,
      createdMs,
      eventId: readEventId(parsed.data.eventID, index, run),
    });
  });

  if (events.length > setAside && validated.length === 0) {
    return {
      ok: false,
      reason: "malformed",
      detail: `none of the ${events.length} events is a valid DCSA T&T 2.2 event`,
    };
  }

  const byEventId = dropRepeatedEventIds(validated, run);

  const shipmentFacts: ShipmentFact[] = [];
  const candidates: Candidate[] = [];
  for (const v of byEventId) {
    const e = v.event;
    if (e.eventType === "SHIPMENT") {
      shipmentFacts.push(shipmentFact(e, v.createdMs));
    } else {
      candidates.push(candidateFrom(e, v, run));
    }
  }

  const requested = keepRequestedBox(candidates, run);
  if (requested.about === "other-boxes") {
    return {
      ok: false,
      reason: "other-equipment",
      detail: `asked about container ${context.reference}, the carrier answered about ${requested.boxes.join(", ")}`,
      boxes: requested.boxes,
    };
  }
  const world = resolvePlaces(requested.candidates, run);
  const located = requested.candidates.filter((c) => c.locationKey !== "");

  assignContainers(located, run);
  const kept = located.filter((c) => c.kind === "TRANSPORT" || c.containerNumber !== null);
  if (events.length > setAside && kept.length === 0 && shipmentFacts.length === 0) {
    return { ok: false, reason: "malformed", detail: "no event could be placed or tied to a container" };
  }
  applyTime(kept, world.locations, run);

  const deduped = dedupeMilestones(kept);
  const sequence = chronological(deduped);

  const containerNumbers = containerOrder(sequence, context, byEventId.length > 0);
  const { route, transshipments } = buildRoute(sequence);

  const containerEvents = new Map<string, Candidate[]>();
  for (const number of containerNumbers) containerEvents.set(number, []);
  distributeEvents(sequence, containerEvents);

  const cancelled = bookingCancelled(shipmentFacts, sequence, run);

  const containers: TrackedContainer[] = containerNumbers.map((number) => {
    const list = containerEvents.get(number) ?? [];
    const journey = journeyOf(list, route, transshipments);
    const tracked = list.map((c, i) => toTrackedEvent(c, journey.placesAt(i), route));
    const verdict = cancelled
      ? { status: "CANCELLED" as const, deliveredAt: null }
      : containerStatus(list, journey, route);
    const equipment = equipmentOf(number, kept, run);
    const ownShown = list.some((c) => c.kind === "EQUIPMENT" && isEmittedEventCode(c.code));
    return {
      number,
      isoCode: equipment.isoCode,
      sizeType: equipment.sizeType,
      description: equipment.description,
      status: verdict.status,
      statusFromCarrier: false,
      eventsMirrored: tracked.some((t) => t.emitted) && !ownShown,
      deliveredAt: verdict.deliveredAt,
      events: tracked,
    };
  });

  let status: ShipmentStatus;
  if (cancelled) {
    status = "CANCELLED";
  } else if (containers.length === 0) {
    // A bill of lading answered with vessel events only: judge the shipment by those.
    status = containerStatus(sequence, journeyOf(sequence, route, transshipments), route).status;
  } else {
    status = shipmentStatus(containers.map((c) => c.status));
  }

  const podArrival = podArrivalOf(sequence, route);
  const deliveredInstants = containers.map((c) => c.deliveredAt).filter((d): d is string => d !== null);
  const document: TrackingDocument = {
    referenceType: context.referenceType,
    reference: context.reference,
    carrierScac: context.carrierScac,
    status,
    statusFromCarrier: false,
    locations: orderedUsed(sequence, (c) => c.locationKey, world.locations),
    facilities: orderedUsed(sequence, (c) => c.facilityKey, world.facilities),
    vessels: orderedUsed(sequence, (c) => c.vesselKey, world.vessels),
    containers,
    route: routeOut(route),
    etaHistory: etaHistory(kept, route),
    transshipmentLocationKeys: transshipments,
    ata: podArrival?.actual && podArrival.instantMs !== null ? iso(podArrival.instantMs) : null,
    deliveredAt:
      status === "DELIVERED" && deliveredInstants.length > 0 ? deliveredInstants.sort().at(-1)! : null,
    currentPosition: currentPosition(sequence, world.locations, world.facilities),
    fetchedAt: context.fetchedAt.toISOString(),
  };
  return { ok: true, document, warnings: run.warnings };
}
