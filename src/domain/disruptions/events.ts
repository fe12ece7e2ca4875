/**
 * A disruption event: the cluster of items that report one real-world disruption, with the facts the
 * service publishes about it. Incremental clustering (Azzopardi & Staff 2012: news arrives as a
 * stream and the number of events is unknown) joins each item to the most similar open event of its
 * time window or starts a new one. Headline and summary are written here from the event's facts;
 * the items' bodies are never kept.
 */
import { CARRIERS } from "../carriers/carrier-directory";
import { findPortEntry } from "../ports/port-directory";
import {
  CATEGORY_LABELS,
  CATEGORY_WINDOWS,
  type DisruptionCategory,
  LONGEST_FOLLOW_MS,
  LOW_WATER_FOLLOW_MS,
} from "./categories";
import type { Severity } from "./classify";
import { oneRange, rangesApart } from "./coasts";
import { type DisruptionEntities, entityKeys, extractEntities, mergeEntities } from "./entities";
import { countryNameOf, findChokepoint } from "./gazetteer";
import { diceSimilarity } from "./normalise";

export type DisruptionStatus = "active" | "resolved";

/** One report kept as a citation: who published it, its headline and its link. Never its body. */
export interface EventSource {
  publisher: string;
  title: string;
  link: string | null;
  publishedAt: Date;
  authoritative: boolean;
}

/** What the pipeline learnt from one item: the input of clustering. */
export interface ItemFacts {
  category: DisruptionCategory;
  severity: Severity;
  hedged: boolean;
  resolution: boolean;
  entities: DisruptionEntities;
  /** Weighted content words of the title (twice) and summary, for the similarity of texts. */
  terms: Record<string, number>;
  /** Families of what happened ("closure", "attack", "strike"), for the headline. */
  signals: string[];
  foldedTitle: string;
  source: EventSource;
  /** How long the report says the disruption lasts from its time ("closed for two weeks"), "open" when it cannot be dated. */
  lasts?: number | "open" | null;
}

export interface DisruptionEvent {
  id: string;
  category: DisruptionCategory;
  /** Published severity: the items' highest, +1 with three or more publishers (cap 4). */
  severity: Severity;
  /** The highest severity of one item, before corroboration. */
  itemSeverity: Severity;
  status: DisruptionStatus;
  entities: DisruptionEntities;
  firstSeen: Date;
  lastUpdated: Date;
  resolvedAt: Date | null;
  /**
   * How it was resolved: a report of its end ("reopened", "strike ends") is final; the silence rule's
   * guess is not, and a later report that keeps its category and places reopens it.
   */
  resolvedBy: "report" | "silence" | null;
  /**
   * Until when its own reports said it goes on ("closed for two weeks", "until further notice"):
   * silence before then is not its end.
   */
  expectedUntil?: Date | null;
  headline: string;
  summary: string;
  /** Up to four, distinct publishers first, then authority, then the earliest. */
  sources: EventSource[];
  /** Clustering state: every distinct publisher, item count, term centroid, recent titles. */
  publishers: string[];
  itemCount: number;
  categoryCounts: Partial<Record<DisruptionCategory, number>>;
  signalCounts: Record<string, number>;
  terms: Record<string, number>;
  recentTitles: string[];
  /** Candidate sources (first reports of each publisher and a few more), from which `sources` is chosen. */
  candidateSources: EventSource[];
}

export const MAX_SOURCES = 4;
const MAX_CANDIDATE_SOURCES = 16;
const MAX_RECENT_TITLES = 8;
/** Publishers that make a story corroborated: one more severity level. */
export const CORROBORATING_PUBLISHERS = 3;

export const JOIN_SIMILARITY = 0.3;
export const JOIN_TITLE_DICE = 0.6;
/** The similarity a report of an event's end needs to join it (same category, shared places). */
export const JOIN_SIMILARITY_END = 0.25;
const WEIGHT_TEXT = 0.45;
const WEIGHT_ENTITIES = 0.35;
const WEIGHT_CATEGORY = 0.2;
/** The part of an event's reported span it waits in silence before it is taken as over. */
const SILENCE_PER_SPAN = 0.5;
/** The part of an event's reported span a later report may come after its last and still follow it. */
const FOLLOW_PER_SPAN = 1;
/** How many follow horizons back a report of an event's end may still close it. */
export const END_FOLLOW_FACTOR = 3;
/** Signals too common to tell two of a carrier's events apart ("service", "rates"). */
export const GENERIC_SIGNALS = new Set(["network", "rates", "delay"]);
/** The likeness of words a later report needs to follow an event under another category, or naming nothing. */
const FOLLOW_ACROSS_CATEGORY_TEXT = 0.3;
/** The likeness of words a report of an end that names nothing needs to close an event past its join window. */
const PLACELESS_END_TEXT = 0.2;
/** Text similarity two items sharing only a carrier need to be one event (with a signal in common). */
const CARRIER_ONLY_TEXT = 0.2;

/** The prefix of a name kept among an item's terms (an acronym of its title: `#imo`), not a word. */
export const NAME_TERM = "#";

/** Cosine likeness of two term vectors, words only (names are compared by `sharesName`). */
export function cosine(a: Record<string, number>, b: Record<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [term, w] of Object.entries(a)) {
    if (term.startsWith(NAME_TERM)) continue;
    na += w * w;
    const other = b[term];
    if (other) dot += w * other;
  }
  for (const [term, w] of Object.entries(b)) if (!term.startsWith(NAME_TERM)) nb += w * w;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Whether an item and an event share an acronym ("IMO", "USTR"). */
export function sharesName(event: DisruptionEvent, facts: ItemFacts): boolean {
  return Object.keys(facts.terms).some((t) => t.startsWith(NAME_TERM) && event.terms[t] !== undefined);
}

/**
 * Overlap of an item's entities with an event's (shared / the smaller set): an event gathers names
 * as it grows, and Jaccard would make a long-running event ever harder to join.
 */
function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  const shared = a.filter((x) => setB.has(x)).length;
  return shared / Math.min(a.length, b.length);
}

