/**
 * Inland origins and destinations: cities and inland container depots with their UN/LOCODE (checked
 * against the UNECE UN/LOCODE 2024 list, as republished by github.com/geoapify/un-locode; for Chinese
 * cities the city code, not the
 * airport one) and the gateway ports their boxes move through. Which mode serves which corridor follows
 * common practice (Yangtze and Rhine barges, US and Indian rail, trucks for short hauls); distances and
 * times are computed, not sourced.
 */
import type { Terminal } from "./ports";

export type InlandMode = "TRUCK" | "RAIL" | "BARGE";

export interface InlandGateway {
  port: string;
  modes: readonly InlandMode[];
}

export interface InlandPlace {
  unLocode: string;
  name: string;
  countryCode: string;
  lat: number;
  lng: number;
  timeZone: string;
  gateways: readonly InlandGateway[];
  /** An inland terminal with an SMDG code, where one exists (Chongqing's Cuntan river terminal). */
  terminal?: Terminal;
}

function place(
  unLocode: string,
  name: string,
  countryCode: string,
  lat: number,
  lng: number,
  timeZone: string,
  gateways: Readonly<Record<string, readonly InlandMode[]>>,
  terminal?: Terminal,
): InlandPlace {
  return {
    unLocode,
    name,
    countryCode,
    lat,
    lng,
    timeZone,
    gateways: Object.entries(gateways).map(([port, modes]) => ({ port, modes })),
    ...(terminal ? { terminal } : {}),
  };
}

