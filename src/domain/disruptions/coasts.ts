/**
 * Ranges of ports that one dispute or one storm season touches together: a coast's dock labour
 * bargains as one (the ILWU's contract covers every US West Coast port, the ILA's the East and Gulf
 * Coasts), and the press follows such an event from one of its ports to the next ("slowdown at
 * Seattle and Tacoma", then "ships queue off Los Angeles", then "Oakland's gates clog"). Two reports
 * naming different ports of one range therefore do not disagree on their place; ports of two ranges
 * (Vancouver and Montreal, a week apart) still do.
 */
const RANGES: Readonly<Record<string, readonly string[]>> = {
  us_west_coast: ["USLAX", "USLGB", "USOAK", "USSEA", "USTIW", "USPDX"],
  us_east_gulf_coast: [
    "USNYC",
    "USBAL",
    "USPHL",
    "USORF",
    "USCHS",
    "USSAV",
    "USJAX",
    "USMIA",
    "USBOS",
    "USHOU",
    "USMOB",
    "USNOL",
  ],
  canada_west_coast: ["CAVAN", "CAPRR"],
  canada_east_coast: ["CAMTR", "CAHAL", "CASJB"],
};

const RANGE_OF = new Map<string, string>(
  Object.entries(RANGES).flatMap(([range, ports]) => ports.map((port) => [port, range] as const)),
);

/** Whether every port of `a` and every port of `b` lie on one range (none outside it). */
export function oneRange(a: readonly string[], b: readonly string[]): boolean {
  const ranges = new Set([...a, ...b].map((port) => RANGE_OF.get(port)));
  return ranges.size === 1 && !ranges.has(undefined);
}

/**
 * Whether the ports of `a` and those of `b` lie on known ranges, none shared: Vancouver's and
 * Montreal's docks bargain apart (two employers, two unions), while two ports of no known range
 * (Santos and Paranagua) may be one national strike.
 */
export function rangesApart(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const of = (ports: readonly string[]) => ports.map((port) => RANGE_OF.get(port));
  const ofA = of(a);
  const ofB = of(b);
  if (ofA.includes(undefined) || ofB.includes(undefined)) return false;
  return !ofA.some((range) => ofB.includes(range));
}
