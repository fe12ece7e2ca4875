import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryCounterStore } from "../../../src/domain/limits/counter-store";
import { ManualClock } from "../../../src/lib/clock";
import type { CarrierQuery } from "../../../src/upstream/carriers/carrier-adapter";
import { type CarrierCourtesy, createCarrierCourtesy } from "../../../src/upstream/carriers/carrier-courtesy";
import {
  createDcsaTntAdapter,
  type DcsaTntAdapterOptions,
  linkNext,
} from "../../../src/upstream/carriers/dcsa-tnt.adapter";
import type { Sleep } from "../../../src/upstream/http/request";
import { json, startTestServer, type TestServer } from "./test-server";

/**
 * Issue 24 item 5: paging links as carriers send them, bodies as they encode them, and a client that
 * remembers a carrier's request to wait and keeps to its request budget.
 */

const box = (reference: string): CarrierQuery => ({ scac: "HLCU", reference, referenceType: "container" });
const ev = (id: string) => ({ eventID: id, eventType: "EQUIPMENT" });

let server: TestServer;
let clock: ManualClock;
let sleeps: number[];
const sleep: Sleep = async (ms) => {
  sleeps.push(ms);
  clock.advance(ms);
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  clock = new ManualClock("2024-01-10T12:00:30Z");
  sleeps = [];
});

function courtesyIn(counters = new MemoryCounterStore(clock)): CarrierCourtesy {
  return createCarrierCourtesy({ counters, clock, sleep, maxWaitMs: 10_000 });
}

function adapter(overrides: Partial<DcsaTntAdapterOptions> = {}) {
  return createDcsaTntAdapter({
    scac: "HLCU",
    baseUrl: `${server.url}/HLCU`,
    auth: { kind: "none" },
    clock,
    sleep,
    random: () => 0.5,
    timeoutMs: 2_000,
    ...overrides,
  });
}

describe("paging links as carriers send them", () => {
  const threePages = (link: (page: number) => Record<string, string>) =>
    server.handle((req, res) => {
      const page = Number(req.query.get("page") ?? "1");
      json(res, 200, [ev(`e${page}`)], page < 3 ? link(page + 1) : {});
    });

  it.each([
    ["a path relative to the host", (n: number) => ({ "Next-Page": `/HLCU/v2/events?page=${n}` })],
    ["a query relative to the page", (n: number) => ({ "Next-Page": `?page=${n}` })],
    ["a dot-relative path", (n: number) => ({ "Next-Page": `./events?page=${n}` })],
    ["an RFC 8288 Link header", (n: number) => ({ Link: `</HLCU/v2/events?page=${n}>; rel="next"` })],
    [
      "a Link header with several relations",
      (n: number) => ({
        Link: `<${server.url}/HLCU/v2/events?page=1>; rel="first", <${server.url}/HLCU/v2/events?page=${n}>; rel=next`,
      }),
    ],
  ])("follows %s to the last page, the journey complete", async (_name, link) => {
    threePages(link);
    const outcome = await adapter().fetchEvents(box("HLXU8034420"));
    expect(outcome).toEqual({
      kind: "found",
      events: [ev("e1"), ev("e2"), ev("e3")],
      pages: 3,
      truncated: false,
    });
    expect(server.requests.map((r) => r.path)).toEqual([
      "/HLCU/v2/events",
      "/HLCU/v2/events",
      "/HLCU/v2/events",
    ]);
  });

  it("reads only the next relation of a Link header", () => {
    expect(linkNext('<https://a.example/p?page=1>; rel="prev"')).toBeUndefined();
    expect(linkNext('<https://a.example/p?page=3>; rel="prev next"')).toBe("https://a.example/p?page=3");
    expect(linkNext(null)).toBeUndefined();
  });
});

describe("bodies as carriers encode them", () => {
  const events = [{ eventID: "a", eventType: "TRANSPORT", note: "Terminal Nørresundby / São Paulo" }];

  it("reads a page that starts with a UTF-8 byte-order mark", async () => {
    server.handle(
      (_req, res) =>
        void res
          .writeHead(200, { "Content-Type": "application/json" })
          .end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(events))])),
    );
    expect(await adapter().fetchEvents(box("HLXU8034420"))).toEqual({
      kind: "found",
      events,
      pages: 1,
      truncated: false,
    });
  });

  it("decodes the charset the Content-Type names", async () => {
    server.handle(
      (_req, res) =>
        void res
          .writeHead(200, { "Content-Type": "application/json; charset=ISO-8859-1" })
          .end(Buffer.from(JSON.stringify(events), "latin1")),
    );
    const outcome = await adapter().fetchEvents(box("HLXU8034420"));
    expect(outcome).toMatchObject({ kind: "found", events });
  });

  it("reads a gzip-compressed page", async () => {
    server.handle(
      (_req, res) =>
        void res
          .writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" })
          .end(gzipSync(JSON.stringify(events))),
    );
    expect(await adapter().fetchEvents(box("HLXU8034420"))).toMatchObject({ kind: "found", events });
  });
});

