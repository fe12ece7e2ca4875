/**
 * JSON text of values an answer shares with the answer cache (src/graphql/answer-cache.ts): a kept
 * answer is handed out as the same object on every hit in this process, so what a facade makes of it
 * is rendered and serialised once and each hit only frames the text. The cache never hands out a
 * value it changed (a change makes a new answer), and nothing here mutates what it renders.
 * `variant` tells apart the renderings of one value; `render` must read nothing but that value (no
 * request, no clock).
 */
const renderedVariants = new WeakMap<object, Map<string, string>>();

export function renderedJsonOf(source: object, variant: string, render: () => unknown): string {
  let variants = renderedVariants.get(source);
  if (variants === undefined) {
    variants = new Map();
    renderedVariants.set(source, variants);
  }
  let text = variants.get(variant);
  if (text === undefined) {
    text = JSON.stringify(render());
    variants.set(variant, text);
  }
  return text;
}
