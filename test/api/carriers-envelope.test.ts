import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/**
 * GET /api/v1/carriers is written from its kept answer's JSON (facades/v1/respond.ts `sendV1List`)
 * instead of `res.json`: the bytes and headers must be exactly what `res.json` sent, on the answer
 * that fills the cache and on the ones it serves.
 */
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp();
  org = await app.fixtures.organization();
}, 300_000);
afterAll(async () => {
  await app?.stop();
});

const carriers = (query = "", method = "GET") =>
  fetch(`${app.url}/api/v1/carriers${query}`, { method, headers: { authorization: `Bearer ${org.key}` } });

describe("GET /api/v1/carriers", () => {
  it("answers the v1 list envelope byte for byte, first and kept, with its JSON headers", async () => {
    const first = await carriers();
    const firstText = await first.text();
    const kept = await carriers();
    const keptText = await kept.text();

    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Number(first.headers.get("content-length"))).toBe(Buffer.byteLength(firstText));
    expect(keptText).toBe(firstText);
    const body = JSON.parse(firstText) as { success: boolean; total: number; data: { scac: string }[] };
    expect(body.total).toBe(body.data.length);
    expect(body.data.length).toBeGreaterThan(10);
    // What `res.json({ success: true, total, data })` writes: the same keys in the same order.
    expect(firstText).toBe(JSON.stringify({ success: true, total: body.data.length, data: body.data }));
  });

  it("filters by search with the same envelope, and answers HEAD with the headers and no body", async () => {
    const found = await carriers("?search=maersk");
    const text = await found.text();
    const body = JSON.parse(text) as { total: number; data: { scac: string }[] };
    expect(body.data.map((c) => c.scac)).toContain("MAEU");
    expect(text).toBe(JSON.stringify({ success: true, total: body.data.length, data: body.data }));

    const head = await carriers("?search=maersk", "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(await head.text()).toBe("");
  });
});
