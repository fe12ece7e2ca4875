/**
 * ISO 6346 container numbers: owner code (3 letters), equipment category (U, J or Z), 6-digit serial,
 * check digit. Everything here is pure so the tracking engine, the facades and the tests share one rule.
 */

/** U: freight container; J: detachable freight-container equipment; Z: trailer or chassis. */
export type EquipmentCategory = "U" | "J" | "Z";

export interface ContainerNumber {
  /** Canonical form: 11 characters, uppercase, no separators (`TEXU3070079`). */
  number: string;
  /** The 3-letter owner code (`TEX`). */
  ownerCode: string;
  equipmentCategory: EquipmentCategory;
  /** Owner code plus category (`TEXU`): the BIC prefix that carrier detection keys on. */
  bicPrefix: string;
  /** The 6-digit serial number, leading zeros kept. */
  serial: string;
  checkDigit: number;
}

export type ContainerNumberErrorReason = "invalid_format" | "invalid_category" | "invalid_check_digit";

export type ContainerNumberResult =
  | { ok: true; value: ContainerNumber }
  | {
      ok: false;
      reason: ContainerNumberErrorReason;
      message: string;
      /** Only for `invalid_check_digit`: the digit the first ten characters call for. */
      expectedCheckDigit?: number;
    };

// ISO 6346 numbers the letters from A=10 upwards but skips 11, 22 and 33, the multiples of the modulus,
// so that no letter weighs the same as another after the modulo.
const LETTER_VALUES: ReadonlyMap<string, number> = (() => {
  const values = new Map<string, number>();
  let value = 10;
  for (let code = 65; code <= 90; code++) {
    if (value % 11 === 0) value++;
    values.set(String.fromCharCode(code), value);
    value++;
  }
  return values;
})();

const FIRST_TEN = /^[A-Z]{4}\d{6}$/;
const CONTAINER_SHAPE = /^[A-Z]{4}\d{7}$/;
const CATEGORIES: readonly string[] = ["U", "J", "Z"];
// People copy numbers from PDFs and e-mails, where hyphens turn into dashes and spaces into NBSPs.
const SEPARATORS = /[\s\-\u2010-\u2015\u2212]+/g;

/**
 * Check digit of the first ten characters (owner code, category letter, serial). Throws on input that
 * is not 4 letters + 6 digits, because that is a programming error, not a user's typo: user input goes
 * through `parseContainerNumber`, which never throws.
 */
export function computeCheckDigit(first10: string): number {
  const upper = first10.toUpperCase();
  if (!FIRST_TEN.test(upper)) {
    throw new RangeError(`computeCheckDigit needs 4 letters + 6 digits, got ${JSON.stringify(first10)}`);
  }
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const char = upper[i]!;
    const value = i < 4 ? LETTER_VALUES.get(char)! : char.charCodeAt(0) - 48;
    sum += value * 2 ** i;
  }
  // A remainder of 10 cannot be written as one digit; ISO 6346 writes 0 (and advises owners not to
  // issue such serials, but boxes carrying them exist).
  return (sum % 11) % 10;
}

/** Uppercase with spaces and hyphens (and look-alike dashes) removed: `texu 307007-9` -> `TEXU3070079`. */
function compact(input: string): string {
  return input.replace(SEPARATORS, "").toUpperCase();
}

const CATEGORY_SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/;

/**
 * True when the text, once spaces and hyphens are dropped, looks like a container number whatever its
 * check digit: 3 letters, the category letter U, J or Z, then 7 digits.
 */
export function hasContainerNumberShape(input: string): boolean {
  return CATEGORY_SHAPE.test(compact(input));
}

export function parseContainerNumber(input: string): ContainerNumberResult {
  const candidate = compact(input);
  if (candidate.length === 0) {
    return { ok: false, reason: "invalid_format", message: "The container number is empty." };
  }
  if (!CONTAINER_SHAPE.test(candidate)) {
    const missingCheckDigit = FIRST_TEN.test(candidate);
    return {
      ok: false,
      reason: "invalid_format",
      message: missingCheckDigit
        ? `${candidate} lacks its check digit: a container number is 4 letters followed by 7 digits.`
        : `${candidate} is not a container number: expected 4 letters followed by 7 digits.`,
    };
  }
  const category = candidate[3]!;
  if (!CATEGORIES.includes(category)) {
    return {
      ok: false,
      reason: "invalid_category",
      message: `${candidate} has equipment category ${category}; the 4th letter must be U, J or Z.`,
    };
  }
  const expected = computeCheckDigit(candidate.slice(0, 10));
  const checkDigit = Number(candidate[10]);
  if (checkDigit !== expected) {
    return {
      ok: false,
      reason: "invalid_check_digit",
      message: `${candidate} fails the ISO 6346 check digit (expected ${expected}, found ${checkDigit}); check for a mistyped character.`,
      expectedCheckDigit: expected,
    };
  }
  return {
    ok: true,
    value: {
      number: candidate,
      ownerCode: candidate.slice(0, 3),
      equipmentCategory: category as EquipmentCategory,
      bicPrefix: candidate.slice(0, 4),
      serial: candidate.slice(4, 10),
      checkDigit,
    },
  };
}

export function isValidContainerNumber(input: string): boolean {
  return parseContainerNumber(input).ok;
}
