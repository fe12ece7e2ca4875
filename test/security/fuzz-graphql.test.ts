import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { parseJson, type Surface } from "./support/checks";
import { FUZZ_ENV, type FuzzCase, runFuzz, weighted } from "./support/fuzz";
import {
  ALL_METHODS,
  BROKEN_BODIES,
  FUZZ_SEED,
  hostileJson,
  hostileString,
  WRONG_CONTENT_TYPES,
} from "./support/hostile";
import type { Exchange } from "./support/http";

/**
 * Every query and mutation field of the schema, read by introspection from the running app, called
 * with arguments generated from their types and with hostile ones; and hostile documents and requests.
 */
const RUNS_PER_FIELD = 12;
const HOSTILE_DOCUMENT_RUNS = 150;

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface FullType {
  kind: string;
  name: string;
  fields: Field[] | null;
  inputFields: { name: string; type: TypeRef }[] | null;
  enumValues: { name: string }[] | null;
  possibleTypes: { name: string }[] | null;
}

const INTROSPECTION = `{ __schema { queryType { name } mutationType { name } types {
  kind name
  fields { name args { name type { ...T } } type { ...T } }
  inputFields { name type { ...T } }
  enumValues { name }
  possibleTypes { name }
} } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`;

// A refused document changes nothing: a request error (no data), or every error a refusal of input.
const REFUSAL_CODES = new Set([
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "UNAUTHENTICATED",
  "METHOD_NOT_ALLOWED",
  "NOT_FOUND",
]);
const isRefusal = (_surface: Surface, ex: Exchange) => {
  if (ex.status >= 400) return true;
  const body = parseJson(ex.text);
  if (!body.ok) return false;
  const { data, errors } = body.value as {
    data?: Record<string, unknown> | null;
    errors?: { extensions?: { code?: string } }[];
  };
  if (!errors?.length) return false;
  return !data || errors.every((e) => REFUSAL_CODES.has(String(e.extensions?.code)));
};

const clock = new ManualClock();
let app: TestApp;
let org: OrgWithKey;
let types: Map<string, FullType>;
let roots: { kind: "query" | "mutation"; field: Field }[];

beforeAll(async () => {
  app = await startTestApp({ clock, env: FUZZ_ENV });
  org = await app.fixtures.organization({ plan: "custom" });
  const res = await graphql(app, org.key, INTROSPECTION);
  const schema = (
    res.body.data as {
      __schema: { queryType: { name: string }; mutationType: { name: string }; types: FullType[] };
    }
  ).__schema;
  types = new Map(schema.types.map((t) => [t.name, t]));
  roots = [
    ...(types.get(schema.queryType.name)?.fields ?? []).map((field) => ({ kind: "query" as const, field })),
    ...(types.get(schema.mutationType.name)?.fields ?? []).map((field) => ({
      kind: "mutation" as const,
      field,
    })),
  ];
}, 120_000);
afterAll(() => app?.stop());

const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);
const printType = (t: TypeRef): string =>
  t.kind === "NON_NULL"
    ? `${printType(t.ofType!)}!`
    : t.kind === "LIST"
      ? `[${printType(t.ofType!)}]`
      : t.name!;

/** A value of a GraphQL input type, from its scalars, enums and input objects. */
function inputValue(t: TypeRef, depth = 0): fc.Arbitrary<unknown> {
  if (t.kind === "NON_NULL") return inputValue(t.ofType!, depth);
  if (t.kind === "LIST") return fc.array(inputValue(t.ofType!, depth + 1), { maxLength: 3 });
  const type = types.get(t.name!);
  if (type?.kind === "ENUM") return fc.constantFrom(...(type.enumValues ?? []).map((v) => v.name));
  if (type?.kind === "INPUT_OBJECT" && depth < 4) {
    const fields = type.inputFields ?? [];
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, depth + 1)])), {
      requiredKeys: fields.filter((f) => f.type.kind === "NON_NULL").map((f) => f.name),
    });
  }
  switch (t.name) {
    case "Int":
      return fc.oneof(fc.integer({ min: -5, max: 250 }), fc.constantFrom(1, 20));
    case "Float":
      return fc.double({ noNaN: true, min: -1e3, max: 1e3 });
    case "Boolean":
      return fc.boolean();
    case "DateTime":
      return fc.oneof(
        {
          weight: 1,
          arbitrary: fc
            .date({ min: new Date("2000-01-01"), max: new Date("2040-01-01"), noInvalidDate: true })
            .map((d) => d.toISOString()),
        },
        // ISO 8601 spellings no database stores (issue 39 item 6): a refusal, never an internal error.
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "0000-01-01T00:00:00Z",
            "-000001-01-01T00:00:00Z",
            "+275760-09-13T00:00:00Z",
          ),
        },
      );
    default:
      return fc.oneof(
        fc.constantFrom("MSCU1234566", "SHP-1", "MAEU", "rotterdam", "NLRTM", "https://example.com/h"),
        fc.string({ maxLength: 20 }),
      );
  }
}

