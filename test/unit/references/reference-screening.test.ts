import { describe, expect, it } from "vitest";
import { screenReferenceList, splitReferenceList } from "../../../src/domain/references/reference-screening";

describe("a pasted list of references, read before anything is tracked", () => {
  it("finds no reference in a sentence: 'not a number' creates neither `not` nor `number`", () => {
    const result = screenReferenceList("not a number");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.items.map((i) => [i.input, i.verdict])).toEqual([
      ["not", "not_a_reference"],
      ["a", "not_a_reference"],
      ["number", "not_a_reference"],
    ]);
    expect(result.items[0]!.message).toBe(
      "“not” is not a reference: container, bill-of-lading and booking numbers contain digits.",
    );
  });

  it("asks before tracking a container-shaped number with a wrong ISO 6346 check digit", () => {
    const result = screenReferenceList("ABCD1234567");
    if (!result.ok) throw new Error(result.message);
    const [item] = result.items;
    expect(item!.verdict).toBe("suspect_check_digit");
    expect(item!.expectedCheckDigit).not.toBe(7);
    expect(item!.message).toMatch(/check digit does not match/);
  });

  it("keeps a mixed paste's real references, once each, in their canonical form", () => {
    const result = screenReferenceList("MSCU1234566, mscu 123456 6\nMEDUFR030802; hello\r\nMSCU1234567");
    if (!result.ok) throw new Error(result.message);
    expect(result.items.map((i) => [i.reference, i.verdict])).toEqual([
      ["MSCU1234566", "reference"],
      ["MEDUFR030802", "reference"],
      [null, "not_a_reference"],
      [null, "not_a_reference"],
    ]);
    // A real container number with a typo is refused outright, naming the digit it calls for.
    expect(result.items[3]!.expectedCheckDigit).toBe(6);
  });

  it("refuses an empty paste and one of more than 50 references", () => {
    expect(screenReferenceList(" \n , ")).toMatchObject({ ok: false, reason: "empty" });
    const many = Array.from({ length: 51 }, (_, n) => `BL${1000 + n}`).join("\n");
    expect(screenReferenceList(many)).toMatchObject({ ok: false, reason: "too_many" });
    expect(splitReferenceList(many.split("\n").slice(0, 50).join(" "))).toHaveLength(50);
  });
});
