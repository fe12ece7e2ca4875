/**
 * Containers, time, dedup, order.
 */
import { describeEquipment } from "../../../domain/references/iso-size-type";
import type { TrackedLocation } from "../../../domain/tracking/model";
import { wallClockInZone } from "../dcsa-datetime";
import { normaliseContainerNumber } from "./candidates";
import {
  ANCHOR_AT_START,
  type Candidate,
  CLASSIFIER_RANK,
  type DcsaMapContext,
  FUTURE_TOLERANCE_MS,
  type MappingRun,
  SAME_INSTANT_RANK,
} from "./mapping-run";

export function assignContainers(candidates: Candidate[], run: MappingRun): void {
  const { referenceType, reference } = run.context;
  for (const c of candidates) {
    if (c.kind !== "EQUIPMENT" || c.containerNumber !== null) continue;
    if (referenceType === "container") {
      c.containerNumber = normaliseContainerNumber(reference);
    } else {
      run.warn(`event ${c.index} dropped: equipment event ${c.code} names no equipmentReference`);
    }
  }
}

export function applyTime(
  candidates: Candidate[],
  locations: Map<string, TrackedLocation>,
  run: MappingRun,
): void {
  const fetchedMs = run.context.fetchedAt.getTime();
  for (const c of candidates) {
    if (c.date === null) continue;
    c.instantMs = c.date.instantMs;
    c.local = c.date.local;
    c.offset = c.date.offset;
    const zone = locations.get(c.locationKey)?.timeZone;
    // `Z` says nothing about the place; the port's zone gives the wall clock the user expects.
    if (c.date.utcDesignator && zone) {
      const wall = wallClockInZone(c.date.instantMs, zone);
      if (wall) {
        c.local = wall.local;
        c.offset = wall.offset;
      }
    }
    if (c.actual && c.instantMs > fetchedMs + FUTURE_TOLERANCE_MS) {
      run.warn(`event ${c.index}: ${c.code} is marked actual but dated in the future; shown as estimated`);
      c.actual = false;
    }
  }
}

/**
 * Carriers issue a new eventID when they revise an estimate, so one milestone (type, code, place,
 * transport call, container, empty/laden) is kept once: ACT over EST over PLN, then the newest
 * eventCreatedDateTime, then the later position in the answer.
 */
export function dedupeMilestones(candidates: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  const keyOf = (c: Candidate) =>
    [
      c.kind,
      c.code,
      c.locationKey,
      c.facilityKey ?? "",
      c.transportCallId ?? (c.callSequence === null ? "" : `seq:${c.callSequence}`),
      c.containerNumber ?? "",
      c.emptyIndicator ?? "",
    ].join("|");
  const beats = (a: Candidate, b: Candidate) => {
    const rank = CLASSIFIER_RANK[a.classifier] - CLASSIFIER_RANK[b.classifier];
    if (rank !== 0) return rank > 0;
    if (a.createdMs !== b.createdMs) return a.createdMs > b.createdMs;
    return a.index > b.index;
  };
  for (const c of candidates) {
    const key = keyOf(c);
    const seen = best.get(key);
    if (seen === undefined || beats(c, seen)) best.set(key, c);
  }
  const winners = new Set(best.values());
  return candidates.filter((c) => winners.has(c));
}

/**
 * Time order. An undated event is placed with the dated events of its transport call (or, without a
 * call, of its place) instead of at the end, where it would look like the latest news.
 */
