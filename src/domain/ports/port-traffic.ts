/**
 * What "busiest" means in port search (v1 section 4: exact locode matches first, then busiest), from
 * data Quayside holds without any paid source:
 *
 * 1. Container throughput rank: the 60 largest container ports by 2024 volume (Lloyd's List One Hundred
 *    Container Ports 2025, summarised at https://en.portnews.ru/news/381216, and Alphaliner and
 *    port-authority figures for 2024). Each rank lists the carrier code first, then the 2024 UN/LOCODE
 *    codes and terminal codes of the same port, so an imported UN/LOCODE catalogue (CNSGH) ranks like
 *    the carrier code (CNSHA).
 * 2. Breadth of the UN/LOCODE function classifier: a place that is a port and also a rail, road, airport,
 *    postal or multimodal hub ("12345---") is a bigger node than a port-only place ("1-------").
 *
 * A ranked port always outranks an unranked one; the function breadth orders the rest; the name breaks
 * ties. Tracking traffic is deliberately not used: it would make the order depend on who uses this
 * installation and change from one request to the next.
 */
const THROUGHPUT_RANKS: readonly (readonly string[])[] = [
  ["CNSHA", "CNSGH", "CNWGQ"],
  ["SGSIN"],
  ["CNNGB", "CNNBO", "CNNBG", "CNBLG", "CNZOS"],
  ["CNYTN", "CNSHK", "CNCWN", "CNSZX", "CNSNZ", "CNDCB"],
  ["CNTAO", "CNQIN", "CNQDG"],
  ["CNCAN", "CNNSA", "CNGGZ", "CNGZG"],
  ["KRPUS", "KRBNP"],
  ["CNTXG", "CNTSN", "CNTNJ", "CNTNG"],
  ["AEJEA"],
  ["MYPKG"],
  ["NLRTM"],
  ["HKHKG"],
  ["BEANR", "BEZEE"],
  ["CNXMN", "CNXAM", "CNXMG"],
  ["MYTPP"],
  ["USLAX"],
  ["MAPTM"],
  ["THLCH"],
  ["USLGB"],
  ["CNTAC"],
  ["TWKHH"],
  ["VNSGN", "VNCLI"],
  ["CNQZH"],
  ["USNYC", "USEWR"],
  ["INMUN"],
  ["DEHAM"],
  ["LKCMB"],
  ["IDJKT", "IDTPP"],
  ["VNHPH"],
  ["VNCMT", "VNVUT"],
  ["INNSA"],
  ["CNRZH"],
  ["CNLYG"],
  ["PHMNL", "PHMNN", "PHMNS"],
  ["USSAV"],
  ["ESVLC"],
  ["CNYIK"],
  ["BRSSZ"],
  ["SAJED"],
  ["CNDLC", "CNDAL"],
  ["AEKHL"],
  ["PAMIT", "PAONX", "PACTB"],
  ["GRPIR"],
  ["CNYNT", "CNYAT"],
  ["ESALG"],
  ["DEBRV"],
  ["OMSLL"],
  ["JPTYO"],
  ["USHOU"],
  ["ITGIT"],
  ["CNFOC", "CNFZH"],
  ["IDSUB"],
  ["ESBCN"],
  ["MXZLO"],
  ["GBFXT"],
  ["EGPSE", "EGPSD"],
  ["COCTG"],
  ["KRINC"],
  ["PABLB"],
  ["CAVAN"],
];

const RANK_BY_CODE: ReadonlyMap<string, number> = new Map(
  THROUGHPUT_RANKS.flatMap((codes, index) => codes.map((code) => [code, index + 1] as const)),
);

/** 1 for the largest container port, up to 60; undefined outside the ranking. */
export function throughputRank(locode: string): number | undefined {
  return RANK_BY_CODE.get(locode);
}

/** How many transport functions a UN/LOCODE classifier names ("12345---" is 5). */
export function functionBreadth(functions: string | null | undefined): number {
  if (!functions) return 0;
  let count = 0;
  for (const ch of functions.slice(0, 8)) if (ch !== "-" && ch !== " ") count++;
  return count;
}

/**
 * A number where bigger is busier: ranked ports score 1000 - rank (940 to 999), the rest their
 * function breadth (0 to 8).
 */
export function busyness(locode: string, functions: string | null | undefined): number {
  const rank = throughputRank(locode);
  return rank === undefined ? functionBreadth(functions) : 1000 - rank;
}

/** The 60 largest container ports by their first (carrier) code, largest first. */
export function rankedPortCodes(): string[] {
  return THROUGHPUT_RANKS.map((codes) => codes[0]!);
}
