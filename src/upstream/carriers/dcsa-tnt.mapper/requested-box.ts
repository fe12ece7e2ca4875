/**
 * A container query is about one box. A carrier that answers it with another box's moves (a mixed-up
 * index, a sibling on the same booking, a box whose number differs by a digit) must not have that box's
 * journey and status stored as the one asked about.
 */
import { normaliseContainerNumber } from "./candidates";
import type { Candidate, MappingRun } from "./mapping-run";

export type RequestedBoxAnswer =
  /** The events about the asked box (and those naming no box), the others set aside with a warning. */
  | { about: "asked-box"; candidates: Candidate[] }
  /** Every event that names a box names another one: the carrier told us nothing about the asked box. */
  | { about: "other-boxes"; boxes: string[] };

/**
 * Keeps what a container query's answer says about the asked box. An equipment event of another box is
 * set aside, and so is a transport event whose equipment references (`references`, type EQ) name only
 * other boxes; events naming no box stay (an equipment event without a number is the asked box's, a
 * vessel event without references is the call the asked box is on). When the answer names other boxes
 * and neither names the asked one nor has an equipment event without a number, nothing in it is about
 * the asked box: `other-boxes`, which the tracker
 * treats as the carrier not knowing the box. Bill-of-lading and booking queries pass unchanged: they
 * legitimately answer several boxes.
 */
export function keepRequestedBox(candidates: Candidate[], run: MappingRun): RequestedBoxAnswer {
  const { referenceType, reference } = run.context;
  if (referenceType !== "container") return { about: "asked-box", candidates };
  const asked = normaliseContainerNumber(reference);
  const isAsked = (number: string) => number === asked || sameBoxWithoutCheckDigit(number, asked);
  const others = new Set<string>();
  let namesAsked = false;
  const kept = candidates.filter((c) => {
    if (c.kind === "EQUIPMENT") {
      // Asked about one box, an equipment event without a number is that box's (assignContainers).
      if (c.containerNumber === null || isAsked(c.containerNumber)) namesAsked = true;
      if (c.containerNumber === null) return true;
      if (isAsked(c.containerNumber)) {
        // One box, one number: the asked one, with its check digit.
        c.containerNumber = asked;
        return true;
      }
      others.add(c.containerNumber);
      run.warn(`event ${c.index} dropped: it is about container ${c.containerNumber}, not ${asked}`);
      return false;
    }
    if (c.eqReferences.length === 0) return true;
    if (c.eqReferences.some(isAsked)) {
      namesAsked = true;
      return true;
    }
    for (const number of c.eqReferences) others.add(number);
    run.warn(`event ${c.index} dropped: it is about container ${c.eqReferences.join(", ")}, not ${asked}`);
    return false;
  });
  if (others.size > 0 && !namesAsked) return { about: "other-boxes", boxes: [...others] };
  return { about: "asked-box", candidates: withoutTheirCalls(kept, candidates, run) };
}

/**
 * A vessel event without equipment references sits on a transport call; when only boxes set aside
 * moved on that call, it is their ship's event, not the asked box's (it would otherwise be copied into
 * the asked box: distributeEvents).
 */
function withoutTheirCalls(kept: Candidate[], all: Candidate[], run: MappingRun): Candidate[] {
  const callsOf = (list: Candidate[]) =>
    new Set(list.flatMap((c) => (c.kind === "EQUIPMENT" && c.transportCallId ? [c.transportCallId] : [])));
  const askedCalls = callsOf(kept);
  const theirCalls = callsOf(all.filter((c) => !kept.includes(c)));
  return kept.filter((c) => {
    if (c.kind !== "TRANSPORT" || c.eqReferences.length > 0 || c.transportCallId === null) return true;
    if (!theirCalls.has(c.transportCallId) || askedCalls.has(c.transportCallId)) return true;
    run.warn(`event ${c.index} dropped: only other boxes moved on transport call ${c.transportCallId}`);
    return false;
  });
}

/**
 * Some carriers write a box without its check digit (`MSCU123456` for `MSCU1234565`): the same box, not
 * another one. Only the ten characters of owner code and serial can be compared then.
 */
function sameBoxWithoutCheckDigit(number: string, asked: string): boolean {
  return number.length === 10 && asked.length === 11 && asked.startsWith(number);
}