export function chronological(candidates: Candidate[]): Candidate[] {
  const groups = new Map<string, { min: number; max: number }>();
  const widen = (key: string, ms: number) => {
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { min: ms, max: ms });
    else {
      g.min = Math.min(g.min, ms);
      g.max = Math.max(g.max, ms);
    }
  };
  for (const c of candidates) {
    if (c.instantMs === null) continue;
    if (c.transportCallId) widen(`call:${c.transportCallId}`, c.instantMs);
    widen(`place:${c.locationKey}`, c.instantMs);
  }
  const sortMs = new Map<Candidate, number>();
  for (const c of candidates) {
    if (c.instantMs !== null) {
      sortMs.set(c, c.instantMs);
      continue;
    }
    const g =
      (c.transportCallId ? groups.get(`call:${c.transportCallId}`) : undefined) ??
      groups.get(`place:${c.locationKey}`);
    sortMs.set(c, g === undefined ? Number.POSITIVE_INFINITY : ANCHOR_AT_START.has(c.code) ? g.min : g.max);
  }
  return [...candidates].sort((a, b) => {
    const ta = sortMs.get(a) ?? Number.POSITIVE_INFINITY;
    const tb = sortMs.get(b) ?? Number.POSITIVE_INFINITY;
    if (ta !== tb) return ta < tb ? -1 : 1;
    const ra = SAME_INSTANT_RANK[a.code] ?? 99;
    const rb = SAME_INSTANT_RANK[b.code] ?? 99;
    if (ra !== rb) return ra - rb;
    return a.index - b.index;
  });
}

export function containerOrder(sequence: Candidate[], context: DcsaMapContext, anyUsable: boolean): string[] {
  const order: string[] = [];
  const add = (n: string) => {
    if (!order.includes(n)) order.push(n);
  };
  if (context.referenceType === "container" && anyUsable) {
    add(normaliseContainerNumber(context.reference));
  }
  for (const c of sequence) if (c.containerNumber) add(c.containerNumber);
  // A container query is filtered by that box; references to other boxes on the same vessel call
  // would only add strangers to the answer.
  if (context.referenceType !== "container") {
    for (const c of sequence) for (const n of c.eqReferences) if (c.kind === "TRANSPORT") add(n);
  }
  return order;
}

/**
 * Transport events are copied into every container on that transport call: the containers the event
 * names in `references` (type EQ) and those with equipment events on the same transportCallID. An
 * event tied to no container by either goes to all containers, since the carrier returned it for this
 * reference.
 */
export function distributeEvents(sequence: Candidate[], byContainer: Map<string, Candidate[]>): void {
  const callsOf = new Map<string, Set<string>>();
  for (const c of sequence) {
    if (c.kind !== "EQUIPMENT" || !c.containerNumber || !c.transportCallId) continue;
    const set = callsOf.get(c.containerNumber) ?? new Set<string>();
    set.add(c.transportCallId);
    callsOf.set(c.containerNumber, set);
  }
  for (const c of sequence) {
    if (c.kind === "EQUIPMENT") {
      if (c.containerNumber) byContainer.get(c.containerNumber)?.push(c);
      continue;
    }
    const targets = [...byContainer.keys()].filter(
      (n) =>
        c.eqReferences.includes(n) || (c.transportCallId !== null && callsOf.get(n)?.has(c.transportCallId)),
    );
    for (const n of targets.length > 0 ? targets : [...byContainer.keys()]) byContainer.get(n)?.push(c);
  }
}

export function equipmentOf(
  number: string,
  candidates: Candidate[],
  run: MappingRun,
): { isoCode: string | null; sizeType: string | null; description: string | null } {
  const newest = candidates
    .filter((c) => c.containerNumber === number && c.isoEquipmentCode !== null)
    .sort((a, b) => b.createdMs - a.createdMs || b.index - a.index)[0];
  if (!newest?.isoEquipmentCode) return { isoCode: null, sizeType: null, description: null };
  const described = describeEquipment(newest.isoEquipmentCode);
  if (described.isoCode === null && described.sizeType === null) {
    run.warn(`container ${number}: equipment code ${newest.isoEquipmentCode} is not a known size-type`);
    // Unknown to our table but still what the carrier said; size_type is the free-form column.
    return { isoCode: null, sizeType: newest.isoEquipmentCode.toUpperCase(), description: null };
  }
  return described;
}
