/**
 * Codes carriers send for a port that the UN/LOCODE list gives to something else. In the 2024 list
 * several three-letter codes carriers use for Chinese seaports belong to the city's airport, and the
 * port or city has a new code (as the 2024 list and the codes in carriers' schedules show; a public
 * customs integration maps CNSHA, CNTAO, CNXMN and CNGZG the same way). Carrier schedules and tracking
 * feeds still send the old codes, so an imported catalogue keeps this table (`port_aliases`) to resolve them.
 *
 * The importer writes an alias only when its target was imported as a port and the alias code itself was
 * not (CNGZG, for one, is a port of its own in the 2024 list, so it stays itself).
 */
export const CARRIER_PORT_ALIASES: Readonly<Record<string, string>> = {
  CNSHA: "CNSGH", // Shanghai (CNSHA: Hongqiao airport)
  CNNGB: "CNNBO", // Ningbo (CNNGB: Lishe airport; CNNBG is Ningbo Pt)
  CNSZX: "CNSNZ", // Shenzhen (CNSZX: Bao'an airport)
  CNTAO: "CNQIN", // Qingdao (CNTAO: Jiaodong airport)
  CNCAN: "CNGGZ", // Guangzhou (CNCAN: Baiyun airport)
  CNTSN: "CNTNJ", // Tianjin (CNTSN: Binhai airport; CNTXG is Xingang port)
  CNXMN: "CNXAM", // Xiamen (CNXMN: Gaoqi airport)
  CNDLC: "CNDAL", // Dalian (CNDLC: Zhoushuizi airport)
  CNYNT: "CNYAT", // Yantai (CNYNT: Laishan airport)
  CNFOC: "CNFZH", // Fuzhou (CNFOC: Changle airport)
  CNNKG: "CNNJG", // Nanjing (CNNKG: Lukou airport; CNNJG is Nanjing Pt)
  CNGZG: "CNGGZ", // Guangzhou Pt, in lists where it is not a port of its own
};

/** The aliases that apply to a set of imported port codes (see the rule above). */
export function applicableAliases(importedCodes: ReadonlySet<string>): { alias: string; locode: string }[] {
  return Object.entries(CARRIER_PORT_ALIASES)
    .filter(([alias, locode]) => importedCodes.has(locode) && !importedCodes.has(alias))
    .map(([alias, locode]) => ({ alias, locode }));
}
