/**
 * What a person pasted into Track, read as a list of references before anything is tracked: which
 * pieces are references, which are not, and which look like a container number with a typo. Tracking
 * a piece creates a shipment and spends a slot, so "not a number" must never become `not` and `number`.
 */
import { computeCheckDigit, parseContainerNumber } from "./container-number";
import { normalizeIdentifier, parseReference } from "./reference";

/** Most references one paste may hold (the Track form's promise). */
export const MAX_SCREENED_REFERENCES = 50;

export type ScreeningVerdict =
  /** A valid reference: tracking it is safe. */
  | "reference"
  /** A valid bill of lading whose shape is a container number's with a wrong check digit: ask first. */
  | "suspect_check_digit"
  /** Not a reference at all (a word, a malformed container number): never tracked. */
  | "not_a_reference";

export interface ScreenedReference {
  /** The piece as it was typed. */
  input: string;
  /** The form it would be tracked under; null when it is not a reference. */
  reference: string | null;
  type: "container" | "bl" | null;
  verdict: ScreeningVerdict;
  /** For a container-shaped piece with a wrong check digit: the digit its first ten characters call for. */
  expectedCheckDigit: number | null;
  /** Plain words for the person, naming what they typed; null for a valid reference. */
  message: string | null;
}

export type ScreeningResult =
  | { ok: true; items: ScreenedReference[] }
  | { ok: false; reason: "empty" | "too_many"; message: string };

// One reference per line, or several separated by commas or semicolons. Spaces separate references too,
// except inside a line that is one container number painted with spaces ("MSCU 123456 6").
const LIST_SEPARATORS = /[\r\n,;]+/;
const DIGIT = /\d/;
// 4 letters and 7 digits whatever the 4th letter: a container number, or a SCAC and a document number.
const FOUR_LETTERS_SEVEN_DIGITS = /^[A-Z]{4}\d{7}$/;

/** Splits a paste into the pieces a person meant, each once (case, spaces and hyphens ignored). */
export function splitReferenceList(text: string): string[] {
  const pieces: string[] = [];
  for (const line of text.split(LIST_SEPARATORS)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    if (/\s/.test(trimmed) && parseContainerNumber(trimmed).ok) pieces.push(trimmed);
    else pieces.push(...trimmed.split(/\s+/));
  }
  const seen = new Set<string>();
  return pieces.filter((p) => {
    const key = normalizeIdentifier(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Reads one piece: a reference, a suspect one, or not a reference. */
export function screenReference(input: string): ScreenedReference {
  const parsed = parseReference(input);
  if (!parsed.ok) {
    const container = parsed.type === "container" ? parseContainerNumber(input) : null;
    return {
      input,
      reference: null,
      type: null,
      verdict: "not_a_reference",
      expectedCheckDigit: container && !container.ok ? (container.expectedCheckDigit ?? null) : null,
      message: `“${input}” is not a reference: ${parsed.message}`,
    };
  }
  const value = parsed.value;
  // Every container, bill-of-lading and booking number carriers issue has digits; a word has none.
  if (!DIGIT.test(value.number)) {
    return {
      input,
      reference: null,
      type: null,
      verdict: "not_a_reference",
      expectedCheckDigit: null,
      message: `“${input}” is not a reference: container, bill-of-lading and booking numbers contain digits.`,
    };
  }
  const type = value.type === "container" ? "container" : "bl";
  const compact = normalizeIdentifier(value.number);
  if (type === "bl" && FOUR_LETTERS_SEVEN_DIGITS.test(compact)) {
    const expected = computeCheckDigit(compact.slice(0, 10));
    if (expected !== Number(compact[10])) {
      return {
        input,
        reference: value.number,
        type,
        verdict: "suspect_check_digit",
        expectedCheckDigit: expected,
        message: `“${input}” looks like a container number, but its check digit does not match (the first ten characters call for ${expected}, it ends in ${compact[10]}). Check it for a typo; track it only if it is a bill of lading or booking number.`,
      };
    }
  }
  return {
    input,
    reference: value.number,
    type,
    verdict: "reference",
    expectedCheckDigit: null,
    message: null,
  };
}

/** Reads a whole paste: at least one piece, at most MAX_SCREENED_REFERENCES. */
export function screenReferenceList(text: string): ScreeningResult {
  const pieces = splitReferenceList(text);
  if (pieces.length === 0) {
    return {
      ok: false,
      reason: "empty",
      message: "Enter at least one container, bill-of-lading or booking number.",
    };
  }
  if (pieces.length > MAX_SCREENED_REFERENCES) {
    return {
      ok: false,
      reason: "too_many",
      message: `That is ${pieces.length} references; track at most ${MAX_SCREENED_REFERENCES} at once.`,
    };
  }
  return { ok: true, items: pieces.map(screenReference) };
}