function specific(entities: DisruptionEntities): string[] {
  return entityKeys(entities).filter((k) => !k.startsWith("country:"));
}

/** How alike an item and an event are, 0 to 1, and whether the item may join it at all. */
export function similarity(event: DisruptionEvent, facts: ItemFacts): { score: number; joinable: boolean } {
  const text = cosine(event.terms, facts.terms);
  const eventKeys = entityKeys(event.entities);
  const itemKeys = entityKeys(facts.entities);
  const sameCategory = event.categoryCounts[facts.category] ? 1 : 0;
  // A shared name counts as entities in common: the reports of one rule name its body.
  // So does a ship's name: the reports of a grounding name the ship, not always its place; and a
  // coast's ports in a labour dispute.
  const entityLikeness =
    sharesName(event, facts) || sharesShip(event, facts) || sameCoastDispute(event, facts)
      ? 1
      : overlap(eventKeys, itemKeys);
  const score = WEIGHT_TEXT * text + WEIGHT_ENTITIES * entityLikeness + WEIGHT_CATEGORY * sameCategory;
  const dice = Math.max(0, ...event.recentTitles.map((t) => diceSimilarity(t, facts.foldedTitle)));
  const eventSpecific = specific(event.entities);
  const itemSpecific = specific(facts.entities);
  const shared = itemSpecific.filter((k) => eventSpecific.includes(k));
  // A carrier runs a whole network: two events naming Maersk in one fortnight (a strike at one port,
  // a suspension elsewhere) are not one for that. A shared carrier joins only where one side places
  // the news at no port or chokepoint, the words agree and the same thing happened (a seizure).
  const placed = (keys: string[]) => keys.some((k) => !k.startsWith("carrier:"));
  const sharesPlace =
    shared.some((k) => !k.startsWith("carrier:")) ||
    sharesStorm(event, facts) ||
    sharesShip(event, facts) ||
    sameCoastDispute(event, facts);
  // Issue 35, fourth pass: a carrier's own trouble (its collapse, its outage) told in other words by
  // each publisher: of the same category, neither placed and the carriers the same, no likeness of
  // words is asked (within the join window only; `follows` still asks for it).
  const sameCarrierStory =
    sameCategory === 1 &&
    !placed(eventSpecific) &&
    !placed(itemSpecific) &&
    facts.entities.carriers.length > 0 &&
    facts.entities.carriers.every((c) => event.entities.carriers.includes(c)) &&
    event.entities.carriers.every((c) => facts.entities.carriers.includes(c));
  const sharesCarrierOnly =
    !sharesPlace &&
    shared.length > 0 &&
    (text >= CARRIER_ONLY_TEXT || sameCarrierStory) &&
    // Neither places the news: the carrier is where it happens (an alliance, a network).
    ((!placed(eventSpecific) && !placed(itemSpecific)) ||
      // One places it and the other does not: the same thing must have happened (a seizure).
      (placed(eventSpecific) !== placed(itemSpecific) &&
        facts.signals.some((sig) => !GENERIC_SIGNALS.has(sig) && (event.signalCounts[sig] ?? 0) > 0)));
  // A labour dispute is its union's and its employers' (ILWU and PMA): it spreads from port to port.
  const sameDispute = facts.category === "labor" && event.category === "labor" && sharesName(event, facts);
  const sharesSpecific =
    sharesPlace || sameDispute || (sharesCarrierOnly && mostlySameCarriers(event.entities, facts.entities));
  // News naming no port, chokepoint or carrier (tariffs, rates) clusters by country, category and words.
  // The container market is one market: its news joins the market's open event whatever route
  // (ports) or index ("Shanghai freight index") it names.
  const market = facts.category === "container_market" && event.category === "container_market";
  // A port names its country too (Jakarta's port is Indonesia's): trade news naming a capital's port
  // and news naming the country agree on the country (issue 35, fourth pass).
  const eventCountries = countriesNamed(event.entities);
  const itemCountries = countriesNamed(facts.entities);
  const bothUnspecific =
    (market || eventSpecific.length === 0 || itemSpecific.length === 0) &&
    sameCategory === 1 &&
    (facts.entities.countries.length === 0 ||
      event.entities.countries.length === 0 ||
      itemCountries.some((c) => eventCountries.includes(c)));
  // A report of the end is short and says little of what happened ("tentative agreement; strike
  // suspended"): within the window, of the same category and places, less likeness is enough.
  const threshold = facts.resolution && sameCategory === 1 ? JOIN_SIMILARITY_END : JOIN_SIMILARITY;
  // Alike titles about two different places ("Dockworkers strike at the Port of X", "... of Y") are
  // two events: a title's likeness joins only where the places do not disagree.
  const placesDisagree = placed(eventSpecific) && placed(itemSpecific) && !sharesPlace;
  // The same for carriers: "A and B form a new alliance", "C, D and B form a new alliance" are two.
  const carriersDisagree =
    facts.entities.carriers.length > 0 &&
    event.entities.carriers.length > 0 &&
    !mostlySameCarriers(event.entities, facts.entities);
  // A trade measure is also a rule: Japan's export controls on Korea read as trade news one day and
  // as a licensing rule taking effect the next. Between the same two or more countries, one measure.
  const tradeRules = (c: DisruptionCategory) => c === "tariff_trade" || c === "regulatory";
  const sameMeasure =
    tradeRules(facts.category) &&
    tradeRules(event.category) &&
    facts.entities.countries.length >= 2 &&
    facts.entities.countries.every((c) => event.entities.countries.includes(c));
  const joinable =
    !goodsDisagree(event, facts) &&
    (sameMeasure ||
      (market && sameCategory === 1) ||
      (dice >= JOIN_TITLE_DICE && !placesDisagree && !carriersDisagree) ||
      (score >= threshold && (sharesSpecific || bothUnspecific)));
  return { score: Math.max(score, dice), joinable };
}

/**
 * Goods a trade measure's headline names. Two export bans in one month ("Indonesia halts palm oil
 * exports", "India bans wheat exports") are two measures though the buyers they name overlap.
 */
