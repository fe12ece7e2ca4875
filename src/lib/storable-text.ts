/**
 * Text PostgreSQL cannot store: `text` holds no U+0000, and jsonb refuses a \u escape of an unpaired
 * UTF-16 surrogate (which has no UTF-8 form either), so either one reaching a query is a 500. Neither
 * is ever part of a reference, a name or a search, so every surface refuses it where it parses input:
 * the HTTP guard on paths, queries and JSON bodies, and the GraphQL layer on variables.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "contains a lone UTF-16 surrogate";
  return undefined;
}

export type UnstorableFinding =
  | { kind: "text"; path: string; inKey: boolean; problem: string }
  | { kind: "too_deep"; path: string };

/**
 * The first string (keys included) of a parsed value that cannot be stored, with its path such as
 * `body.shipments[0].number`; or, with `maxDepth`, the first list or object nested deeper than that.
 * Iterative, so hostile nesting cannot overflow the stack.
 */
export function findUnstorable(
  value: unknown,
  root: string,
  maxDepth = Number.POSITIVE_INFINITY,
): UnstorableFinding | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (typeof current.value === "string") {
      const problem = unstorableText(current.value);
      if (problem) return { kind: "text", path: current.path, inKey: false, problem };
    } else if (current.value !== null && typeof current.value === "object") {
      if (current.depth >= maxDepth) return { kind: "too_deep", path: current.path };
      const depth = current.depth + 1;
      if (Array.isArray(current.value)) {
        for (let i = current.value.length - 1; i >= 0; i--) {
          stack.push({ value: current.value[i], path: `${current.path}[${i}]`, depth });
        }
      } else {
        for (const [key, item] of Object.entries(current.value)) {
          const problem = unstorableText(key);
          if (problem) return { kind: "text", path: current.path, inKey: true, problem };
          stack.push({ value: item, path: `${current.path}.${key}`, depth });
        }
      }
    }
  }
  return undefined;
}
