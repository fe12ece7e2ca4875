/**
 * Entity extraction without a language model: the gazetteer's phrases are found whole-word in the
 * item's folded text (case-sensitively on the unfolded case for acronyms), overlapping matches keep
 * the longest (so "Hamburg Süd" is the carrier, not the port of Hamburg, and "Panama Canal" the
 * chokepoint, not the country), and ambiguous names count only with a cue.
 */
import { activeCatalog, foldText } from "../ports/port-directory";
import { type EntityKind, type GazetteerEntry, gazetteer } from "./gazetteer";

export interface DisruptionEntities {
  /** UN/LOCODEs. */
  ports: string[];
  /** SCACs. */
  carriers: string[];
  /** ISO 3166 alpha-2 codes. */
  countries: string[];
  /** Chokepoint ids (see CHOKEPOINTS). */
  chokepoints: string[];
}

export interface EntityMention {
  kind: EntityKind;
  code: string;
  confidence: number;
  /** Offset in the field it was found in, and the words around it: for debugging a wrong match. */
  field: "title" | "summary";
  offset: number;
  evidence: string;
}

export function emptyEntities(): DisruptionEntities {
  return { ports: [], carriers: [], countries: [], chokepoints: [] };
}

const KIND_LIST: Readonly<Record<EntityKind, keyof DisruptionEntities>> = {
  port: "ports",
  carrier: "carriers",
  country: "countries",
  chokepoint: "chokepoints",
};

/** When two matches overlap with the same length, the more specific kind wins. */
const KIND_RANK: Readonly<Record<GazetteerEntry["kind"], number>> = {
  blocker: 5,
  carrier: 4,
  chokepoint: 3,
  port: 2,
  country: 1,
};

/** Case-preserving fold: the same offsets as the lower-case fold for the text feeds carry. */
export function foldKeepingCase(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ");
}

interface Matcher {
  regex: RegExp;
  byPhrase: Map<string, GazetteerEntry[]>;
}

