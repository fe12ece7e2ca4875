import fc from "fast-check";

/**
 * The fixed seed of every fuzz file: CI runs are reproducible, and a failure message names it. To
 * explore further, change it here (or pass another to `fuzzSeed`) and run the file again.
 */
export const FUZZ_SEED = 260_026;

/** Values that have broken services like this one: each is a known way to reach an unguarded path. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "MSCU\u00001234566",
  "\uD800",
  "a\uDFFFb",
  "\uFFFE\uFFFF",
  "\u202Eevil",
  "😀🚢",
  "e\u0301\u0301\u0301",
  "\r\nX-Injected: 1",
  "\t\v\f",
  "0000-01-01T00:00:00Z",
  "0000-00-00",
  "0000-01-01",
  "-000001-01-01T00:00:00Z",
  "+275760-09-13T00:00:00.001Z",
  "9999-12-31T23:59:59Z",
  "2026-02-30T00:00:00Z",
  "2026-13-01",
  "-1",
  "0",
  "-0",
  "1e309",
  "9007199254740993",
  "99999999999999999999999",
  "2147483648",
  "-2147483649",
  "NaN",
  "Infinity",
  "0x1F",
  "1.5",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "' OR '1'='1",
  "'; DROP TABLE shipments; --",
  '"; SELECT pg_sleep(5); --',
  "\\",
  "%",
  "%00",
  "../../../etc/passwd",
  "..%2f..%2f",
  "$" + "{7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "SHP-",
  "SHP--1",
  "SHP-99999999999999999999",
  "SHP-0",
  "SBXU4290003",
  "MSCU1234566",
  "MSCU1234565",
  "auto",
  "AUTO",
];

/** Raw (not percent-encoded) pieces of a URL that are not valid percent-encoding or not UTF-8. */
export const MALFORMED_ENCODINGS: readonly string[] = [
  "%",
  "%%",
  "%zz",
  "%G0",
  "%FF",
  "%C0%AF",
  "%E0%80",
  "%ED%A0%80",
  "%F4%90%80%80",
  "a%2",
  "%u0041",
];

export const hugeString = (maxLength: number) =>
  fc
    .integer({ min: 1_000, max: maxLength })
    .chain((n) =>
      fc.constantFrom("A", "é", "😀", "\u0000", "%").map((c) => c.repeat(Math.ceil(n / c.length))),
    );

/** A hostile string: a known bad value, any code units at all (lone surrogates included), or a huge one. */
export const hostileString = (options: { maxHuge?: number } = {}): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: hugeString(options.maxHuge ?? 1_200) },
  );

/** A JSON value of the wrong type for whatever field it lands in. */
export const hostileJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: hostileString({ maxHuge: 100_000 }) },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER),
    fc.constant([]),
    fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 5 }),
    fc.constantFrom<unknown>({}, { $gt: "" }, JSON.parse('{"__proto__":{"polluted":true}}'), {
      constructor: { prototype: { polluted: true } },
    }),
    fc
      .integer({ min: 50, max: 3_000 })
      .map((depth) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
  );

/** Bodies that are not JSON at all, or are JSON of the wrong overall kind. */
export const BROKEN_BODIES: readonly string[] = [
  "",
  "{",
  '{"a":',
  "[",
  "}",
  "nul",
  "null",
  "0",
  '"text"',
  "[]",
  "[1,2,3]",
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":1e999999}',
  '{"__proto__":{"polluted":true}}',
  "\u0000",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  "\uFEFF{}",
  `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  `{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
];

export const WRONG_CONTENT_TYPES: readonly string[] = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=utf-16",
  "application/json; charset=bogus",
  "application/graphql",
  "application/octet-stream",
  "image/png",
  "",
];

export const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Replaces one leaf (or the whole value) of a JSON document with a hostile value, or adds an unknown field. */
export function mutateJson(value: unknown, hostile: unknown, choice: number): unknown {
  const clone = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => {
        slots.push({ parent: node, key: i });
        walk(v);
      });
    } else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        slots.push({ parent: node as Record<string, unknown>, key: k });
        walk(v);
      }
    }
  };
  walk(clone);
  const mode = choice % 5;
  if (mode === 0 || slots.length === 0) return hostile;
  const slot = slots[choice % slots.length]!;
  if (mode === 1 && !Array.isArray(slot.parent)) {
    delete (slot.parent as Record<string, unknown>)[slot.key as string];
    return clone;
  }
  if (mode === 2 && clone && typeof clone === "object" && !Array.isArray(clone)) {
    (clone as Record<string, unknown>)[`unknown_${choice % 97}`] = hostile;
    return clone;
  }
  if (mode === 3) {
    (slot.parent as Record<string | number, unknown>)[slot.key] = [hostile, hostile];
    return clone;
  }
  (slot.parent as Record<string | number, unknown>)[slot.key] = hostile;
  return clone;
}
