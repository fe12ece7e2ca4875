/**
 * How each carrier of the directory behaves in the simulated world: whose ships it loads on, how
 * punctual its loops are, and what its bill-of-lading and booking numbers look like. The directory
 * (src/domain/carriers) says who the carriers are; this table only adds what the simulator needs.
 */
import type { Carrier } from "../../reference-data/carriers";
import type { Alliance } from "./services";

/** A reference number: an optional printed prefix, then letters, then digits (MEDU + FR + 030802). */
export interface ReferenceFormat {
  prefix: string;
  letters: number;
  digits: number;
  /** Letters allowed in the letter part (Yang Ming uses only E, B, T and W). */
  alphabet: string;
}

export type VoyageStyle = "maersk" | "year-week";

export interface CarrierProfile {
  scac: string;
  /** SCAC of the carrier group whose ships the carrier loads on (Sealand sails on Maersk ships). */
  fleet?: string;
  alliance?: Alliance;
  /**
   * Share of vessel arrivals on time (Sea-Intelligence Global Liner Performance, Aug-Sep 2025: Gemini
   * 89%, MSC 80-84%, Ocean Alliance 69%, Premier 58-60%, Wan Hai 48%; 55%, near the 2024-2025 global
   * figure, as the default).
   */
  onTimeShare: number;
  voyageStyle: VoyageStyle;
  billOfLading: ReferenceFormat;
  booking: ReferenceFormat;
  /** Maersk quotes the booking number as its transport document number. */
  bookingIsBillOfLading: boolean;
  /**
   * Owner prefixes the carrier's boxes carry besides its own (COSCO's boxes mostly carry the CBHU, CCLU
   * and CSLU codes of its leasing arms; carriers without owner codes run leased boxes).
   */
  extraContainerPrefixes: readonly string[];
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function format(prefix: string, letters: number, digits: number, alphabet = LETTERS): ReferenceFormat {
  return { prefix, letters, digits, alphabet };
}

interface ProfileSpec {
  fleet?: string;
  alliance?: Alliance;
  onTimeShare?: number;
  voyageStyle?: VoyageStyle;
  billOfLading?: ReferenceFormat;
  booking?: ReferenceFormat;
  bookingIsBillOfLading?: boolean;
  extraContainerPrefixes?: readonly string[];
}

const GEMINI = { alliance: "GEMINI", onTimeShare: 0.87 } as const;
const OCEAN = { alliance: "OCEAN", onTimeShare: 0.69 } as const;
const PREMIER = { alliance: "PREMIER", onTimeShare: 0.59 } as const;

// B/L layouts follow Vizion's (https://docs.vizionapi.com/docs/formatting-bl) and carriers' published
// numbers; booking layouts are not sourced and follow the common
// "3 letters + 7 digits" or all-digit shapes.
const SPECS: Readonly<Record<string, ProfileSpec>> = {
  MSCU: {
    fleet: "MSCU",
    alliance: "MSC",
    onTimeShare: 0.82,
    billOfLading: format("MEDU", 2, 6),
    booking: format("", 0, 10),
  },
  MAEU: {
    fleet: "MAEU",
    ...GEMINI,
    voyageStyle: "maersk",
    billOfLading: format("", 0, 9),
    bookingIsBillOfLading: true,
  },
  SEAU: { fleet: "MAEU", ...GEMINI, voyageStyle: "maersk", billOfLading: format("SEAU", 0, 9) },
  SUDU: { fleet: "MAEU", ...GEMINI, voyageStyle: "maersk", billOfLading: format("SUDU", 2, 10) },
  SAFM: {
    fleet: "MAEU",
    ...GEMINI,
    voyageStyle: "maersk",
    billOfLading: format("SAFM", 0, 9),
    extraContainerPrefixes: ["MSKU", "MRKU"],
  },
  HLCU: { fleet: "HLCU", ...GEMINI, billOfLading: format("HLCU", 3, 9), booking: format("", 0, 9) },
  CMDU: { fleet: "CMDU", ...OCEAN, billOfLading: format("CMDU", 3, 7), booking: format("", 3, 7) },
  APLU: { fleet: "CMDU", ...OCEAN, billOfLading: format("APLU", 3, 7), booking: format("", 3, 7) },
  ANNU: { fleet: "CMDU", ...OCEAN, billOfLading: format("ANLC", 3, 7), booking: format("", 3, 7) },
  COSU: {
    fleet: "COSU",
    ...OCEAN,
    billOfLading: format("COSU", 0, 10),
    extraContainerPrefixes: ["CBHU", "CCLU", "CSLU"],
  },
  OOLU: { fleet: "COSU", ...OCEAN, billOfLading: format("OOLU", 0, 10) },
  // Evergreen's API FAQ asks not to put EGLV in transportDocumentReference.
  EGLV: { fleet: "EGLV", ...OCEAN, billOfLading: format("", 0, 12), booking: format("", 0, 12) },
  ONEY: { fleet: "ONEY", ...PREMIER, billOfLading: format("ONEY", 4, 8), booking: format("", 4, 8) },
  HDMU: { fleet: "HDMU", ...PREMIER, billOfLading: format("HDMU", 4, 8), booking: format("", 4, 8) },
  YMLU: { fleet: "YMLU", ...PREMIER, billOfLading: format("YMLU", 1, 9, "EBTW"), booking: format("", 0, 9) },
  ZIMU: { fleet: "ZIMU", onTimeShare: 0.6, billOfLading: format("ZIMU", 3, 7), booking: format("", 3, 7) },
  GOSU: { fleet: "ZIMU", onTimeShare: 0.6, billOfLading: format("GOSU", 3, 7), booking: format("", 3, 7) },
  WHLC: { onTimeShare: 0.48 },
  KMTU: { billOfLading: format("", 3, 7) },
  MATS: { billOfLading: format("", 0, 10) },
  XPRS: { extraContainerPrefixes: ["TGHU", "TCNU", "SEGU", "FCIU"] },
  HDUJ: { extraContainerPrefixes: ["TGHU", "CAIU"] },
};

const profiles = new Map<string, CarrierProfile>();

/** The simulator's profile of a directory carrier; carriers missing from the table get defaults. */
export function profileOf(carrier: Carrier): CarrierProfile {
  const cached = profiles.get(carrier.scac);
  if (cached) return cached;
  const spec = SPECS[carrier.scac] ?? {};
  const defaultPrefix = carrier.blPrefixes[0] ?? "";
  const billOfLading = spec.billOfLading ?? format(defaultPrefix, 0, defaultPrefix ? 10 : 12);
  const profile: CarrierProfile = {
    scac: carrier.scac,
    ...(spec.fleet ? { fleet: spec.fleet } : {}),
    ...(spec.alliance ? { alliance: spec.alliance } : {}),
    onTimeShare: spec.onTimeShare ?? 0.55,
    voyageStyle: spec.voyageStyle ?? "year-week",
    billOfLading,
    booking: spec.booking ?? format("", 0, 10),
    bookingIsBillOfLading: spec.bookingIsBillOfLading ?? false,
    extraContainerPrefixes: spec.extraContainerPrefixes ?? [],
  };
  profiles.set(carrier.scac, profile);
  return profile;
}

/** Owner prefixes the simulator issues the carrier's boxes under, in a fixed order. */
export function containerPrefixesOf(carrier: Carrier): readonly string[] {
  return [...new Set([...carrier.ownerPrefixes, ...profileOf(carrier).extraContainerPrefixes])];
}
