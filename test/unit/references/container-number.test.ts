import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CARRIERS, LEASING_PREFIXES } from "../../../src/domain/carriers/carrier-directory";
import {
  computeCheckDigit,
  hasContainerNumberShape,
  isValidContainerNumber,
  parseContainerNumber,
} from "../../../src/domain/references/container-number";

// container-validator is a UMD script without types: load it through require and describe the part used.
interface ContainerValidatorInstance {
  isValid(containerNumber: string): boolean;
  createCheckDigit(first10: string): number;
}
const ContainerValidator = createRequire(import.meta.url)(
  "container-validator",
) as new () => ContainerValidatorInstance;
const oracle = new ContainerValidator();

// Deterministic so a failure can be replayed.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(6346);
const randomInt = (below: number) => Math.floor(random() * below);
const randomLetter = () => String.fromCharCode(65 + randomInt(26));
const randomSerial = () => String(randomInt(1_000_000)).padStart(6, "0");

describe("ISO 6346 container numbers: reference vectors", () => {
  it.each(["TEXU3070079", "CSQU3054383", "HLXU8034420", "MAEU1234567"])("%s is valid", (number) => {
    expect(isValidContainerNumber(number)).toBe(true);
    expect(oracle.isValid(number)).toBe(true);
  });

  it.each([
    ["TEXU3070070", 9],
    ["MSCU1234565", 6],
  ])("%s fails its check digit and the expected digit (%i) is reported", (number, expected) => {
    const result = parseContainerNumber(number);
    expect(result).toMatchObject({ ok: false, reason: "invalid_check_digit", expectedCheckDigit: expected });
    expect(oracle.isValid(number)).toBe(false);
  });

  it("splits a valid number into its parts", () => {
    expect(parseContainerNumber("TEXU3070079")).toEqual({
      ok: true,
      value: {
        number: "TEXU3070079",
        ownerCode: "TEX",
        equipmentCategory: "U",
        bicPrefix: "TEXU",
        serial: "307007",
        checkDigit: 9,
      },
    });
  });

  it("keeps leading zeros of the serial", () => {
    const result = parseContainerNumber("MSCU0000012");
    expect(result.ok && result.value.serial).toBe("000001");
  });
});

describe("check digit arithmetic", () => {
  it.each([
    ["TEXU307007", 9],
    ["CSQU305438", 3],
    ["HLXU803442", 0],
    ["MAEU123456", 7],
  ])("computeCheckDigit(%s) = %i", (first10, digit) => {
    expect(computeCheckDigit(first10)).toBe(digit);
  });

  it("writes a remainder of 10 as 0, and such numbers are valid", () => {
    // MSCU000006 sums to a multiple of 11 plus 10.
    expect(computeCheckDigit("MSCU000006")).toBe(0);
    expect(isValidContainerNumber("MSCU0000060")).toBe(true);
    expect(parseContainerNumber("MSCU0000061")).toMatchObject({ reason: "invalid_check_digit" });
  });

  it("accepts lowercase in the first ten characters", () => {
    expect(computeCheckDigit("texu307007")).toBe(9);
  });

  it.each(["TEXU30700", "TEXU3070079", "TEX1307007", "1EXU307007", "", "TEXU 307007"])(
    "refuses %j, which is not 4 letters + 6 digits",
    (bad) => {
      expect(() => computeCheckDigit(bad)).toThrow(RangeError);
    },
  );
});

describe("computeCheckDigit agrees with the container-validator oracle", () => {
  const directoryPrefixes = CARRIERS.flatMap((carrier) => carrier.ownerPrefixes);
  const prefixes = [...new Set([...directoryPrefixes, ...LEASING_PREFIXES])];

  it("covers every owner prefix in the directory and the lessor list", () => {
    expect(directoryPrefixes.length).toBeGreaterThan(150);
    let compared = 0;
    for (const prefix of prefixes) {
      for (let i = 0; i < 12; i++) {
        const first10 = prefix + randomSerial();
        expect(computeCheckDigit(first10), first10).toBe(oracle.createCheckDigit(first10));
        compared++;
      }
    }
    expect(compared).toBe(prefixes.length * 12);
  });

  it("matches on 5,000 random owner codes, categories and serials", () => {
    const categories = ["U", "J", "Z"];
    for (let i = 0; i < 5000; i++) {
      const first10 =
        randomLetter() + randomLetter() + randomLetter() + categories[randomInt(3)] + randomSerial();
      expect(computeCheckDigit(first10), first10).toBe(oracle.createCheckDigit(first10));
    }
  });

  it("validates exactly the numbers the oracle validates, with right and wrong check digits", () => {
    let valid = 0;
    for (let i = 0; i < 3000; i++) {
      const number = `${randomLetter()}${randomLetter()}${randomLetter()}U${randomSerial()}${randomInt(10)}`;
      const ours = isValidContainerNumber(number);
      expect(ours, number).toBe(oracle.isValid(number));
      if (ours) valid++;
    }
    // About one in ten random check digits is right; both outcomes must have been exercised.
    expect(valid).toBeGreaterThan(150);
    expect(valid).toBeLessThan(600);
  });
});

describe("what users type", () => {
  it.each([
    "texu3070079",
    "TeXu3070079",
    "TEXU 307007 9",
    "TEXU 3070079",
    "TEXU-307007-9",
    "  TEXU3070079\t",
    "TEXU\u00a0307007\u00a09",
    "TEXU\u2013307007\u20139",
  ])("%j is read as TEXU3070079", (input) => {
    const result = parseContainerNumber(input);
    expect(result.ok && result.value.number).toBe("TEXU3070079");
  });

  it("accepts the J and Z equipment categories", () => {
    expect(isValidContainerNumber("ABCJ1234563")).toBe(true);
    expect(isValidContainerNumber("ABCZ1234564")).toBe(true);
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["TEXU307007", "lacks its check digit"],
    ["TEXU30700799", "4 letters followed by 7 digits"],
    ["TEX3070079", "4 letters followed by 7 digits"],
    ["TEXUU307007", "4 letters followed by 7 digits"],
    ["TEXU307007A", "4 letters followed by 7 digits"],
    ["T3XU3070079", "4 letters followed by 7 digits"],
    ["TEXU.3070079", "4 letters followed by 7 digits"],
    ["TEXU/3070079", "4 letters followed by 7 digits"],
    ["ÄEXU3070079", "4 letters followed by 7 digits"],
  ])("%j is refused as a wrong shape (%s)", (input, hint) => {
    const result = parseContainerNumber(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("invalid_format");
    expect(result.message).toContain(hint);
  });

  it("refuses a 4th letter other than U, J or Z before looking at the check digit", () => {
    const result = parseContainerNumber("TEXX3070079");
    expect(result).toMatchObject({ ok: false, reason: "invalid_category" });
    expect(!result.ok && result.message).toContain("must be U, J or Z");
  });

  it("tells a wrong check digit apart from a wrong shape", () => {
    const result = parseContainerNumber("texu 307007 0");
    expect(result).toMatchObject({ ok: false, reason: "invalid_check_digit", expectedCheckDigit: 9 });
    expect(!result.ok && result.message).toContain("TEXU3070070");
  });

  it("recognises the container shape whatever the check digit, but not without a U, J or Z", () => {
    expect(hasContainerNumberShape("TEXU3070070")).toBe(true);
    expect(hasContainerNumberShape("abcz 123456-7")).toBe(true);
    expect(hasContainerNumberShape("PABV1234567")).toBe(false);
    expect(hasContainerNumberShape("TEXU307007")).toBe(false);
    expect(hasContainerNumberShape("MEDUFR030802")).toBe(false);
  });
});
