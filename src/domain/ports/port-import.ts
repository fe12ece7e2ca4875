import { readdir, readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import { applicableAliases } from "./port-aliases";
import {
  decodeText,
  isPortFunction,
  layoutOf,
  readOfficialLocations,
  readPerCountryLocations,
  readSubdivisions,
  type UnlocodeLayout,
  type UnlocodeLocation,
  uniqueByLocode,
} from "./unlocode";

/**
 * `quayside ports import <dir>`: every UN/LOCODE location with function 1 (port) from a release folder
 * into the `ports` table, with subdivision and country names, an IANA time zone computed from the
 * coordinates, and the carrier alias table. The previous import is replaced in one transaction, so a
 * reader sees the old catalogue or the new one, never a mix.
 */

/** Computes a zone from coordinates; injected so the 220 MB geo-tz data stays out of the API process. */
export type TimeZoneResolver = (lat: number, lng: number) => string | null;

export interface PortImportReport {
  layout: UnlocodeLayout;
  files: number;
  /** Locations read with function 1. */
  ports: number;
  withCoordinates: number;
  withTimeZone: number;
  withSubdivision: number;
  aliases: { alias: string; locode: string }[];
  importedAt: Date;
}

export class PortImportError extends Error {}

interface ReleaseFiles {
  layout: UnlocodeLayout;
  locations: string[];
  subdivisions: string[];
}

async function listCsv(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listCsv(full)));
    else if (entry.name.toLowerCase().endsWith(".csv")) out.push(full);
  }
  return out.sort();
}

/** Finds the release's files: the official CodeListPart files, else the per-country files. */
export async function findReleaseFiles(dir: string): Promise<ReleaseFiles> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new PortImportError(`${dir} is not a folder`);
  const files = await listCsv(dir);
  const subdivisions = files.filter((f) => /subdivision[-_ ]?codes?\.csv$/i.test(path.basename(f)));
  const official = files.filter((f) => /codelistpart\d*\.csv$/i.test(path.basename(f)));
  if (official.length > 0) return { layout: "official", locations: official, subdivisions };
  const perCountry: string[] = [];
  for (const file of files) {
    if (subdivisions.includes(file)) continue;
    const head = decodeText(new Uint8Array((await readFile(file)).subarray(0, 200)));
    if (layoutOf(head) === "per-country") perCountry.push(file);
  }
  if (perCountry.length === 0) {
    throw new PortImportError(
      `${dir} holds no UN/LOCODE release: expected *CodeListPart*.csv files (UNECE) or per-country CSV files with a country,location,... header`,
    );
  }
  return { layout: "per-country", locations: perCountry, subdivisions };
}

function countryNames(): (code: string) => string | null {
  const require = createRequire(import.meta.url);
  const countries = require("i18n-iso-countries") as {
    registerLocale(locale: unknown): void;
    getName(
      code: string,
      lang: string,
      options?: { select: "official" | "alias" | "all" },
    ): string | undefined;
  };
  countries.registerLocale(require("i18n-iso-countries/langs/en.json"));
  return (code) =>
    COMMON_COUNTRY_NAMES[code] ?? countries.getName(code, "en", { select: "official" }) ?? null;
}

// The names shippers use where ISO's official short name is a mouthful.
const COMMON_COUNTRY_NAMES: Readonly<Record<string, string>> = {
  CN: "China",
  TW: "Taiwan",
  US: "United States",
  RU: "Russia",
  IR: "Iran",
  KR: "South Korea",
  KP: "North Korea",
  TZ: "Tanzania",
  SY: "Syria",
  LA: "Laos",
  MD: "Moldova",
  VE: "Venezuela",
  CD: "DR Congo",
};

/** `iso-3166` subdivision names, for codes the release's own subdivision file lacks. */
async function isoSubdivisions(): Promise<Map<string, string>> {
  const { iso31662 } = await import("iso-3166");
  return new Map(iso31662.map((s) => [s.code.toUpperCase(), s.name]));
}

