import type { TrackingDocument } from "./model";
import { arrivalLocalDateTime, isDelayed, journeyDays, originAndDestination } from "./shipment-facts";
import { voyageLegs } from "./voyage-legs";

const DAY_MS = 24 * 3_600_000;

/**
 * An ETA that moved at least this much (either way) with the carrier's last update is an exception
 * of the overview (issue 38): half a day misses a truck or a berth appointment.
 */
export const ETA_MOVED_HOURS = 12;

/**
 * What a shipment's summary shows of its document, computed once when a version is stored and kept
 * beside it (`document_versions.summary`) and on every shipment that serves it (`shipments.summary`):
 * a list of 100 then reads 100 small rows instead of walking 100 stored documents. Everything here is
 * fixed by the version's content; the one fact that moves with the clock (days remaining) is kept as
 * the instant it counts down to.
 */
export interface SummaryFacts {
  origin: string;
  destination: string;
  isDelayed: boolean;
  totalDays: number;
  /** The estimated arrival the remaining days count down to; null once arrived or delivered. */
  remainingUntil: string | null;
  /** Arrival at the port of discharge (estimated or actual) as wall-clock time there. */
  arrivalLocalDateTime: string | null;
  /** The actual arrival at the final port of discharge as wall-clock time there; null until then. */
  ataLocalDateTime: string | null;
  /**
   * The instants (UTC) `arrivalLocalDateTime` and `ataLocalDateTime` denote, so a list can say which
   * clock those are on (docs/decisions/times.md); absent on summaries stored before they were kept
   * (`withArrivalInstants` takes them from the shipment row then).
   */
  arrival?: string | null;
  ata?: string | null;
  containerNumbers: string[];
  /**
   * UN/LOCODEs of the route's ports (place of receipt, loading, discharge, delivery), for the port
   * filter of shipment lists; absent on summaries stored before it was kept (found again on the next
   * version).
   */
  portLocodes?: string[];
  /**
   * How far the estimated arrival moved with this version, in hours (later positive), against the
   * estimate before it; 0 when this version did not move it. Absent on summaries stored before it
   * was kept (read as 0 until the next version).
   */
  etaChangeHours?: number;
  /** `etaChangeHours` is at least ETA_MOVED_HOURS either way, still an estimate (not arrived). */
  etaMoved?: boolean;
  /**
   * The vessel of the leg under way (departed, not arrived), else of the next leg to sail; null when
   * no vessel leg is known or every leg is done. Fixed by the version's events, not by the clock.
   */
  vesselName?: string | null;
}

export function summaryFactsOf(doc: TrackingDocument): SummaryFacts {
  const { origin, destination } = originAndDestination(doc);
  const end = doc.route.pod.instant;
  return {
    origin,
    destination,
    isDelayed: isDelayed(doc),
    // Total days do not depend on the clock: any `now` gives the same figure.
    totalDays: journeyDays(doc, new Date(0)).totalDays,
    remainingUntil: end && doc.status !== "DELIVERED" && !doc.route.pod.actual ? end : null,
    arrivalLocalDateTime: doc.route.pod.localDateTime,
    ataLocalDateTime: arrivalLocalDateTime(doc),
    arrival: doc.route.pod.instant,
    // The instant of the same reading as `ataLocalDateTime` (the port of discharge's actual arrival).
    ata: arrivalLocalDateTime(doc) !== null ? doc.route.pod.instant : null,
    containerNumbers: doc.containers.map((c) => c.number),
    portLocodes: routeLocodes(doc),
    ...etaMove(doc),
    vesselName: currentVessel(doc),
  };
}

/**
 * The move the newest ETA revision made, when this version recorded it (the history gains an entry
 * stamped with the version's fetch when the ETA changed, `mergeEtaHistory`).
 */
function etaMove(doc: TrackingDocument): { etaChangeHours: number; etaMoved: boolean } {
  const history = doc.etaHistory ?? [];
  const last = history.at(-1);
  const before = history.at(-2);
  if (!last || !before || last.recordedAt !== doc.fetchedAt || last.actual) {
    return { etaChangeHours: 0, etaMoved: false };
  }
  const hours = Math.round((Date.parse(last.eta) - Date.parse(before.eta)) / 3_600_000);
  return { etaChangeHours: hours, etaMoved: Math.abs(hours) >= ETA_MOVED_HOURS };
}

function currentVessel(doc: TrackingDocument): string | null {
  const legs = voyageLegs(doc);
  const leg = legs.find((l) => l.status === "SAILING") ?? legs.find((l) => l.status === "PLANNED");
  const vessel = leg?.vesselKey ? doc.vessels.find((v) => v.key === leg.vesselKey) : undefined;
  return vessel?.name ?? null;
}

function routeLocodes(doc: TrackingDocument): string[] {
  const { prepol, pol, pod, postpod } = doc.route;
  const keys = new Set([prepol, pol, pod, postpod].map((p) => p.locationKey));
  const codes = doc.locations
    .filter((l) => keys.has(l.key) && l.unLocode)
    .map((l) => l.unLocode!.toUpperCase());
  return [...new Set(codes)].sort();
}

/** Whole days until the arrival, rounded up; 0 once it is past or arrived (as `journeyDays`). */
export function remainingDays(facts: Pick<SummaryFacts, "remainingUntil">, now: Date): number {
  if (!facts.remainingUntil) return 0;
  return Math.max(0, Math.ceil((Date.parse(facts.remainingUntil) - now.getTime()) / DAY_MS));
}

/** Reads a stored summary; null for a row written before summaries existed (computed on read then). */
export function storedSummary(value: unknown): SummaryFacts | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const facts = value as Partial<SummaryFacts>;
  return Array.isArray(facts.containerNumbers) && typeof facts.origin === "string"
    ? (facts as SummaryFacts)
    : null;
}

/**
 * A summary stored before its instants were kept takes them from the shipment row, which is written
 * with it in one statement from the same document version (`eta` the port of discharge's instant,
 * `ata` the vessel's arrival there).
 */
export function withArrivalInstants(
  facts: SummaryFacts,
  row: { eta: Date | null; ata: Date | null },
): SummaryFacts & { arrival: string | null; ata: string | null } {
  return {
    ...facts,
    arrival:
      facts.arrival !== undefined
        ? facts.arrival
        : facts.arrivalLocalDateTime
          ? (row.eta?.toISOString() ?? null)
          : null,
    ata:
      facts.ata !== undefined ? facts.ata : facts.ataLocalDateTime ? (row.ata?.toISOString() ?? null) : null,
  };
}

/** Two summaries say the same (stored JSON comes back with its keys in another order). */
export function sameSummary(a: SummaryFacts, b: SummaryFacts): boolean {
  return (
    a.origin === b.origin &&
    a.destination === b.destination &&
    a.isDelayed === b.isDelayed &&
    a.totalDays === b.totalDays &&
    a.remainingUntil === b.remainingUntil &&
    a.arrivalLocalDateTime === b.arrivalLocalDateTime &&
    a.ataLocalDateTime === b.ataLocalDateTime &&
    (a.arrival ?? null) === (b.arrival ?? null) &&
    (a.ata ?? null) === (b.ata ?? null) &&
    a.containerNumbers.length === b.containerNumbers.length &&
    a.containerNumbers.every((n, i) => n === b.containerNumbers[i]) &&
    (a.portLocodes ?? []).join() === (b.portLocodes ?? []).join() &&
    (a.etaChangeHours ?? 0) === (b.etaChangeHours ?? 0) &&
    (a.vesselName ?? null) === (b.vesselName ?? null)
  );
}
