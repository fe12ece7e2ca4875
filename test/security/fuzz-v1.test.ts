import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { parseJson, type Surface } from "./support/checks";
import { FUZZ_ENV, type FuzzCase, runFuzz, weighted } from "./support/fuzz";
import {
  ALL_METHODS,
  BROKEN_BODIES,
  FUZZ_SEED,
  hostileJson,
  hostileString,
  MALFORMED_ENCODINGS,
  mutateJson,
  WRONG_CONTENT_TYPES,
} from "./support/hostile";
import { type Exchange, enc, queryString } from "./support/http";
import { fromSchema, type JsonSchema } from "./support/json-schema";

/**
 * Every operation of the v1 OpenAPI document (live routes and their sandbox copies), fed with requests
 * generated from its own parameter and body schemas and mutated into hostile ones.
 */
const RUNS_PER_OPERATION = 20;

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

// Refusals of input, after which nothing may have been stored. A track the carrier answered (even
// "not found") is not a refusal: it records the call and a failed shipment by design.
const REFUSAL_ERRORS = new Set([
  "invalid_parameter",
  "malformed_body",
  "body_too_large",
  "invalid_reference",
  "unsupported_reference_type",
  "route_not_found",
  "method_not_allowed",
  "missing_api_key",
  "invalid_api_key",
]);
const isRefusal = (_surface: Surface, ex: Exchange) => {
  if ([405, 406, 411, 413, 415, 431].includes(ex.status)) return true;
  const body = parseJson(ex.text);
  const error = body.ok ? (body.value as { data?: { error?: unknown } } | null)?.data?.error : undefined;
  return ex.status >= 400 && ex.status < 500 && typeof error === "string" && REFUSAL_ERRORS.has(error);
};

const clock = new ManualClock();
let app: TestApp;
let org: OrgWithKey;
let known: string[];
let document: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  app = await startTestApp({ clock, env: FUZZ_ENV });
  org = await app.fixtures.organization({ plan: "custom" });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 2 }));
  const res = await fetch(`${app.url}/api/v1/openapi.json`);
  document = (await res.json()) as typeof document;
}, 120_000);
afterAll(() => app?.stop());

const operationsOf = (doc: typeof document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "patch", "delete", "put"].includes(method))
      .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
  );

/** A parameter's value on the wire: one that fits its schema, a known reference, or a hostile one. */
function parameterValue(schema: JsonSchema | undefined, root: unknown): fc.Arbitrary<string> {
  return weighted<string>(
    [4, fromSchema(schema, root).map((v) => enc(typeof v === "string" ? v : JSON.stringify(v)))],
    [1, fc.constantFrom(...known, "SHP-1", "SHP-2", "MAEU123456789", "MSCU1234566").map(enc)],
    [3, hostileString().map(enc)],
    [1, fc.constantFrom(...MALFORMED_ENCODINGS)],
  );
}

