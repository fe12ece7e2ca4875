import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applicableAliases } from "../../../src/domain/ports/port-aliases";
import { PortCatalog, type PortRow, portSlug } from "../../../src/domain/ports/port-directory";
import { readPortRelease } from "../../../src/domain/ports/port-import";
import { busyness } from "../../../src/domain/ports/port-traffic";
import { regionOfCountry } from "../../../src/domain/ports/regions";
import {
  parseCsvLine,
  parseUnlocodeCoordinates,
  readOfficialLocations,
  readPerCountryLocations,
} from "../../../src/domain/ports/unlocode";

describe("UN/LOCODE coordinates", () => {
  it("reads degrees and minutes: 5155N 00430E is 51°55'N 4°30'E", () => {
    expect(parseUnlocodeCoordinates("5155N 00430E")).toEqual({ lat: 51.916667, lng: 4.5 });
    expect(parseUnlocodeCoordinates("3352S 15112E")).toEqual({ lat: -33.866667, lng: 151.2 });
    expect(parseUnlocodeCoordinates("4042N 07400W")).toEqual({ lat: 40.7, lng: -74 });
    expect(parseUnlocodeCoordinates(" 0117N 10351E ")).toEqual({ lat: 1.283333, lng: 103.85 });
  });

  it("answers null for anything else", () => {
    for (const bad of ["", "5155N", "51.9 4.5", "5175N 00430E", "9100N 00000E", "5155N 18100E"]) {
      expect(parseUnlocodeCoordinates(bad), bad).toBeNull();
    }
  });
});

// A synthetic sample of the official UNECE layout: no header, country rows, changes, Latin-1 text.
const OFFICIAL = [
  ',"NL",,".NETHERLANDS",,,,,,,,',
  ',"NL","RTM","Rotterdam","Rotterdam","ZH","AI","12345---","0001",,"5155N 00430E",""',
  ',"NL","AMS","Amsterdam","Amsterdam","NH","AI","12345---","0001",,"5222N 00454E",""',
  ',"NL","UTC","Utrecht","Utrecht","UT","AI","-23-----","0001",,"5205N 00507E",""',
  'X,"NL","OLD","Oldport","Oldport","ZH","AI","1-------","0001",,"5200N 00400E",""',
  ',"NL","SPA","Spaarndam, Haarlem","Spaarndam, Haarlem","NH","RL","1-------","0001",,,""',
  ',"CN","SGH","Shanghai","Shanghai","SH","AS","12345---","0001",,"3114N 12129E",""',
  ',"CN","SHA","Shanghai Hongqiao International Apt","Shanghai Hongqiao International Apt","SH","AS","---4----","0001",,"3112N 12120E",""',
  ',"CN","NBG","Ningbo Pt","Ningbo Pt","ZJ","AS","1-------","0001",,"2955N 12140E",""',
  ',"FR","LEH","Le Havre","Le Havre","76","AI","12345---","0001",,"4929N 00006E",""',
  ',"FR","FOS","Fos-sur-Mer","Fos-sur-Mer","13","AI","1-3-----","0001",,"4326N 00456E",""',
  ',"ES","LCG","A Coruña","A Coruna","C","AI","1234----","0001",,"4322N 00824W",""',
].join("\r\n");
const SUBDIVISIONS = ['"NL","ZH","Zuid-Holland","Province"', '"NL","NH","Noord-Holland","Province"'].join(
  "\r\n",
);

describe("reading a release", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("splits RFC 4180 lines, doubled quotes included", () => {
    expect(parseCsvLine('a,"b, c","d ""e""",,f')).toEqual(["a", "b, c", 'd "e"', "", "f"]);
  });

  it("reads the official layout: country rows and deleted entries skipped", () => {
    const locations = readOfficialLocations(OFFICIAL);
    expect(locations.map((l) => l.locode)).toEqual([
      "NLRTM",
      "NLAMS",
      "NLUTC",
      "NLSPA",
      "CNSGH",
      "CNSHA",
      "CNNBG",
      "FRLEH",
      "FRFOS",
      "ESLCG",
    ]);
    expect(locations[0]).toEqual({
      locode: "NLRTM",
      countryCode: "NL",
      name: "Rotterdam",
      subdivision: "ZH",
      status: "AI",
      functions: "12345---",
      lat: 51.916667,
      lng: 4.5,
    });
    expect(locations.find((l) => l.locode === "NLSPA")).toMatchObject({
      name: "Spaarndam, Haarlem",
      lat: null,
    });
  });

  it("repairs per-country rows whose comma-holding name was quoted wrongly at the source", () => {
    const text = [
      "country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded",
      "NL,RTM,Rotterdam,Rotterdam,ZH,AF,12345---,,51.916666666666664,4.5,",
      'JP,AIW,"""Aikawa"," Nagasaki""","""Aikawa"," Nagasaki""",42,1-------,35.532347,139.297795,true',
      "XZ,OCA,Nowhere,Nowhere,,RL,1-------,,97.1,NaN,",
    ].join("\n");
    const locations = readPerCountryLocations(text);
    expect(locations[1]).toMatchObject({
      locode: "JPAIW",
      name: "Aikawa, Nagasaki",
      subdivision: "42",
      functions: "1-------",
      lat: 35.532347,
      lng: 139.297795,
    });
    expect(locations[2]).toMatchObject({ locode: "XZOCA", lat: null, lng: null });
  });

  it("imports ports only (function 1) with subdivision, country, city and the zone from the resolver", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "unlocode-"));
    dirs.push(dir);
    // Older UNECE releases are ISO 8859-1.
    writeFileSync(path.join(dir, "2024-1 UNLOCODE CodeListPart1.csv"), Buffer.from(OFFICIAL, "latin1"));
    writeFileSync(path.join(dir, "2024-1 SubdivisionCodes.csv"), SUBDIVISIONS);
    const zones: [number, number][] = [];
    const { rows, layout } = await readPortRelease(dir, (lat, lng) => {
      zones.push([lat, lng]);
      return lat > 40 ? "Europe/Amsterdam" : "Asia/Shanghai";
    });
    expect(layout).toBe("official");
    expect(rows.map((r) => r.locode).sort()).toEqual(
      ["CNNBG", "CNSGH", "ESLCG", "FRFOS", "FRLEH", "NLAMS", "NLRTM", "NLSPA"].sort(),
    );
    expect(rows.find((r) => r.locode === "NLRTM")).toEqual({
      locode: "NLRTM",
      name: "Rotterdam",
      city: "Rotterdam",
      state: "Zuid-Holland",
      country: "Netherlands",
      countryCode: "NL",
      lat: 51.916667,
      lng: 4.5,
      timeZone: "Europe/Amsterdam",
      functions: "12345---",
    });
    expect(rows.find((r) => r.locode === "CNNBG")).toMatchObject({
      city: "Ningbo",
      country: "China",
      state: "Zhejiang Sheng",
    });
    // Subdivisions missing from the release's file come from ISO 3166-2.
    expect(rows.find((r) => r.locode === "FRLEH")?.state).toBe("Seine-Maritime");
    expect(rows.find((r) => r.locode === "ESLCG")?.name).toBe("A Coruña");
    expect(rows.find((r) => r.locode === "NLSPA")).toMatchObject({ timeZone: null, lat: null });
    expect(zones).toHaveLength(7);
  });

  it("refuses a folder with no release in it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "unlocode-empty-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "notes.csv"), "a,b\n1,2\n");
    await expect(readPortRelease(dir, () => null)).rejects.toThrow(/no UN\/LOCODE release/);
  });
});

