/**
 * One entry point for every shipment reference a user can type: a container number, a bill of lading,
 * a booking, or the combined `<bill-of-lading>/<container>` and `<booking>/<container>` values the
 * compat API accepts.
 */
import type { ReferenceType } from "../../../reference-data/carriers";
import { type BillOfLadingErrorReason, parseBillOfLading } from "./bill-of-lading";
import {
  type ContainerNumber,
  type ContainerNumberErrorReason,
  hasContainerNumberShape,
  parseContainerNumber,
} from "./container-number";

// Carriers' facts name the reference types each one answers, so the type lives with them.
export type { ReferenceType };

export interface ContainerReference {
  type: "container";
  /** Canonical 11-character form: the spacing a box is painted with is never meaningful upstream. */
  number: string;
  normalized: string;
  container: ContainerNumber;
}

export interface DocumentReference {
  type: "bl" | "booking";
  /** The bill of lading or booking as printed (trimmed); for a combined value, the part before the slash. */
  number: string;
  /** `normalizeIdentifier(number)`: the document alone, so `BL` and `BL/CONTAINER` are the same shipment. */
  normalized: string;
  /** The container of a combined value, otherwise null. */
  container: ContainerNumber | null;
}

export type ParsedReference = ContainerReference | DocumentReference;

export type ReferenceErrorReason = ContainerNumberErrorReason | BillOfLadingErrorReason;

export type ReferenceResult =
  | { ok: true; value: ParsedReference }
  | {
      ok: false;
      /** What the input was judged to be, so the error can say "container number" or "bill of lading". */
      type: ReferenceType;
      reason: ReferenceErrorReason;
      message: string;
    };

// Case, spaces and hyphens are ignored for identifiers (v1 spec, section 4); dash look-alikes come
// with numbers pasted from PDFs and e-mails.
const IGNORED_IN_IDENTIFIERS = /[\s\-\u2010-\u2015\u2212]+/g;

/** The form identifiers are compared in: uppercase, with spaces and hyphens removed. */
export function normalizeIdentifier(input: string): string {
  return input.replace(IGNORED_IN_IDENTIFIERS, "").toUpperCase();
}

/** True when two identifiers name the same thing once case, spaces and hyphens are ignored. */
export function sameIdentifier(a: string, b: string): boolean {
  return normalizeIdentifier(a) === normalizeIdentifier(b);
}

function parseAsContainer(input: string): ReferenceResult {
  const parsed = parseContainerNumber(input);
  if (!parsed.ok) {
    return { ok: false, type: "container", reason: parsed.reason, message: parsed.message };
  }
  return {
    ok: true,
    value: {
      type: "container",
      number: parsed.value.number,
      normalized: parsed.value.number,
      container: parsed.value,
    },
  };
}

function parseAsDocument(input: string, type: "bl" | "booking"): ReferenceResult {
  const combined = splitCombined(input, type);
  if (combined) return { ok: true, value: combined };
  const parsed = parseBillOfLading(input, type);
  if (!parsed.ok) return { ok: false, type, reason: parsed.reason, message: parsed.message };
  return {
    ok: true,
    value: {
      type,
      number: parsed.value.number,
      normalized: normalizeIdentifier(parsed.value.number),
      container: null,
    },
  };
}

/**
 * `<document>/<container>` only when both halves are valid on their own. B/L numbers may contain
 * slashes themselves, so the split is at the last slash, and anything that does not split cleanly
 * (say the container half fails its check digit) falls back to being one bill of lading, slash included.
 */
function splitCombined(input: string, type: "bl" | "booking"): DocumentReference | null {
  const slash = input.lastIndexOf("/");
  if (slash < 0) return null;
  const container = parseContainerNumber(input.slice(slash + 1));
  if (!container.ok) return null;
  const document = parseBillOfLading(input.slice(0, slash));
  if (!document.ok) return null;
  return {
    type,
    number: document.value.number,
    normalized: normalizeIdentifier(document.value.number),
    container: container.value,
  };
}

/**
 * Parses a reference, detecting its type when no hint is given.
 *
 * Without a hint: a combined `<bill-of-lading>/<container>` value is a bill of lading with its
 * container; anything shaped like a container number (3 letters, U/J/Z, 7 digits, once spaces and
 * hyphens are dropped) is a container number; any other valid B/L-shaped text is a bill of lading.
 * Bookings are never guessed, because nothing in a booking number tells it apart from a bill of lading.
 *
 * A container-shaped text whose check digit is wrong is reported as a malformed container number, not
 * accepted as a bill of lading: it is almost always a container number with a typo, and the user is
 * better served by "expected 9, found 0" than by a shipment created under a number no carrier will
 * ever find (which would also spend a slot). A real bill of lading of that exact shape can still be
 * tracked with the `bl` hint.
 *
 * The category letter is part of the shape on purpose: on sea containers it is U, and is not where
 * typos happen, while 4 letters + 7 digits with another 4th letter is typically a SCAC followed by a
 * document number (`PABV1234567`), so that is read as a bill of lading.
 *
 * With a hint the type is taken as given: `container` accepts only a container number (no combined
 * value), `bl` and `booking` accept a document number or a combined value.
 */
export function parseReference(input: string, hint?: ReferenceType): ReferenceResult {
  if (hint === "container") return parseAsContainer(input);
  if (hint === "bl" || hint === "booking") return parseAsDocument(input, hint);

  const trimmed = input.trim();
  const combined = splitCombined(trimmed, "bl");
  if (combined) return { ok: true, value: combined };
  if (hasContainerNumberShape(trimmed)) return parseAsContainer(trimmed);
  return parseAsDocument(trimmed, "bl");
}
