/**
 * Reading UN/LOCODE releases. Pure: text in, rows out; the importer does the files and the database.
 *
 * Two layouts are read:
 * - the official UNECE CSV release: `... CodeListPart1.csv` to `Part3.csv` without a header, columns
 *   Change, Country, Location, Name, NameWoDiacritics, Subdivision, Status, Function, Date, IATA,
 *   Coordinates ("5155N 00430E"), Remarks; and `... SubdivisionCodes.csv` (country, code, name, type);
 * - the per-country files with a header (`country,location,name,nameWoDiacritics,subdivision,status,
 *   function,iata,lat,lon[,geocoded]`) and `subdivision-codes.csv` (`SUCountry,SUCode,SUName,SUType`), as
 *   published by the geoapify/un-locode repository (decimal coordinates).
 */

/** RFC 4180 fields, tolerant: a quote inside an unquoted field is kept as text. */
export function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) break;
        const ch = line[i]!;
        if (ch === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += ch;
        i++;
      }
      // Anything between a closing quote and the next comma is kept (broken quoting).
      while (i < line.length && line[i] !== ",") field += line[i++];
    } else {
      while (i < line.length && line[i] !== ",") field += line[i++];
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/**
 * Records of a CSV text; a quoted field may span lines. Blank lines are skipped. The official files use
 * CRLF or LF; both work.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let pending = "";
  for (const line of lines) {
    const current = pending ? `${pending}\n${line}` : line;
    if (unbalancedQuotes(current)) {
      pending = current;
      continue;
    }
    pending = "";
    if (current.trim() === "") continue;
    records.push(parseCsvLine(current));
  }
  if (pending) records.push(parseCsvLine(pending));
  return records;
}

function unbalancedQuotes(text: string): boolean {
  let count = 0;
  for (const ch of text) if (ch === '"') count++;
  return count % 2 === 1;
}

/** Decodes a file's bytes: UTF-8 when valid, else ISO 8859-1 (older UNECE releases). */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("latin1").decode(bytes);
  }
}

/**
 * UN/LOCODE coordinates, degrees and minutes: "5155N 00430E" is 51°55'N 4°30'E. Answers null for
 * anything else (empty, out of range).
 */
