import { describe, expect, it } from "vitest";
import { isValidBillOfLading, parseBillOfLading } from "../../../src/domain/references/bill-of-lading";

describe("bill-of-lading length: 3 to 50 characters", () => {
  it.each([
    [2, "too_short"],
    [51, "too_long"],
  ])("refuses %i characters (%s)", (length, reason) => {
    expect(parseBillOfLading("A".repeat(length))).toMatchObject({ ok: false, reason });
  });

  it.each([3, 50])("accepts %i characters", (length) => {
    const number = "B".repeat(length);
    expect(parseBillOfLading(number)).toEqual({ ok: true, value: { number } });
  });

  it("counts the length after trimming surrounding whitespace", () => {
    expect(parseBillOfLading(`  ${"C".repeat(50)}  `).ok).toBe(true);
    expect(parseBillOfLading("  AB  ")).toMatchObject({ ok: false, reason: "too_short" });
  });

  it.each(["", "   ", "\t\n"])("calls %j empty", (input) => {
    expect(parseBillOfLading(input)).toMatchObject({ ok: false, reason: "empty" });
  });

  it("says how long the number was", () => {
    const result = parseBillOfLading("X".repeat(51));
    expect(!result.ok && result.message).toContain("at most 50 characters; got 51");
  });
});

describe("bill-of-lading characters", () => {
  it.each([
    "MEDUFR030802",
    "6345849250",
    "HLCUSEL251063157",
    "ONEYAARD05774700",
    "medufr030802",
    "ABC-123-456",
    "SHA/2024/0001",
    "NO.12345.A",
    "a1-/.",
  ])("accepts %j exactly as printed", (number) => {
    expect(parseBillOfLading(number)).toEqual({ ok: true, value: { number } });
  });

  it("trims surrounding whitespace and nothing else", () => {
    expect(parseBillOfLading("\t MEDU-FR/03.0802 \n")).toEqual({
      ok: true,
      value: { number: "MEDU-FR/03.0802" },
    });
  });

  it.each([
    ["APLU AYU0400189", "a space"],
    ["APLU\tAYU0400189", "a whitespace character"],
    ["MEDU_FR030802", '"_"'],
    ["MEDU#FR030802", '"#"'],
    ["MEDU+FR030802", '"+"'],
    ["MEDU\\FR030802", '"\\"'],
    ["MEDU,FR030802", '","'],
    ["MÉDUFR030802", '"É"'],
    ["MEDU\u2013FR030802", '"\u2013"'],
    ["<script>", '"<"'],
  ])("refuses %j and names the offending character (%s)", (input, named) => {
    const result = parseBillOfLading(input);
    expect(result).toMatchObject({ ok: false, reason: "invalid_characters" });
    expect(!result.ok && result.message).toContain(`found ${named}`);
  });

  it.each(["---", "...", "///", "-./"])("refuses %j, which has no letter or digit", (input) => {
    expect(parseBillOfLading(input)).toMatchObject({ ok: false, reason: "no_alphanumeric" });
  });

  it("words its messages for a booking when asked", () => {
    const result = parseBillOfLading("AB", "booking");
    expect(!result.ok && result.message).toContain("booking number");
    const asBl = parseBillOfLading("AB");
    expect(!asBl.ok && asBl.message).toContain("bill-of-lading number");
  });

  it("isValidBillOfLading mirrors the parser", () => {
    expect(isValidBillOfLading("MEDUFR030802")).toBe(true);
    expect(isValidBillOfLading("MEDU FR030802")).toBe(false);
  });
});
