/** Words too common to tell one story from another: left out of the clustering's terms and the category model's. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a an and are as at be been by for from has have in into is it its of on or over says said
  that the their this to was were will with after amid new more than up out off about against
  all also but can could may not no per since so some still they two three week weeks day days
  which while who would year years report reports reported`.split(/\s+/),
);

/** Crude stemming: enough to make "strikes" and "strike", "closed" and "closure" meet often. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}
