import { createRequire } from "node:module";
import { busyness, throughputRank } from "./port-traffic";
import { regionOfCountry } from "./regions";

/**
 * The port catalogue, in memory. Two sources:
 * - embedded: the `sea-ports` package (about 1,600 ports keyed by UN/LOCODE with coordinates), its zones
 *   computed from the coordinates into embedded-time-zones.json, used until an operator imports UN/LOCODE;
 * - imported: the `ports` and `port_aliases` tables written by `quayside ports import` (every UN/LOCODE
 *   location with function 1), installed here by `PortsService` when the tables hold ports. While one is
 *   installed it is the source of search; lookups fall back to the embedded set for codes it lacks.
 *
 * `findPort` is what the tracking mapper calls for every event: synchronous, one map lookup.
 */
export interface Port {
  locode: string;
  name: string;
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string;
  lat: number | null;
  lng: number | null;
  timeZone: string | null;
}

/** A port as search and GraphQL serve it. */
export interface PortEntry extends Port {
  /** UN/LOCODE function classifier ("12345---"); null from the embedded set. */
  functions: string | null;
  /** UN M49 region of the country (e.g. "Western Europe"). */
  region: string | null;
  /** `<name>-<locode>`, lower case ASCII: stable in URLs. */
  slug: string;
  /** 1 to 60 among the largest container ports; null outside that ranking. */
  throughputRank: number | null;
  /** Bigger is busier (see port-traffic.ts). */
  busyness: number;
}

export type PortSource = "unlocode" | "sea-ports";

/** One row of the `ports` table, as the catalogue takes it. */
export interface PortRow extends Port {
  functions: string | null;
}

interface Indexed {
  entry: PortEntry;
  foldedName: string;
  foldedCity: string;
  /** The locode and every alias that leads to it, upper case. */
  codes: string[];
}

export interface PortSearchResult {
  source: PortSource;
  ports: PortEntry[];
}

// "Hamburg Süd"-style folding: case and diacritics are ignored in names.
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

export function portSlug(name: string, locode: string): string {
  const base = foldText(name)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return base ? `${base}-${locode.toLowerCase()}` : locode.toLowerCase();
}

function entryOf(row: PortRow): PortEntry {
  return {
    locode: row.locode,
    name: row.name,
    city: row.city,
    state: row.state,
    country: row.country,
    countryCode: row.countryCode,
    lat: row.lat,
    lng: row.lng,
    timeZone: row.timeZone,
    functions: row.functions,
    region: regionOfCountry(row.countryCode),
    slug: portSlug(row.name, row.locode),
    throughputRank: throughputRank(row.locode) ?? null,
    busyness: busyness(row.locode, row.functions),
  };
}

export class PortCatalog {
  private readonly byCode = new Map<string, PortEntry>();
  private readonly indexed: Indexed[] = [];

  constructor(
    readonly source: PortSource,
    rows: readonly PortRow[],
    aliases: readonly { alias: string; locode: string }[],
  ) {
    const codesOf = new Map<string, string[]>();
    for (const row of rows) {
      const entry = entryOf(row);
      if (this.byCode.has(entry.locode)) continue;
      this.byCode.set(entry.locode, entry);
      codesOf.set(entry.locode, [entry.locode]);
      this.indexed.push({
        entry,
        foldedName: foldText(entry.name),
        foldedCity: foldText(entry.city ?? ""),
        codes: codesOf.get(entry.locode)!,
      });
    }
    for (const { alias, locode } of aliases) {
      const target = this.byCode.get(locode);
      const code = alias.toUpperCase();
      if (!target || this.byCode.has(code)) continue;
      this.byCode.set(code, target);
      codesOf.get(target.locode)?.push(code);
    }
  }

  get size(): number {
    return this.indexed.length;
  }

  /** By UN/LOCODE or alias, ignoring case and spaces ("nl rtm"). */
  get(code: string): PortEntry | undefined {
    return this.byCode.get(compactCode(code));
  }

