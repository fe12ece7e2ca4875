import { describe, expect, it } from "vitest";
import {
  normalizeIdentifier,
  type ParsedReference,
  parseReference,
  type ReferenceResult,
  sameIdentifier,
} from "../../../src/domain/references/reference";

function parsed(result: ReferenceResult): ParsedReference {
  if (!result.ok) throw new Error(`expected a parsed reference, got ${result.reason}: ${result.message}`);
  return result.value;
}

describe("normalizeIdentifier", () => {
  it.each([
    ["medufr030802", "MEDUFR030802"],
    ["MEDU FR 030802", "MEDUFR030802"],
    ["MEDU-FR-030802", "MEDUFR030802"],
    [" texu 307007-9 ", "TEXU3070079"],
    ["SHA/2024.01", "SHA/2024.01"],
    ["shp-1000", "SHP1000"],
    ["MEDU\u00a0FR\u2014030802", "MEDUFR030802"],
  ])("%j -> %j", (input, normalized) => {
    expect(normalizeIdentifier(input)).toBe(normalized);
  });

  it("treats identifiers differing only in case, spaces and hyphens as the same", () => {
    expect(sameIdentifier("texu-307007 9", "TEXU3070079")).toBe(true);
    expect(sameIdentifier("MEDUFR030802", "MEDU/FR030802")).toBe(false);
    expect(sameIdentifier("MEDUFR030802", "MEDUFR030803")).toBe(false);
  });
});

describe("type detection without a hint", () => {
  it("reads a valid ISO 6346 number as a container, in canonical form", () => {
    expect(parsed(parseReference(" texu 307007-9 "))).toMatchObject({
      type: "container",
      number: "TEXU3070079",
      normalized: "TEXU3070079",
      container: { bicPrefix: "TEXU", checkDigit: 9 },
    });
  });

  it.each(["MEDUFR030802", "6345849250", "HLCUSEL251063157", "914595688", "SHA/2024/0001"])(
    "reads %j as a bill of lading",
    (number) => {
      expect(parsed(parseReference(number))).toEqual({
        type: "bl",
        number,
        normalized: normalizeIdentifier(number),
        container: null,
      });
    },
  );

  it("keeps a bill of lading as printed but compares it normalized", () => {
    expect(parsed(parseReference("  medu-fr030802 "))).toMatchObject({
      type: "bl",
      number: "medu-fr030802",
      normalized: "MEDUFR030802",
    });
  });

  it("never guesses a booking", () => {
    for (const input of ["MEDUFR030802", "BK123456", "6345849250"]) {
      expect(parsed(parseReference(input)).type).toBe("bl");
    }
  });

  it("reports a 4-letter + 7-digit text with a wrong check digit as a mistyped container, not a B/L", () => {
    const result = parseReference("MSCU1234565");
    expect(result).toMatchObject({ ok: false, type: "container", reason: "invalid_check_digit" });
    expect(!result.ok && result.message).toContain("expected 6");
  });

  it("reads 4 letters + 7 digits with a 4th letter other than U, J or Z as a bill of lading (SCAC + number)", () => {
    expect(parsed(parseReference("PABV1234567"))).toMatchObject({ type: "bl", number: "PABV1234567" });
    expect(parsed(parseReference("TEXX3070079")).type).toBe("bl");
  });

  it("still checks the category when told it is a container", () => {
    expect(parseReference("TEXX3070079", "container")).toMatchObject({
      ok: false,
      type: "container",
      reason: "invalid_category",
    });
  });

  it("reads 4 letters + 6 digits (no check digit) as a bill of lading, the shape KMTC uses", () => {
    expect(parsed(parseReference("KMTU307007")).type).toBe("bl");
  });

  it.each([
    ["", "empty"],
    ["AB", "too_short"],
    ["MEDU FR030802", "invalid_characters"],
    ["X".repeat(51), "too_long"],
  ])("refuses %j as a bill of lading (%s)", (input, reason) => {
    expect(parseReference(input)).toMatchObject({ ok: false, type: "bl", reason });
  });
});

