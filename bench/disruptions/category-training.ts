/**
 * The training of the category model (src/domain/disruptions/category-model.ts), on the DEVELOPMENT
 * corpus only: a multinomial naive Bayes over the item's words and the rules' readings,
 * Laplace-smoothed, rounded so the committed file is stable. The validation corpus is never read here.
 * `train-category-model.ts` runs it; the unit test checks the committed weights are what it gives.
 */
import { DISRUPTION_CATEGORIES, type DisruptionCategory } from "../../src/domain/disruptions/categories";
import {
  type CategoryModel,
  type ModelInput,
  modelFeatures,
  modelLogPosterior,
} from "../../src/domain/disruptions/category-model";
import { categoryEvidence } from "../../src/domain/disruptions/classify";
import { extractEntities } from "../../src/domain/disruptions/entities";
import { normaliseItem } from "../../src/domain/disruptions/normalise";
import { maskFiguresOfSpeech } from "../../src/domain/disruptions/relevance";
import { DEVELOPMENT_CORPUS } from "../../test/fixtures/disruptions/corpus-more";

/** Laplace smoothing: a feature seen once in one category is not certain proof of it. */
const ALPHA = 1;

export interface Example {
  event: string;
  category: DisruptionCategory;
  input: ModelInput;
}

export function examples(): Example[] {
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

/** What training writes: the weights the service reads (`category-model.json`). */
export type Weights = CategoryModel;

export function train(data: readonly Example[]): Weights {
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

/** The model's posterior with these weights: the service's own computation (category-model.ts). */
export function posterior(weights: Weights, input: ModelInput): Map<DisruptionCategory, number> {
  return modelLogPosterior(input, weights);
}
