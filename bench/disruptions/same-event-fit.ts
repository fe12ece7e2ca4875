/**
 * The weights of the pairwise same-event decision (`src/domain/disruptions/same-event.ts`), fitted on
 * the development corpus only (`npx tsx bench/disruptions/same-event-fit.ts`); it never reads the
 * validation corpus. The development corpus is replayed through the pipeline as it stands; at each
 * event item, every disruption open then is a pair, labelled the same event when most of that
 * disruption's items so far are the item's labelled event; pairs `pairConflicts` excludes (another
 * place, other carriers, another ship, past the horizon, ended by a report) are left out, since the
 * decision is never asked of them. A logistic regression (Newton's method,
 * a small ridge, both classes weighed equally) gives the weights; then each event is left out in turn
 * (its items' pairs and the pairs of disruptions it holds most of) and the held-out pairs are decided
 * by the weights fitted without it, to show they are not fitted to one event.
 */

import { resolveIfSilent } from "../../src/domain/disruptions/events";
import { ingestItem, type PipelineState } from "../../src/domain/disruptions/pipeline";
import {
  neverSameEvent,
  pairConflicts,
  SAME_EVENT_JOIN,
  type SameEventSignals,
  sameEventProbability,
  sameEventSignals,
} from "../../src/domain/disruptions/same-event";
import { DEVELOPMENT_CORPUS as CORPUS } from "../../test/fixtures/disruptions/corpus-more";

const KEYS: (keyof SameEventSignals)[] = [
  "place",
  "range",
  "name",
  "carrier",
  "category",
  "gap",
  "rareWords",
  "happened",
  "text",
];
interface Pair {
  x: number[];
  y: 0 | 1;
  itemEvent: string;
  candidateEvent: string;
  /** Whether the join rules put the item into this disruption. */
  joinedByRules: boolean;
  /** The item's index: the rules joined it to no disruption (it started one, or was an end matching none). */
  item: number;
  placedByRules: boolean;
  /** A candidate that is another event whatever the signals (`pairConflicts`): left out of the fit. */
  conflicting: boolean;
  /** A candidate the decision never takes (`neverSameEvent`: conflicting, or no anchor in common). */
  vetoed: boolean;
}

function pairs(): Pair[] {
  const ordered = [...CORPUS].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  let state: PipelineState = { events: [], seen: [] };
  let next = 1;
  const held = new Map<string, Map<string, number>>();
  const majority = (id: string) => {
    const counts = held.get(id);
    if (!counts) return null;
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  };
  const out: Pair[] = [];
  for (const item of ordered) {
    const at = new Date(item.at);
    const open = state.events.map((e) => resolveIfSilent(e, at));
    const step = ingestItem(
      state,
      {
        sourceId: "dev",
        publisher: item.publisher,
        guid: item.guid ?? null,
        link: item.link,
        title: item.title,
        summary: item.summary,
        publishedAt: at,
      },
      () => `event-${next++}`,
    );
    state = step.state;
    const o = step.outcome;
    if (!("facts" in o) || !item.event) continue;
    for (const candidate of open) {
      const label = majority(candidate.id);
      if (!label) continue;
      const s = sameEventSignals(candidate, o.facts, open);
      out.push({
        x: KEYS.map((k) => s[k]),
        y: label === item.event ? 1 : 0,
        itemEvent: item.event,
        candidateEvent: label,
        joinedByRules: "event" in o && o.event.id === candidate.id,
        item: ordered.indexOf(item),
        placedByRules: o.kind === "joined",
        conflicting: pairConflicts(candidate, o.facts),
        vetoed: neverSameEvent(candidate, o.facts),
      });
    }
    if (o.kind === "joined" || o.kind === "created") {
      const into = held.get(o.event.id) ?? new Map<string, number>();
      if (o.kind === "joined")
        for (const gone of o.absorbed) {
          for (const [e, n] of held.get(gone) ?? []) into.set(e, (into.get(e) ?? 0) + n);
          held.delete(gone);
        }
      into.set(item.event, (into.get(item.event) ?? 0) + 1);
      held.set(o.event.id, into);
    }
  }
  return out;
}

