/**
 * The disruption pipeline over one item, pure: normalise, drop duplicates, extract entities,
 * classify, grade, then join the most similar open event or start one. The stored service and the
 * labelled-corpus test run the same functions; only where the events live differs.
 */

import type { DisruptionCategory } from "./categories";
import {
  categoryScores,
  isResolution,
  itemSeverity,
  modelledCategory,
  rankedCategories,
  statedDuration,
} from "./classify";
import { extractEntities } from "./entities";
import {
  bestEvent,
  cosine,
  type DisruptionEvent,
  endedAlongside,
  follows,
  type ItemFacts,
  isFragmentOf,
  joinEvent,
  mergeFragments,
  NAME_TERM,
  namesAnotherShip,
  namesEventIdentity,
  namesEventShip,
  placedApart,
  resolveIfSilent,
  SIGNAL_WORDS,
  sharesName,
  similarity,
  startEvent,
  withinWindow,
} from "./events";
import { type FeedItem, isDuplicate, type NormalisedItem, normaliseItem } from "./normalise";
import { maskFiguresOfSpeech, refusal, titleReportsHarm } from "./relevance";
import { sameEventAs } from "./same-event";
import { STOPWORDS, stem } from "./terms";

/** Content words of the title (counted twice) and summary, log-weighted. */
export function contentTerms(foldedTitle: string, foldedSummary: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const add = (text: string, weight: number) => {
    for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      const term = stem(word);
      counts[term] = (counts[term] ?? 0) + weight;
    }
  };
  add(foldedTitle, 2);
  add(foldedSummary, 1);
  for (const term of Object.keys(counts)) counts[term] = 1 + Math.log(counts[term]!);
  return counts;
}

/** Capitals that name no body or regime of their own ("THE Alliance", "US", "TEU"). */
const COMMON_CAPITALS = new Set(
  "the a an us uk eu un new and of teu teus feu gri pss ceo cfo gdp ai gps lng ev evs".split(" "),
);

/**
 * An acronym in the title or summary names a body or a regime ("IMO", "ICS2", "USTR", "FMC"): the reports of one
 * rule share it while their other words differ. Kept among the terms as `#imo`, which the likeness of
 * texts leaves out and clustering counts as a shared name.
 */
function withAcronyms(terms: Record<string, number>, title: string): Record<string, number> {
  const out = { ...terms };
  for (const [acronym] of title.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{Lu}\p{N}]{1,5}(?![\p{L}\p{N}])/gu)) {
    const name = acronym.toLowerCase();
    if (!COMMON_CAPITALS.has(name)) out[`${NAME_TERM}${name}`] = 1;
  }
  return out;
}

/**
 * Rivers, lakes and seaways that carry cargo but are neither a port nor a chokepoint of the gazetteer.
 * The reports of one low-water season or one closure name the waterway while their ports differ or are
 * absent ("Low water forces lighter barge loads on the Mississippi", "Coast Guard closes stretch of
 * Mississippi"): kept as a shared name (`#~rhine`), like a body's acronym.
 */
const WATERWAYS: readonly (readonly [name: string, words: readonly string[]])[] = [
  ["mississippi", ["mississippi"]],
  ["rhine", ["rhine", "rhein"]],
  ["danube", ["danube", "donau"]],
  ["elbe", ["elbe"]],
  ["yangtze", ["yangtze", "changjiang"]],
  ["pearl-river", ["pearl river"]],
  ["mekong", ["mekong"]],
  ["parana", ["parana river", "parana waterway"]],
  ["amazon-river", ["amazon river"]],
  ["st-lawrence", ["st lawrence", "saint lawrence"]],
  ["great-lakes", ["great lakes"]],
  ["columbia-river", ["columbia river"]],
  ["ohio-river", ["ohio river"]],
  ["volga", ["volga"]],
];

/** `words`: the item's words, spaced (`spacedWords`). */
function withWaterways(terms: Record<string, number>, words: string): Record<string, number> {
  const named = WATERWAYS.filter(([, names]) => names.some((w) => words.includes(` ${w} `)));
  if (named.length === 0) return terms;
  const out = { ...terms };
  for (const [name] of named) out[`${NAME_TERM}~${name}`] = 1;
  return out;
}

