import { describe, expect, it } from "vitest";
import { describeEquipment, isIsoSizeType } from "../../../src/domain/references/iso-size-type";

const ISO_CODES: [string, string][] = [
  ["22G1", "20' Dry"],
  ["22G0", "20' Dry"],
  ["25G1", "20' High Cube Dry"],
  ["42G1", "40' Dry"],
  ["42G0", "40' Dry"],
  ["45G1", "40' High Cube Dry"],
  ["45G0", "40' High Cube Dry"],
  ["L5G1", "45' High Cube Dry"],
  ["22R1", "20' Reefer"],
  ["42R1", "40' Reefer"],
  ["45R1", "40' High Cube Reefer"],
  ["22U1", "20' Open Top"],
  ["42U1", "40' Open Top"],
  ["45U1", "40' High Cube Open Top"],
  ["22P1", "20' Flat Rack"],
  ["42P1", "40' Flat Rack"],
  ["22P3", "20' Flat Rack (collapsible)"],
  ["22T1", "20' Tank"],
  ["22T6", "20' Tank (dangerous liquids)"],
  ["22V1", "20' Ventilated"],
  ["25R1", "20' High Cube Reefer"],
  ["20G1", "20' Dry (8'0\")"],
  ["LEG1", "45' Pallet-wide High Cube Dry"],
];

const LEGACY_CODES: [string, string][] = [
  ["2210", "20' Dry"],
  ["2230", "20' Reefer"],
  ["4310", "40' Dry"],
  ["4510", "40' High Cube Dry"],
  ["4530", "40' High Cube Reefer"],
  ["4532", "40' High Cube Reefer"],
];

const TYPE_GROUPS: [string, string][] = [
  ["22GP", "20' Dry"],
  ["42GP", "40' Dry"],
  ["45GP", "40' High Cube Dry"],
  ["45RT", "40' High Cube Reefer"],
  ["22RT", "20' Reefer"],
  ["22UT", "20' Open Top"],
  ["42UT", "40' Open Top"],
  ["22PF", "20' Flat Rack"],
  ["42PF", "40' Flat Rack"],
  ["22TN", "20' Tank"],
];

const SHORTHAND: [string, string][] = [
  ["20DV", "20' Dry"],
  ["20GP", "20' Dry"],
  ["40DV", "40' Dry"],
  ["40HC", "40' High Cube Dry"],
  ["40HQ", "40' High Cube Dry"],
  ["45HC", "45' High Cube Dry"],
  ["20RF", "20' Reefer"],
  ["40RF", "40' Reefer"],
  ["40RH", "40' High Cube Reefer"],
  ["20OT", "20' Open Top"],
  ["40OT", "40' Open Top"],
  ["20FR", "20' Flat Rack"],
  ["40FR", "40' Flat Rack"],
  ["20TK", "20' Tank"],
];

describe("ISO 6346 size-type codes", () => {
  it.each([...ISO_CODES, ...LEGACY_CODES, ...TYPE_GROUPS])("%s is an ISO code: %s", (code, description) => {
    expect(isIsoSizeType(code)).toBe(true);
    expect(describeEquipment(code)).toEqual({ isoCode: code, sizeType: null, description });
  });

  it("reads ISO codes in any case and with stray spaces", () => {
    expect(isIsoSizeType(" 45g1 ")).toBe(true);
    expect(describeEquipment("l5g1")).toEqual({
      isoCode: "L5G1",
      sizeType: null,
      description: "45' High Cube Dry",
    });
  });

  it("tells a 40' high cube (45G1) from a 45-footer (L5G1)", () => {
    expect(describeEquipment("45G1").description).not.toBe(describeEquipment("L5G1").description);
  });

  it.each([
    "22X1", // no type X
    "22G9", // G9 is not a general-purpose type
    "2HG1", // H is not a height code
    "Z2G1", // Z is not a length code
    "4410", // a numeric code outside the legacy list
    "22G", // too short
    "22G12", // too long
    "",
  ])("%j is not an ISO code", (code) => {
    expect(isIsoSizeType(code)).toBe(false);
    expect(describeEquipment(code).isoCode).toBeNull();
  });
});

describe("trade shorthand", () => {
  it.each(SHORTHAND)("%s is shorthand, not an ISO code: %s", (code, description) => {
    expect(isIsoSizeType(code)).toBe(false);
    expect(describeEquipment(code)).toEqual({ isoCode: null, sizeType: code, description });
  });

  it("40HQ gives isoCode null and sizeType 40HQ", () => {
    expect(describeEquipment("40HQ")).toEqual({
      isoCode: null,
      sizeType: "40HQ",
      description: "40' High Cube Dry",
    });
  });

  it.each(["40' HC", "40'HC", "40 hc", "40-HC", "40\u2019HC"])(
    "reads the hand-written %j as 40HC",
    (input) => {
      expect(describeEquipment(input)).toEqual({
        isoCode: null,
        sizeType: "40HC",
        description: "40' High Cube Dry",
      });
    },
  );

  it("reads 20GP as shorthand for the standard 20' box, not the 8'0\" ISO group", () => {
    expect(describeEquipment("20GP")).toEqual({ isoCode: null, sizeType: "20GP", description: "20' Dry" });
  });

  it("passes an unknown code of shorthand shape on as sizeType, without inventing a description", () => {
    expect(describeEquipment("40XY")).toEqual({ isoCode: null, sizeType: "40XY", description: null });
  });
});

describe("describeEquipment with nothing usable", () => {
  it.each([null, undefined, "", "   ", "container", "40 foot high cube", "?"])(
    "%j gives all nulls",
    (input) => {
      expect(describeEquipment(input)).toEqual({ isoCode: null, sizeType: null, description: null });
    },
  );
});
