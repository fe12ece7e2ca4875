/**
 * Bills of lading and booking numbers. Carriers print them in many shapes (`MEDUFR030802`,
 * `6345849250`, `HLCUSEL251063157`, `APLU AYU0400189`...), so the rule is deliberately loose: 3 to 50
 * characters of letters, digits, hyphens, slashes and dots, kept exactly as printed because some
 * carriers' lookups are sensitive to the hyphens and slashes they issued.
 */

export const BILL_OF_LADING_MIN_LENGTH = 3;
export const BILL_OF_LADING_MAX_LENGTH = 50;

export interface BillOfLading {
  /** As printed, with surrounding whitespace trimmed: what is sent to the carrier. */
  number: string;
}

export type BillOfLadingErrorReason =
  | "empty"
  | "too_short"
  | "too_long"
  | "invalid_characters"
  | "no_alphanumeric";

export type BillOfLadingResult =
  | { ok: true; value: BillOfLading }
  | { ok: false; reason: BillOfLadingErrorReason; message: string };

const ALLOWED = /^[A-Za-z0-9\-/.]+$/;
const NOT_ALLOWED = /[^A-Za-z0-9\-/.]/;
const ALPHANUMERIC = /[A-Za-z0-9]/;

function describeCharacter(char: string): string {
  if (char === " ") return "a space";
  if (/\s/.test(char)) return "a whitespace character";
  return `"${char}"`;
}

/**
 * Validates a bill-of-lading or booking number (`kind` only changes the wording of the messages). Inner spaces are refused rather than dropped: the spec
 * accepts the number exactly as printed, and silently joining `APLU AYU0400189` could send a carrier a
 * number it never issued. The message names the offending character so the user can fix it.
 */
export function parseBillOfLading(input: string, kind: "bl" | "booking" = "bl"): BillOfLadingResult {
  const label = kind === "booking" ? "booking number" : "bill-of-lading number";
  const number = input.trim();
  if (number.length === 0) {
    return { ok: false, reason: "empty", message: `The ${label} is empty.` };
  }
  if (number.length < BILL_OF_LADING_MIN_LENGTH) {
    return {
      ok: false,
      reason: "too_short",
      message: `A ${label} has at least ${BILL_OF_LADING_MIN_LENGTH} characters; got ${number.length}.`,
    };
  }
  if (number.length > BILL_OF_LADING_MAX_LENGTH) {
    return {
      ok: false,
      reason: "too_long",
      message: `A ${label} has at most ${BILL_OF_LADING_MAX_LENGTH} characters; got ${number.length}.`,
    };
  }
  if (!ALLOWED.test(number)) {
    const offending = NOT_ALLOWED.exec(number)?.[0] ?? "";
    return {
      ok: false,
      reason: "invalid_characters",
      message: `A ${label} may hold only letters, digits, hyphens, slashes and dots; found ${describeCharacter(offending)}.`,
    };
  }
  // "---" or "..." passes the character rule but names no document; refusing it spares a slot.
  if (!ALPHANUMERIC.test(number)) {
    return {
      ok: false,
      reason: "no_alphanumeric",
      message: `A ${label} needs at least one letter or digit.`,
    };
  }
  return { ok: true, value: { number } };
}

export function isValidBillOfLading(input: string): boolean {
  return parseBillOfLading(input).ok;
}