  /**
   * Ports whose locode (or an alias) starts with the query, or whose name or city contains it, ignoring
   * case, spaces in codes and diacritics. Exact locode or alias matches first, then busiest, then names
   * that start with the query, then by name.
   */
  search(query: string, limit: number): PortEntry[] {
    const needle = foldText(query);
    const code = compactCode(query);
    if (needle.length === 0) return [];
    const matches: { entry: PortEntry; exact: boolean; starts: boolean }[] = [];
    for (const item of this.indexed) {
      const exact = item.codes.includes(code);
      const byCode = exact || (code.length >= 2 && item.codes.some((c) => c.startsWith(code)));
      const byName = item.foldedName.includes(needle) || item.foldedCity.includes(needle);
      if (!byCode && !byName) continue;
      matches.push({
        entry: item.entry,
        exact,
        starts: item.foldedName.startsWith(needle) || item.foldedCity.startsWith(needle),
      });
    }
    matches.sort(
      (a, b) =>
        Number(b.exact) - Number(a.exact) ||
        b.entry.busyness - a.entry.busyness ||
        Number(b.starts) - Number(a.starts) ||
        a.entry.name.localeCompare(b.entry.name) ||
        a.entry.locode.localeCompare(b.entry.locode),
    );
    return matches.slice(0, limit).map((m) => m.entry);
  }
}

function compactCode(code: string): string {
  return code.replace(/\s+/g, "").toUpperCase();
}

interface SeaPortsEntry {
  name: string;
  city?: string;
  province?: string;
  country?: string;
  coordinates?: [number, number];
  unlocs?: string[];
}

let embedded: PortCatalog | undefined;
let imported: PortCatalog | undefined;

/** The sea-ports set: its first code is the port's locode, the others are aliases. */
export function embeddedCatalog(): PortCatalog {
  if (embedded) return embedded;
  const require = createRequire(import.meta.url);
  const raw = require("sea-ports/lib/ports.json") as Record<string, SeaPortsEntry>;
  // Zones computed from the coordinates by scripts/port-time-zones.ts: sea-ports' own are wrong for
  // some ports (Oakland in America/Chicago).
  const zones = require("./embedded-time-zones.json") as Record<string, string>;
  const rows: PortRow[] = [];
  const aliases: { alias: string; locode: string }[] = [];
  for (const [code, entry] of Object.entries(raw)) {
    // The set lists some ports twice, under each of their codes (CNSHA and CNSGH); the first code of
    // `unlocs` (the one carriers send) keeps the port, the other becomes an alias.
    const main = entry.unlocs?.[0];
    if (main && main !== code && raw[main]) continue;
    rows.push({
      locode: code,
      name: entry.name,
      city: entry.city ?? null,
      state: entry.province ?? null,
      country: entry.country ?? null,
      countryCode: code.slice(0, 2),
      // sea-ports stores [longitude, latitude].
      lat: entry.coordinates?.[1] ?? null,
      lng: entry.coordinates?.[0] ?? null,
      timeZone: zones[code] ?? null,
      functions: null,
    });
    for (const alias of entry.unlocs ?? []) if (alias !== code) aliases.push({ alias, locode: code });
  }
  embedded = new PortCatalog("sea-ports", rows, aliases);
  return embedded;
}

/**
 * Installs the imported UN/LOCODE catalogue (or removes it with null). One process serves one database,
 * so the catalogue is process-wide like the embedded one.
 */
export function installImportedCatalog(catalog: PortCatalog | null): void {
  imported = catalog ?? undefined;
}

/** The catalogue search uses: the imported one when installed, else the embedded one. */
export function activeCatalog(): PortCatalog {
  return imported ?? embeddedCatalog();
}

export function findPort(locode: string): Port | undefined {
  return findPortEntry(locode);
}

/** `findPort` with the search fields: the imported catalogue first, then the embedded set. */
export function findPortEntry(locode: string): PortEntry | undefined {
  return imported?.get(locode) ?? embeddedCatalog().get(locode);
}

export const MAX_PORT_RESULTS = 25;

export function searchPorts(query: string, limit = MAX_PORT_RESULTS): PortSearchResult {
  const catalog = activeCatalog();
  return { source: catalog.source, ports: catalog.search(query, Math.min(limit, MAX_PORT_RESULTS)) };
}