const row = (
  locode: string,
  name: string,
  functions: string | null,
  extra: Partial<PortRow> = {},
): PortRow => ({
  locode,
  name,
  city: name,
  state: null,
  country: null,
  countryCode: locode.slice(0, 2),
  lat: null,
  lng: null,
  timeZone: null,
  functions,
  ...extra,
});

describe("the port catalogue", () => {
  const catalog = new PortCatalog(
    "unlocode",
    [
      row("NLRTM", "Rotterdam", "12345---"),
      row("CNSGH", "Shanghai", "12345---"),
      row("USLAX", "Los Angeles", "1--45---"),
      row("USLGB", "Long Beach", "1234----"),
      row("GBLON", "London", "12345---"),
      row("GBLGP", "London Gateway Port", "1-------"),
      row("CALON", "London", "1-34----", { city: "London, Ontario" }),
      row("ESLCG", "A Coruña", "1234----"),
    ],
    applicableAliases(new Set(["NLRTM", "CNSGH", "USLAX", "USLGB", "GBLON", "GBLGP", "CALON", "ESLCG"])),
  );

  it("finds by locode, alias, name or city, ignoring case, spaces in codes and accents", () => {
    expect(catalog.get("nl rtm")?.name).toBe("Rotterdam");
    expect(catalog.get("CNSHA")?.locode).toBe("CNSGH");
    expect(catalog.search("coruna", 25).map((p) => p.locode)).toEqual(["ESLCG"]);
    expect(catalog.search("ontario", 25).map((p) => p.locode)).toEqual(["CALON"]);
  });

  it("puts exact locode matches first, then the busiest", () => {
    expect(catalog.search("CNSHA", 25)[0]?.locode).toBe("CNSGH");
    expect(catalog.search("london", 25).map((p) => p.locode)).toEqual(["GBLON", "CALON", "GBLGP"]);
    // "us": locode prefix matches; Los Angeles (ranked 16th) before Long Beach (19th).
    expect(
      catalog
        .search("US", 25)
        .map((p) => p.locode)
        .slice(0, 2),
    ).toEqual(["USLAX", "USLGB"]);
    expect(catalog.search("GBLGP", 25)[0]?.locode).toBe("GBLGP");
    expect(catalog.search("lon", 2)).toHaveLength(2);
  });

  it("scores busyness from the throughput ranking, then the UN/LOCODE functions", () => {
    expect(busyness("CNSHA", null)).toBe(999);
    expect(busyness("CNSGH", "12345---")).toBe(999);
    expect(busyness("NLRTM", null)).toBe(989);
    expect(busyness("XXABC", "12345---")).toBe(5);
    expect(busyness("XXABC", "1-------")).toBe(1);
  });

  it("names the region and slug of a port", () => {
    expect(regionOfCountry("NL")).toBe("Western Europe");
    expect(regionOfCountry("cn")).toBe("Eastern Asia");
    expect(regionOfCountry("PA")).toBe("Central America");
    expect(regionOfCountry("XZ")).toBeNull();
    expect(portSlug("A Coruña", "ESLCG")).toBe("a-coruna-eslcg");
  });

  it("keeps an alias only when its target is imported and it is not a port itself", () => {
    expect(applicableAliases(new Set(["CNSGH", "CNGZG", "CNGGZ"]))).toEqual([
      { alias: "CNSHA", locode: "CNSGH" },
      { alias: "CNCAN", locode: "CNGGZ" },
    ]);
  });
});