const GOODS = new Set(
  `wheat rice palm coal steel aluminium aluminum barley seafood solar cotton timber lumber soybean soybeans
  corn maize sugar copper nickel fertiliser fertilizer fertilisers fertilizers beef wine lobster lobsters
  semiconductor semiconductors chips tomatoes polysilicon gas lng grain`.split(/\s+/),
);

function goodsIn(titles: readonly string[]): Set<string> {
  return new Set(titles.flatMap((t) => (t.match(/[\p{L}]+/gu) ?? []).filter((w) => GOODS.has(w))));
}

/** Trade news on both sides whose headlines name goods, none in common. */
export function goodsDisagree(event: DisruptionEvent, facts: ItemFacts): boolean {
  if (event.category !== "tariff_trade" || facts.category !== "tariff_trade") return false;
  const item = goodsIn([facts.foldedTitle]);
  if (item.size === 0) return false;
  const named = goodsIn(event.recentTitles);
  return named.size > 0 && ![...item].some((g) => named.has(g));
}

/**
 * Dock labour bargains coast-wide (coasts.ts: the ILWU's contract covers every US West Coast port): a
 * strike reported at Los Angeles, then at Oakland, is one dispute though the two name no port in
 * common. Labour news on both sides, ports only, all on one coast's range.
 */
function sameCoastDispute(event: DisruptionEvent, facts: ItemFacts): boolean {
  return facts.category === "labor" && event.category === "labor" && portsOnOneRange(event, facts);
}

/** Both sides name ports and no chokepoint, and all their ports lie on one coast's range. */
export function portsOnOneRange(event: DisruptionEvent, facts: ItemFacts): boolean {
  return (
    event.entities.chokepoints.length === 0 &&
    facts.entities.chokepoints.length === 0 &&
    event.entities.ports.length > 0 &&
    facts.entities.ports.length > 0 &&
    oneRange(event.entities.ports, facts.entities.ports)
  );
}

/** The countries an item names, itself or through a port's UN/LOCODE (its first two letters). */
function countriesNamed(entities: DisruptionEntities): string[] {
  return [...new Set([...entities.countries, ...entities.ports.map((p) => p.slice(0, 2))])];
}

/**
 * Whether an item's carriers are mostly the event's: at least half of the item's carriers are already
 * in it. Two alliances announced in one month share a carrier (Hapag-Lloyd leaves one for the other)
 * and are two events; a later report naming one more partner of the same carriers is the same one.
 */
export function mostlySameCarriers(event: DisruptionEntities, item: DisruptionEntities): boolean {
  if (item.carriers.length === 0) return true;
  const shared = item.carriers.filter((c) => event.carriers.includes(c)).length;
  return shared * 2 >= item.carriers.length;
}

/** "Typhoon Doksuri", "Hurricane Milton": the name of a storm, as the press writes it (capitalised). */
const STORM_NAME =
  /(?<![\p{L}])(?:Super |Severe |Tropical )?(?:Typhoon|Hurricane|Cyclone|Storm|Depression)\s+([A-Z][a-z]{2,}(?:-[A-Z][a-z]+)?)/gu;

function stormNames(title: string): string[] {
  return [...title.matchAll(STORM_NAME)].map((m) => m[1]!.toLowerCase());
}

/**
 * Whether an item names what identifies an event: one of its ports or chokepoints, or its storm.
 */
export function namesEventPlace(event: DisruptionEvent, facts: ItemFacts): boolean {
  const eventPlaces = [...event.entities.ports, ...event.entities.chokepoints];
  return (
    [...facts.entities.ports, ...facts.entities.chokepoints].some((p) => eventPlaces.includes(p)) ||
    sharesStorm(event, facts) ||
    sharesShip(event, facts)
  );
}

/**
 * Whether the item names what the event is (its storm, its ship), not only where it happens: a port's
 * name is also in its share prices and its shipyard's launches ("Tokyo shares ride out the storm",
 * "Feeder ship Colombo Trader delivered") while a typhoon is closing it.
 */
export function namesEventIdentity(event: DisruptionEvent, facts: ItemFacts): boolean {
  return sharesStorm(event, facts) || sharesShip(event, facts);
}

/**
 * A storm is one event wherever it makes landfall: a report that names the storm of a weather event
 * (or names it without the word "typhoon": "Milton closes Tampa") shares that event's identity even
 * when it names other ports than the reports before it.
 */
function sharesStorm(event: DisruptionEvent, facts: ItemFacts): boolean {
  if (event.category !== "weather" || facts.category !== "weather") return false;
  const names = new Set([...event.sources, ...event.candidateSources].flatMap((s) => stormNames(s.title)));
  if (names.size === 0) return false;
  const words = new Set(facts.foldedTitle.match(/[\p{L}-]+/gu) ?? []);
  // A ship that bears the storm's name ("Research vessel Florence returns") is not the storm.
  const ships = new Set(shipNames(facts.source.title, true).map((n) => n.toLowerCase()));
  return [...names].some((name) => words.has(name) && !ships.has(name));
}

/** Words that introduce a ship's name: "the bulk carrier Rubymar", "the grounded Ever Forward". */
const SHIP_CUE =
  /(?<![\p{L}])(?:[Ss]hip|[Vv]essel|[Bb]oxship|[Cc]ontainership|[Cc]ontainer ship|[Ff]eeder|[Tt]anker|[Bb]ulk carrier|[Bb]ulker|[Cc]ar carrier|[Ff]reighter|[Yy]acht|[Cc]utter|[Ss]chooner|[Ss]loop|[Kk]etch|[Tt]he grounded|[Tt]he stranded|[Tt]he seized|[Tt]he hijacked|[Tt]he abandoned|[Tt]he stricken|[Tt]he burning|[Tt]he sunken|[Tt]he detained)\s+((?:\p{Lu}[\p{L}\p{N}-]+)(?:\s+\p{Lu}[\p{L}\p{N}-]+){0,2})/gu;

/**
 * An attack or seizure said of a ship by name: "missile hits the True Confidence", "Houthis seize the
 * Galaxy Leader". The article and the capital letters tell a ship from a place ("hits the Red Sea" is
 * a chokepoint and is left out below).
 */
