/**
 * Equipment size-type codes. Carriers report a box's type in three ways: a current ISO 6346 code
 * (`45G1`, or a type group such as `45GP`), a pre-1996 numeric ISO code (`4510`), or trade shorthand
 * (`40HC`, `40HQ`). The v1 containers table keeps them apart: `iso_code` holds only a valid ISO code,
 * `size_type` the shorthand, `container_description` a readable form of either.
 *
 * Current codes are decoded from their parts (length, height/width, type) instead of being listed one
 * by one, so an uncommon but valid code such as `25R1` is still recognised and described.
 */

export interface EquipmentDescription {
  /** A valid ISO 6346 size-type code (current or pre-1996), otherwise null. */
  isoCode: string | null;
  /** Trade shorthand such as `40HQ` when that is what was given, otherwise null. */
  sizeType: string | null;
  /** Readable form such as `40' High Cube Dry`; null when the code is not known. */
  description: string | null;
}

// First character: nominal length. Only the lengths given in feet; the metric swap-body lengths
// (A, D, E, F, K, P) do not reach ocean tracking.
const LENGTHS: Readonly<Record<string, string>> = {
  "1": "10'",
  "2": "20'",
  "3": "30'",
  "4": "40'",
  B: "24'",
  C: "24'6\"",
  G: "41'",
  H: "43'",
  L: "45'",
  M: "48'",
  N: "49'",
};

interface HeightWidth {
  before: string;
  after: string;
}

// Second character: height, and width when wider than 8'. 8'6" is the standard and goes unsaid.
const HEIGHTS_AND_WIDTHS: Readonly<Record<string, HeightWidth>> = {
  "0": { before: "", after: " (8'0\")" },
  "2": { before: "", after: "" },
  "4": { before: "", after: " (9'0\")" },
  "5": { before: "High Cube ", after: "" },
  "6": { before: "Super High Cube ", after: "" },
  "8": { before: "Half Height ", after: "" },
  "9": { before: "Low Height ", after: "" },
  C: { before: "Pallet-wide ", after: "" },
  D: { before: "Pallet-wide ", after: " (9'0\")" },
  E: { before: "Pallet-wide High Cube ", after: "" },
  F: { before: "Pallet-wide Super High Cube ", after: "" },
  L: { before: "Wide ", after: "" },
  M: { before: "Wide ", after: " (9'0\")" },
  N: { before: "Wide High Cube ", after: "" },
  P: { before: "Wide Super High Cube ", after: "" },
};

// Third and fourth characters: detailed type codes, then the type groups (e.g. `GP`) that DCSA and
// carriers use when the detailed type is unknown.
const TYPES: Readonly<Record<string, string>> = {
  G0: "Dry",
  G1: "Dry",
  G2: "Dry (side openings)",
  G3: "Dry (side openings)",
  V0: "Ventilated",
  // Not in the 1995 type table, but carriers and forwarders send it for ventilated boxes (22V1, 42V1).
  V1: "Ventilated",
  V2: "Ventilated",
  V4: "Ventilated",
  B0: "Dry Bulk",
  B1: "Dry Bulk",
  B3: "Dry Bulk",
  B4: "Dry Bulk",
  B5: "Dry Bulk",
  B6: "Dry Bulk",
  S0: "Livestock Carrier",
  S1: "Car Carrier",
  S2: "Live Fish Carrier",
  R0: "Reefer",
  R1: "Reefer",
  R2: "Reefer (self-powered)",
  R3: "Reefer (self-powered)",
  H0: "Insulated (removable equipment)",
  H1: "Insulated (removable equipment)",
  H2: "Insulated (removable equipment)",
  H5: "Insulated",
  H6: "Insulated",
  U0: "Open Top",
  U1: "Open Top",
  U2: "Open Top",
  U3: "Open Top",
  U4: "Open Top",
  U5: "Open Top",
  P0: "Platform",
  P1: "Flat Rack",
  P2: "Flat Rack",
  P3: "Flat Rack (collapsible)",
  P4: "Flat Rack (collapsible)",
  P5: "Platform (skeletal)",
  T0: "Tank",
  T1: "Tank",
  T2: "Tank",
  T3: "Tank (dangerous liquids)",
  T4: "Tank (dangerous liquids)",
  T5: "Tank (dangerous liquids)",
  T6: "Tank (dangerous liquids)",
  T7: "Tank (gas)",
  T8: "Tank (gas)",
  A0: "Air/Surface",
  GP: "Dry",
  VH: "Ventilated",
  BU: "Dry Bulk",
  BK: "Dry Bulk",
  SN: "Named Cargo",
  RE: "Reefer",
  RT: "Reefer",
  RS: "Reefer (self-powered)",
  HR: "Insulated (removable equipment)",
  HI: "Insulated",
  UT: "Open Top",
  PL: "Platform",
  PF: "Flat Rack",
  PC: "Flat Rack (collapsible)",
  PS: "Platform (skeletal)",
  TN: "Tank",
  TD: "Tank (dangerous liquids)",
  TG: "Tank (gas)",
  AS: "Air/Surface",
};