/** The folded title and summary as words between single spaces, for whole-word phrase matching. */
function spacedWords(item: NormalisedItem): string {
  return ` ${item.foldedTitle} ${item.foldedSummary} `.replace(/[^\p{L}\p{N}]+/gu, " ");
}

/** `words`: the item's words, spaced (`spacedWords`). */
function signalsOf(words: string): string[] {
  return Object.entries(SIGNAL_WORDS)
    .filter(([, phrases]) => phrases.some((w) => words.includes(` ${w} `)))
    .map(([signal]) => signal);
}

/** What an item says, its category null when no word of any category is in it. */
export function draftFacts(item: NormalisedItem): Omit<ItemFacts, "category" | "severity" | "hedged"> & {
  category: ItemFacts["category"] | null;
  /** Categories the item's words support as much as its own (see `rankedCategories`). */
  tiedWith: DisruptionCategory[];
  /** The model's reading of an item no category word names (null when one does). */
  modelled: DisruptionCategory | null;
} {
  const { entities, mentions } = extractEntities(item.title, item.summary);
  const ranked = rankedCategories(item, mentions);
  const words = spacedWords(item);
  return {
    category: ranked[0] ?? null,
    tiedWith: ranked.slice(1),
    modelled:
      ranked.length === 0 && titleReportsHarm(maskFiguresOfSpeech(item.foldedTitle))
        ? modelledCategory(item, mentions)
        : null,
    resolution: isResolution(item),
    lasts: statedDuration(item),
    entities,
    terms: withWaterways(
      withAcronyms(contentTerms(item.foldedTitle, item.foldedSummary), `${item.title} ${item.summary}`),
      words,
    ),
    signals: signalsOf(words),
    foldedTitle: item.foldedTitle,
    source: {
      publisher: item.publisher,
      title: item.title,
      link: item.canonicalLink ?? item.link,
      publishedAt: item.publishedAt,
      authoritative: item.authoritative ?? false,
    },
  };
}

function graded(
  item: NormalisedItem,
  draft: ReturnType<typeof draftFacts>,
  category: DisruptionCategory,
): ItemFacts {
  const { severity, hedged } = itemSeverity(item, category, draft.entities);
  return { ...draft, category, severity, hedged };
}

/** What an item says, or null when it is no disruption news at all (no category word). */
export function itemFacts(item: NormalisedItem): ItemFacts | null {
  const draft = draftFacts(item);
  return draft.category ? graded(item, draft, draft.category) : null;
}

/**
 * An item without a category word of its own ("Yangshan stays shut as Bebinca moves inland") is read
 * in the context of the open events: if it names a port, chokepoint or carrier of one it would join,
 * it is a report of that event and takes its category. Otherwise it is no disruption news.
 */
function inContext(
  item: NormalisedItem,
  draft: ReturnType<typeof draftFacts>,
  events: readonly DisruptionEvent[],
  minText = 0,
): ItemFacts | null {
  const named =
    draft.entities.ports.length + draft.entities.chokepoints.length + draft.entities.carriers.length;
  if (named === 0 && !events.some((e) => namesEventShip(e, item.title))) return null;
  let best: { facts: ItemFacts; score: number } | null = null;
  for (const event of events) {
    // A report naming the event's ship is its report whatever its words (the salvage of a grounding).
    if (
      event.category === draft.category ||
      (cosine(event.terms, draft.terms) < minText && !namesEventShip(event, item.title))
    )
      continue;
    // The market takes any report of its own category; read into it, an item must read like it
    // (a ship's lost boxes named no rate, and joined the month's rate rally).
    if (event.category === "container_market" && cosine(event.terms, draft.terms) < IN_CONTEXT_MIN_TEXT)
      continue;
    const facts = graded(item, draft, event.category);
    let { score, joinable } = withinWindow(event, item.publishedAt)
      ? similarity(event, facts)
      : { score: 0, joinable: false };
    if (!joinable && follows(event, facts))
      ({ score, joinable } = { score: similarity(event, facts).score, joinable: true });
    if (joinable && (!best || score > best.score)) best = { facts, score };
  }
  return best?.facts ?? null;
}

/** The text likeness an item with a (weak) category of its own needs to be read as another event's report. */
const IN_CONTEXT_MIN_TEXT = 0.2;
/** The text likeness an item the relevance gate would refuse needs to be read as an open event's report. */
const UNANCHORED_MIN_TEXT = 0.25;
/** At most this category score (one title hit, two summary hits) is a weak reading of an item's category. */
const WEAK_CATEGORY_SCORE = 2;