describe("a carrier's request to wait outlives the request", () => {
  it("after a 429 with Retry-After: 3600 no lookup calls the carrier before the hour is over", async () => {
    const courtesy = courtesyIn();
    server.handle((_req, res) => json(res, 429, { statusCode: 429 }, { "Retry-After": "3600" }));
    const client = adapter({ courtesy });
    expect(await client.fetchEvents(box("HLXU8034420"))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 3600,
    });
    expect(server.requests).toHaveLength(1);

    server.handle((_req, res) => json(res, 200, [ev("a")]));
    clock.advance(4);
    // Another box, another adapter of the same carrier sharing the store: still not called.
    const again = await adapter({ courtesy }).fetchEvents(box("HLXU1234567"));
    expect(again).toEqual({ kind: "rate-limited", retryAfterSeconds: 3600 });
    clock.advance(3_589_000 - 4);
    expect(await client.fetchEvents(box("HLXU1234567"))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 11,
    });
    expect(server.requests).toHaveLength(0);

    // The last seconds (up to the longest in-request wait, 10 s here) are sat out rather than refused.
    clock.advance(1_000);
    expect(await client.fetchEvents(box("HLXU1234567"))).toMatchObject({ kind: "found" });
    expect(sleeps).toEqual([10_000]);
    expect(clock.now().toISOString()).toBe("2024-01-10T13:00:30.000Z");
    expect(server.requests).toHaveLength(1);
  });

  it("remembers an HTTP-date Retry-After on a 503 as well", async () => {
    const courtesy = courtesyIn();
    const until = new Date(clock.now().getTime() + 30 * 60_000).toUTCString();
    server.handle((_req, res) => json(res, 503, {}, { "Retry-After": until }));
    const first = await adapter({ courtesy, retry: { maxAttempts: 1 } }).fetchEvents(box("HLXU8034420"));
    expect(first).toMatchObject({ kind: "unreachable" });
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    expect(await adapter({ courtesy }).fetchEvents(box("HLXU1234567"))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 1800,
    });
    expect(server.requests).toHaveLength(0);
  });

  it("sits out a short cooldown another lookup was given, then calls", async () => {
    const courtesy = courtesyIn();
    server.handle((_req, res) => json(res, 429, {}, { "Retry-After": "2" }));
    await adapter({ courtesy, retry: { maxAttempts: 1 } }).fetchEvents(box("HLXU8034420"));
    sleeps = [];
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    expect(await adapter({ courtesy }).fetchEvents(box("HLXU1234567"))).toMatchObject({ kind: "found" });
    expect(sleeps).toEqual([2_000]);
  });

  it("does not cool a carrier down for another carrier's 429", async () => {
    const courtesy = courtesyIn();
    server.handle((_req, res) => json(res, 429, {}, { "Retry-After": "3600" }));
    await adapter({ courtesy }).fetchEvents(box("HLXU8034420"));
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    const other = adapter({ courtesy, scac: "CMDU", baseUrl: `${server.url}/CMDU` });
    expect(await other.fetchEvents({ ...box("CMAU1234567"), scac: "CMDU" })).toMatchObject({
      kind: "found",
    });
  });
});

describe("the carrier's request budget", () => {
  it("spends at most the per-minute budget, answering rate-limited until the next minute", async () => {
    const courtesy = courtesyIn();
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    const client = adapter({ courtesy, budget: { perMinute: 2 } });
    expect(await client.fetchEvents(box("HLXU0000001"))).toMatchObject({ kind: "found" });
    expect(await client.fetchEvents(box("HLXU0000002"))).toMatchObject({ kind: "found" });
    // 12:00:30: the minute ends in 30 s.
    expect(await client.fetchEvents(box("HLXU0000003"))).toEqual({
      kind: "rate-limited",
      retryAfterSeconds: 30,
    });
    expect(server.requests).toHaveLength(2);
    clock.advance(30_000);
    expect(await client.fetchEvents(box("HLXU0000003"))).toMatchObject({ kind: "found" });
    expect(server.requests).toHaveLength(3);
  });

  it("counts every page of a lookup against the budget", async () => {
    const courtesy = courtesyIn();
    server.handle((req, res) =>
      req.query.get("page")
        ? json(res, 200, [ev("b")])
        : json(res, 200, [ev("a")], { "Next-Page": "?page=2" }),
    );
    const client = adapter({ courtesy, budget: { perMinute: 3 } });
    expect(await client.fetchEvents(box("HLXU0000001"))).toMatchObject({ kind: "found", pages: 2 });
    // One request left: the second lookup's second page is refused, and half a journey is not served.
    expect(await client.fetchEvents(box("HLXU0000002"))).toMatchObject({ kind: "rate-limited" });
    expect(server.requests).toHaveLength(3);
  });

  it("keeps to the per-day budget across minutes", async () => {
    const courtesy = courtesyIn();
    server.handle((_req, res) => json(res, 200, [ev("a")]));
    const client = adapter({ courtesy, budget: { perMinute: 10, perDay: 2 } });
    await client.fetchEvents(box("HLXU0000001"));
    clock.advance(60_000);
    await client.fetchEvents(box("HLXU0000002"));
    clock.advance(60_000);
    const refused = await client.fetchEvents(box("HLXU0000003"));
    expect(refused).toMatchObject({ kind: "rate-limited" });
    // 12:02:30 UTC: the day ends in 11 h 57 min 30 s.
    expect(refused).toEqual({ kind: "rate-limited", retryAfterSeconds: 43_050 });
    expect(server.requests).toHaveLength(2);
  });
});
