/**
 * Liner services with their real rotations, from carriers' announcements and the trade press (the
 * source of each is its `source`; true on their "as of" date).
 * A rotation is written in call order as UN/LOCODEs; "[cape]", "[suez]", "[panama]" and the seamanship
 * waypoints "[gibraltar]" and "[malacca]" name the passage sailed between two calls. Where a source says
 * "via Suez or Cape" the Cape is used, as most Asia-Europe loops have since early 2024.
 */
import type { Passage } from "./geo";
import { portByCode } from "./ports";

export type Alliance = "GEMINI" | "OCEAN" | "PREMIER" | "MSC";

export interface LinerService {
  name: string;
  /** Published service codes by carrier SCAC (Gemini lists a Maersk and a Hapag-Lloyd code). */
  codes: Readonly<Record<string, string>>;
  /** SCAC of the carrier that operates the loop and whose ships sail it. */
  operator: string;
  /** Other carriers selling space on the loop under their own name (ZIM on MSC's America). */
  partners: readonly string[];
  alliance?: Alliance;
  asOf: string;
  /** Whether the last call leads back to the first; some rotations are published one way only. */
  cyclic: boolean;
  calls: readonly string[];
  /** passages[i] lies between calls[i] and the next call. */
  passages: readonly (readonly Passage[])[];
  /** Largest ship the trade or a canal on the loop takes (ship sizes reported for the trade). */
  maxTeu: number;
  /** Relative share of shipments: mainline loops carry most boxes, regional loops fewer. */
  weight: number;
  source: string;
}

interface ServiceSpec {
  name: string;
  codes?: Readonly<Record<string, string>>;
  operator: string;
  partners?: readonly string[];
  alliance?: Alliance;
  asOf: string;
  cyclic: boolean;
  rotation: string;
  maxTeu: number;
  weight: number;
  source: string;
}

function service(spec: ServiceSpec): LinerService {
  const calls: string[] = [];
  const passages: Passage[][] = [];
  for (const token of spec.rotation.split(/\s+/).filter(Boolean)) {
    const marker = /^\[(\w+)\]$/.exec(token);
    if (marker) {
      passages[calls.length - 1]?.push(marker[1] as Passage);
      continue;
    }
    calls.push(portByCode(token).unLocode);
    passages.push([]);
  }
  // A rotation written as a closed loop repeats its first call at the end.
  if (spec.cyclic && calls.length > 1 && calls[calls.length - 1] === calls[0]) {
    calls.pop();
    const closing = passages.pop() ?? [];
    passages[passages.length - 1]?.push(...closing);
  }
  return {
    name: spec.name,
    codes: spec.codes ?? {},
    operator: spec.operator,
    partners: spec.partners ?? [],
    ...(spec.alliance ? { alliance: spec.alliance } : {}),
    asOf: spec.asOf,
    cyclic: spec.cyclic,
    calls,
    passages,
    maxTeu: spec.maxTeu,
    weight: spec.weight,
    source: spec.source,
  };
}