function weakCategory(item: NormalisedItem, category: DisruptionCategory | null): boolean {
  if (!category) return true;
  return categoryScores(item.foldedTitle, item.foldedSummary)[category] <= WEAK_CATEGORY_SCORE;
}

export type IngestOutcome =
  | { kind: "duplicate"; item: NormalisedItem }
  | { kind: "irrelevant"; item: NormalisedItem }
  | { kind: "unmatched_resolution"; item: NormalisedItem; facts: ItemFacts }
  | { kind: "created"; item: NormalisedItem; facts: ItemFacts; event: DisruptionEvent }
  | {
      kind: "joined";
      item: NormalisedItem;
      facts: ItemFacts;
      event: DisruptionEvent;
      /** Fragments of the same event the item tied to it, merged into it (their ids are gone). */
      absorbed: string[];
      /** Other events the item reported the end of (`endedAlongside`): resolved, kept apart. */
      ended: string[];
    };

/**
 * The item joined `target`: the event with it, and the other fragments of the same event the item
 * ties to it merged in (an end report naming the strike's port closes the fragment the silence rule
 * would otherwise have closed early).
 */
function joined(
  events: readonly DisruptionEvent[],
  target: DisruptionEvent,
  facts: ItemFacts,
): { events: DisruptionEvent[]; event: DisruptionEvent; absorbed: string[]; ended: string[] } {
  let event = joinEvent(target, facts);
  const tied = events.filter((e) => isFragmentOf(event, e, facts));
  // A report of the end that names the places of two events ("Canadian port lockouts end as Ottawa
  // orders arbitration at Vancouver, Prince Rupert and Montreal") ends each of them; it does not make
  // two lockouts at opposite coasts one (issue 35: two same-category events of one fortnight stay two).
  const endedEvents = facts.resolution ? tied.filter((e) => placedApart(target, e)) : [];
  const ended = endedEvents.map((e) => e.id);
  // Their places are theirs: the event the report joined does not take Montreal from it.
  if (endedEvents.length > 0) event = joinEvent(target, withoutPlacesOf(facts, endedEvents));
  const fragments = tied.filter((e) => !ended.includes(e.id));
  for (const fragment of fragments) event = mergeFragments(event, fragment);
  const absorbed = fragments.map((f) => f.id);
  return {
    events: events
      .filter((e) => !absorbed.includes(e.id))
      .map((e) => (e.id === event.id ? event : ended.includes(e.id) ? endedAlongside(e, facts) : e)),
    event,
    absorbed,
    ended,
  };
}

/** An item's facts without the ports and chokepoints that are `events`' own (and not the item's alone). */
function withoutPlacesOf(facts: ItemFacts, events: readonly DisruptionEvent[]): ItemFacts {
  const ports = new Set(events.flatMap((e) => e.entities.ports));
  const chokepoints = new Set(events.flatMap((e) => e.entities.chokepoints));
  return {
    ...facts,
    entities: {
      ...facts.entities,
      ports: facts.entities.ports.filter((p) => !ports.has(p)),
      chokepoints: facts.entities.chokepoints.filter((c) => !chokepoints.has(c)),
    },
  };
}

/** The events known and the items already seen (their identities), as the pipeline reads them. */
export interface PipelineState {
  events: DisruptionEvent[];
  seen: Pick<NormalisedItem, "identity" | "canonicalLink" | "publisher" | "foldedTitle">[];
}

/**
 * One item through the pipeline against the state. Returns the new state and what happened; the
 * state given is not changed. A report that something reopened, matching no open event, starts none.
 */
