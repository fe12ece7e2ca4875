/**
 * Feed fetching against a real HTTP server on loopback (issue 20): conditional requests answered 304
 * (nothing re-read, health moves on), an HTML challenge page, a server that never answers, one that
 * stalls in the body, and a body over the cap are each the source's error while the other sources
 * still ingest; the operator of the deployment reads every source's health through GraphQL
 * `disruptionSources`, and any other caller is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const INTERVAL_MS = 60_000;
const TIMEOUT_MS = 1_500;
const MAX_BYTES = 4_096;
const clock = new ManualClock(new Date("2026-11-20T12:00:00Z"));

interface Item {
  guid: string;
  title: string;
  summary: string;
  hoursAgo: number;
}

function rss(publisher: string, items: readonly Item[]): string {
  const entries = items
    .map(
      (i) => `<item><guid>${i.guid}</guid><title>${i.title}</title>
<link>https://news.example/${i.guid}</link><description>${i.summary}</description>
<pubDate>${new Date(clock.now().getTime() - i.hoursAgo * 3_600_000).toUTCString()}</pubDate></item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${publisher}</title><link>https://news.example/</link>
<description>${publisher}</description>
${entries}
</channel></rss>`;
}

const FELIXSTOWE_STRIKE: Item = {
  guid: "fxt-1",
  title: "Dockworkers strike at the Port of Felixstowe",
  summary: "A walkout halted container handling at the Port of Felixstowe.",
  hoursAgo: 3,
};
const FELIXSTOWE_DAY_TWO: Item = {
  guid: "fxt-2",
  title: "Felixstowe walkout enters a second day as talks stall",
  summary: "Dockworkers at the Port of Felixstowe stayed out; vessels wait at anchor.",
  hoursAgo: 1,
};
const ROTTERDAM_STORM: Item = {
  guid: "rtm-1",
  title: "Storm closes the Port of Rotterdam",
  summary: "Terminals at the Port of Rotterdam suspended operations as gales hit the coast.",
  hoursAgo: 2,
};
const LAST_MODIFIED = "Fri, 20 Nov 2026 09:00:00 GMT";

/** What the feed server saw and answered, per path. */
const requests: { path: string; ifNoneMatch?: string; ifModifiedSince?: string; status: number }[] = [];
let etagVersion = 1;
let server: http.Server;
let feedBase: string;

function startFeedServer(): Promise<void> {
  server = http.createServer((req, res) => {
    const seen = {
      path: req.url ?? "",
      ifNoneMatch: req.headers["if-none-match"],
      ifModifiedSince: req.headers["if-modified-since"],
    };
    const answer = (status: number, headers: http.OutgoingHttpHeaders = {}, body?: string) => {
      requests.push({ ...seen, status });
      res.writeHead(status, headers);
      res.end(body);
    };
    switch (req.url) {
      case "/etag.xml": {
        const etag = `"v${etagVersion}"`;
        if (req.headers["if-none-match"] === etag) return answer(304, { etag });
        const items = etagVersion === 1 ? [FELIXSTOWE_STRIKE] : [FELIXSTOWE_STRIKE, FELIXSTOWE_DAY_TWO];
        return answer(200, { "content-type": "application/rss+xml", etag }, rss("Harbour Wire", items));
      }
      case "/last-modified.xml":
        if (req.headers["if-modified-since"] === LAST_MODIFIED)
          return answer(304, { "last-modified": LAST_MODIFIED });
        return answer(
          200,
          { "content-type": "application/rss+xml", "last-modified": LAST_MODIFIED },
          rss("Quay Ledger", [ROTTERDAM_STORM]),
        );
      case "/challenge.xml":
        // What a bot wall answers a feed reader: 200 and an HTML page.
        return answer(
          200,
          { "content-type": "text/html; charset=utf-8" },
          "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser before accessing the site.</body></html>",
        );
      case "/silent.xml":
        requests.push({ ...seen, status: 0 });
        return; // never answers
      case "/stalled.xml":
        requests.push({ ...seen, status: 200 });
        res.writeHead(200, { "content-type": "application/rss+xml" });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Stalled</title>');
        return; // the rest never comes
      case "/huge.xml": {
        const padding = Array.from({ length: 40 }, (_, n) => ({
          guid: `bulk-${n}`,
          title: `Weekly schedule reliability note ${n}`,
          summary: "Schedule reliability figures for the main east-west lanes, unchanged from last week.",
          hoursAgo: 5,
        }));
        return answer(200, { "content-type": "application/rss+xml" }, rss("Box Trade Daily", padding));
      }
      default:
        return answer(404, {}, "not found");
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      feedBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

let app: TestApp;
let operator: OrgWithKey;
let customer: OrgWithKey;
let feedsDir: string;

beforeAll(async () => {
  await startFeedServer();
  feedsDir = mkdtempSync(path.join(os.tmpdir(), "quayside-feeds-"));
  const feedsFile = path.join(feedsDir, "feeds.json");
  const source = (id: string, publisher: string, file: string) => ({
    id,
    publisher,
    url: `${feedBase}/${file}`,
    kind: "news",
  });
  writeFileSync(
    feedsFile,
    JSON.stringify({
      sources: [
        source("etag", "Harbour Wire", "etag.xml"),
        source("last-modified", "Quay Ledger", "last-modified.xml"),
        source("challenge", "Walled Gazette", "challenge.xml"),
        source("silent", "Silent Times", "silent.xml"),
        source("stalled", "Stalled Post", "stalled.xml"),
        source("huge", "Box Trade Daily", "huge.xml"),
      ],
    }),
  );
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_DISRUPTION_FEEDS: feedsFile,
      QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS: String(INTERVAL_MS),
      QUAYSIDE_DISRUPTION_FEED_TIMEOUT_MS: String(TIMEOUT_MS),
      QUAYSIDE_DISRUPTION_FEED_MAX_BYTES: String(MAX_BYTES),
    },
  });
  operator = await app.fixtures.organization({ plan: "business", operator: true });
  customer = await app.fixtures.organization({ plan: "business" });
}, 120_000);
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await app?.stop();
  if (feedsDir) rmSync(feedsDir, { recursive: true, force: true });
});

