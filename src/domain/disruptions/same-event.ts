/**
 * Is this item the same real-world event as that open disruption? A pairwise decision from several
 * signals at once (issue 35, seventh pass), for the reports the join rules of `events.ts` leave apart:
 * each of those rules asks one question with one threshold (a place in common and likeness of words
 * >= 0.30, a report within the follow horizon...), so a report that is strong on one signal and weak on
 * another (the same port and the same rare words four weeks on, under another category) started a
 * disruption of its own. Here the signals are weighed together: a named anchor in common (a port,
 * chokepoint, storm or ship; a body's acronym; the same carriers), the category family, the time since
 * the disruption's last report against its category's horizon, the headline words the two share and
 * no other open disruption has, and the likeness of words. Places or carriers that disagree weigh
 * against. The weights come from a logistic fit on the development corpus's pairs
 * (`bench/disruptions/same-event-fit.ts`, which also checks them event by event, leaving each out).
 */
import { CATEGORY_LEXICON, type DisruptionCategory } from "./categories";
import { entityKeys, extractEntities } from "./entities";
import {
  cosine,
  type DisruptionEvent,
  END_FOLLOW_FACTOR,
  followHorizonMs,
  GENERIC_SIGNALS,
  type ItemFacts,
  mostlySameCarriers,
  namesEventPlace,
  portsOnOneRange,
  SIGNAL_WORDS,
  sharesName,
  shipsDisagree,
} from "./events";

/** The signals of one pair, each 0 to 1 (the gap up to 3), named as the decision weighs them. */
export interface SameEventSignals {
  /** The item names one of the disruption's ports or chokepoints, its storm or its ship. */
  place: number;
  /** No port in common, but all of both sides' ports lie on one coast's range (coasts.ts). */
  range: number;
  /** They share a body's or rule's acronym ("ILWU", "ICS2"). */
  name: number;
  /** They share carriers, most of the item's being the disruption's. */
  carrier: number;
  /** 1 the same category, 0.5 the same family (a strike and the port it closes), else 0. */
  category: number;
  /** Time since the disruption's last report, in its follow horizons (0 the same hour, 1 at the horizon). */
  gap: number;
  /**
   * Headline words they share that no other open disruption's headlines hold and that name no port,
   * chokepoint, carrier or country (the anchors count those), up to three, over three.
   */
  rareWords: number;
  /** They report the same kind of thing (a closure, a strike, a seizure; not "rates" or "delays"). */
  happened: number;
  /** Cosine likeness of their words. */
  text: number;
}

/**
 * Categories that report one event from two sides: a storm or a strike closes a port; an attack is
 * a chokepoint's story; a carrier's network and the market's rates move together; a tariff is a rule.
 */
const CATEGORY_FAMILY: Readonly<Record<DisruptionCategory, string>> = {
  port_disruption: "node",
  labor: "node",
  weather: "node",
  chokepoint: "passage",
  security_geopolitical: "passage",
  carrier_ops: "network",
  container_market: "network",
  tariff_trade: "rules",
  regulatory: "rules",
};

/**
 * Words of every disruption's headlines: what happened and where in general terms. Sharing them says
 * nothing of which event it is ("port", "strike", "closed").
 */
const COMMON_HEADLINE_WORDS = new Set([
  ...Object.values(CATEGORY_LEXICON).flatMap((words) => words.flatMap((w) => w.split(/\s+/))),
  ...Object.values(SIGNAL_WORDS).flatMap((words) => words.flatMap((w) => w.split(/\s+/))),
  ..."the and for with from after amid over into as at on in of to by a an its their new says said more than still week weeks day days port ports shipping ship ships vessel vessels container containers cargo terminal terminals line lines carrier carriers box boxes trade freight sea ocean global world first second third again back out off up down amid".split(
    " ",
  ),
]);

const namesSomething = new Map<string, boolean>();

/**
 * Whether a word names a port, chokepoint, carrier or country ("maersk", "durban"): the anchors
 * count those, so they are not the headline's rare words too.
 */
function isName(word: string): boolean {
  let known = namesSomething.get(word);
  if (known === undefined) {
    known = entityKeys(extractEntities(word, "").entities).length > 0;
    if (namesSomething.size < 50_000) namesSomething.set(word, known);
  }
  return known;
}

function headlineWords(title: string): Set<string> {
  const words = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  return new Set(
    (words ?? []).filter(
      (w) => w.length >= 3 && !/^\d+$/.test(w) && !COMMON_HEADLINE_WORDS.has(w) && !isName(w),
    ),
  );
}

function eventHeadlineWords(event: DisruptionEvent): Set<string> {
  const words = new Set<string>();
  for (const title of [...event.recentTitles, ...event.candidateSources.map((s) => s.title)])
    for (const w of headlineWords(title)) words.add(w);
  return words;
}

const RARE_WORDS_CAP = 3;
const GAP_CAP = 3;