export const LINER_SERVICES: readonly LinerService[] = [
  service({
    name: "MSC Swan",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2025-05",
    cyclic: true,
    rotation:
      "KRPUS CNNGB CNSHA CNXMN CNYTN SGSIN [cape] PTSIE FRLEH NLRTM SEGOT DKAAR DEHAM BEANR [cape] MYPKG SGSIN CNSHK KRPUS",
    maxTeu: 24000,
    weight: 6,
    source: "Linerlytica, MSC services (May 2025); The Loadstar, MSC Swan",
  }),
  service({
    name: "CMA CGM FAL1",
    codes: { CMDU: "FAL1", APLU: "FAL1", ANNU: "FAL1" },
    operator: "CMDU",
    partners: ["COSU", "OOLU", "EGLV"],
    alliance: "OCEAN",
    asOf: "2018-02",
    cyclic: false,
    rotation:
      "CNTXG CNSHA CNNGB CNXMN CNYTN KRPUS MYPKG SGSIN AEKLF [suez] ESALG FRLEH FRDKK BEZEE NLRTM GBSOU DEHAM",
    maxTeu: 24000,
    weight: 6,
    source: "Hansa, FAL1 call list (Jan 2018); Maritime Executive; westbound only, as published",
  }),
  service({
    name: "MSC Dragon",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2025-02",
    cyclic: true,
    rotation:
      "CNSHA CNNGB CNYTN SGSIN [cape] [gibraltar] EGAKI ITGIT ITGOA ITSPE FRFOS [gibraltar] CIABJ TGLFW [cape] INMUN INNSA LKCMB [malacca]",
    maxTeu: 24000,
    weight: 5,
    source: "TrasportoEuropa, MSC Dragon (2025); eastbound calls appended after Fos",
  }),
  service({
    name: "MSC Jade",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2025-02",
    cyclic: true,
    rotation:
      "CNTAO KRPUS CNNGB CNSHA CNYTN SGSIN [cape] PTSIE [gibraltar] ESVLC ESBCN ITGIT ESBCN ESVLC [gibraltar] PTSIE [cape] SGSIN CNYTN CNSHA CNNGB KRPUS",
    maxTeu: 24000,
    weight: 4,
    source: "TrasportoEuropa, MSC Jade (2025); same calls both ways",
  }),
  service({
    name: "MSC Sentosa",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2025-07",
    cyclic: true,
    rotation: "MYPKG SGSIN THLCH VNCMT CNYTN CNXMN USLGB USOAK [malacca]",
    maxTeu: 15000,
    weight: 5,
    source: "Japan Press, MSC Sentosa and Orient rotations (Jul 2025)",
  }),
  service({
    name: "MSC Orient",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2025-07",
    cyclic: true,
    rotation: "VNHPH CNNGB CNSHA KRPUS USLGB USOAK",
    maxTeu: 15000,
    weight: 4,
    source: "Japan Press (Jul 2025); Linerlytica, MSC services",
  }),
  service({
    name: "MSC Santana",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2023-12",
    cyclic: true,
    rotation: "CNYTN CNNGB CNSHA CNTAO KRPUS MXZLO [panama] PACTB DOCAU USNYC [cape] [malacca]",
    maxTeu: 15000,
    weight: 3,
    source: "MSC Santana rotation change (Dec 2023), as reported in the trade press",
  }),
  service({
    name: "Hapag-Lloyd EC1",
    codes: { HLCU: "EC1" },
    operator: "HLCU",
    alliance: "GEMINI",
    asOf: "2022-07",
    cyclic: true,
    rotation: "TWKHH CNYTN CNSHA KRPUS MXZLO [panama] USSAV USCHS [panama]",
    maxTeu: 15000,
    weight: 4,
    source: "Port Technology, Hapag-Lloyd EC1 reinstates Charleston (2022)",
  }),
  service({
    name: "MSC America",
    codes: { ZIMU: "Z7S" },
    operator: "MSCU",
    partners: ["ZIMU"],
    alliance: "MSC",
    asOf: "2025-05",
    cyclic: true,
    rotation: "LKCMB SGSIN THLCH VNHPH VNCMT SGSIN [cape] USNYC USBAL USSAV USJAX [cape] [ceylon]",
    maxTeu: 15000,
    weight: 4,
    source: "Linerlytica, MSC services (May 2025); sold by ZIM as Z7S",
  }),
  service({
    name: "Gemini AL1",
    codes: { MAEU: "AL1", HLCU: "AT3" },
    operator: "MAEU",
    partners: ["HLCU"],
    alliance: "GEMINI",
    asOf: "2025-02",
    cyclic: true,
    rotation: "GBSOU NLRTM DEHAM DEWVN USNYC USBAL CASJB",
    maxTeu: 7000,
    weight: 2,
    source: "Fruitnet, Gemini AL1/AT3 at Southampton; Hansa, Gemini TA3 (2025)",
  }),
  service({
    name: "Gemini TA3",
    codes: { MAEU: "TA3", HLCU: "TA3" },
    operator: "HLCU",
    partners: ["MAEU"],
    alliance: "GEMINI",
    asOf: "2025-02",
    cyclic: true,
    rotation: "DEBRV USNYC USCHS MXVER USMSY BSFPO BEANR NLRTM",
    maxTeu: 7000,
    weight: 2,
    source: "Hansa, Gemini TA3 (Feb 2025)",
  }),
  service({
    name: "MSC Kaguya",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2023-06",
    cyclic: true,
    rotation: "JPSMZ JPTYO JPOSA JPUKB JPHKT KRPUS CNSHA CNNGB VNHPH VNSGN THLCH PHMNL KRPUS",
    maxTeu: 4500,
    weight: 1,
    source: "Japan Press, MSC Kaguya (Jun 2023)",
  }),
  service({
    name: "MSC Falcon",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2024-08",
    cyclic: true,
    rotation:
      "CNTXG KRPUS CNTAO CNSHA CNNGB CNXMN CNNSA CNSHK SGSIN [ceylon] AEJEA AEKHL QAHMD IQUQR [ceylon] [malacca]",
    maxTeu: 21000,
    weight: 3,
    source: "Gulf Africa Review, MSC Falcon and Clanga (Aug 2024)",
  }),
  service({
    name: "MSC Clanga",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2024-08",
    cyclic: true,
    rotation: "CNSHA CNNGB CNSHK SGSIN [ceylon] SADMM [ceylon] [malacca]",
    maxTeu: 4700,
    weight: 1,
    source: "Gulf Africa Review, MSC Falcon and Clanga (Aug 2024)",
  }),
  service({
    name: "Gemini ME11/IMX",
    codes: { MAEU: "ME11", HLCU: "IMX" },
    operator: "MAEU",
    partners: ["HLCU"],
    alliance: "GEMINI",
    asOf: "2026-02",
    cyclic: true,
    rotation: "INMUN OMSLL [suez] EGPSE ESVLC EGPSE [suez] OMSLL",
    maxTeu: 16000,
    weight: 3,
    source: "Seantel, ME11 via Suez (Feb 2026); Xeneta; partial rotation, Suez both ways",
  }),
  service({
    name: "Maersk NEW ASIA I",
    operator: "MAEU",
    alliance: "GEMINI",
    asOf: "2019-02",
    cyclic: true,
    rotation:
      "KRPUS CNSHA CNNGB CNSHK SGSIN [cape] BRSPB BRSSZ BRIOA BRITJ ARBUE UYMVD BRITJ BRPNG BRSSZ [cape] SGSIN HKHKG KRPUS",
    maxTeu: 13300,
    weight: 3,
    source: "Datamar News, Maersk NEW ASIA I; Fullavante/Alphaliner; FreightWaves (ship sizes)",
  }),
  service({
    name: "Hapag-Lloyd WWA",
    codes: { HLCU: "WWA" },
    operator: "HLCU",
    alliance: "GEMINI",
    asOf: "2024-04",
    cyclic: true,
    rotation: "BEANR FRLEH PTLIS MAPTM GHTEM CGPNR AOLAD GALBV BEANR",
    maxTeu: 4600,
    weight: 1,
    source: "China Africa Shipping, Hapag-Lloyd WWA and WAX (Apr 2024); Hansa (ship sizes)",
  }),
  service({
    name: "Hapag-Lloyd WAX",
    codes: { HLCU: "WAX" },
    operator: "HLCU",
    alliance: "GEMINI",
    asOf: "2024-04",
    cyclic: true,
    rotation: "MAPTM SNDKR NGAPP NGTIN BJCOO CIABJ GHTEM MAPTM",
    maxTeu: 4600,
    weight: 1,
    source: "China Africa Shipping, Hapag-Lloyd WWA and WAX (Apr 2024)",
  }),
  service({
    name: "MSC Panda",
    operator: "MSCU",
    alliance: "MSC",
    asOf: "2023-03",
    cyclic: true,
    rotation: "KRPUS CNTAO CNSHA CNNGB HKHKG CNYTN AUBNE AUMEL AUSYD KRPUS",
    maxTeu: 5000,
    weight: 2,
    source: "Japan Press, MSC Panda (Mar 2023); Freshplaza, MSC Wallaby",
  }),
];
