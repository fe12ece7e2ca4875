/**
 * A small naive Bayes model of an item's category (issue 35, fourth pass), consulted only where the
 * keyword rules are unsure: when two or more categories tie for the top score, it orders them instead
 * of the fixed precedence. Its features are the item's content words and the rules' own readings (each
 * category's keyword score, which kinds of entity are named), so it learns from the development corpus
 * how a publisher's words and the rules' signals go together, and a word the rules do not hold ("a
 * scallop cargo refused") still tips a tie. Trained offline by `bench/disruptions/train-category-model.ts`
 * on the development corpus only; the weights are a committed data file; deterministic, no network.
 */
import { createRequire } from "node:module";
import type { DisruptionCategory } from "./categories";
import { STOPWORDS, stem } from "./terms";

/** Naive Bayes weights: the classes, their log priors and each feature's log likelihood per class. */
export interface CategoryModel {
  classes: DisruptionCategory[];
  logPrior: number[];
  logLikelihood: Record<string, number[]>;
}

let loaded: CategoryModel | null = null;

/** The committed weights, read once per process. */
function categoryModel(): CategoryModel {
  if (!loaded) loaded = createRequire(import.meta.url)("./category-model.json") as CategoryModel;
  return loaded;
}

export interface ModelInput {
  foldedTitle: string;
  foldedSummary: string;
  /** The rules' category scores for the item (title hits 2, summary hits 1, after their adjustments). */
  scores: Readonly<Record<DisruptionCategory, number>>;
  named: { port: boolean; carrier: boolean; chokepoint: boolean };
}

/** The model's features with their counts: title words twice, summary words once, the rules' readings. */
export function modelFeatures(input: ModelInput): Map<string, number> {
  const features = new Map<string, number>();
  const add = (feature: string, count: number) => features.set(feature, (features.get(feature) ?? 0) + count);
  const words = (text: string, weight: number) => {
    for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      add(`w:${stem(word)}`, weight);
    }
  };
  words(input.foldedTitle, 2);
  words(input.foldedSummary, 1);
  for (const [category, score] of Object.entries(input.scores)) if (score > 0) add(`rule:${category}`, score);
  for (const [kind, named] of Object.entries(input.named)) if (named) add(`named:${kind}`, 1);
  return features;
}

/** The log posterior (unnormalised) of each category `model` knows (the committed weights by default). */
export function modelLogPosterior(
  input: ModelInput,
  model: CategoryModel = categoryModel(),
): Map<DisruptionCategory, number> {
  const totals = [...model.logPrior];
  for (const [feature, count] of modelFeatures(input)) {
    const weights = model.logLikelihood[feature];
    // A feature never seen in training says nothing about the category.
    if (!weights) continue;
    for (let i = 0; i < totals.length; i++) totals[i]! += count * weights[i]!;
  }
  return new Map(model.classes.map((c, i) => [c, totals[i]!]));
}

/** The categories given, most probable first by the model (ties kept in the order given). */
export function orderByModel(
  categories: readonly DisruptionCategory[],
  input: ModelInput,
): DisruptionCategory[] {
  const posterior = modelLogPosterior(input);
  const at = (c: DisruptionCategory) => posterior.get(c) ?? Number.NEGATIVE_INFINITY;
  return categories
    .map((category, index) => ({ category, index }))
    .sort((a, b) => at(b.category) - at(a.category) || a.index - b.index)
    .map((entry) => entry.category);
}
