/**
 * Per-container journey, status codes and status.
 */
import { isEmittedEventCode, type ShipmentStatus, type TrackedEvent } from "../../../domain/tracking/model";
import { compatStatusFor, describeEvent, type JourneyPlace } from "../dcsa-tnt.status-rules";
import type { Candidate, MappingRun, ShipmentFact } from "./mapping-run";
import { iso } from "./output";
import type { RouteKeys } from "./route";

interface Journey {
  placesAt(i: number): Set<JourneyPlace>;
  exportEnd: number;
  importStart: number;
}

export function journeyOf(list: Candidate[], route: RouteKeys, transshipments: string[]): Journey {
  let exportEnd = list.findIndex(
    (c) => route.mainline(c) && (c.code === "LOAD" || c.code === "DEPA") && c.locationKey === route.polKey,
  );
  if (exportEnd < 0 && route.polKey === null)
    exportEnd = list.findIndex((c) => route.mainline(c) && c.code !== "ARRI");
  if (exportEnd < 0) exportEnd = list.length;
  const importStart =
    route.podKey === null ? list.length : list.findIndex((c) => c.locationKey === route.podKey);
  const onRoute = new Set(
    [route.prepolKey, route.polKey, route.podKey, route.postpodKey, ...transshipments].filter(
      (k): k is string => k !== null,
    ),
  );
  return {
    exportEnd,
    importStart: importStart < 0 ? list.length : importStart,
    placesAt(i: number) {
      const c = list[i];
      const places = new Set<JourneyPlace>();
      if (c === undefined) return places;
      if (i < exportEnd) places.add("export");
      if (importStart >= 0 && i > importStart) places.add("import");
      if (c.locationKey === route.polKey) places.add("pol");
      if (transshipments.includes(c.locationKey)) places.add("ts");
      if (c.locationKey === route.podKey) places.add("pod");
      if (c.locationKey === route.postpodKey) places.add("postpod");
      if (!onRoute.has(c.locationKey)) places.add("offRoute");
      return places;
    },
  };
}

export function toTrackedEvent(c: Candidate, places: Set<JourneyPlace>, route: RouteKeys): TrackedEvent {
  const emitted = isEmittedEventCode(c.code);
  // On a journey with no vessel, the barge is the main carriage and earns the vessel codes.
  const statusMode = c.mode === "BARGE" && route.mainline(c) ? "VESSEL" : c.mode;
  const statusCode = emitted ? compatStatusFor(c.code, c.emptyIndicator, statusMode, places) : null;
  return {
    kind: c.kind,
    eventCode: c.code,
    emitted,
    statusCode,
    description: describeEvent(c.code, c.emptyIndicator, c.mode, statusCode),
    localDateTime: c.local,
    utcOffset: c.offset,
    instant: c.instantMs === null ? null : iso(c.instantMs),
    actual: c.actual,
    modeOfTransport: c.mode,
    legType: c.mode === "VESSEL" ? "sea" : "land",
    vesselKey: c.vesselKey,
    voyage: c.voyage,
    locationKey: c.locationKey,
    facilityKey: c.facilityKey,
    emptyIndicator: c.emptyIndicator,
    isAdditional: places.has("offRoute"),
    dcsaEventId: c.dcsaEventId,
  };
}

/**
 * Status rules, per container (ours: T&T 2.2 defines events, not a status). One reading of ours: a
 * vessel's arrival at the port of loading (it comes to fetch the box) does not put the box in transit;
 * every other actual ARRI/DEPA/LOAD/DISC does.
 */
export function containerStatus(
  list: Candidate[],
  journey: Journey,
  route: RouteKeys,
): { status: ShipmentStatus; deliveredAt: string | null } {
  if (list.length === 0) return { status: "UNKNOWN", deliveredAt: null };
  const finalKey = route.postpodKey ?? route.podKey;
  const proofs: number[] = [];
  let delivered = false;
  list.forEach((c, i) => {
    if (!c.actual) return;
    const deliveryToConsignee =
      (c.code === "GTOT" &&
        c.emptyIndicator === "LADEN" &&
        finalKey !== null &&
        c.locationKey === finalKey &&
        i >= journey.importStart) ||
      (c.code === "DROP" && c.facilityTypeCode === "CLOC" && i >= journey.exportEnd);
    if (deliveryToConsignee) {
      delivered = true;
      if (c.instantMs !== null) proofs.push(c.instantMs);
    }
    // An empty box back at a depot after the import discharge means the cargo was delivered, but it
    // is no proof of when: deliveredAt stays with the gate-out or drop-off.
    const emptyReturn =
      c.code === "GTIN" &&
      c.emptyIndicator === "EMPTY" &&
      list.slice(0, i).some((d) => d.code === "DISC" && d.locationKey === route.podKey);
    if (emptyReturn) delivered = true;
  });
  if (delivered) {
    return { status: "DELIVERED", deliveredAt: proofs.length > 0 ? iso(Math.max(...proofs)) : null };
  }
  const moving = list.some((c, i) => {
    if (!c.actual) return false;
    if (c.code === "GTIN")
      return c.emptyIndicator === "LADEN" && (i < journey.exportEnd || c.locationKey === route.polKey);
    if (c.code === "ARRI" && route.mainline(c) && c.locationKey === route.polKey) return false;
    return c.code === "LOAD" || c.code === "DEPA" || c.code === "ARRI" || c.code === "DISC";
  });
  return { status: moving ? "IN_TRANSIT" : "PLANNED", deliveredAt: null };
}

export function shipmentStatus(statuses: ShipmentStatus[]): ShipmentStatus {
  if (statuses.length > 0 && statuses.every((s) => s === "DELIVERED")) return "DELIVERED";
  if (statuses.some((s) => s === "IN_TRANSIT" || s === "DELIVERED")) return "IN_TRANSIT";
  if (statuses.some((s) => s === "PLANNED")) return "PLANNED";
  return "UNKNOWN";
}

/**
 * CANC on the booking (2.3, sent by some 2.2 endpoints) cancels it, and so does REJE: 2.2 has no other
 * way to say it (an optional reading of 2.2, ours). A later confirmation reinstates the booking,
 * and so does an actual move of a box after the refusal (the booking plainly went ahead). VOID on a
 * transport document is a reissue, not a cancellation.
 */
export function bookingCancelled(facts: ShipmentFact[], moves: Candidate[], run: MappingRun): boolean {
  const decisive = facts
    .filter((f) => f.documentTypeCode === "BKG" && ["CONF", "APPR", "CANC", "REJE"].includes(f.code))
    .sort((a, b) => a.atMs - b.atMs || a.createdMs - b.createdMs);
  const last = decisive.at(-1);
  if (last === undefined || (last.code !== "CANC" && last.code !== "REJE")) return false;
  if (moves.some((c) => c.actual && c.instantMs !== null && c.instantMs > last.atMs)) {
    run.warn(`booking ${last.code} is followed by actual moves; not treated as cancelled`);
    return false;
  }
  return true;
}