// Pre-1996 numeric codes (ISO 2716 / ISO 6346:1984) still appear in older carrier systems and EDI.
// Second digit 3 meant 8'6" with a gooseneck tunnel, 5 anything taller (in practice 9'6").
const LEGACY_CODES: Readonly<Record<string, string>> = {
  "2200": "20' Dry",
  "2210": "20' Dry",
  "2230": "20' Reefer",
  "2232": "20' Reefer",
  "4200": "40' Dry",
  "4210": "40' Dry",
  "4310": "40' Dry",
  "4510": "40' High Cube Dry",
  "4530": "40' High Cube Reefer",
  "4532": "40' High Cube Reefer",
};

// Shorthand gives the length in feet (`45HC` is a 45-footer, unlike ISO `45G1`, a 40' high cube).
// `20GP` and `40GP` also parse as ISO type groups for 8'0" boxes, but nobody ships 8'0" boxes any
// more and carriers mean the standard 8'6" box, so shorthand wins for them.
const SHORTHAND: Readonly<Record<string, string>> = {
  "20DV": "20' Dry",
  "20GP": "20' Dry",
  "20ST": "20' Dry",
  "40DV": "40' Dry",
  "40GP": "40' Dry",
  "40ST": "40' Dry",
  "40HC": "40' High Cube Dry",
  "40HQ": "40' High Cube Dry",
  "45HC": "45' High Cube Dry",
  "45HQ": "45' High Cube Dry",
  "20RF": "20' Reefer",
  "20RE": "20' Reefer",
  "40RF": "40' Reefer",
  "40RE": "40' Reefer",
  "40RH": "40' High Cube Reefer",
  "40HR": "40' High Cube Reefer",
  "20OT": "20' Open Top",
  "40OT": "40' Open Top",
  "20FR": "20' Flat Rack",
  "40FR": "40' Flat Rack",
  "20TK": "20' Tank",
};

const CURRENT_CODE = /^[0-9A-Z]{2}[A-Z][0-9A-Z]$/;
const SHORTHAND_SHAPE = /^\d{2}[A-Z]{2}$/;
// `40' HC`, `40'HC` and `40-hc` are all written by hand for `40HC`.
const NOISE = /[\s'"`\u2019\u2032-]+/g;

function decodeCurrent(code: string): string | null {
  if (!CURRENT_CODE.test(code)) return null;
  const length = LENGTHS[code[0]!];
  const heightWidth = HEIGHTS_AND_WIDTHS[code[1]!];
  const type = TYPES[code.slice(2)];
  if (length === undefined || heightWidth === undefined || type === undefined) return null;
  return `${length} ${heightWidth.before}${type}${heightWidth.after}`;
}

function describeIso(code: string): string | null {
  if (SHORTHAND[code] !== undefined) return null;
  return LEGACY_CODES[code] ?? decodeCurrent(code);
}

/** True for a valid ISO 6346 size-type code, current (`45G1`, `45GP`) or pre-1996 (`4510`). */
export function isIsoSizeType(code: string): boolean {
  return describeIso(code.trim().toUpperCase()) !== null;
}

/**
 * Splits what a carrier sent into the v1 containers-table fields. Shorthand such as `40HQ` gives
 * `isoCode: null`, because `iso_code` promises a real ISO code. An unknown code in shorthand shape
 * (`40XY`) is still passed on as `sizeType` so the carrier's word is not lost, but without a
 * description we cannot vouch for.
 */
export function describeEquipment(codeOrShorthand: string | null | undefined): EquipmentDescription {
  const code = (codeOrShorthand ?? "").replace(NOISE, "").toUpperCase();
  const shorthand = SHORTHAND[code];
  if (shorthand !== undefined) return { isoCode: null, sizeType: code, description: shorthand };
  const iso = describeIso(code);
  if (iso !== null) return { isoCode: code, sizeType: null, description: iso };
  if (SHORTHAND_SHAPE.test(code)) return { isoCode: null, sizeType: code, description: null };
  return { isoCode: null, sizeType: null, description: null };
}
