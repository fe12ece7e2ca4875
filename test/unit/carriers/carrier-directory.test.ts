import { describe, expect, it } from "vitest";
import {
  CARRIERS,
  type Carrier,
  findCarrierByScac,
  findLessorByPrefix,
  isLeasingPrefix,
  LEASING_PREFIXES,
  LESSORS,
  scacCodesOf,
  searchCarriers,
  withCarrierStatus,
} from "../../../src/domain/carriers/carrier-directory";

function carrier(scac: string): Carrier {
  const found = findCarrierByScac(scac);
  if (!found) throw new Error(`no carrier ${scac}`);
  return found;
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

describe("directory invariants", () => {
  it("holds at least 25 carriers", () => {
    expect(CARRIERS.length).toBeGreaterThanOrEqual(25);
  });

  it("gives every carrier a 4-character uppercase SCAC, main and alternative", () => {
    for (const entry of CARRIERS) {
      for (const code of scacCodesOf(entry)) expect(code, entry.name).toMatch(/^[A-Z0-9]{4}$/);
      expect(entry.scac, entry.name).toMatch(/[A-Z]/);
    }
  });

  it("never gives one SCAC, main or alternative, to two carriers", () => {
    expect(duplicates(CARRIERS.flatMap(scacCodesOf))).toEqual([]);
  });

  it("has unique, URL-safe slugs", () => {
    const slugs = CARRIERS.map((entry) => entry.slug);
    expect(duplicates(slugs)).toEqual([]);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("has unique names", () => {
    expect(duplicates(CARRIERS.map((entry) => entry.name))).toEqual([]);
  });

  it("never gives one owner prefix to two carriers", () => {
    expect(duplicates(CARRIERS.flatMap((entry) => entry.ownerPrefixes))).toEqual([]);
  });

  it("writes owner prefixes as BIC codes: 3 letters and U", () => {
    for (const prefix of CARRIERS.flatMap((entry) => entry.ownerPrefixes))
      expect(prefix).toMatch(/^[A-Z]{3}U$/);
  });

  it("never claims a lessor's prefix for a carrier", () => {
    const claimed = CARRIERS.flatMap((entry) => entry.ownerPrefixes).filter((prefix) =>
      LEASING_PREFIXES.has(prefix),
    );
    expect(claimed).toEqual([]);
  });

  it("never gives one B/L prefix to two carriers, and writes them as 4 uppercase characters", () => {
    const prefixes = CARRIERS.flatMap((entry) => entry.blPrefixes);
    expect(duplicates(prefixes)).toEqual([]);
    for (const prefix of prefixes) expect(prefix).toMatch(/^[A-Z]{4}$/);
  });

  it("lets every carrier resolve at least one reference type, and resolvesBookings agrees with it", () => {
    for (const entry of CARRIERS) {
      expect(entry.supportedTypes.length, entry.name).toBeGreaterThan(0);
      expect(entry.resolvesBookings, entry.name).toBe(entry.supportedTypes.includes("booking"));
    }
  });

  it("ranks carriers by distinct popularity, most popular first", () => {
    const ranks = CARRIERS.map((entry) => entry.popularity);
    expect(new Set(ranks).size).toBe(ranks.length);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("ships every carrier active: maintenance is an override, not data", () => {
    expect(CARRIERS.filter((entry) => entry.status !== "active")).toEqual([]);
  });

  it("is frozen, so no caller can change it for everyone", () => {
    expect(() => {
      (CARRIERS as Carrier[]).push(carrier("MSCU"));
    }).toThrow(TypeError);
    expect(() => {
      (carrier("MSCU") as { status: string }).status = "disabled";
    }).toThrow(TypeError);
  });
});

describe("facts from the published carrier sources", () => {
  it.each([
    ["MSCU", "MSC Mediterranean Shipping Company", 1],
    ["MAEU", "Maersk", 2],
    ["CMDU", "CMA CGM", 3],
    ["COSU", "COSCO Shipping Lines", 4],
    ["HLCU", "Hapag-Lloyd", 5],
    ["ONEY", "Ocean Network Express (ONE)", 6],
    ["EGLV", "Evergreen", 7],
    ["HDMU", "HMM", 8],
    ["YMLU", "Yang Ming", 9],
    ["ZIMU", "ZIM", 10],
    ["WHLC", "Wan Hai Lines", 11],
    ["PCIU", "PIL (Pacific International Lines)", 12],
    ["MATS", "Matson", 30],
  ])("%s is %s, ranked %i", (scac, name, rank) => {
    expect(carrier(scac)).toMatchObject({ scac, name, popularity: rank });
  });

  it.each([
    ["MSCU", "MSCU"],
    ["MSCU", "MEDU"],
    ["MSCU", "WECU"], // WEC Lines belongs to MSC
    ["MAEU", "MSKU"],
    ["MAEU", "MRKU"],
    ["MAEU", "GRIU"], // registered to Maersk, not Grimaldi
    ["MAEU", "CNIU"], // Maersk, not CMA CGM
    ["MAEU", "HASU"], // Maersk, not Heung-A
    ["CMDU", "CMAU"],
    ["APLU", "APZU"],
    ["COSU", "CSNU"],
    ["OOLU", "OOCU"],
    ["HLCU", "HLXU"],
    ["HLCU", "CSQU"], // ex-CSAV boxes
    ["HLCU", "UASU"], // ex-UASC boxes
    ["ONEY", "NYKU"],
    ["EGLV", "EMCU"],
    ["HDMU", "HMMU"],
    ["ZIMU", "ZCSU"],
    ["GOSU", "GSLU"],
    ["PCIU", "MEXU"], // Mariana Express belongs to PIL
    ["SKLU", "HALU"], // Heung-A folded into Sinokor
    ["MATS", "HRZU"],
  ])("%s operates boxes prefixed %s", (scac, prefix) => {
    expect(carrier(scac).ownerPrefixes).toContain(prefix);
  });

  it("does not give TSLU (TCI Seaways) to TS Lines", () => {
    expect(CARRIERS.some((entry) => entry.ownerPrefixes.includes("TSLU"))).toBe(false);
    expect(carrier("TXZJ").ownerPrefixes).toEqual(["TSSU", "TSTU"]);
  });

  it.each([
    ["MSCU", "MEDU"],
    ["MAEU", "MAEU"],
    ["CMDU", "CMDU"],
    ["APLU", "APLU"],
    ["ANNU", "ANLC"],
    ["COSU", "COSU"],
    ["OOLU", "OOLU"],
    ["HLCU", "HLCU"],
    ["ONEY", "ONEY"],
    ["EGLV", "EGLV"],
    ["HDMU", "HDMU"],
    ["YMLU", "YMLU"],
    ["ZIMU", "ZIMU"],
    ["PCIU", "PABV"],
  ])("%s bills of lading start with %s", (scac, prefix) => {
    expect(carrier(scac).blPrefixes).toContain(prefix);
  });

  it("marks exactly the carriers known to publish DCSA T&T", () => {
    const dcsa = CARRIERS.filter((entry) => entry.dcsa).map((entry) => entry.scac);
    expect(dcsa.sort()).toEqual(["ANNU", "APLU", "CMDU", "EGLV", "HLCU", "MAEU", "MSCU", "ONEY", "YMLU"]);
  });

  it("restricts HMM to booking lookups: its API needs the booking and the container together", () => {
    expect(carrier("HDMU").supportedTypes).toEqual(["booking"]);
    const restricted = CARRIERS.filter((entry) => entry.supportedTypes.length < 3).map((entry) => entry.scac);
    expect(restricted).toEqual(["HDMU"]);
  });
});

describe("findCarrierByScac", () => {
  it.each(["MSCU", "mscu", " MsCu "])("finds MSC by %j", (input) => {
    expect(findCarrierByScac(input)?.name).toBe("MSC Mediterranean Shipping Company");
  });

  it.each([
    ["MEDU", "MSCU"],
    ["cmau", "CMDU"],
    ["ANLC", "ANNU"],
    ["EVRG", "EGLV"],
    ["SEAL", "SEAU"],
  ])("finds a carrier by its alternative SCAC %s", (alternative, scac) => {
    expect(findCarrierByScac(alternative)?.scac).toBe(scac);
  });

  it.each(["ABCD", "", "   ", "MSC", "MSCUX"])("finds nothing for %j", (input) => {
    expect(findCarrierByScac(input)).toBeUndefined();
  });

  it("looks in the directory it is given", () => {
    const onlyZim = CARRIERS.filter((entry) => entry.scac === "ZIMU");
    expect(findCarrierByScac("MSCU", onlyZim)).toBeUndefined();
    expect(findCarrierByScac("zimu", onlyZim)?.scac).toBe("ZIMU");
  });
});

describe("searchCarriers", () => {
  const scacs = (query: string) => searchCarriers(query).map((entry) => entry.scac);

  it("matches names case-insensitively", () => {
    expect(scacs("MAERSK")).toEqual(["MAEU"]);
    expect(scacs("lloyd")).toEqual(["HLCU"]);
  });

  it("matches SCACs, including alternative ones", () => {
    expect(scacs("hlcu")).toEqual(["HLCU"]);
    expect(scacs("medu")).toEqual(["MSCU"]);
  });

  it("matches slugs", () => {
    expect(scacs("gold-star")).toEqual(["GOSU"]);
  });

  it("ignores accents, so 'sud' finds Hamburg Süd", () => {
    expect(scacs("hamburg sud")).toEqual(["SUDU"]);
    expect(scacs("Süd")).toEqual(["SUDU"]);
  });

  it("puts an exact SCAC or slug match before partial matches", () => {
    const results = scacs("apl");
    expect(results[0]).toBe("APLU");
    expect(scacs("one")[0]).toBe("ONEY");
  });

  it("orders partial matches by popularity", () => {
    const results = searchCarriers("line");
    expect(results.length).toBeGreaterThan(2);
    const ranks = results.map((entry) => entry.popularity);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("lists the whole directory for an empty query and nothing for a query that matches nothing", () => {
    expect(searchCarriers("  ")).toHaveLength(CARRIERS.length);
    expect(searchCarriers("zzzz")).toEqual([]);
  });
});

describe("withCarrierStatus", () => {
  it("puts a carrier under maintenance in a copy, leaving the shipped directory alone", () => {
    const directory = withCarrierStatus({ mscu: "maintenance", HLCU: "disabled" });
    expect(findCarrierByScac("MSCU", directory)?.status).toBe("maintenance");
    expect(findCarrierByScac("HLCU", directory)?.status).toBe("disabled");
    expect(findCarrierByScac("MAEU", directory)?.status).toBe("active");
    expect(carrier("MSCU").status).toBe("active");
    expect(directory).toHaveLength(CARRIERS.length);
  });

  it("accepts an alternative SCAC as the key", () => {
    expect(findCarrierByScac("MSCU", withCarrierStatus({ MEDU: "maintenance" }))?.status).toBe("maintenance");
  });

  it("can bring a carrier back", () => {
    const down = withCarrierStatus({ ZIMU: "disabled" });
    expect(findCarrierByScac("ZIMU", withCarrierStatus({ ZIMU: "active" }, down))?.status).toBe("active");
  });

  it("refuses an unknown SCAC, so a configuration typo is caught at start-up", () => {
    expect(() => withCarrierStatus({ MSCX: "maintenance" })).toThrow(/MSCX/);
  });
});

describe("leasing prefixes", () => {
  it.each([
    ["TEXU", "Textainer"],
    ["TGHU", "Textainer"],
    ["CAIU", "CAI International"],
    ["TCNU", "Triton International"],
    ["SEGU", "Seaco"],
    ["IPXU", "SeaCube Containers"],
    ["GLDU", "Touax"],
    ["EURU", "Eurotainer"],
    ["CBHU", "Florens Asset Management"],
    ["CCLU", "COSCO Shipping Development (Asia)"],
  ])("%s belongs to the lessor %s", (prefix, lessor) => {
    expect(isLeasingPrefix(prefix)).toBe(true);
    expect(findLessorByPrefix(prefix.toLowerCase())?.name).toBe(lessor);
  });

  it.each(["MSCU", "MSKU", "HLXU", "OOLU", "ABCU"])("%s is not a leasing prefix", (prefix) => {
    expect(isLeasingPrefix(prefix)).toBe(false);
    expect(findLessorByPrefix(prefix)).toBeUndefined();
  });

  it("lists each prefix under one lessor only, as a BIC code", () => {
    const all = LESSORS.flatMap((lessor) => lessor.ownerPrefixes);
    expect(duplicates(all)).toEqual([]);
    for (const prefix of all) expect(prefix).toMatch(/^[A-Z]{3}U$/);
    expect(LEASING_PREFIXES.size).toBe(all.length);
  });
});