export function parseUnlocodeCoordinates(text: string): { lat: number; lng: number } | null {
  const match = /^\s*(\d{2})(\d{2})([NS])\s+(\d{3})(\d{2})([EW])\s*$/i.exec(text);
  if (!match) return null;
  const [, latDeg, latMin, ns, lngDeg, lngMin, ew] = match;
  const lat = Number(latDeg) + Number(latMin) / 60;
  const lng = Number(lngDeg) + Number(lngMin) / 60;
  if (Number(latMin) >= 60 || Number(lngMin) >= 60 || lat > 90 || lng > 180) return null;
  return {
    lat: round6(ns!.toUpperCase() === "S" ? -lat : lat),
    lng: round6(ew!.toUpperCase() === "W" ? -lng : lng),
  };
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** A location of the list, before subdivision names and time zones are added. */
export interface UnlocodeLocation {
  locode: string;
  countryCode: string;
  name: string;
  /** Subdivision code within the country (ISO 3166-2 suffix), e.g. "ZH". */
  subdivision: string | null;
  status: string | null;
  functions: string;
  lat: number | null;
  lng: number | null;
}

export type UnlocodeLayout = "official" | "per-country";

const FUNCTION_CODE = /^[0-9B-]{8}$/;

/** Whether the classifier names function 1, a port (any place where cargo moves by water). */
export function isPortFunction(functions: string): boolean {
  return functions.startsWith("1");
}

function optional(text: string | undefined): string | null {
  const value = text?.trim();
  return value ? value : null;
}

/**
 * Locations of one official CodeListPart file. Country header rows (no location), entries marked for
 * deletion (change "X" or status "XX") and reference entries ("=") are skipped.
 */
export function readOfficialLocations(text: string): UnlocodeLocation[] {
  const out: UnlocodeLocation[] = [];
  for (const record of parseCsv(text)) {
    const [change, country, location, name, nameWo, subdivision, status, functions, , , coordinates] =
      record.map((f) => f.trim());
    if (!country || !location || !name || !functions) continue;
    if (change === "X" || change === "=" || status === "XX") continue;
    const point = parseUnlocodeCoordinates(coordinates ?? "");
    out.push({
      locode: `${country}${location}`.toUpperCase(),
      countryCode: country.toUpperCase(),
      name: name || nameWo || location,
      subdivision: optional(subdivision),
      status: optional(status),
      functions,
      lat: point?.lat ?? null,
      lng: point?.lng ?? null,
    });
  }
  return out;
}

/**
 * Locations of one per-country file with a header. Rows whose name held a comma were written with
 * broken quoting in that source (`"""Mollersdorf"," Baden"""`), which splits the name and drops the
 * status and IATA columns; they are put back together from the columns that are certain: the function
 * classifier, the subdivision before it, and the coordinates after it.
 */
export function readPerCountryLocations(text: string): UnlocodeLocation[] {
  const records = parseCsv(text);
  const header = records.shift()?.map((h) => h.trim());
  if (!header) return [];
  const at = (name: string) => header.indexOf(name);
  const columns = {
    country: at("country"),
    location: at("location"),
    name: at("name"),
    subdivision: at("subdivision"),
    status: at("status"),
    functions: at("function"),
    lat: at("lat"),
    lon: at("lon"),
  };
  if (columns.country < 0 || columns.location < 0 || columns.name < 0 || columns.functions < 0) {
    throw new Error(`not a UN/LOCODE per-country file (header: ${header.join(",")})`);
  }
  const hasGeocoded = at("geocoded") >= 0;
  const out: UnlocodeLocation[] = [];
  for (const record of records) {
    let fields = record;
    if ((fields[columns.name] ?? "").startsWith('"')) fields = repairSplitName(fields, header, hasGeocoded);
    const get = (index: number) => (index >= 0 ? fields[index]?.trim() : undefined);
    const country = get(columns.country);
    const location = get(columns.location);
    const name = get(columns.name);
    const functions = get(columns.functions);
    if (!country || !location || !name || !functions || !FUNCTION_CODE.test(functions)) continue;
    const lat = Number.parseFloat(get(columns.lat) ?? "");
    const lng = Number.parseFloat(get(columns.lon) ?? "");
    const valid = Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
    out.push({
      locode: `${country}${location}`.toUpperCase(),
      countryCode: country.toUpperCase(),
      name,
      subdivision: optional(get(columns.subdivision)),
      status: optional(get(columns.status)),
      functions,
      lat: valid ? lat : null,
      lng: valid ? lng : null,
    });
  }
  return out;
}

function repairSplitName(fields: string[], header: string[], hasGeocoded: boolean): string[] {
  const functionAt = fields.findIndex((f, i) => i >= 3 && FUNCTION_CODE.test(f.trim()));
  if (functionAt < 0) return fields;
  const tail = fields.slice(functionAt + 1);
  const [lat, lon] = tail;
  const nameParts = fields.slice(2, functionAt - 1);
  const half = Math.max(1, Math.floor(nameParts.length / 2));
  const clean = (parts: string[]) =>
    parts
      .join(",")
      .replace(/"/g, "")
      .replace(/\s*,\s*/g, ", ")
      .trim();
  const byName: Record<string, string> = {
    country: fields[0] ?? "",
    location: fields[1] ?? "",
    name: clean(nameParts.slice(0, half)),
    nameWoDiacritics: clean(nameParts.slice(half)),
    subdivision: fields[functionAt - 1] ?? "",
    status: "",
    function: fields[functionAt] ?? "",
    iata: "",
    lat: lat ?? "",
    lon: lon ?? "",
    ...(hasGeocoded ? { geocoded: tail[2] ?? "" } : {}),
  };
  return header.map((column) => byName[column] ?? "");
}

/** Subdivision names by `<country>-<code>` from either layout's subdivision file. */
export function readSubdivisions(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const records = parseCsv(text);
  const first = records[0]?.map((f) => f.trim().toLowerCase());
  if (first && first[0] === "sucountry") records.shift();
  for (const [country, code, name] of records.map((r) => r.map((f) => f.trim()))) {
    if (country && code && name) names.set(`${country.toUpperCase()}-${code.toUpperCase()}`, name);
  }
  return names;
}

/** Which layout a CSV text is in, from its first line. */
export function layoutOf(text: string): UnlocodeLayout {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  return /^\s*"?country"?\s*,\s*"?location"?/i.test(firstLine) ? "per-country" : "official";
}

/** Drops ports listed twice (a code in two files): the last one read wins, as in a newer release. */
export function uniqueByLocode(locations: readonly UnlocodeLocation[]): UnlocodeLocation[] {
  const byCode = new Map<string, UnlocodeLocation>();
  for (const location of locations) byCode.set(location.locode, location);
  return [...byCode.values()];
}