/** Logistic regression by Newton's method with a ridge of `lambda`, classes weighed equally. */
function fitWeights(data: readonly Pair[], lambda = 1): number[] {
  const d = KEYS.length + 1;
  const w = new Array<number>(d).fill(0);
  const pos = data.filter((p) => p.y === 1).length;
  const neg = data.length - pos;
  for (let iter = 0; iter < 25; iter++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const p of data) {
      const x = [1, ...p.x];
      const z = x.reduce((s, xi, i) => s + xi * w[i]!, 0);
      const q = 1 / (1 + Math.exp(-z));
      const c = p.y === 1 ? data.length / (2 * pos) : data.length / (2 * neg);
      for (let i = 0; i < d; i++) {
        g[i]! += c * (q - p.y) * x[i]!;
        for (let j = 0; j < d; j++) h[i]![j]! += c * q * (1 - q) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      g[i]! += lambda * w[i]!;
      h[i]![i]! += lambda;
    }
    h[0]![0]! += 1e-6;
    const step = solve(h, g);
    for (let i = 0; i < d; i++) w[i]! -= step[i]!;
  }
  return w;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

const weightsOf = (w: number[]) =>
  ({ bias: w[0]!, ...Object.fromEntries(KEYS.map((k, i) => [k, w[i + 1]!])) }) as SameEventSignals & {
    bias: number;
  };
const prob = (w: number[], p: Pair) =>
  sameEventProbability(
    Object.fromEntries(KEYS.map((k, i) => [k, p.x[i]!])) as unknown as SameEventSignals,
    weightsOf(w),
  );
const decide = (w: number[], p: Pair, threshold: number) => prob(w, p) >= threshold;

// Pairs that are two events whatever the signals (`pairConflicts`) are left out of the fit. Pairs with
// no anchor in common stay in: the anchors' weights are learnt from them (with them left out too, 8
// pairs of two events remain and the weights swing with each event left out).
const data = pairs().filter((p) => !p.conflicting);
const CORPUS_SORTED = [...CORPUS].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
const w = fitWeights(data);
const round = (x: number) => Math.round(x * 100) / 100;
console.log(
  `pairs ${data.length}: same event ${data.filter((p) => p.y).length}, rules joined ${data.filter((p) => p.joinedByRules).length}`,
);
console.log(
  "weights",
  JSON.stringify(Object.fromEntries(Object.entries(weightsOf(w)).map(([k, v]) => [k, round(v)]))),
);
for (const threshold of [0.5, 0.8, 0.9, 0.95, 0.98]) {
  const all = data.map((p) => ({ p, yes: decide(w, p, threshold) }));
  const tp = all.filter((a) => a.yes && a.p.y).length;
  const fp = all.filter((a) => a.yes && !a.p.y).length;
  const fn = all.filter((a) => !a.yes && a.p.y).length;
  // Where the decision adds to the rules: pairs the rules left apart.
  const apart = all.filter((a) => !a.p.joinedByRules);
  const gained = apart.filter((a) => a.yes && a.p.y).length;
  const wrong = apart.filter((a) => a.yes && !a.p.y);
  console.log(
    `threshold ${threshold}: precision ${round(tp / (tp + fp))} recall ${round(tp / (tp + fn))}; of the pairs the rules left apart, same event joined ${gained} of ${apart.filter((a) => a.p.y).length}, other event joined ${wrong.length} (${[...new Set(wrong.map((a) => `${a.p.itemEvent}->${a.p.candidateEvent}`))].join(", ")})`,
  );
}
/** As the service uses it: an item the rules placed nowhere joins its most likely candidate above the threshold. */
function usage(w: number[], threshold: number, subset: readonly Pair[] = data) {
  const byItem = new Map<number, Pair[]>();
  for (const p of subset)
    if (!p.placedByRules && !p.vetoed) byItem.set(p.item, [...(byItem.get(p.item) ?? []), p]);
  let right = 0;
  const wrong: string[] = [];
  let missed = 0;
  for (const candidates of byItem.values()) {
    const scored = candidates
      .map((p) => ({ p, yes: decide(w, p, threshold), q: prob(w, p) }))
      .filter((c) => c.yes)
      .sort((a, b) => b.q - a.q);
    const chosen = scored[0]?.p;
    if (chosen?.y) right++;
    else if (chosen) wrong.push(`${chosen.itemEvent}->${chosen.candidateEvent}`);
    else if (candidates.some((p) => p.y)) missed++;
  }
  return { right, wrong, missed };
}
for (const threshold of [0.8, 0.9, 0.95]) {
  const u = usage(w, threshold);
  console.log(
    `as used, threshold ${threshold}: items the rules placed nowhere joined to their event ${u.right}, to another ${u.wrong.length} (${u.wrong.join(", ")}), left apart from theirs ${u.missed}`,
  );
}
// Leave one event out: weights fitted without its pairs decide its pairs.
const events = [...new Set(data.map((p) => p.itemEvent))].sort();
let changed = 0;
let heldWrong = 0;
let heldPairs = 0;
let heldUsageRight = 0;
const heldUsageWrong: string[] = [];
const spread = KEYS.map(() => [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
for (const event of events) {
  const inside = (p: Pair) => p.itemEvent === event || p.candidateEvent === event;
  const wo = fitWeights(data.filter((p) => !inside(p)));
  KEYS.forEach((_, i) => {
    spread[i]![0] = Math.min(spread[i]![0]!, wo[i + 1]!);
    spread[i]![1] = Math.max(spread[i]![1]!, wo[i + 1]!);
  });
  let eventChanged = false;
  for (const p of data.filter(inside)) {
    heldPairs++;
    const held = decide(wo, p, SAME_EVENT_JOIN);
    if (held !== decide(w, p, SAME_EVENT_JOIN)) eventChanged = true;
    if (held !== (p.y === 1)) heldWrong++;
  }
  if (eventChanged) changed++;
  const u = usage(wo, SAME_EVENT_JOIN, data.filter(inside));
  heldUsageRight += u.right;
  heldUsageWrong.push(...u.wrong);
}
console.log(
  `leave one event out (${events.length} events): held-out pair decisions wrong ${heldWrong} of ${heldPairs}; events whose pairs any decision changed ${changed}`,
);
console.log(
  `leave one event out, as used at ${SAME_EVENT_JOIN}: held-out items joined to their event ${heldUsageRight}, to another ${heldUsageWrong.length} (${heldUsageWrong.join(", ")})`,
);
console.log(
  "weight ranges over the folds",
  KEYS.map((k, i) => `${k} ${round(spread[i]![0]!)}..${round(spread[i]![1]!)}`).join(", "),
);
if (process.argv.includes("--detail")) {
  const byItem = new Map<number, Pair[]>();
  for (const p of data)
    if (!p.placedByRules && !p.vetoed) byItem.set(p.item, [...(byItem.get(p.item) ?? []), p]);
  for (const [item, candidates] of byItem) {
    const top = candidates
      .map((p) => ({ p, q: prob(w, p) }))
      .sort((a, b) => b.q - a.q)
      .slice(0, 2);
    if (top[0] && (top[0].q >= 0.5 || candidates.some((p) => p.y)))
      for (const t of top)
        console.log(
          item,
          CORPUS_SORTED[item]?.id,
          t.p.itemEvent,
          "->",
          t.p.candidateEvent,
          round(t.q),
          t.p.y,
          t.p.x.map(round).join(" "),
        );
  }
}
if (process.argv.includes("--veto")) {
  const joined = data.filter((p) => p.joinedByRules).map((p) => ({ p, q: prob(w, p) }));
  for (const j of joined.filter((j) => !j.p.y))
    console.log(
      "rules joined another event",
      j.p.itemEvent,
      "->",
      j.p.candidateEvent,
      round(j.q),
      j.p.x.map(round).join(" "),
    );
  for (const v of [0.05, 0.1, 0.2, 0.3])
    console.log(
      `veto below ${v}: same-event joins lost ${joined.filter((j) => j.p.y && j.q < v).length}, other-event joins undone ${joined.filter((j) => !j.p.y && j.q < v).length}`,
    );
}