const SOURCES = `{ disruptionSources { id enabled lastFetchedAt lastSuccessAt lastErrorAt lastError
  consecutiveFailures itemsSeen itemsAccepted } }`;

interface Health {
  id: string;
  enabled: boolean;
  lastFetchedAt: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  itemsSeen: number;
  itemsAccepted: number;
}

async function health(): Promise<Record<string, Health>> {
  const { status, body } = await graphql(app, operator.key, SOURCES);
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  const list = (body.data as { disruptionSources: Health[] }).disruptionSources;
  return Object.fromEntries(list.map((s) => [s.id, s]));
}

async function activeDisruptions(): Promise<
  { id: string; category: string; entities: { ports: string[] } }[]
> {
  const res = await fetch(`${app.url}/api/v1/disruptions?page_size=100`, {
    headers: { authorization: `Bearer ${customer.key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: never[] }).data;
}

const storedItems = () => app.services.db.prisma.disruptionItem.count();

describe("fetching disruption feeds from a real HTTP server", () => {
  let firstTick: Date;

  it("ingests the good feeds and records each bad one as that source's error, without stopping", async () => {
    firstTick = clock.now();
    const tick = await app.services.feedIngestion!.tick();
    expect(tick).toEqual({ fetched: 2, failed: 4, accepted: 2 });

    const sources = await health();
    for (const id of ["etag", "last-modified"]) {
      expect(sources[id], id).toMatchObject({
        lastSuccessAt: firstTick.toISOString(),
        lastError: null,
        consecutiveFailures: 0,
        itemsSeen: 1,
        itemsAccepted: 1,
      });
    }
    expect(sources.challenge!.lastError).toMatch(/HTML page, not a feed/);
    expect(sources.silent!.lastError).toBe(`no answer within ${TIMEOUT_MS} ms`);
    expect(sources.stalled!.lastError).toBe(`the body did not arrive within ${TIMEOUT_MS} ms`);
    expect(sources.huge!.lastError).toBe(`the body is larger than ${MAX_BYTES} bytes`);
    for (const id of ["challenge", "silent", "stalled", "huge"]) {
      expect(sources[id], id).toMatchObject({
        lastSuccessAt: null,
        lastErrorAt: firstTick.toISOString(),
        lastFetchedAt: firstTick.toISOString(),
        consecutiveFailures: 1,
        itemsSeen: 0,
      });
    }

    // The two good feeds became two disruptions a customer sees; nothing came from the bad ones.
    const published = await activeDisruptions();
    expect(published.map((d) => [d.category, d.entities.ports]).sort()).toEqual([
      ["labor", ["GBFXT"]],
      ["weather", ["NLRTM"]],
    ]);
    expect(await storedItems()).toBe(2);
    const healthz = await fetch(`${app.url}/healthz`);
    expect(healthz.status).toBe(200);
  }, 60_000);

  it("sends the validators back; a 304 re-reads nothing and still counts as a success", async () => {
    const before = await activeDisruptions();
    requests.length = 0;
    clock.advance(INTERVAL_MS + 1_000);
    const secondTick = clock.now();
    const tick = await app.services.feedIngestion!.tick();
    expect(tick).toMatchObject({ fetched: 2, accepted: 0 });

    expect(requests.find((r) => r.path === "/etag.xml")).toMatchObject({ ifNoneMatch: '"v1"', status: 304 });
    expect(requests.find((r) => r.path === "/last-modified.xml")).toMatchObject({
      ifModifiedSince: LAST_MODIFIED,
      status: 304,
    });
    const sources = await health();
    for (const id of ["etag", "last-modified"]) {
      expect(sources[id], id).toMatchObject({
        lastSuccessAt: secondTick.toISOString(),
        lastFetchedAt: secondTick.toISOString(),
        consecutiveFailures: 0,
        itemsSeen: 1,
        itemsAccepted: 1,
      });
    }
    // Failures in a row are counted (and back the source off).
    expect(sources.challenge).toMatchObject({
      consecutiveFailures: 2,
      lastErrorAt: secondTick.toISOString(),
    });
    expect(await storedItems()).toBe(2);
    expect(await activeDisruptions()).toEqual(before);
  }, 60_000);

  it("reads the feed again once its ETag changes", async () => {
    etagVersion = 2;
    requests.length = 0;
    clock.advance(INTERVAL_MS + 1_000);
    await app.services.feedIngestion!.tick();
    expect(requests.find((r) => r.path === "/etag.xml")).toMatchObject({ ifNoneMatch: '"v1"', status: 200 });
    const sources = await health();
    // Two items read in the new body; the one already stored is a duplicate, the new one is taken in.
    expect(sources.etag).toMatchObject({ itemsSeen: 3, itemsAccepted: 2 });
    expect(await storedItems()).toBe(3);
    requests.length = 0;
    clock.advance(INTERVAL_MS + 1_000);
    await app.services.feedIngestion!.tick();
    expect(requests.find((r) => r.path === "/etag.xml")).toMatchObject({ ifNoneMatch: '"v2"', status: 304 });
  }, 60_000);
});

describe("disruptionSources on /graphql", () => {
  it("is in the public schema", async () => {
    const { body } = await graphql(app, customer.key, '{ __type(name: "Query") { fields { name } } }');
    const fields = (body.data as { __type: { fields: { name: string }[] } }).__type.fields;
    expect(fields.map((f) => f.name)).toContain("disruptionSources");
  });

  it("answers the operator's teammates too: the mark is the organisation's", async () => {
    const mate = await app.fixtures.teammate(operator.organizationId, { role: "member", viewOnly: true });
    const { body } = await graphql(app, mate.key, "{ disruptionSources { id } }");
    expect(body.errors).toBeUndefined();
    expect((body.data as { disruptionSources: { id: string }[] }).disruptionSources.map((s) => s.id)).toEqual(
      ["challenge", "etag", "huge", "last-modified", "silent", "stalled"],
    );
  });

  it("refuses every other caller with the core's refusal and no data", async () => {
    const refused = await graphql(app, customer.key, SOURCES);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("OPERATOR_REQUIRED");
    expect(refused.body.errors?.[0]?.message).toBe(
      "Only the organisation that operates this deployment may read this.",
    );
    const anonymous = await graphql(app, undefined, SOURCES);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const quietOperator = await app.fixtures.organization({ operator: true, developerMode: false });
    const off = await graphql(app, quietOperator.key, SOURCES);
    expect(off.body.errors?.[0]?.extensions?.code).toBe("DEVELOPER_MODE_DISABLED");
  });

  it("follows the CLI's mark at once: unmarked, the operator is refused", async () => {
    await app.services.accounts.setOperator(operator.organizationId, false);
    const refused = await graphql(app, operator.key, "{ disruptionSources { id } }");
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("OPERATOR_REQUIRED");
    await app.services.accounts.setOperator(operator.organizationId, true);
    const again = await graphql(app, operator.key, "{ viewer { organization { operator } } }");
    expect(again.body.data).toEqual({ viewer: { organization: { operator: true } } });
  });
});