let matchers: { insensitive: Matcher; sensitive: Matcher } | undefined;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function buildMatcher(entries: readonly GazetteerEntry[]): Matcher {
  const byPhrase = new Map<string, GazetteerEntry[]>();
  for (const e of entries) {
    const list = byPhrase.get(e.phrase) ?? [];
    list.push(e);
    byPhrase.set(e.phrase, list);
  }
  // Longest first, so at one position the alternation takes the longest phrase.
  const phrases = [...byPhrase.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const regex = new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.join("|")})(?![\\p{L}\\p{N}])`, "gu");
  return { regex, byPhrase };
}

function compiledMatchers(): { insensitive: Matcher; sensitive: Matcher } {
  if (!matchers) {
    const all = gazetteer();
    matchers = {
      insensitive: buildMatcher(all.filter((e) => !e.caseSensitive)),
      sensitive: buildMatcher(all.filter((e) => e.caseSensitive)),
    };
  }
  return matchers;
}

interface Candidate {
  start: number;
  end: number;
  entry: GazetteerEntry;
  field: "title" | "summary";
}

const PORT_CUE_BEFORE = /(?:port|ports|harbou?r|terminals?) (?:of |at |in )?(?:the )?$/;
const PORT_CUE_AFTER =
  /^(?:'s)? ?(?:port|ports|harbou?r|terminals?|container terminal|dockworkers|dock workers|dockers|docks|longshore\w*|stevedores|box terminals?)\b/;
/** The cue after a list of names: "Tampa and Manatee ports", "Sydney, Melbourne and Brisbane terminals". */
const PORT_CUE_AFTER_LIST = /^(?:,? (?:and |& )?[a-z'-]+(?: [a-z'-]+)?){1,3} (?:ports|terminals|harbou?rs)\b/;

/** "Port of Xyz" names a port even when the press list lacks it: looked up in the port catalogue. */
const PORT_OF = /(?<![\p{L}])[Pp]ort of ((?:[A-Z][\p{L}'-]+)(?: [A-Z][\p{L}'-]+){0,2})/gu;

let pressPhrases: Set<string> | undefined;
function pressPortPhrases(): Set<string> {
  pressPhrases ??= new Set(
    gazetteer()
      .filter((e) => e.kind === "port")
      .map((e) => e.phrase.toLowerCase()),
  );
  return pressPhrases;
}

/**
 * A port's name before a port word names it too ("San Juan's docks", "its San Juan terminal"): the
 * capitalised words just before the port word, looked up the same way. Without the possessive only
 * terminals, docks and piers: "Victoria Harbour" and "Sydney Harbour" are names of their own.
 */
const NAME_BEFORE_PORT_WORD =
  /(?<![\p{L}'-])((?:[A-Z][\p{L}-]*)(?: [A-Z][\p{L}-]*){0,2})(?:(?:'s|\u2019s) (?:docks|terminals?|harbou?r|piers|waterfront|port)|(?: (?:docks|terminals?|piers|port)))(?![\p{L}])/gu;

/**
 * Names in "Port of X" (the words from the first on) and "X's docks" (the words up to the last), each
 * the longest first: "Port of Long Beach Harbor" is Long Beach, "Crowley San Juan terminal" San Juan.
 */
function catalogueNames(kept: string): { start: number; name: string }[][] {
  const found: { start: number; name: string }[][] = [];
  for (const match of kept.matchAll(PORT_OF)) {
    const words = match[1]!.split(" ");
    const start = match.index + match[0].length - match[1]!.length;
    found.push(words.map((_, i) => ({ start, name: words.slice(0, words.length - i).join(" ") })));
  }
  for (const match of kept.matchAll(NAME_BEFORE_PORT_WORD)) {
    const words = match[1]!.split(" ");
    const end = match.index + match[1]!.length;
    found.push(
      words.map((_, i) => {
        const name = words.slice(i).join(" ");
        return { start: end - name.length, name };
      }),
    );
  }
  return found;
}

function catalogueMentions(
  kept: string,
  field: "title" | "summary",
  countriesNamed: ReadonlySet<string>,
): Candidate[] {
  const found: Candidate[] = [];
  for (const names of catalogueNames(kept)) {
    for (const { start, name } of names) {
      const wanted = foldText(name);
      // The press list knows this name (and which of its namesakes the press means): the scan finds it.
      if (pressPortPhrases().has(wanted)) break;
      // Of the catalogue's ports of that name, the busiest: "Port of Southampton" is England's, not
      // the Bermudan parish's (search orders by busyness; among equals a port in a country the item
      // names first).
      const namesakes = activeCatalog()
        .search(name, 10)
        .filter(
          (p) => foldText(p.name.replace(/\s*\(.*\)$/, "")) === wanted || foldText(p.city ?? "") === wanted,
        );
      const port =
        namesakes.find((p) => p.throughputRank !== null) ??
        namesakes.find((p) => countriesNamed.has(p.countryCode)) ??
        [...namesakes].sort((a, b) => b.busyness - a.busyness)[0];
      if (!port) continue;
      found.push({
        start,
        end: start + name.length,
        field,
        entry: {
          kind: "port",
          phrase: wanted,
          codes: [port.locode],
          caseSensitive: true,
          ambiguous: false,
          confidence: 0.9,
          countryCode: port.countryCode,
        },
      });
      break;
    }
  }
  return found;
}

function scanField(text: string, field: "title" | "summary"): Candidate[] {
  const { insensitive, sensitive } = compiledMatchers();
  const kept = foldKeepingCase(text);
  const lower = kept.toLowerCase();
  const found: Candidate[] = [];
  for (const match of lower.matchAll(insensitive.regex)) {
    for (const e of insensitive.byPhrase.get(match[0]) ?? []) {
      found.push({ start: match.index, end: match.index + match[0].length, entry: e, field });
    }
  }
  const countriesNamed = new Set(
    found.filter((c) => c.entry.kind === "country").flatMap((c) => c.entry.codes),
  );
  found.push(...catalogueMentions(kept, field, countriesNamed));
  // An all-capitals headline says nothing about acronyms: every word is in capitals.
  const shouting = !/[a-z]/.test(kept);
  if (!shouting) {
    for (const match of kept.matchAll(sensitive.regex)) {
      for (const e of sensitive.byPhrase.get(match[0]) ?? []) {
        found.push({ start: match.index, end: match.index + match[0].length, entry: e, field });
      }
    }
  }
  return found.filter((c) => !c.entry.notFollowedBy?.test(kept.slice(c.end)));
}

/**
 * Keeps the longest of overlapping matches; at one span a firm name beats an ambiguous one, then the
 * more specific kind ("Singapore" is the port, "Djibouti" the country unless a cue makes it the port).
 */
function withoutOverlaps(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      Number(a.entry.ambiguous) - Number(b.entry.ambiguous) ||
      KIND_RANK[b.entry.kind] - KIND_RANK[a.entry.kind],
  );
  const kept: Candidate[] = [];
  for (const c of sorted) {
    const blocked = kept.some(
      (k) =>
        k.field === c.field &&
        c.start < k.end &&
        k.start < c.end &&
        !(k.start === c.start && k.end === c.end && k.entry.kind === c.entry.kind),
    );
    if (!blocked) kept.push(c);
  }
  return kept;
}

/** Words that make an item about shipping, so a bare ambiguous port name in it is the port. */
const SHIPPING_CONTEXT =
  /(?<![\p{L}])(?:port|ports|terminals?|vessels?|ships?|shipping|cargo|containers?|berths?|docks?|dockworkers|carriers?|calls?)(?![\p{L}])/u;

/**
 * A co-mentioned country that shows an ambiguous country name is something else: Georgia beside the
 * United States is the state.
 */
const COUNTRY_MISREADINGS: Readonly<Record<string, readonly string[]>> = { GE: ["US"] };

/**
 * The entities an item names. `title` and `summary` are the item's text as published (only read).
 * Ambiguous names need a cue: a port name "port of"/"terminal" next to it or its country named too;
 * a country name (Georgia, Jordan, Chad) another country or a port named beside it.
 */
export function extractEntities(
  title: string,
  summary: string,
): { entities: DisruptionEntities; mentions: EntityMention[] } {
  const fields = { title, summary };
  const candidates = withoutOverlaps([...scanField(title, "title"), ...scanField(summary, "summary")]).filter(
    (c) => c.entry.kind !== "blocker",
  );
  const firm = candidates.filter((c) => !c.entry.ambiguous);
  const firmCountries = new Set(firm.filter((c) => c.entry.kind === "country").flatMap((c) => c.entry.codes));
  const firmPortCountries = new Set(
    firm.filter((c) => c.entry.kind === "port").map((c) => c.entry.countryCode),
  );
  const allText = `${foldKeepingCase(title)} ${foldKeepingCase(summary)}`.toLowerCase();
  const mentions: EntityMention[] = [];
  for (const c of candidates) {
    const text = foldKeepingCase(fields[c.field]).toLowerCase();
    if (c.entry.ambiguous) {
      if (c.entry.kind === "port") {
        const before = text.slice(Math.max(0, c.start - 30), c.start);
        const after = text.slice(c.end, c.end + 30);
        const listAfter = text.slice(c.end, c.end + 60);
        const cue =
          PORT_CUE_BEFORE.test(before) || PORT_CUE_AFTER.test(after) || PORT_CUE_AFTER_LIST.test(listAfter);
        // Its country named is not enough on its own: "Santos beat Corinthians in the Brazilian
        // league" names Brazil too. The item must also be about shipping.
        // So is another port of its country ("Sydney, Melbourne, Brisbane and Fremantle").
        const countryNamed =
          c.entry.countryCode !== undefined &&
          (firmCountries.has(c.entry.countryCode) || firmPortCountries.has(c.entry.countryCode));
        if (!cue && !(countryNamed && SHIPPING_CONTEXT.test(allText))) continue;
      } else if (c.entry.kind === "country") {
        const excluded = COUNTRY_MISREADINGS[c.entry.codes[0] ?? ""] ?? [];
        const named = candidates.filter((o) => o.entry.kind === "country").flatMap((o) => o.entry.codes);
        const others = [...named, ...firmPortCountries].filter(
          (code): code is string => code !== undefined && !c.entry.codes.includes(code),
        );
        if (others.length === 0 || others.some((code) => excluded.includes(code))) continue;
      }
    }
    for (const code of c.entry.codes) {
      mentions.push({
        kind: c.entry.kind as EntityKind,
        code,
        confidence: c.entry.confidence,
        field: c.field,
        offset: c.start,
        evidence: text.slice(Math.max(0, c.start - 20), c.end + 20),
      });
    }
  }
  const entities = emptyEntities();
  for (const m of mentions) {
    const list = entities[KIND_LIST[m.kind]];
    if (!list.includes(m.code)) list.push(m.code);
  }
  for (const list of Object.values(entities)) list.sort();
  return { entities, mentions };
}

/** The union of two entity sets, each list sorted. */
export function mergeEntities(a: DisruptionEntities, b: DisruptionEntities): DisruptionEntities {
  const merge = (x: string[], y: string[]) => [...new Set([...x, ...y])].sort();
  return {
    ports: merge(a.ports, b.ports),
    carriers: merge(a.carriers, b.carriers),
    countries: merge(a.countries, b.countries),
    chokepoints: merge(a.chokepoints, b.chokepoints),
  };
}

/** Every entity as `kind:code`, for set comparisons (clustering, evaluation). */
export function entityKeys(entities: DisruptionEntities): string[] {
  return [
    ...entities.ports.map((c) => `port:${c}`),
    ...entities.carriers.map((c) => `carrier:${c}`),
    ...entities.countries.map((c) => `country:${c}`),
    ...entities.chokepoints.map((c) => `chokepoint:${c}`),
  ];
}