describe("type hints", () => {
  it("container: takes only a container number", () => {
    expect(parsed(parseReference("TEXU3070079", "container")).type).toBe("container");
    expect(parseReference("MEDUFR030802", "container")).toMatchObject({
      ok: false,
      type: "container",
      reason: "invalid_format",
    });
    expect(parseReference("MEDUFR030802/TEXU3070079", "container")).toMatchObject({
      ok: false,
      type: "container",
    });
  });

  it("bl: a container-shaped bill of lading stays a bill of lading, even with a 'wrong' check digit", () => {
    expect(parsed(parseReference("TEXU3070079", "bl"))).toMatchObject({ type: "bl", container: null });
    expect(parsed(parseReference("MSCU1234565", "bl"))).toMatchObject({ type: "bl", number: "MSCU1234565" });
  });

  it("booking: the only way to get a booking", () => {
    expect(parsed(parseReference(" bk-123456 ", "booking"))).toEqual({
      type: "booking",
      number: "bk-123456",
      normalized: "BK123456",
      container: null,
    });
  });

  it("booking: errors speak of a booking number", () => {
    const result = parseReference("BK", "booking");
    expect(result).toMatchObject({ ok: false, type: "booking", reason: "too_short" });
    expect(!result.ok && result.message).toContain("booking number");
  });
});

describe("combined <document>/<container> values", () => {
  it("splits a bill of lading and its container", () => {
    expect(parsed(parseReference("MEDUFR030802/MSCU1234566"))).toMatchObject({
      type: "bl",
      number: "MEDUFR030802",
      normalized: "MEDUFR030802",
      container: { number: "MSCU1234566", bicPrefix: "MSCU" },
    });
  });

  it("splits a booking and its container when hinted", () => {
    expect(parsed(parseReference("hdmu-12345678/hdmu 123456 1", "booking"))).toMatchObject({
      type: "booking",
      number: "hdmu-12345678",
      normalized: "HDMU12345678",
      container: { number: "HDMU1234561" },
    });
  });

  it("splits at the last slash, so the document may hold slashes of its own", () => {
    expect(parsed(parseReference("SHA/2024/0001/TEXU3070079"))).toMatchObject({
      type: "bl",
      number: "SHA/2024/0001",
      container: { number: "TEXU3070079" },
    });
  });

  it("tolerates spaces around the slash", () => {
    expect(parsed(parseReference("MEDUFR030802 / TEXU 307007 9"))).toMatchObject({
      number: "MEDUFR030802",
      container: { number: "TEXU3070079" },
    });
  });

  it("compares a combined value by its document alone", () => {
    const combined = parsed(parseReference("MEDUFR030802/TEXU3070079"));
    const alone = parsed(parseReference("medufr030802"));
    expect(combined.normalized).toBe(alone.normalized);
  });

  it("is one bill of lading, slash included, when the part after the slash is not a valid container", () => {
    expect(parsed(parseReference("MEDUFR030802/TEXU3070070"))).toEqual({
      type: "bl",
      number: "MEDUFR030802/TEXU3070070",
      normalized: "MEDUFR030802/TEXU3070070",
      container: null,
    });
    expect(parsed(parseReference("ABC/123")).container).toBeNull();
  });

  it("is one bill of lading when the part before the slash is not a valid bill of lading", () => {
    expect(parsed(parseReference("AB/TEXU3070079"))).toMatchObject({
      type: "bl",
      number: "AB/TEXU3070079",
      container: null,
    });
  });

  it("needs both halves: with nothing before the slash the whole text is one bill of lading", () => {
    expect(parsed(parseReference("/TEXU3070079"))).toEqual({
      type: "bl",
      number: "/TEXU3070079",
      normalized: "/TEXU3070079",
      container: null,
    });
  });
});