/** The selection of a field's type: __typename and its argument-free scalar fields (every member of a union). */
function selection(t: TypeRef): string {
  const type = types.get(named(t).name!);
  if (!type || type.kind === "SCALAR" || type.kind === "ENUM") return "";
  const scalars = (o: FullType) =>
    (o.fields ?? [])
      .filter(
        (f) =>
          f.args.every((a) => a.type.kind !== "NON_NULL") &&
          ["SCALAR", "ENUM"].includes(types.get(named(f.type).name!)?.kind ?? ""),
      )
      .map((f) => f.name)
      .join(" ");
  if (type.kind === "UNION" || type.kind === "INTERFACE") {
    return `{ __typename ${(type.possibleTypes ?? []).map((p) => `... on ${p.name} { ${scalars(types.get(p.name)!)} }`).join(" ")} }`;
  }
  return `{ __typename ${scalars(type)} }`;
}

/** One call of a root field: arguments as variables (typed, or of the wrong type) or inline literals. */
function callsOf(kind: "query" | "mutation", field: Field): fc.Arbitrary<FuzzCase> {
  const args = field.args;
  const values = fc.tuple(
    ...args.map((a) =>
      weighted<unknown>([5, inputValue(a.type)], [3, hostileJson()], [1, fc.constant(undefined)]),
    ),
  );
  return fc.tuple(values, fc.boolean()).map(([vals, inline]) => {
    const present = args.map((a, i) => ({ a, v: vals[i] })).filter(({ v }) => v !== undefined);
    const argList = inline
      ? present.map(({ a, v }) => `${a.name}: ${literal(v)}`).join(", ")
      : present.map(({ a }) => `${a.name}: $${a.name}`).join(", ");
    const header =
      !inline && present.length
        ? `(${present.map(({ a }) => `$${a.name}: ${printType(a.type)}`).join(", ")})`
        : "";
    const query = `${kind} Fuzz${header} { ${field.name}${argList ? `(${argList})` : ""} ${selection(field.type)} }`;
    const variables = inline ? {} : Object.fromEntries(present.map(({ a, v }) => [a.name, v]));
    return {
      operation: `${kind} ${field.name}`,
      surface: "graphql" as const,
      request: {
        method: "POST",
        path: "/graphql",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${org.key}`,
        },
        body: JSON.stringify({ query, variables }),
      },
    };
  });
}

/** A GraphQL literal; enum-looking strings stay strings (a wrong type is the point). */
function literal(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(literal).join(", ")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${/^[_A-Za-z]\w*$/.test(k) ? k : "bad_key"}: ${literal(x)}`)
      .join(", ")}}`;
  if (typeof v === "number" && !Number.isFinite(v)) return "0";
  return JSON.stringify(v) ?? "null";
}

const repeat = (n: number, f: (i: number) => string, sep = " ") =>
  Array.from({ length: n }, (_, i) => f(i)).join(sep);

/** Documents built to hurt a server: depth, width, fragments, directives, size, broken syntax. */
const HOSTILE_DOCUMENTS = fc.oneof(
  fc
    .integer({ min: 10, max: 2_000 })
    .map((n) => `${"{ viewer ".repeat(1)}${"{ a ".repeat(n)}${"}".repeat(n)} }`),
  fc.integer({ min: 50, max: 3_000 }).map((n) => `{ ${repeat(n, (i) => `a${i}: __typename`)} }`),
  fc
    .integer({ min: 10, max: 500 })
    .map(
      (n) =>
        `{ ${repeat(n, (i) => `v${i}: viewer { user { id email } organization { users { id } apiKeys { id } } }`)} }`,
    ),
  fc
    .integer({ min: 10, max: 500 })
    .map(
      (n) =>
        `{ ...F0 } ${repeat(n, (i) => `fragment F${i} on Query { viewer { user { id } } ${i + 1 < n ? `...F${i + 1}` : ""} }`)}`,
    ),
  fc
    .integer({ min: 2, max: 12 })
    .map(
      (n) =>
        `{ ...F0 } ${repeat(n, (i) => (i + 1 < n ? `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }` : `fragment F${i} on Query { __typename }`))}`,
    ),
  fc.integer({ min: 10, max: 3_000 }).map((n) => `{ __typename ${repeat(n, () => "@include(if: true)")} }`),
  fc.constantFrom(
    "{ __typename @nope }",
    "{ __typename @skip(if: 1) }",
    "{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }",
    "subscription { __typename }",
    "{ ...Missing }",
    "fragment A on Query { ...A } { ...A }",
    "query Q($x: String!) { shipment(id: $x) { id } }",
    "mutation { recordApiCall(surface: COMPAT) { __typename } }",
    "query A { __typename } query A { __typename }",
    '{ shipment(id: "\\uD800") { id } }',
    '{ shipment(id: "\\u0000") { id } }',
    '{ shipment(id: "',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => `{ shipment(id: "${"A".repeat(n)}") { id } }`),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc
    .tuple(
      fc.constantFrom("{ viewer { user { id } } }", "query($a: Int = 1) { shipments(page: $a) { total } }"),
      fc.nat(),
    )
    .map(([d, n]) => d.slice(0, n % d.length)),
);

function hostileRequests(): fc.Arbitrary<FuzzCase> {
  const auth = { authorization: `Bearer ${org.key}` };
  const post = (body: string, contentType = "application/json") => ({
    method: "POST",
    path: "/graphql",
    headers: { ...auth, "content-type": contentType, accept: "application/json" },
    body,
  });
  return weighted<FuzzCase>(
    [
      6,
      HOSTILE_DOCUMENTS.map((query) => ({
        operation: "hostile document",
        surface: "graphql",
        request: post(JSON.stringify({ query })),
      })),
    ],
    [
      2,
      fc
        .constantFrom(...BROKEN_BODIES)
        .map((b) => ({ operation: "broken body", surface: "graphql", request: post(b) })),
    ],
    [
      2,
      fc.tuple(hostileJson(), hostileJson(), hostileJson()).map(([q, v, o]) => ({
        operation: "wrong JSON shapes",
        surface: "graphql",
        request: post(
          JSON.stringify({ query: typeof q === "string" ? q : q, variables: v, operationName: o }),
        ),
      })),
    ],
    [
      1,
      fc.constantFrom(...WRONG_CONTENT_TYPES).map((t) => ({
        operation: "wrong content type",
        surface: "graphql",
        request: post('{"query":"{ __typename }"}', t),
      })),
    ],
    [
      1,
      fc.constant({
        operation: "batch",
        surface: "graphql",
        request: post(JSON.stringify([{ query: "{ __typename }" }, { query: "{ viewer { user { id } } }" }])),
      }),
    ],
    [
      2,
      fc
        .tuple(
          fc.constantFrom(...ALL_METHODS),
          fc.constantFrom(
            "{ __typename }",
            "mutation { setDeveloperMode(enabled: true) { id } }",
            "%7B",
            "%",
            "%FF",
          ),
        )
        .map(([method, q]) => ({
          operation: `${method} /graphql`,
          surface: "graphql",
          request: {
            method,
            path: `/graphql?query=${q.startsWith("%") ? q : encodeURIComponent(q)}`,
            headers: { ...auth, accept: "application/json" },
          },
        })),
    ],
    [
      1,
      hostileString().map((k) => ({
        operation: "hostile key",
        surface: "graphql",
        request: {
          ...post('{"query":"{ __typename }"}'),
          headers: { "content-type": "application/json", "x-api-key": encodeURIComponent(k) },
        },
      })),
    ],
  );
}

describe("fuzz: GraphQL, every query and mutation field, and hostile documents", () => {
  it("reads the schema's fields by introspection", () => {
    expect(roots.filter((r) => r.kind === "query").length).toBeGreaterThan(15);
    expect(roots.filter((r) => r.kind === "mutation").length).toBeGreaterThan(10);
  });

  it("answers every generated call of every field without a 5xx, internal text or a foreign format, with nosniff, and stores nothing on a refusal", async () => {
    const reports: string[] = [];
    let requests = 0;
    for (const [i, { kind, field }] of roots.entries()) {
      // Not this key's own switch: turning developer mode off would only change every later answer.
      const findings = await runFuzz({
        app,
        clock,
        label: `${kind} ${field.name}`,
        seed: FUZZ_SEED + i,
        numRuns: RUNS_PER_FIELD,
        cases: callsOf(kind, field),
        organizationId: org.organizationId,
        isRefusal,
      });
      requests += findings.requests;
      if (findings.distinct > 0) reports.push(findings.report());
    }
    console.info(`fuzz graphql: ${roots.length} root fields, ${requests} requests`);
    expect(reports.join("\n\n")).toBe("");
  }, 240_000);

  it("answers hostile documents, bodies, content types and verbs in GraphQL's format, promptly, and stores nothing", async () => {
    const findings = await runFuzz({
      app,
      clock,
      label: "hostile GraphQL requests",
      seed: FUZZ_SEED,
      numRuns: HOSTILE_DOCUMENT_RUNS,
      cases: hostileRequests(),
      organizationId: org.organizationId,
      isRefusal,
    });
    expect(findings.report()).toBe("");
  }, 240_000);
});