export const INLAND_PLACES: readonly InlandPlace[] = [
  // China
  place("CNNHN", "Wuhan", "CN", 30.5833, 114.2833, "Asia/Shanghai", { CNSHA: ["BARGE", "RAIL"] }),
  place(
    "CNCQI",
    "Chongqing",
    "CN",
    29.6181,
    106.5917,
    "Asia/Shanghai",
    { CNSHA: ["BARGE"], CNQZH: ["RAIL"] },
    {
      smdgCode: "CUNTAN",
      name: "CUNTAN TERMINAL",
      lat: 29.61806,
      lng: 106.59167,
    },
  ),
  place("CNYIU", "Yiwu", "CN", 29.3, 120.0667, "Asia/Shanghai", { CNNGB: ["TRUCK", "RAIL"] }),
  place("CNSZH", "Suzhou", "CN", 31.3167, 120.6167, "Asia/Shanghai", { CNSHA: ["TRUCK"], CNTAC: ["TRUCK"] }),
  place("CNHAZ", "Hangzhou", "CN", 30.2667, 120.1667, "Asia/Shanghai", {
    CNNGB: ["TRUCK"],
    CNSHA: ["TRUCK"],
  }),
  place("CNDGG", "Dongguan", "CN", 23.0333, 113.75, "Asia/Shanghai", { CNYTN: ["TRUCK"], CNSHK: ["TRUCK"] }),
  place("CNFOS", "Foshan", "CN", 23.0333, 113.1, "Asia/Shanghai", {
    CNSHK: ["BARGE"],
    HKHKG: ["BARGE"],
    CNNSA: ["TRUCK"],
  }),
  place("CNXIA", "Xi'an", "CN", 34.2833, 108.95, "Asia/Shanghai", { CNTAO: ["RAIL"], CNLYG: ["RAIL"] }),
  place("CNZGZ", "Zhengzhou", "CN", 34.7667, 113.6667, "Asia/Shanghai", { CNTAO: ["RAIL"], CNLYG: ["RAIL"] }),
  place("CNCDU", "Chengdu", "CN", 30.6667, 104.0667, "Asia/Shanghai", { CNQZH: ["RAIL"] }),
  place("CNCSH", "Changsha", "CN", 28.2, 112.9833, "Asia/Shanghai", { CNNSA: ["RAIL"] }),
  // South-east, South and East Asia
  place("VNHAN", "Hanoi", "VN", 21.0333, 105.85, "Asia/Ho_Chi_Minh", { VNHPH: ["TRUCK"] }),
  place("VNBDG", "Binh Duong", "VN", 10.9, 106.8333, "Asia/Ho_Chi_Minh", {
    VNSGN: ["TRUCK", "BARGE"],
    VNCMT: ["BARGE"],
  }),
  place("THBKK", "Bangkok", "TH", 13.75, 100.5167, "Asia/Bangkok", { THLCH: ["TRUCK", "BARGE"] }),
  place("MYKUL", "Kuala Lumpur", "MY", 3.1517, 101.6942, "Asia/Kuala_Lumpur", { MYPKG: ["TRUCK"] }),
  place("KRSEL", "Seoul", "KR", 37.5167, 126.9333, "Asia/Seoul", {
    KRPUS: ["RAIL", "TRUCK"],
    KRINC: ["TRUCK"],
  }),
  place("INTKD", "Tughlakabad ICD (Delhi)", "IN", 28.5, 77.2667, "Asia/Kolkata", {
    INNSA: ["RAIL"],
    INMUN: ["RAIL"],
  }),
  place("INDER", "Dadri ICD (Noida)", "IN", 28.5667, 77.55, "Asia/Kolkata", {
    INMUN: ["RAIL"],
    INNSA: ["RAIL"],
  }),
  place("INAMD", "Ahmedabad", "IN", 23.0333, 72.6167, "Asia/Kolkata", { INMUN: ["TRUCK", "RAIL"] }),
  place("INPNQ", "Pune", "IN", 18.5804, 73.9182, "Asia/Kolkata", { INNSA: ["TRUCK"] }),
  place("INLUH", "Ludhiana", "IN", 30.909, 75.8516, "Asia/Kolkata", { INMUN: ["RAIL"] }),
  // Middle East and Africa
  place("AEDXB", "Dubai", "AE", 25.25, 55.2667, "Asia/Dubai", { AEJEA: ["TRUCK"] }),
  place("SARUH", "Riyadh", "SA", 24.6333, 46.7667, "Asia/Riyadh", { SADMM: ["RAIL"], SAJED: ["TRUCK"] }),
  place("EGCAI", "Cairo", "EG", 30.05, 31.25, "Africa/Cairo", { EGPSE: ["TRUCK"], EGAKI: ["TRUCK"] }),
  place("GHACC", "Accra", "GH", 5.6043, -0.168, "Africa/Accra", { GHTEM: ["TRUCK"] }),
  place("NGLOS", "Lagos", "NG", 6.5743, 3.3209, "Africa/Lagos", { NGAPP: ["TRUCK"], NGTIN: ["TRUCK"] }),
  // Europe
  place("DEDUI", "Duisburg", "DE", 51.4667, 6.75, "Europe/Berlin", {
    NLRTM: ["BARGE", "RAIL"],
    BEANR: ["BARGE", "RAIL"],
  }),
  place("DEMUC", "Munich", "DE", 48.15, 11.5833, "Europe/Berlin", { DEHAM: ["RAIL"], DEBRV: ["RAIL"] }),
  place("DEFRA", "Frankfurt am Main", "DE", 50.1167, 8.6833, "Europe/Berlin", {
    NLRTM: ["BARGE"],
    BEANR: ["BARGE"],
    DEHAM: ["RAIL"],
  }),
  place("CZPRG", "Prague", "CZ", 50.102, 14.2706, "Europe/Prague", { DEHAM: ["RAIL"], DEBRV: ["RAIL"] }),
  place("CHBSL", "Basel", "CH", 47.5581, 7.5878, "Europe/Zurich", { NLRTM: ["BARGE"], BEANR: ["BARGE"] }),
  place("NLVEN", "Venlo", "NL", 51.3667, 6.1667, "Europe/Amsterdam", { NLRTM: ["BARGE", "TRUCK"] }),
  place("FRPAR", "Paris", "FR", 48.85, 2.35, "Europe/Paris", { FRLEH: ["BARGE", "TRUCK"] }),
  place("ESMAD", "Madrid", "ES", 40.4952, -3.5734, "Europe/Madrid", {
    ESVLC: ["RAIL", "TRUCK"],
    ESALG: ["RAIL"],
  }),
  place("ITMIL", "Milan", "IT", 45.4642, 9.1896, "Europe/Rome", {
    ITGOA: ["RAIL", "TRUCK"],
    ITSPE: ["RAIL"],
  }),
  place("GBBHM", "Birmingham", "GB", 52.4667, -1.9167, "Europe/London", {
    GBFXT: ["RAIL"],
    GBSOU: ["RAIL"],
    GBLGP: ["RAIL"],
  }),
  place("GBMNC", "Manchester", "GB", 53.5, -2.2167, "Europe/London", { GBFXT: ["RAIL"], GBSOU: ["RAIL"] }),
  place("PLWAW", "Warsaw", "PL", 52.25, 21.0, "Europe/Warsaw", { DEHAM: ["RAIL"], DEBRV: ["RAIL"] }),
  place("HUBUD", "Budapest", "HU", 47.5, 19.0833, "Europe/Budapest", { DEHAM: ["RAIL"], GRPIR: ["RAIL"] }),
  place("ATVIE", "Vienna", "AT", 48.2, 16.3667, "Europe/Vienna", { DEHAM: ["RAIL"], DEBRV: ["RAIL"] }),
  // Americas
  place("USCHI", "Chicago", "US", 41.88, -87.63, "America/Chicago", {
    USLAX: ["RAIL"],
    USLGB: ["RAIL"],
    USNYC: ["RAIL"],
    CAVAN: ["RAIL"],
  }),
  place("USDAL", "Dallas", "US", 32.78, -96.8, "America/Chicago", {
    USLAX: ["RAIL"],
    USLGB: ["RAIL"],
    USHOU: ["TRUCK", "RAIL"],
  }),
  place("USATL", "Atlanta", "US", 33.75, -84.39, "America/New_York", {
    USSAV: ["TRUCK", "RAIL"],
    USCHS: ["TRUCK"],
  }),
  place("USMEM", "Memphis", "US", 35.15, -90.05, "America/Chicago", {
    USLAX: ["RAIL"],
    USLGB: ["RAIL"],
    USMSY: ["RAIL"],
  }),
  place("USONT", "Ontario (California)", "US", 34.0541, -117.5992, "America/Los_Angeles", {
    USLAX: ["TRUCK"],
    USLGB: ["TRUCK"],
  }),
  place("USCMH", "Columbus (Ohio)", "US", 39.96, -83.0, "America/New_York", {
    USNYC: ["RAIL"],
    USBAL: ["RAIL"],
  }),
  place("USPHX", "Phoenix", "US", 33.45, -112.07, "America/Phoenix", { USLAX: ["TRUCK"], USLGB: ["TRUCK"] }),
  place("USKCK", "Kansas City", "US", 39.1135, -94.6265, "America/Chicago", {
    USLAX: ["RAIL"],
    USLGB: ["RAIL"],
  }),
  place("CATOR", "Toronto", "CA", 43.65, -79.38, "America/Toronto", { CAVAN: ["RAIL"] }),
  place("MXMEX", "Mexico City", "MX", 19.4333, -99.1333, "America/Mexico_City", {
    MXZLO: ["RAIL"],
    MXVER: ["RAIL"],
  }),
  place("BRSAO", "São Paulo", "BR", -23.5667, -46.5667, "America/Sao_Paulo", { BRSSZ: ["TRUCK"] }),
  place("COBOG", "Bogotá", "CO", 4.6, -74.0833, "America/Bogota", { COCTG: ["TRUCK"] }),
];

/** Inland places served through a port, with the modes each uses. */
export function inlandPlacesFor(portCode: string): { place: InlandPlace; modes: readonly InlandMode[] }[] {
  const found: { place: InlandPlace; modes: readonly InlandMode[] }[] = [];
  for (const candidate of INLAND_PLACES) {
    const gateway = candidate.gateways.find((g) => g.port === portCode);
    if (gateway) found.push({ place: candidate, modes: gateway.modes });
  }
  return found;
}
