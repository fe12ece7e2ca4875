/** ISO 6346 container numbers and the size-type codes the simulator puts on its boxes. */

const LETTER_VALUES: Readonly<Record<string, number>> = (() => {
  // Values run from A=10 upwards, skipping multiples of 11 (11, 22, 33).
  const values: Record<string, number> = {};
  let value = 10;
  for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
    if (value % 11 === 0) value++;
    values[letter] = value;
    value++;
  }
  return values;
})();

const CONTAINER_NUMBER = /^[A-Z]{3}[UJZ]\d{7}$/;

/** Remainder of the weighted sum modulo 11; 10 means the serial should not be issued. */
function checkRemainder(ownerCodeWithCategory: string, serial: string): number {
  const characters = `${ownerCodeWithCategory}${serial}`;
  let sum = 0;
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i] ?? "";
    const value = LETTER_VALUES[character] ?? Number(character);
    sum += value * 2 ** i;
  }
  return sum % 11;
}

/**
 * The check digit for a 4-letter prefix and 6-digit serial. ISO 6346 advises against serials whose
 * remainder is 10; where one is used anyway the digit is 0, as validators accept.
 */
export function checkDigit(prefix: string, serial: number): number {
  return checkRemainder(prefix, String(serial).padStart(6, "0")) % 10;
}

/** Whether the serial is one an owner would issue (its remainder is not 10). */
export function isIssuableSerial(prefix: string, serial: number): boolean {
  return checkRemainder(prefix, String(serial).padStart(6, "0")) !== 10;
}

export function containerNumber(prefix: string, serial: number): string {
  return `${prefix}${String(serial).padStart(6, "0")}${checkDigit(prefix, serial)}`;
}

export interface ParsedContainerNumber {
  prefix: string;
  serial: number;
}

/** Parses a normalized container number; undefined unless the format and check digit are right. */
export function parseContainerNumber(value: string): ParsedContainerNumber | undefined {
  if (!CONTAINER_NUMBER.test(value)) return undefined;
  const prefix = value.slice(0, 4);
  const serial = Number(value.slice(4, 10));
  if (checkDigit(prefix, serial) !== Number(value.slice(10))) return undefined;
  return { prefix, serial };
}

/**
 * ISO 6346 size-type codes with their share of a liner fleet. 40' high cubes dominate (boxes per TEU
 * 0.55-0.60, Wikipedia's "List of busiest container ports"); reefers and open tops are a small share.
 */
export const ISO_SIZE_TYPES: readonly (readonly [code: string, share: number])[] = [
  ["45G1", 0.44],
  ["22G1", 0.3],
  ["42G1", 0.1],
  ["45R1", 0.08],
  ["22R1", 0.03],
  ["22U1", 0.02],
  ["42U1", 0.03],
];