export function ingestItem(
  state: PipelineState,
  raw: FeedItem,
  newId: () => string,
): { state: PipelineState; outcome: IngestOutcome } {
  const item = normaliseItem(raw);
  if (isDuplicate(item, state.seen)) return { state, outcome: { kind: "duplicate", item } };
  const seen = [...state.seen, item];
  const open = state.events.map((e) => resolveIfSilent(e, item.publishedAt));
  // Figures of speech ("strikes a deal", "a perfect storm") are read as what they are: no words.
  const read: NormalisedItem = {
    ...item,
    foldedTitle: maskFiguresOfSpeech(item.foldedTitle),
    foldedSummary: maskFiguresOfSpeech(item.foldedSummary),
  };
  const draft = draftFacts(read);
  const named =
    draft.entities.ports.length + draft.entities.chokepoints.length + draft.entities.carriers.length > 0;
  // Names alone never make a disruption: the item must report an effect on shipping.
  const refused = refusal(read.foldedTitle, read.foldedSummary, named, draft.entities.countries.length > 0);
  if (refused && refused !== "no_effect")
    return { state: { ...state, seen }, outcome: { kind: "irrelevant", item } };
  if (refused) {
    const own = draft.category ? graded(read, draft, draft.category) : null;
    // A later report of an open event may say what happened in words the gate does not hold ("Cyclone
    // Biparjoy makes landfall near Jakhau", "the abandoned Rubymar drifts"): it is that event's report
    // when it joins it and reads like it or names its place, storm or body (an acronym: "CPKC", a
    // union; issue 35, tenth pass: "Ottawa orders binding arbitration in rail lockout" named the
    // railways, not a port). It never starts an event.
    const facts =
      (own && bestEvent(open, own) ? own : null) ?? inContext(read, draft, open, UNANCHORED_MIN_TEXT);
    const target = facts ? bestEvent(open, facts) : null;
    if (
      !facts ||
      !target ||
      (cosine(target.terms, facts.terms) < UNANCHORED_MIN_TEXT &&
        !namesEventIdentity(target, facts) &&
        !sharesName(target, facts)) ||
      // A ship the event does not name ("Research vessel Florence returns from whale surveys" while
      // Hurricane Florence is open): the words it shares with the event are the ship's name.
      namesAnotherShip(target, item.title)
    )
      return { state: { ...state, seen }, outcome: { kind: "irrelevant", item } };
    const step = joined(open, target, facts);
    return {
      state: { events: step.events, seen },
      outcome: { kind: "joined", item, facts, event: step.event, absorbed: step.absorbed, ended: step.ended },
    };
  }
  let own = draft.category ? graded(read, draft, draft.category) : null;
  let ownTarget = own ? bestEvent(open, own) : null;
  // Words that support two categories equally: the open event the item joins under one of them
  // decides, rather than the order of precedence ("Carriers blank sailings to prop up collapsing
  // rates" follows the market's slide).
  for (const category of ownTarget ? [] : draft.tiedWith) {
    const tied = graded(read, draft, category);
    const target = bestEvent(open, tied);
    if (target) {
      own = tied;
      ownTarget = target;
      break;
    }
  }
  // An item that joins no event under its own category, and whose own category rests on one title
  // word or two summary words, is read in the context of an event it reads like ("CMA CGM restores
  // its booking systems a week after the attack" is the end of the carrier's outage, not a security
  // incident of its own). An item with no category word at all is read the same way.
  const facts =
    (own && (ownTarget || !weakCategory(read, draft.category)) ? own : null) ??
    inContext(read, draft, open, own ? IN_CONTEXT_MIN_TEXT : 0) ??
    own ??
    // Its title reports harm to shipping, though no category word names its kind.
    (draft.modelled ? graded(read, draft, draft.modelled) : null);
  if (!facts) return { state: { ...state, seen }, outcome: { kind: "irrelevant", item } };
  // What the join rules place nowhere may still be the same event by the pairwise decision, which
  // weighs the signals each rule reads alone (an anchor, the category's family, the gap, rare words).
  const target = (facts === own ? ownTarget : bestEvent(open, facts)) ?? sameEventAs(open, facts);
  if (!target) {
    if (facts.resolution)
      return { state: { events: open, seen }, outcome: { kind: "unmatched_resolution", item, facts } };
    const event = startEvent(newId(), facts);
    return { state: { events: [...open, event], seen }, outcome: { kind: "created", item, facts, event } };
  }
  const step = joined(open, target, facts);
  return {
    state: { events: step.events, seen },
    outcome: { kind: "joined", item, facts, event: step.event, absorbed: step.absorbed, ended: step.ended },
  };
}

/** Every event resolved that has been silent for its category's window by `now`. */
export function sweepSilentEvents(events: readonly DisruptionEvent[], now: Date): DisruptionEvent[] {
  return events.map((e) => resolveIfSilent(e, now));
}