/** The signals of an item against one disruption, among the open disruptions `events`. */
export function sameEventSignals(
  event: DisruptionEvent,
  facts: ItemFacts,
  events: readonly DisruptionEvent[],
): SameEventSignals {
  const place = namesEventPlace(event, facts) ? 1 : 0;
  const range = !place && portsOnOneRange(event, facts) ? 1 : 0;
  const name = sharesName(event, facts) ? 1 : 0;
  const sharedCarrier = facts.entities.carriers.some((c) => event.entities.carriers.includes(c));
  const carrier = sharedCarrier && mostlySameCarriers(event.entities, facts.entities) ? 1 : 0;
  const category =
    event.category === facts.category || event.categoryCounts[facts.category]
      ? 1
      : CATEGORY_FAMILY[event.category] === CATEGORY_FAMILY[facts.category]
        ? 0.5
        : 0;
  const sinceLast = Math.max(0, facts.source.publishedAt.getTime() - event.lastUpdated.getTime());
  const gap = Math.min(GAP_CAP, sinceLast / followHorizonMs(event));
  const mine = eventHeadlineWords(event);
  const others = new Set<string>();
  for (const other of events)
    if (other.id !== event.id) for (const w of eventHeadlineWords(other)) others.add(w);
  const rare = [...headlineWords(facts.source.title)].filter((w) => mine.has(w) && !others.has(w)).length;
  return {
    place,
    range,
    name,
    carrier,
    category,
    gap,
    rareWords: Math.min(RARE_WORDS_CAP, rare) / RARE_WORDS_CAP,
    happened: facts.signals.some((sig) => !GENERIC_SIGNALS.has(sig) && (event.signalCounts[sig] ?? 0) > 0)
      ? 1
      : 0,
    text: cosine(event.terms, facts.terms),
  };
}

/** The weights of the decision, fitted on the development corpus's pairs (see the module's header). */
export const SAME_EVENT_WEIGHTS: Readonly<SameEventSignals & { bias: number }> = {
  bias: -2.61,
  place: 2.56,
  range: 1.23,
  name: 0.65,
  carrier: -0.59,
  category: 2.55,
  gap: -1.25,
  rareWords: 1.13,
  happened: 2.32,
  text: 1.33,
};

/** The probability, 0 to 1, that the item reports the disruption's event. */
export function sameEventProbability(
  signals: SameEventSignals,
  weights: Readonly<SameEventSignals & { bias: number }> = SAME_EVENT_WEIGHTS,
): number {
  let z = weights.bias;
  for (const key of Object.keys(signals) as (keyof SameEventSignals)[]) z += weights[key] * signals[key];
  return 1 / (1 + Math.exp(-z));
}

/**
 * How sure the decision must be to join what the rules left apart: high, since a wrong join mixes two
 * events' matches and mails while a split only shows one event twice.
 */
export const SAME_EVENT_JOIN = 0.8;

/**
 * Pairs that are two events whatever their signals: a disruption closed by a report of its end
 * (over), one past its follow horizon (a report of its end may come later), one about another ship
 * (another incident), and one whose places or carriers and the item's disagree (two strikes at two
 * ports, two alliances: the two same-category events of one fortnight stay two). On the
 * development corpus the fitted weight of disagreeing places was too weak to keep a lockout at
 * Montreal from one at Vancouver of the same week, so it is a rule here, not a weight.
 */
export function pairConflicts(event: DisruptionEvent, facts: ItemFacts): boolean {
  if (event.resolvedBy === "report") return true;
  const at = facts.source.publishedAt.getTime();
  const horizon = (facts.resolution ? END_FOLLOW_FACTOR : 1) * followHorizonMs(event);
  if (at < event.firstSeen.getTime() || at - event.lastUpdated.getTime() > horizon) return true;
  if (shipsDisagree(event, facts.source.title)) return true;
  const places = (e: DisruptionEvent["entities"]) => [...e.ports, ...e.chokepoints];
  // Ports of one coast's range do not disagree (coasts.ts): a coast-wide dispute moves along them.
  const placesDisagree =
    places(event.entities).length > 0 &&
    places(facts.entities).length > 0 &&
    !namesEventPlace(event, facts) &&
    !portsOnOneRange(event, facts);
  const carriersDisagree =
    facts.entities.carriers.length > 0 &&
    event.entities.carriers.length > 0 &&
    !mostlySameCarriers(event.entities, facts.entities);
  return placesDisagree || carriersDisagree;
}

/**
 * Pairs the decision never joins: conflicting ones (above), and those with no named anchor in common
 * (a port, chokepoint, storm, ship, carrier or body's acronym). Words alone never tie two reports past
 * the rules' windows: with no name in common a report joined whichever story of its category read
 * alike weeks later (the fourth pass took that rule out).
 */
export function neverSameEvent(event: DisruptionEvent, facts: ItemFacts): boolean {
  const anchored =
    namesEventPlace(event, facts) ||
    sharesName(event, facts) ||
    facts.entities.carriers.some((c) => event.entities.carriers.includes(c));
  return !anchored || pairConflicts(event, facts);
}

/**
 * The open disruption an item the join rules placed nowhere still belongs to by the pairwise
 * decision, the likeliest above the threshold, or null.
 */
export function sameEventAs(
  events: readonly DisruptionEvent[],
  facts: ItemFacts,
  threshold = SAME_EVENT_JOIN,
): DisruptionEvent | null {
  let best: { event: DisruptionEvent; p: number } | null = null;
  for (const event of events) {
    if (neverSameEvent(event, facts)) continue;
    const p = sameEventProbability(sameEventSignals(event, facts, events));
    if (p >= threshold && (!best || p > best.p)) best = { event, p };
  }
  return best?.event ?? null;
}