function requestsFor(operation: Operation, root: unknown): fc.Arbitrary<FuzzCase> {
  const sandbox = operation.path.startsWith("/sandbox");
  const surface: Surface = sandbox ? "sandbox" : "v1";
  const pathParams = operation.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
  const queryParams = (operation.parameters ?? []).filter((p) => p.in === "query");
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;

  const path = fc
    .tuple(
      ...pathParams.map((name) =>
        parameterValue(operation.parameters?.find((p) => p.name === name)?.schema, root),
      ),
    )
    .map((values) => pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i]!), operation.path));
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        weighted<[string, string][]>(
          [2, fc.constant([])],
          [3, parameterValue(p.schema, root).map((v) => [[p.name, v]])],
          [
            1,
            fc.tuple(parameterValue(p.schema, root), parameterValue(p.schema, root)).map(([a, b]) => [
              [p.name, a],
              [p.name, b],
            ]),
          ],
          [1, parameterValue(p.schema, root).map((v) => [[`${p.name}[x]`, v]])],
        ),
      ),
      weighted<[string, string][]>(
        [4, fc.constant([])],
        [1, hostileString().map((v) => [[enc(v) || "unknown", enc(v)]])],
      ),
    )
    .map((pairs) => pairs.flat());
  const jsonBody = bodySchema
    ? weighted<unknown>(
        [3, fromSchema(bodySchema, root)],
        [
          4,
          fc
            .tuple(fromSchema(bodySchema, root), hostileJson(), fc.nat())
            .map(([v, h, n]) => mutateJson(v, h, n)),
        ],
      ).map((v) => ({ contentType: "application/json", body: JSON.stringify(v) }))
    : fc.constant(undefined);
  const body = weighted<{ contentType: string; body: string } | undefined>(
    [6, jsonBody],
    [2, fc.constantFrom(...BROKEN_BODIES).map((b) => ({ contentType: "application/json", body: b }))],
    [
      1,
      fc
        .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.constantFrom('{"shipments":[]}', "a=1", "<x/>"))
        .map(([contentType, b]) => ({ contentType, body: b })),
    ],
  );
  const method = weighted<string>([6, fc.constant(operation.method)], [1, fc.constantFrom(...ALL_METHODS)]);
  const key = sandbox
    ? fc.constant<string | null>(null)
    : weighted<string | null>(
        [12, fc.constant(org.key)],
        [1, fc.constant(null)],
        [1, fc.constant("qk_live_wrong")],
      );

  return fc
    .record({ path, query, body, method, key })
    .map(({ path: p, query: q, body: b, method: m, key: k }) => ({
      operation: `${operation.method} /api/v1${operation.path}`,
      surface,
      request: {
        method: m,
        path: `/api/v1${p}${queryString(q)}`,
        headers: {
          accept: "application/json",
          ...(k ? { authorization: `Bearer ${k}` } : {}),
          ...(b?.contentType ? { "content-type": b.contentType } : {}),
        },
        body: b && m !== "GET" && m !== "HEAD" ? b.body : undefined,
      },
    }));
}

describe("fuzz: v1 API and its sandbox, every operation of the OpenAPI document", () => {
  it("the document describes the live routes and their sandbox copies", () => {
    const operations = operationsOf(document);
    expect(operations.filter((o) => !o.path.startsWith("/sandbox")).length).toBeGreaterThanOrEqual(16);
    expect(operations.filter((o) => o.path.startsWith("/sandbox")).length).toBeGreaterThanOrEqual(17);
  });

  it("answers every generated request without a 5xx, internal text or a foreign format, with nosniff, and stores nothing on a refusal", async () => {
    const operations = operationsOf(document);
    const reports: string[] = [];
    let requests = 0;
    for (const [i, operation] of operations.entries()) {
      const findings = await runFuzz({
        app,
        clock,
        label: `${operation.method} /api/v1${operation.path}`,
        seed: FUZZ_SEED + i,
        numRuns: RUNS_PER_OPERATION,
        cases: requestsFor(operation, document),
        organizationId: org.organizationId,
        isRefusal,
      });
      requests += findings.requests;
      if (findings.distinct > 0) reports.push(findings.report());
    }
    console.info(`fuzz v1: ${operations.length} operations, ${requests} requests`);
    expect(reports.join("\n\n")).toBe("");
  }, 240_000);

  it("answers hostile share-page tokens and unknown v1 paths in their own format", async () => {
    const token = weighted<string>(
      [3, hostileString().map(enc)],
      [1, fc.constantFrom(...MALFORMED_ENCODINGS)],
    );
    const cases = weighted<FuzzCase>(
      [
        1,
        fc.tuple(token, fc.constantFrom(...ALL_METHODS)).map(([t, m]) => ({
          operation: `${m === "GET" || m === "HEAD" ? "GET" : "other verb"} /share/{token}`,
          surface: "share",
          request: { method: m, path: `/share/${t}` },
        })),
      ],
      [
        1,
        fc.tuple(token, fc.constantFrom(...ALL_METHODS)).map(([t, m]) => ({
          operation: "unknown /api/v1 path",
          surface: "v1",
          request: { method: m, path: `/api/v1/${t}`, headers: { authorization: `Bearer ${org.key}` } },
        })),
      ],
    );
    const findings = await runFuzz({
      app,
      clock,
      label: "share pages and unknown v1 paths",
      seed: FUZZ_SEED,
      numRuns: 100,
      cases,
      organizationId: org.organizationId,
      isRefusal,
    });
    expect(findings.report()).toBe("");
  }, 120_000);
});
