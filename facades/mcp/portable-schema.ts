import type { z } from "zod";

/** Keys that say what a value means rather than what it may be: they stay on the nullable node. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
]);

/**
 * A nullable primitive as `anyOf` branches of one `type` each instead of zod's `type: ["string",
 * "null"]`: legal JSON Schema, but clients that map tool schemas onto a single-`type` dialect (the
 * OpenAPI subset of Gemini function declarations) reject it or drop its constraints, and the MCP
 * inspector's `--strict` warns on each one. The keys and what validates are unchanged: the non-null
 * branch keeps the constraints (format, pattern, enum without null), the node keeps its description.
 */
export function portableJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableJsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node as Record<string, unknown>).map(
    ([key, value]) =>
      [
        key,
        key === "const" || key === "enum" || key === "default" ? value : portableJsonSchema(value),
      ] as const,
  );
  const schema = Object.fromEntries(entries) as Record<string, unknown>;
  const type = schema.type;
  if (!Array.isArray(type) || type.length !== 2 || !type.includes("null")) return schema;
  const other = type.find((t) => t !== "null");
  const annotations: Record<string, unknown> = {};
  const branch: Record<string, unknown> = { type: other };
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") continue;
    if (ANNOTATIONS.has(key)) annotations[key] = value;
    else if (key === "enum" && Array.isArray(value)) branch.enum = value.filter((v) => v !== null);
    else branch[key] = value;
  }
  return { ...annotations, anyOf: [branch, { type: "null" }] };
}

/**
 * The zod schema as the SDK sees it (Standard Schema: it validates with zod as before) with its JSON
 * Schema made portable for `tools/list`. An object that passed once passes again without a second
 * walk: the SDK validates every call's structured content, and a tool's kept rendering
 * (`keptRendering`) hands it the same, unchanged object on every call of one stored version.
 */
export function portable<S extends z.ZodObject>(schema: S): S {
  const standard = schema["~standard"] as S["~standard"] & {
    jsonSchema: { input(options: unknown): unknown; output(options: unknown): unknown };
  };
  type Validated = ReturnType<S["~standard"]["validate"]>;
  const passed = new WeakMap<object, Validated>();
  const validate = (value: unknown): Validated => {
    const known = typeof value === "object" && value !== null ? passed.get(value) : undefined;
    if (known) return known;
    const outcome = standard.validate(value) as Validated;
    if (typeof value === "object" && value !== null && !(outcome instanceof Promise) && !outcome.issues) {
      passed.set(value, outcome);
    }
    return outcome;
  };
  return {
    "~standard": {
      ...standard,
      validate,
      jsonSchema: {
        input: (options: unknown) => portableJsonSchema(standard.jsonSchema.input(options)),
        output: (options: unknown) => portableJsonSchema(standard.jsonSchema.output(options)),
      },
    },
  } as unknown as S;
}
