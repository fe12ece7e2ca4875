import type { EventCode, ShipmentStatus, TrackingDocument } from "./model";

/** What changed between two stored versions of a carrier document (input of the domain events). */
export type DocumentChange =
  | { kind: "status"; from: ShipmentStatus; to: ShipmentStatus }
  | { kind: "eta"; from: string | null; to: string | null }
  | { kind: "vessel_arrived"; ata: string }
  | { kind: "delivered"; at: string | null }
  | { kind: "container_added"; container: string }
  | { kind: "event_added"; container: string; eventCode: EventCode; locationKey: string; actual: boolean }
  | { kind: "event_actualised"; container: string; eventCode: EventCode; locationKey: string };

export function etaOf(doc: TrackingDocument): string | null {
  return doc.route.pod.instant;
}

const eventKey = (e: {
  eventCode: string;
  locationKey: string;
  kind: string;
  modeOfTransport: string | null;
}) => `${e.kind}|${e.eventCode}|${e.locationKey}|${e.modeOfTransport ?? ""}`;

/** A pure diff; `previous` null means the first version (everything is new, no transitions). */
export function diffDocuments(previous: TrackingDocument | null, next: TrackingDocument): DocumentChange[] {
  if (!previous) return [];
  const changes: DocumentChange[] = [];
  if (previous.status !== next.status)
    changes.push({ kind: "status", from: previous.status, to: next.status });
  const [etaBefore, etaAfter] = [etaOf(previous), etaOf(next)];
  if (etaBefore !== etaAfter && !(next.route.pod.actual && previous.route.pod.actual)) {
    changes.push({ kind: "eta", from: etaBefore, to: etaAfter });
  }
  if (!previous.ata && next.ata) changes.push({ kind: "vessel_arrived", ata: next.ata });
  if (previous.status !== "DELIVERED" && next.status === "DELIVERED") {
    changes.push({ kind: "delivered", at: next.deliveredAt });
  }
  const before = new Map(previous.containers.map((c) => [c.number, c]));
  for (const container of next.containers) {
    const old = before.get(container.number);
    if (!old) {
      changes.push({ kind: "container_added", container: container.number });
      continue;
    }
    const oldEvents = new Map(old.events.map((e) => [eventKey(e), e]));
    for (const event of container.events) {
      const was = oldEvents.get(eventKey(event));
      if (!was) {
        changes.push({
          kind: "event_added",
          container: container.number,
          eventCode: event.eventCode,
          locationKey: event.locationKey,
          actual: event.actual,
        });
      } else if (!was.actual && event.actual) {
        changes.push({
          kind: "event_actualised",
          container: container.number,
          eventCode: event.eventCode,
          locationKey: event.locationKey,
        });
      }
    }
  }
  return changes;
}
