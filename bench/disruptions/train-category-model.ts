/**
 * Trains the category model on the development corpus (category-training.ts) and writes its weights to
 * src/domain/disruptions/category-model.json: `npx tsx bench/disruptions/train-category-model.ts`. Run
 * it after any change to the category words, whose scores are among its features. With `--check` it
 * writes nothing and prints a leave-one-event-out comparison on the development corpus: of the items
 * the rules tie, how many the fixed precedence and the model (trained without the item's event) get
 * right, and over every item, the rules alone against the model where the rules are weak or tied.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CATEGORY_PRECEDENCE, DISRUPTION_CATEGORIES } from "../../src/domain/disruptions/categories";
import { examples, posterior, train } from "./category-training";

const MODEL_PATH = fileURLToPath(
  new URL("../../src/domain/disruptions/category-model.json", import.meta.url),
);

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