/** City of a port: its name without the UN/LOCODE "Pt"/"Apt" suffixes ("Ningbo Pt" is in Ningbo). */
export function cityOf(name: string): string {
  return name.replace(/\s+(Pt|Apt|Port)$/i, "").trim() || name;
}

export interface PortImportRow {
  locode: string;
  name: string;
  city: string;
  state: string | null;
  country: string | null;
  countryCode: string;
  lat: number | null;
  lng: number | null;
  timeZone: string | null;
  functions: string;
}

/** Reads a release folder into port rows; no database involved. */
export async function readPortRelease(
  dir: string,
  timeZoneOf: TimeZoneResolver,
): Promise<{ layout: UnlocodeLayout; files: number; rows: PortImportRow[] }> {
  const release = await findReleaseFiles(dir);
  const subdivisionNames = new Map<string, string>();
  for (const file of release.subdivisions) {
    for (const [key, name] of readSubdivisions(decodeText(await readFile(file))))
      subdivisionNames.set(key, name);
  }
  const iso = await isoSubdivisions();
  const countryName = countryNames();
  const locations: UnlocodeLocation[] = [];
  for (const file of release.locations) {
    const text = decodeText(await readFile(file));
    const read = release.layout === "official" ? readOfficialLocations(text) : readPerCountryLocations(text);
    for (const location of read) if (isPortFunction(location.functions)) locations.push(location);
  }
  const rows = uniqueByLocode(locations).map((l): PortImportRow => {
    const subdivisionKey = l.subdivision ? `${l.countryCode}-${l.subdivision.toUpperCase()}` : null;
    const hasPoint = l.lat !== null && l.lng !== null;
    return {
      locode: l.locode,
      name: l.name,
      city: cityOf(l.name),
      state: subdivisionKey
        ? (subdivisionNames.get(subdivisionKey) ?? iso.get(subdivisionKey) ?? null)
        : null,
      country: countryName(l.countryCode),
      countryCode: l.countryCode,
      lat: l.lat,
      lng: l.lng,
      timeZone: hasPoint ? timeZoneOf(l.lat!, l.lng!) : null,
      functions: l.functions,
    };
  });
  return { layout: release.layout, files: release.locations.length + release.subdivisions.length, rows };
}

const CHUNK = 5000;

/** Replaces the imported catalogue with the release in `dir`. */
export async function importPorts(input: {
  dir: string;
  prisma: PrismaClient;
  clock: Clock;
  timeZoneOf: TimeZoneResolver;
}): Promise<PortImportReport> {
  const { rows, layout, files } = await readPortRelease(input.dir, input.timeZoneOf);
  if (rows.length === 0) throw new PortImportError(`${input.dir} holds no location with function 1 (port)`);
  const aliases = applicableAliases(new Set(rows.map((r) => r.locode)));
  const importedAt = input.clock.now();
  await input.prisma.$transaction(
    async (tx) => {
      await tx.portAlias.deleteMany({});
      await tx.port.deleteMany({});
      // One statement per chunk with one array per column: far fewer bound parameters than a
      // multi-row VALUES list, which matters on PGlite.
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const column = <K extends keyof PortImportRow>(key: K) => chunk.map((row) => row[key]);
        await tx.$executeRaw`
          INSERT INTO ports (locode, name, city, state, country, country_code, lat, lng, time_zone, functions, imported_at)
          SELECT u.*, ${importedAt}::timestamp(3)
            FROM unnest(${column("locode")}::text[], ${column("name")}::text[], ${column("city")}::text[],
                        ${column("state")}::text[], ${column("country")}::text[], ${column("countryCode")}::text[],
                        ${column("lat")}::float8[], ${column("lng")}::float8[], ${column("timeZone")}::text[],
                        ${column("functions")}::text[]) AS u`;
      }
      if (aliases.length > 0) await tx.portAlias.createMany({ data: aliases });
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  return {
    layout,
    files,
    ports: rows.length,
    withCoordinates: rows.filter((r) => r.lat !== null).length,
    withTimeZone: rows.filter((r) => r.timeZone !== null).length,
    withSubdivision: rows.filter((r) => r.state !== null).length,
    aliases,
    importedAt,
  };
}
