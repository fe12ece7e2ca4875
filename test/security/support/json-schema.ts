import fc from "fast-check";

// The subset of JSON Schema (2020-12, as OpenAPI 3.1 and MCP's inputSchema use it) the generator reads.
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
}

/**
 * Values that fit a schema: its examples and defaults (the likeliest to get past validation and into
 * the handler), its enum, or generated ones within its bounds. Arrays are kept short: one valid
 * request per generated value, not a load test.
 */
export function fromSchema(schema: JsonSchema | undefined, root: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.$ref) return fromSchema(resolveRef(root, schema.$ref), root, depth + 1);
  const samples = [schema.example, ...(schema.examples ?? []), schema.default].filter((v) => v !== undefined);
  const generated = generate(schema, root, depth);
  return samples.length > 0
    ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...samples) }, { weight: 1, arbitrary: generated })
    : generated;
}

function generate(schema: JsonSchema, root: unknown, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => fromSchema(b, root, depth + 1)));
  if (schema.allOf?.[0]) return fromSchema(Object.assign({}, ...schema.allOf), root, depth + 1);
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : schema.properties
        ? ["object"]
        : ["string"];
  return fc.oneof(...types.map((type) => ofType(type, schema, root, depth)));
}

function ofType(type: string, schema: JsonSchema, root: unknown, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      if (schema.format === "date-time")
        return fc
          .date({ min: new Date("2000-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (schema.format === "date")
        return fc
          .date({ min: new Date("2000-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (schema.format === "uri")
        return fc.constantFrom("https://example.com/hooks", "http://127.0.0.1/x", "https://[::1]/x");
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 60) });
    case "integer":
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1_000, 2 ** 31 - 1),
      });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(fromSchema(schema.items, root, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    default: {
      const properties = schema.properties ?? {};
      const required = (schema.required ?? []).filter((k) => k in properties);
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, fromSchema(v, root, depth + 1)])),
        { requiredKeys: required },
      );
    }
  }
}

export function resolveRef(root: unknown, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node as JsonSchema | undefined;
}