const SHIP_OBJECT =
  /(?<![\p{L}])(?:hits|hit|strikes|struck|attacks|attacked|targets|targeted|seizes|seize|seized|boards|boarded|hijacks|hijacked|sinks|sank)\s+the\s+((?:\p{Lu}[\p{L}\p{N}-]+)(?:\s+\p{Lu}[\p{L}\p{N}-]+){0,2})/gu;

/** A line's brand and one capitalised word: how the large lines name their ships. */
const BRANDED_SHIP =
  /(?<![\p{L}])((?:Maersk|MSC|ONE|YM|X-Press|CMA CGM|Ever|COSCO|Cosco|OOCL|APL|ZIM|Zim|HMM|Hyundai|Wan Hai|Evergreen)\s+\p{Lu}[\p{Ll}\p{N}-]+(?:['\u2019]s)?)(?![\p{L}])/gu;

/** Capitalised words that are places, bodies or headline words, never a ship's name on their own. */
const NOT_SHIP_WORDS = new Set(
  `port ports of the a an and in at on to for by from with as after canal sea bay strait gulf coast guard
  navy river channel island islands north south east west new says said will more than over
  january february march april may june july august september october november december monday
  tuesday wednesday thursday friday saturday sunday`.split(/\s+/),
);

/**
 * A ship's name as the press writes it: after a vessel word ("car carrier Galaxy Leader"), or two or
 * three capitalised words opening a headline in sentence case ("Ever Given runs aground"), none of
 * them a place, body or headline word. A Title Case headline names nothing this way.
 */
export function shipNames(title: string, cuedOnly = false): string[] {
  const names = new Set<string>();
  const plain = (name: string) =>
    name.split(/\s+/).every((w) => !NOT_SHIP_WORDS.has(w.toLowerCase())) && name.length >= 3;
  for (const m of [...title.matchAll(SHIP_CUE), ...title.matchAll(SHIP_OBJECT)]) {
    const name = m[1]!.replace(/['\u2019]s$/u, "");
    if (plain(name)) names.add(name);
  }
  const words = title.split(/\s+/);
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  if (!cuedOnly && capitalised / Math.max(1, words.length) < 0.6) {
    // A ship named for its line, anywhere in a sentence-case headline: "Fire on Maersk Honam in the
    // Arabian Sea", "Rescued Maersk Honam seafarer dies".
    for (const m of title.matchAll(BRANDED_SHIP)) {
      if (plain(m[1]!)) names.add(m[1]!.replace(/['\u2019]s$/u, ""));
    }
    const opening = /^(\p{Lu}[\p{Ll}\p{N}-]+(?:\s+\p{Lu}[\p{L}\p{N}-]+){1,2})(?=\s+\p{Ll})/u.exec(title);
    // "Abandoned Rubymar drifts", "Hijacked Ruen heads": the participle describes the ship.
    const full = opening?.[1];
    const name = full?.replace(/^\p{Lu}\p{Ll}+ed\s+/u, "");
    if (name && plain(name) && (name.includes(" ") || name !== full)) names.add(name);
  }
  // A port, country or line ("Hong Kong", "Hamburg Süd") is that entity, not a ship; a ship named
  // for its line ("MSC Aries", "Maersk Hangzhou") is a ship.
  return [...names].filter((name) => {
    const { ports, countries, chokepoints, carriers } = extractEntities(name, "").entities;
    if (ports.length + countries.length + chokepoints.length > 0) return false;
    const words = name.split(/\s+/);
    return carriers.length === 0 || (words.length >= 2 && !COMPANY_WORDS.has(words.at(-1)!.toLowerCase()));
  });
}

/** The last word of a line's own name, not of a ship named for it. */
const COMPANY_WORDS = new Set(
  "sud süd marine line lines shipping group container containers logistics express lloyd mol".split(" "),
);

/**
 * A ship is one event over its salvage, seizure or sinking: a report that names the ship of an event
 * (named in any of its reports' headlines) shares that event's identity, wherever it places the news.
 */
function sharesShip(event: DisruptionEvent, facts: ItemFacts): boolean {
  return namesEventShip(event, facts.source.title);
}

/** Whether a headline names the ship of an event (see `sharesShip`). */
export function namesEventShip(event: DisruptionEvent, title: string): boolean {
  const names = new Set([...event.sources, ...event.candidateSources].flatMap((s) => shipNames(s.title)));
  for (const name of shipNames(title)) names.add(name);
  if (names.size === 0) return false;
  const eventTitles = [...event.sources, ...event.candidateSources].map((s) => s.title);
  return [...names].some((name) => {
    const word = new RegExp(`(?<![\\p{L}])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u");
    return word.test(title) && eventTitles.some((t) => word.test(t));
  });
}

/**
 * The ship an event is about: the ship its first report names (a seizure, an attack, a grounding).
 * A campaign or a closure whose later reports name ships it met is about no ship of its own.
 */
function anchorShips(event: DisruptionEvent): string[] {
  const reports = [...event.sources, ...event.candidateSources];
  if (reports.length === 0) return [];
  const first = reports.reduce((a, b) => (b.publishedAt < a.publishedAt ? b : a));
  return shipNames(first.title, true);
}

/**
 * Two ships are two incidents: an item naming a ship, none of which the event's reports name, is not a
 * report of an event about another ship (Rubymar sinking, then the True Confidence hit in the same
 * waters a few days later). An event about no ship (a chokepoint's campaign) is not kept apart so.
 */
/**
 * The title names a ship (after a vessel word) that none of the event's reports names as a ship:
 * "Research vessel Florence returns" beside Hurricane Florence's reports.
 */
export function namesAnotherShip(event: DisruptionEvent, title: string): boolean {
  const itemShips = shipNames(title, true);
  if (itemShips.length === 0) return false;
  const eventShips = new Set(
    [...event.sources, ...event.candidateSources].flatMap((s) => shipNames(s.title)),
  );
  return !itemShips.some((name) => eventShips.has(name));
}

export function shipsDisagree(event: DisruptionEvent, title: string): boolean {
  // Only names a vessel word or an attack introduces ("the bulk carrier Rubymar", "hits the True
  // Confidence"): a headline's opening words may be a bridge or a storm ("Key Bridge collapses").
  const itemShips = shipNames(title, true);
  if (itemShips.length === 0) return false;
  const anchors = anchorShips(event);
  if (anchors.length === 0) return false;
  return !namesEventShip(event, title);
}

/**
 * How long an event waits in silence before it is taken as over. Reporting thins out as an event ages:
 * a strike reported for two days is news every day, one reported for a month comes back after a week
 * or two of quiet (talks, a ruling, the next walkout). So the window grows with the event's reported
 * span, half of it, from the category's own up to its follow horizon.
 */
export function silenceWindowMs(
  event: Pick<DisruptionEvent, "category" | "firstSeen" | "lastUpdated">,
): number {
  const { silenceMs, followMs } = CATEGORY_WINDOWS[event.category];
  const span = event.lastUpdated.getTime() - event.firstSeen.getTime();
  return Math.max(silenceMs, Math.min(followMs, span * SILENCE_PER_SPAN));
}

/**
 * How long after its last report a later one can still follow an event: the category's horizon, or
 * the event's reported span where that is longer (a pause of a month in a story reported for three is
 * a pause), never past the longest horizon (what storage loads as candidates).
 */
export function followHorizonMs(
  event: Pick<DisruptionEvent, "category" | "firstSeen" | "lastUpdated" | "signalCounts">,
): number {
  const ownMs = CATEGORY_WINDOWS[event.category].followMs;
  // A drought lowers a river or a canal for weeks to months, and its reports come weeks apart (the
  // loads cut, a stretch closed, barge rates, rain that does not help): not a storm's ten days.
  const followMs = (event.signalCounts.low_water ?? 0) > 0 ? Math.max(ownMs, LOW_WATER_FOLLOW_MS) : ownMs;
  const span = event.lastUpdated.getTime() - event.firstSeen.getTime();
  return Math.max(followMs, Math.min(LONGEST_FOLLOW_MS, span * FOLLOW_PER_SPAN));
}

/** Whether an event can still take an item published at `at`. */
export function withinWindow(event: DisruptionEvent, at: Date): boolean {
  const { joinMs } = CATEGORY_WINDOWS[event.category];
  return (
    at.getTime() - event.lastUpdated.getTime() <= joinMs && at.getTime() >= event.firstSeen.getTime() - joinMs
  );
}

/**
 * Whether a report after the event's join window still follows it: the event was not closed by a
 * report of its end, the report is within the category's follow horizon, keeps the event's category
 * and names one of its ports or chokepoints (or, where the event names none, one of its countries),
 * and reads like it. Reporting pauses for days in a long event (a lockdown, a tariff war); the silence
 * rule must not split it.
 */
export function follows(event: DisruptionEvent, facts: ItemFacts): boolean {
  if (event.resolvedBy === "report" || goodsDisagree(event, facts)) return false;
  const at = facts.source.publishedAt.getTime();
  const followMs = followHorizonMs(event);
  // The report of an event's end may come long after its last news (a seized ship released two
  // months on): it still closes that event, at its own time, rather than leaving silence's guess.
  const horizon = facts.resolution ? END_FOLLOW_FACTOR * followMs : followMs;
  if (at < event.lastUpdated.getTime() || at - event.lastUpdated.getTime() > horizon) return false;
  const places = (e: DisruptionEntities) => [
    ...e.ports.map((c) => `port:${c}`),
    ...e.chokepoints.map((c) => `chokepoint:${c}`),
  ];
  const eventPlaces = places(event.entities);
  const itemPlaces = places(facts.entities);
  const sharesPlace =
    itemPlaces.some((k) => eventPlaces.includes(k)) ||
    sharesStorm(event, facts) ||
    sharesShip(event, facts) ||
    sameCoastDispute(event, facts);
  const text = cosine(event.terms, facts.terms);
  // A later report may read the same event under another category (the grounded ship's salvage as a
  // chokepoint story, a strike's backlog as a port's): at the same place and in the same words, it
  // still follows it.
  if (facts.category !== event.category && !(sharesPlace && text >= FOLLOW_ACROSS_CATEGORY_TEXT))
    return false;
  // One market: its later news follows the market's event, whatever it names.
  if (event.category === "container_market") return true;
  // A report naming nothing at all is not followed past the join window on words alone: with no
  // name to tie it, it joined whichever event of its category read alike weeks later, another story's
  // (the validation run's carrier F1 fell from 1 to 0.923 with that rule, 9ca9b26). The report it was
  // written for ("Seoul orders striking truckers back to work") names its country now.
  const unplaced =
    (eventPlaces.length === 0 || itemPlaces.length === 0) &&
    facts.entities.countries.some((c) => event.entities.countries.includes(c));
  // A carrier's own event (an outage, a network change) names no place: a later report of the same
  // carrier that reads like it follows it; a report naming a place does not (that is another event).
  const sameCarrierUnplaced =
    eventPlaces.length === 0 &&
    itemPlaces.length === 0 &&
    facts.entities.carriers.some((c) => event.entities.carriers.includes(c)) &&
    mostlySameCarriers(event.entities, facts.entities) &&
    (text >= CARRIER_ONLY_TEXT || sameCarriersOnly(event, facts));
  // A rule's or a dispute's reports name its body ("ICS2", "ILWU") where they name no place.
  const namedAlike = itemPlaces.length === 0 && sharesName(event, facts);
  // A union's statement of the end names nothing but what ends ("dockworkers call off remaining
  // strikes"): it closes the open dispute of its category it reads like.
  const placelessEnd =
    facts.resolution &&
    facts.category === event.category &&
    itemPlaces.length === 0 &&
    facts.entities.countries.length === 0 &&
    facts.entities.carriers.length === 0 &&
    text >= PLACELESS_END_TEXT;
  if (!sharesPlace && !unplaced && !sameCarrierUnplaced && !namedAlike && !placelessEnd) return false;
  return similarity(event, facts).score >= JOIN_SIMILARITY;
}

/**
 * A carrier's own trouble told again after a pause, in other words ("booking delays", then "apologises
 * for cargo delays"): of the same category, with exactly the event's carriers and no place on either
 * side. Issue 35, tenth pass: the join window asks no likeness of words for this (sameCarrierStory);
 * past it, the first fragment was left to the silence rule and closed before the end report.
 */
function sameCarriersOnly(event: DisruptionEvent, facts: ItemFacts): boolean {
  const a = [...event.entities.carriers].sort().join();
  const b = [...facts.entities.carriers].sort().join();
  return a === b && facts.category === event.category;
}

/** The open (or recently resolved) event an item joins, or null to start a new one. */
export function bestEvent(events: readonly DisruptionEvent[], facts: ItemFacts): DisruptionEvent | null {
  let best: { event: DisruptionEvent; score: number } | null = null;
  for (const event of events) {
    if (shipsDisagree(event, facts.source.title)) continue;
    let joinable = false;
    let score = 0;
    if (withinWindow(event, facts.source.publishedAt)) ({ score, joinable } = similarity(event, facts));
    if (!joinable && follows(event, facts)) {
      joinable = true;
      score = similarity(event, facts).score;
    }
    if (joinable && (!best || score > best.score)) best = { event, score };
  }
  return best?.event ?? null;
}

function addTerms(into: Record<string, number>, terms: Record<string, number>): Record<string, number> {
  const out = { ...into };
  for (const [term, w] of Object.entries(terms)) out[term] = (out[term] ?? 0) + w;
  return out;
}

/** Distinct publishers first, then authority (agencies, carriers), then the earliest. */
export function chooseSources(candidates: readonly EventSource[]): EventSource[] {
  const byTime = [...candidates].sort(
    (a, b) =>
      Number(b.authoritative) - Number(a.authoritative) || a.publishedAt.getTime() - b.publishedAt.getTime(),
  );
  const chosen: EventSource[] = [];
  const publishers = new Set<string>();
  for (const s of byTime) {
    if (chosen.length < MAX_SOURCES && !publishers.has(s.publisher)) {
      chosen.push(s);
      publishers.add(s.publisher);
    }
  }
  for (const s of byTime) if (chosen.length < MAX_SOURCES && !chosen.includes(s)) chosen.push(s);
  return chosen;
}

function publishedSeverity(itemSeverity: Severity, publishers: number): Severity {
  return Math.min(4, itemSeverity + (publishers >= CORROBORATING_PUBLISHERS ? 1 : 0)) as Severity;
}

function majorityCategory(
  counts: Partial<Record<DisruptionCategory, number>>,
  fallback: DisruptionCategory,
): DisruptionCategory {
  let best = fallback;
  for (const [category, count] of Object.entries(counts) as [DisruptionCategory, number][]) {
    if (count > (counts[best] ?? 0)) best = category;
  }
  return best;
}

/**
 * Until when an event's reports say it goes on, with one more report: the latest such date. A stated
 * duration counts from the report; an end nobody can date ("until further notice") lasts the category's
 * follow horizon; never past the longest horizon. A report of the end says nothing of this.
 */
function expectedUntilWith(current: Date | null | undefined, facts: ItemFacts): Date | null {
  const known = current ?? null;
  if (facts.resolution || facts.lasts === null || facts.lasts === undefined) return known;
  const ms =
    facts.lasts === "open"
      ? CATEGORY_WINDOWS[facts.category].followMs
      : Math.min(facts.lasts, LONGEST_FOLLOW_MS);
  const until = new Date(facts.source.publishedAt.getTime() + ms);
  return known && known > until ? known : until;
}

/** A new event from its first item. */
export function startEvent(id: string, facts: ItemFacts): DisruptionEvent {
  const at = facts.source.publishedAt;
  const event: DisruptionEvent = {
    id,
    category: facts.category,
    severity: facts.severity,
    itemSeverity: facts.severity,
    status: facts.resolution ? "resolved" : "active",
    entities: facts.entities,
    firstSeen: at,
    lastUpdated: at,
    resolvedAt: facts.resolution ? at : null,
    resolvedBy: facts.resolution ? "report" : null,
    expectedUntil: expectedUntilWith(null, facts),
    headline: "",
    summary: "",
    sources: [facts.source],
    publishers: [facts.source.publisher],
    itemCount: 1,
    categoryCounts: { [facts.category]: 1 },
    signalCounts: Object.fromEntries(facts.signals.map((s) => [s, 1])),
    terms: facts.terms,
    recentTitles: [facts.foldedTitle],
    candidateSources: [facts.source],
  };
  return written(event);
}

/** The event with one more item: entities, severity, sources and status brought up to date. */
export function joinEvent(joined: DisruptionEvent, facts: ItemFacts): DisruptionEvent {
  const at = facts.source.publishedAt;
  // A report after the silence rule closed the event says it was not over: it is open again.
  const event: DisruptionEvent =
    joined.status === "resolved" && joined.resolvedBy !== "report" && at > (joined.resolvedAt ?? at)
      ? { ...joined, status: "active", resolvedAt: null, resolvedBy: null }
      : joined;
  const publishers = event.publishers.includes(facts.source.publisher)
    ? event.publishers
    : [...event.publishers, facts.source.publisher];
  const categoryCounts = {
    ...event.categoryCounts,
    [facts.category]: (event.categoryCounts[facts.category] ?? 0) + 1,
  };
  const signalCounts = { ...event.signalCounts };
  for (const s of facts.signals) signalCounts[s] = (signalCounts[s] ?? 0) + 1;
  // A report that something reopened says nothing about how bad it was.
  const itemSeverity = (
    facts.resolution ? event.itemSeverity : Math.max(event.itemSeverity, facts.severity)
  ) as Severity;
  const candidates =
    event.candidateSources.length < MAX_CANDIDATE_SOURCES ||
    !event.candidateSources.some((s) => s.publisher === facts.source.publisher)
      ? [...event.candidateSources, facts.source].slice(-MAX_CANDIDATE_SOURCES * 2)
      : event.candidateSources;
  const lastUpdated = at > event.lastUpdated ? at : event.lastUpdated;
  const resolvedNow = facts.resolution && event.status === "active";
  const next: DisruptionEvent = {
    ...event,
    category: majorityCategory(categoryCounts, event.category),
    itemSeverity,
    severity: publishedSeverity(itemSeverity, publishers.length),
    status: resolvedNow ? "resolved" : event.status,
    resolvedAt: resolvedNow ? at : event.resolvedAt,
    resolvedBy: resolvedNow ? "report" : event.resolvedBy,
    expectedUntil: expectedUntilWith(event.expectedUntil, facts),
    entities: mergeEntities(event.entities, facts.entities),
    lastUpdated,
    publishers,
    itemCount: event.itemCount + 1,
    categoryCounts,
    signalCounts,
    terms: addTerms(event.terms, facts.terms),
    recentTitles: [...event.recentTitles, facts.foldedTitle].slice(-MAX_RECENT_TITLES),
    candidateSources: candidates,
    sources: chooseSources(candidates),
  };
  return written(next);
}

/** The likeness of words two fragments of one event need to be merged (besides a place in common). */
const FRAGMENT_TEXT = 0.2;

/**
 * Whether `other` is a fragment of the event an item just joined: the item names one of its places
 * (or its storm), both read the same category, the fragment has had news within the category's follow
 * horizon, was not closed by a report of its end, and reads like the event. Reports of one strike or
 * one closure that started apart (the first in words the second did not share) are one event once a
 * report ties them; carriers alone never tie two (two alliances of one month stay two).
 */
export function isFragmentOf(event: DisruptionEvent, other: DisruptionEvent, facts: ItemFacts): boolean {
  if (other.id === event.id || other.resolvedBy === "report") return false;
  if (shipsDisagree(other, facts.source.title)) return false;
  if (other.category !== event.category || other.category !== facts.category) return false;
  const at = facts.source.publishedAt.getTime();
  const followMs = followHorizonMs(other);
  if (at - other.lastUpdated.getTime() > followMs || other.firstSeen.getTime() > at) return false;
  if (!namesEventPlace(other, facts)) return false;
  if (
    facts.entities.carriers.length > 0 &&
    other.entities.carriers.length > 0 &&
    !mostlySameCarriers(other.entities, facts.entities)
  )
    return false;
  // The item that ties them reads like the fragment, or the two read alike.
  return Math.max(cosine(facts.terms, other.terms), cosine(event.terms, other.terms)) >= FRAGMENT_TEXT;
}

/**
 * Whether two events are two disputes of coasts apart: each names ports and no chokepoint, and their
 * ports lie on known coasts' ranges with none in common (coasts.ts). A lockout at Vancouver and one at
 * Montreal in the same week are two events even when one report tells of the end of both; two ports of
 * no known range (Santos and Paranagua) whose strike ends in one deal are one.
 */
export function placedApart(a: DisruptionEvent, b: DisruptionEvent): boolean {
  return (
    a.entities.chokepoints.length === 0 &&
    b.entities.chokepoints.length === 0 &&
    rangesApart(a.entities.ports, b.entities.ports)
  );
}

/**
 * An event closed by a report of its end that another event took ("Canadian port lockouts end", joined
 * to Vancouver's lockout, ends Montreal's too): resolved at the report's time, as its own report would
 * have. One the silence rule closed earlier was not over then: the report's time replaces the guess.
 */
export function endedAlongside(event: DisruptionEvent, facts: ItemFacts): DisruptionEvent {
  if (event.resolvedBy === "report") return event;
  const at = facts.source.publishedAt;
  return written({
    ...event,
    status: "resolved",
    resolvedAt: at,
    resolvedBy: "report",
    lastUpdated: at > event.lastUpdated ? at : event.lastUpdated,
  });
}

/** One event from two fragments: `from`'s reports, names, publishers and counts added to `into`'s. */
export function mergeFragments(into: DisruptionEvent, from: DisruptionEvent): DisruptionEvent {
  const publishers = [...new Set([...into.publishers, ...from.publishers])];
  const categoryCounts = { ...into.categoryCounts };
  for (const [c, n] of Object.entries(from.categoryCounts) as [DisruptionCategory, number][])
    categoryCounts[c] = (categoryCounts[c] ?? 0) + n;
  const signalCounts = { ...into.signalCounts };
  for (const [s, n] of Object.entries(from.signalCounts)) signalCounts[s] = (signalCounts[s] ?? 0) + n;
  const itemSeverity = Math.max(into.itemSeverity, from.itemSeverity) as Severity;
  const candidates = [...into.candidateSources, ...from.candidateSources]
    .sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime())
    .slice(-MAX_CANDIDATE_SOURCES * 2);
  return written({
    ...into,
    category: majorityCategory(categoryCounts, into.category),
    itemSeverity,
    severity: publishedSeverity(itemSeverity, publishers.length),
    entities: mergeEntities(into.entities, from.entities),
    firstSeen: from.firstSeen < into.firstSeen ? from.firstSeen : into.firstSeen,
    lastUpdated: from.lastUpdated > into.lastUpdated ? from.lastUpdated : into.lastUpdated,
    expectedUntil:
      (from.expectedUntil ?? 0) > (into.expectedUntil ?? 0)
        ? (from.expectedUntil ?? null)
        : (into.expectedUntil ?? null),
    publishers,
    itemCount: into.itemCount + from.itemCount,
    categoryCounts,
    signalCounts,
    terms: addTerms(into.terms, from.terms),
    recentTitles: [...from.recentTitles, ...into.recentTitles].slice(-MAX_RECENT_TITLES),
    candidateSources: candidates,
    sources: chooseSources(candidates),
  });
}

/** Resolved by silence: no report for the category's window (3 days for a storm, 21 for a chokepoint). */
export function resolveIfSilent(event: DisruptionEvent, now: Date): DisruptionEvent {
  if (event.status !== "active") return event;
  // Never on silence while its own reports said it goes on ("closed for two weeks").
  const due = Math.max(
    event.lastUpdated.getTime() + silenceWindowMs(event),
    event.expectedUntil?.getTime() ?? 0,
  );
  if (now.getTime() < due) return event;
  return written({ ...event, status: "resolved", resolvedAt: new Date(due), resolvedBy: "silence" });
}

// ---- Headline and summary, written by the service from the event's facts ----

const SIGNAL_PHRASES: readonly { signal: string; phrase: string }[] = [
  { signal: "attack", phrase: "attacks on merchant shipping" },
  { signal: "seizure", phrase: "vessel seized" },
  { signal: "blockage", phrase: "passage blocked" },
  { signal: "closure", phrase: "operations halted" },
  { signal: "collapse", phrase: "structure collapse closes access" },
  { signal: "lockout", phrase: "lockout halts work" },
  { signal: "strike", phrase: "strike action" },
  { signal: "storm", phrase: "storm disrupts operations" },
  { signal: "suspension", phrase: "services suspended" },
  { signal: "cyberattack", phrase: "systems hit by a cyberattack" },
  { signal: "restriction", phrase: "restrictions in force" },
  { signal: "diversion", phrase: "vessels diverted" },
  { signal: "low_water", phrase: "low water restricts loads" },
  { signal: "delay", phrase: "delays reported" },
  { signal: "tariff", phrase: "tariff change" },
  { signal: "rates", phrase: "freight rates move" },
  { signal: "regulation", phrase: "new rules" },
  { signal: "network", phrase: "network change" },
];

/** Families of what happened, from an item's folded text. */
export const SIGNAL_WORDS: Readonly<Record<string, readonly string[]>> = {
  attack: ["attack", "attacks", "attacked", "missile", "missiles", "drone", "drones"],
  seizure: ["seize", "seizes", "seized", "seizure", "hijacked", "hijack"],
  blockage: ["blocked", "blockage", "aground", "grounded", "stuck"],
  closure: ["closed", "closure", "shut", "halted", "halts", "closes"],
  collapse: ["collapse", "collapsed"],
  lockout: ["lockout", "locked out"],
  strike: ["strike", "strikes", "walkout", "stoppage"],
  storm: ["typhoon", "hurricane", "cyclone", "storm"],
  suspension: ["suspended", "suspends", "pause", "pauses", "paused"],
  cyberattack: ["cyberattack", "ransomware", "malware"],
  restriction: ["restriction", "restrictions", "restricted", "draft", "slots"],
  diversion: ["diverted", "diversion", "reroute", "rerouting", "cape of good hope"],
  // Low water on a river or a canal: a drought's effect, which lasts weeks to months (followHorizonMs).
  low_water: [
    "drought",
    "low water",
    "water level",
    "water levels",
    "river level",
    "river levels",
    "too shallow",
    "loading lighter",
  ],
  delay: ["delay", "delays", "congestion", "backlog", "queue"],
  tariff: ["tariff", "tariffs", "duties"],
  rates: ["rates", "rate", "index", "surcharge"],
  regulation: ["regulation", "rules", "ets", "emissions"],
  network: ["alliance", "network", "cooperation", "service"],
};

function entityName(kind: "port" | "carrier" | "country" | "chokepoint", code: string): string {
  if (kind === "port") return findPortEntry(code)?.name.replace(/\s*\(.*\)$/, "") ?? code;
  if (kind === "carrier")
    return CARRIERS.find((c) => c.scac === code)?.name.replace(/\s*\(.*\)$/, "") ?? code;
  if (kind === "chokepoint") return findChokepoint(code)?.name ?? code;
  return countryName(code);
}

function countryName(code: string): string {
  return countryNameOf(code);
}

/** The entity a headline leads with: a chokepoint, else a port, a carrier, a country. */
function primaryEntity(e: DisruptionEntities): string | null {
  if (e.chokepoints[0]) return entityName("chokepoint", e.chokepoints[0]);
  if (e.ports[0]) return entityName("port", e.ports[0]);
  if (e.carriers[0]) return entityName("carrier", e.carriers[0]);
  if (e.countries[0]) return entityName("country", e.countries[0]);
  return null;
}

function namedEntities(e: DisruptionEntities, limit = 5): string[] {
  return [
    ...e.chokepoints.map((c) => entityName("chokepoint", c)),
    ...e.ports.map((c) => entityName("port", c)),
    ...e.carriers.map((c) => entityName("carrier", c)),
    ...e.countries.map((c) => entityName("country", c)),
  ].slice(0, limit);
}

function day(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The event with its headline and summary written from its facts (no source text is copied). */
export function written(event: DisruptionEvent): DisruptionEvent {
  const ranked = SIGNAL_PHRASES.filter((p) => (event.signalCounts[p.signal] ?? 0) > 0).sort(
    (a, b) => (event.signalCounts[b.signal] ?? 0) - (event.signalCounts[a.signal] ?? 0),
  );
  const phrase = ranked[0]?.phrase ?? CATEGORY_LABELS[event.category].noun;
  const primary = primaryEntity(event.entities);
  const label = CATEGORY_LABELS[event.category].label;
  const headline = primary ? `${label}: ${primary} — ${phrase}` : `${label} — ${phrase}`;
  const names = namedEntities(event.entities);
  const latest = [...event.candidateSources].sort(
    (a, b) => b.publishedAt.getTime() - a.publishedAt.getTime(),
  )[0];
  const count = event.publishers.length;
  const affecting = names.length ? ` affecting ${names.join(", ")}` : "";
  const latestText = latest ? ` Latest: ${latest.publisher}, ${day(latest.publishedAt)}.` : "";
  const resolvedText =
    event.status === "resolved" && event.resolvedAt ? ` Resolved ${day(event.resolvedAt)}.` : "";
  const summary = `${count} ${count === 1 ? "source" : "sources"} since ${day(event.firstSeen)} report ${CATEGORY_LABELS[event.category].noun}${affecting}.${latestText}${resolvedText}`;
  return { ...event, headline, summary };
}
