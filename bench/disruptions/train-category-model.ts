/**
 * Trains the category model (src/domain/disruptions/category-model.ts) on the DEVELOPMENT corpus only
 * and writes its weights to src/domain/disruptions/category-model.json: a multinomial naive Bayes over
 * the item's words and the rules' readings, Laplace-smoothed, rounded so the file is stable. The
 * validation corpus is never read here.
 *
 * `npx tsx bench/disruptions/train-category-model.ts` writes the weights; with `--check` it writes
 * nothing and prints a leave-one-event-out comparison on the development corpus: of the items whose
 * top category the rules tie, how many the fixed precedence and the model (trained without the item's
 * event) each get right.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  CATEGORY_PRECEDENCE,
  DISRUPTION_CATEGORIES,
  type DisruptionCategory,
} from "../../src/domain/disruptions/categories";
import { type ModelInput, modelFeatures } from "../../src/domain/disruptions/category-model";
import { categoryEvidence } from "../../src/domain/disruptions/classify";
import { extractEntities } from "../../src/domain/disruptions/entities";
import { normaliseItem } from "../../src/domain/disruptions/normalise";
import { maskFiguresOfSpeech } from "../../src/domain/disruptions/relevance";
import { DEVELOPMENT_CORPUS } from "../../test/fixtures/disruptions/corpus-more";

const MODEL_PATH = fileURLToPath(
  new URL("../../src/domain/disruptions/category-model.json", import.meta.url),
);
/** Laplace smoothing: a feature seen once in one category is not certain proof of it. */
const ALPHA = 1;

interface Example {
  event: string;
  category: DisruptionCategory;
  input: ModelInput;
}

function examples(): Example[] {
  return DEVELOPMENT_CORPUS.filter((i) => i.category !== null && i.event !== null && !i.duplicateOf).map(
    (i) => {
      const item = normaliseItem({
        sourceId: "training",
        publisher: i.publisher,
        guid: null,
        link: i.link,
        title: i.title,
        summary: i.summary,
        publishedAt: new Date(i.at),
        categoryPrior: null,
        alertLevel: null,
        authoritative: false,
      });
      const read = {
        ...item,
        foldedTitle: maskFiguresOfSpeech(item.foldedTitle),
        foldedSummary: maskFiguresOfSpeech(item.foldedSummary),
      };
      const { mentions } = extractEntities(read.title, read.summary);
      const evidence = categoryEvidence(read, mentions);
      return {
        event: i.event!,
        category: i.category!,
        input: { ...evidence, foldedTitle: read.foldedTitle, foldedSummary: read.foldedSummary },
      };
    },
  );
}

interface Weights {
  classes: DisruptionCategory[];
  logPrior: number[];
  logLikelihood: Record<string, number[]>;
}

function train(data: readonly Example[]): Weights {
  const classes = [...DISRUPTION_CATEGORIES];
  const docs = classes.map(() => 0);
  const counts = new Map<string, number[]>();
  const totals = classes.map(() => 0);
  for (const example of data) {
    const c = classes.indexOf(example.category);
    docs[c]! += 1;
    for (const [feature, count] of modelFeatures(example.input)) {
      const row = counts.get(feature) ?? classes.map(() => 0);
      row[c]! += count;
      totals[c]! += count;
      counts.set(feature, row);
    }
  }
  const vocabulary = counts.size;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const logLikelihood: Record<string, number[]> = {};
  for (const feature of [...counts.keys()].sort()) {
    const row = counts.get(feature)!;
    logLikelihood[feature] = row.map((n, c) =>
      round(Math.log((n + ALPHA) / (totals[c]! + ALPHA * vocabulary))),
    );
  }
  const logPrior = docs.map((n) => round(Math.log((n + ALPHA) / (data.length + ALPHA * classes.length))));
  return { classes, logPrior, logLikelihood };
}

function posterior(weights: Weights, input: ModelInput): Map<DisruptionCategory, number> {
  const totals = [...weights.logPrior];
  for (const [feature, count] of modelFeatures(input)) {
    const row = weights.logLikelihood[feature];
    if (!row) continue;
    for (let i = 0; i < totals.length; i++) totals[i]! += count * row[i]!;
  }
  return new Map(weights.classes.map((c, i) => [c, totals[i]!]));
}

const data = examples();
if (process.argv.includes("--check")) {
  let ties = 0;
  let byPrecedence = 0;
  let byModel = 0;
  for (const event of new Set(data.map((e) => e.event))) {
    const weights = train(data.filter((e) => e.event !== event));
    for (const example of data.filter((e) => e.event === event)) {
      const { scores } = example.input;
      const top = Math.max(...DISRUPTION_CATEGORIES.map((c) => scores[c]));
      const tied = CATEGORY_PRECEDENCE.filter((c) => scores[c] === top);
      if (top <= 0 || tied.length < 2) continue;
      ties += 1;
      if (tied[0] === example.category) byPrecedence += 1;
      const p = posterior(weights, example.input);
      const best = [...tied].sort((a, b) => p.get(b)! - p.get(a)!)[0];
      if (best === example.category) byModel += 1;
    }
  }
  // The same over every item: the rules' top category, and the model's among the categories the
  // rules give any score, where the rules' top score is weak (one title word, two summary words).
  let rules = 0;
  let weakModel = 0;
  let anyModel = 0;
  let combined = 0;
  for (const event of new Set(data.map((e) => e.event))) {
    const weights = train(data.filter((e) => e.event !== event));
    for (const example of data.filter((e) => e.event === event)) {
      const { scores } = example.input;
      const top = Math.max(...DISRUPTION_CATEGORIES.map((c) => scores[c]));
      const ruled = top > 0 ? CATEGORY_PRECEDENCE.find((c) => scores[c] === top)! : null;
      if (ruled === example.category) rules += 1;
      const p = posterior(weights, example.input);
      const supported = CATEGORY_PRECEDENCE.filter((c) => scores[c] > 0);
      const modelPick = [...supported].sort((a, b) => p.get(b)! - p.get(a)!)[0] ?? null;
      if ((top <= 2 ? modelPick : ruled) === example.category) weakModel += 1;
      if (modelPick === example.category) anyModel += 1;
      const tiedTop = supported.filter((c) => scores[c] === top);
      const tiePick = [...tiedTop].sort((a, b) => p.get(b)! - p.get(a)!)[0] ?? null;
      if ((top <= 2 ? modelPick : tiedTop.length > 1 ? tiePick : ruled) === example.category) combined += 1;
    }
  }
  console.log(
    JSON.stringify({
      examples: data.length,
      tiedItems: ties,
      rightByPrecedence: byPrecedence,
      rightByModel: byModel,
      allItemsRightByRules: rules,
      allItemsRightByModelWhereWeak: weakModel,
      allItemsRightByModelAlways: anyModel,
      allItemsRightByModelWhereWeakOrTied: combined,
    }),
  );
} else {
  const weights = train(data);
  writeFileSync(MODEL_PATH, `${JSON.stringify(weights)}\n`);
  console.log(
    `${MODEL_PATH}: ${data.length} examples, ${Object.keys(weights.logLikelihood).length} features`,
  );
}
