import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { parseJson, type Surface } from "./support/checks";
import { FUZZ_ENV, type FuzzCase, runFuzz, weighted } from "./support/fuzz";
import { ALL_METHODS, FUZZ_SEED, hostileString, MALFORMED_ENCODINGS } from "./support/hostile";
import { type Exchange, enc, queryString } from "./support/http";

/**
 * Every operation and parameter of the compatibility API (compat spec section 4), with the
 * three key transports of section 5, fed with valid, hostile and malformed values.
 */
const RUNS_PER_ENDPOINT = 60;

const ENDPOINTS: Record<string, readonly string[]> = {
  "/tracking": ["number", "sealine", "type", "force_update", "route", "ais"],
  "/container": ["number", "sealine", "force_update", "route", "ais"],
  "/reference": ["number", "type", "sealine", "force_update", "route", "ais"],
  "/route": ["number", "type", "sealine"],
  "/info/sealines": [],
  "/history": ["number", "type", "sealine", "id"],
};

// Refusals of the request itself; the contract counts every admitted call in api_call_counts (even
// these), so that table is left out of the comparison.
const REFUSAL_MESSAGES = new Set([
  "WRONG_PARAMETERS",
  "WRONG_NUMBER",
  "WRONG_TYPE",
  "WRONG_SEALINE",
  "API_KEY_WRONG",
  "SEALINE_NOT_SUPPORTED",
  "AUTO_CANT_DETECT_TYPE",
]);
const isRefusal = (_surface: Surface, ex: Exchange) => {
  const body = parseJson(ex.text);
  const message = body.ok ? (body.value as { message?: unknown } | null)?.message : undefined;
  return ex.status === 405 || (typeof message === "string" && REFUSAL_MESSAGES.has(message));
};

const clock = new ManualClock();
let app: TestApp;
let org: OrgWithKey;
let known: string[];

beforeAll(async () => {
  app = await startTestApp({ clock, env: FUZZ_ENV });
  org = await app.fixtures.organization({ plan: "custom" });
  ({ known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 2 }));
  // A logged call, so /history and history-by-id reach a stored document.
  await fetch(`${app.url}/compat/tracking?number=${known[0]}&api_key=${org.key}`);
}, 120_000);
afterAll(() => app?.stop());

const VALID: Record<string, () => readonly string[]> = {
  number: () => [...known, "MSCU1234566", "MAEU123456789", "SBXU4290003"],
  sealine: () => ["MSCU", "MAEU", "auto", "", "ZZZZ"],
  type: () => ["CT", "BL", "BK", "ct", ""],
  force_update: () => ["true", "false", "1", "0"],
  route: () => ["true", "false"],
  ais: () => ["true", "false"],
  id: () => ["1", "2", "2147483647"],
};

const value = (name: string) =>
  weighted<string>(
    [4, fc.constantFrom(...(VALID[name]?.() ?? ["x"])).map(enc)],
    [3, hostileString().map(enc)],
    [1, fc.constantFrom(...MALFORMED_ENCODINGS)],
  );

/** The key in one of the three transports, in two at once, twice, or missing or wrong. */
const keyTransport = () =>
  weighted<{ query: [string, string][]; headers: Record<string, string> }>(
    [4, fc.constant({ query: [["api_key", enc(org.key)]], headers: {} })],
    [3, fc.constant({ query: [], headers: { "x-api-key": org.key } })],
    [3, fc.constant({ query: [], headers: { authorization: `Bearer ${org.key}` } })],
    [
      1,
      fc.constant({
        query: [
          ["api_key", enc(org.key)],
          ["api_key", "other"],
        ],
        headers: {},
      }),
    ],
    [1, fc.constant({ query: [], headers: { "x-api-key": org.key, authorization: "Bearer wrong" } })],
    [
      1,
      hostileString().map(
        (v) =>
          ({ query: [["api_key", enc(v)]], headers: {} }) as {
            query: [string, string][];
            headers: Record<string, string>;
          },
      ),
    ],
    [1, fc.constant({ query: [], headers: {} })],
  );

function requestsFor(path: string, params: readonly string[]): fc.Arbitrary<FuzzCase> {
  const query = fc
    .tuple(
      ...params.map((name) =>
        weighted<[string, string][]>(
          [2, fc.constant([])],
          [5, value(name).map((v) => [[name, v]])],
          [
            1,
            fc.tuple(value(name), value(name)).map(([a, b]) => [
              [name, a],
              [name, b],
            ]),
          ],
          [1, value(name).map((v) => [[`${name}[x]`, v]])],
        ),
      ),
      weighted<[string, string][]>(
        [5, fc.constant([])],
        [1, hostileString().map((v) => [[enc(v) || "x", enc(v)]])],
      ),
    )
    .map((pairs) => pairs.flat());
  const method = weighted<string>([8, fc.constant("GET")], [1, fc.constantFrom(...ALL_METHODS)]);
  return fc.record({ query, method, key: keyTransport() }).map(({ query: q, method: m, key }) => ({
    operation: `GET /compat${path}`,
    surface: "compat" as const,
    request: { method: m, path: `/compat${path}${queryString([...key.query, ...q])}`, headers: key.headers },
  }));
}

describe("fuzz: compat API, every endpoint, parameter and key transport", () => {
  it("answers every generated request without a 5xx, internal text or a foreign format, with nosniff, and stores nothing on a refusal", async () => {
    const reports: string[] = [];
    let requests = 0;
    const endpoints = Object.entries(ENDPOINTS);
    for (const [i, [path, params]] of endpoints.entries()) {
      const findings = await runFuzz({
        app,
        clock,
        label: `GET /compat${path}`,
        seed: FUZZ_SEED + i,
        numRuns: RUNS_PER_ENDPOINT,
        cases: requestsFor(path, params),
        organizationId: org.organizationId,
        isRefusal,
        ignoreTables: () => ["api_call_counts"],
      });
      requests += findings.requests;
      if (findings.distinct > 0) reports.push(findings.report());
    }
    const unknown = await runFuzz({
      app,
      clock,
      label: "unknown /compat paths",
      seed: FUZZ_SEED,
      numRuns: 40,
      cases: fc
        .tuple(
          weighted<string>([3, hostileString().map(enc)], [1, fc.constantFrom(...MALFORMED_ENCODINGS)]),
          fc.constantFrom(...ALL_METHODS),
        )
        .map(([p, m]) => ({
          operation: "unknown /compat path",
          surface: "compat",
          request: { method: m, path: `/compat/${p}?api_key=${enc(org.key)}` },
        })),
      organizationId: org.organizationId,
      isRefusal,
      ignoreTables: () => ["api_call_counts"],
    });
    requests += unknown.requests;
    if (unknown.distinct > 0) reports.push(unknown.report());
    console.info(`fuzz compat: ${endpoints.length} endpoints, ${requests} requests`);
    expect(reports.join("\n\n")).toBe("");
  }, 240_000);
});
