/**
 * Publishers counted per item (issue 35): a feed that aggregates several publishers (a news digest,
 * a search feed) names each item's own publisher in RSS `<source>` or Atom `<source>`/`<author>`.
 * Fetched from a real HTTP server by the service's ingestion, the items of one event count as the
 * publishers they came from, so corroboration (three or more publishers: one severity level more)
 * applies, and the disruption's `sources` on v1 and GraphQL name them, not the digest.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { callTool, httpClient } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const clock = new ManualClock(new Date("2026-11-20T12:00:00Z"));
const hoursAgo = (h: number) => new Date(clock.now().getTime() - h * 3_600_000);

/** An RSS digest: three publishers' reports of one strike, each with its own `<source>`. */
function rssDigest(): string {
  const item = (guid: string, h: number, title: string, summary: string, source: string) =>
    `<item><guid isPermaLink="false">${guid}</guid><title>${title}</title>
<link>https://digest.example/${guid}</link><description>${summary}</description>
<pubDate>${hoursAgo(h).toUTCString()}</pubDate>${source}</item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Shipping digest</title><link>https://digest.example/</link>
<description>News from many publishers</description>
${item("d-1", 5, "Dockworkers strike at the Port of Felixstowe", "A walkout halted container handling at the Port of Felixstowe.", '<source url="https://tideline.example/rss">Tideline News</source>')}
${item("d-2", 4, "Felixstowe walkout idles cranes as ships wait", "Vessels wait at anchor off the Port of Felixstowe while dockworkers stay out.", '<source url="https://berthreport.example/feed">Berth Report</source>')}
${item("d-3", 3, "Strike at the Port of Felixstowe enters its second day", "Dockworkers at Felixstowe remain on strike; carriers divert boxes to other ports.", '<source url="https://seaboardcourier.example/rss"></source>')}
</channel></rss>`;
}

/** An Atom digest: one entry with `<source><title>`, one with its own `<author>`, one with neither. */
function atomDigest(): string {
  const entry = (id: string, h: number, title: string, summary: string, extra: string) =>
    `<entry><id>urn:digest:${id}</id><title>${title}</title><link href="https://atomdigest.example/${id}"/>
<updated>${hoursAgo(h).toISOString()}</updated><summary>${summary}</summary>${extra}</entry>`;
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom digest</title><id>urn:digest</id>
<updated>${clock.now().toISOString()}</updated><author><name>Atom digest desk</name></author>
${entry("a-1", 6, "Storm closes the Port of Gdansk", "Terminals at the Port of Gdansk suspended operations as the gale arrived.", "<source><id>urn:cd</id><title>Coastal Dispatch</title></source>")}
${entry("a-2", 5, "Port of Gdansk stays shut as storm winds persist", "Vessels wait outside the Port of Gdansk while cranes are secured.", "<author><name>Container Monitor</name></author>")}
${entry("a-3", 4, "Gdansk storm closure delays carriers", "Lines report delays after the storm closure at the Port of Gdansk.", "")}
</feed>`;
}

let server: http.Server;
let app: TestApp;
let dir: string;
let business: OrgWithKey;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const atom = req.url?.includes("atom");
    res.writeHead(200, { "content-type": atom ? "application/atom+xml" : "application/rss+xml" });
    res.end(atom ? atomDigest() : rssDigest());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), "quayside-publishers-"));
  const feeds = path.join(dir, "feeds.json");
  writeFileSync(
    feeds,
    JSON.stringify({
      sources: [
        { id: "rss-digest", publisher: "Shipping digest", url: `${base}/digest.xml`, kind: "news" },
        { id: "atom-digest", publisher: "Atom digest", url: `${base}/atom.xml`, kind: "news" },
      ],
    }),
  );
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_DISRUPTION_FEEDS: feeds,
      QUAYSIDE_DISRUPTION_FEED_INTERVAL_MS: "60000",
    },
  });
  business = await app.fixtures.organization({ plan: "business" });
  const tick = await app.services.feedIngestion!.tick();
  expect(tick.failed).toBe(0);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function v1Disruption(port: string) {
  const res = await fetch(`${app.url}/api/v1/disruptions?port=${port}`, {
    headers: { authorization: `Bearer ${business.key}` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    data: { id: string; severity: number; sources: { publisher: string }[] }[];
  };
  expect(body.data).toHaveLength(1);
  return body.data[0]!;
}

describe("an aggregating feed's items count their own publishers", () => {
  it("RSS <source>: three publishers of one strike, corroborated, named in v1 and GraphQL sources", async () => {
    const strike = await v1Disruption("GBFXT");
    // The third item's <source> has no name: its url's host stands for the publisher.
    expect(strike.sources.map((s) => s.publisher).sort()).toEqual([
      "Berth Report",
      "Tideline News",
      "seaboardcourier.example",
    ]);
    // A strike at one of the largest ports is 4 on its own; corroboration cannot go higher, so the
    // count shows in the summary the service writes.
    expect(strike.severity).toBe(4);
    const { body } = await graphql(
      app,
      business.key,
      `query($id: String!) { disruption(id: $id) { ... on Disruption { summary sources { publisher } } } }`,
      { id: strike.id },
    );
    const disruption = body.data?.disruption as { summary: string; sources: { publisher: string }[] };
    expect(disruption.sources.map((s) => s.publisher).sort()).toEqual([
      "Berth Report",
      "Tideline News",
      "seaboardcourier.example",
    ]);
    expect(disruption.summary).toMatch(/^3 sources since/);
  });

  it("MCP get_disruption_detail names the same publishers", async () => {
    const strike = await v1Disruption("GBFXT");
    const client = await httpClient(app, business.key);
    try {
      const result = await callTool(client, "get_disruption_detail", { id: strike.id });
      expect(result.isError).toBeFalsy();
      const detail = result.structuredContent as { sources: { publisher: string }[] };
      expect(detail.sources.map((s) => s.publisher).sort()).toEqual([
        "Berth Report",
        "Tideline News",
        "seaboardcourier.example",
      ]);
    } finally {
      await client.close();
    }
  });

  it("Atom <source><title> and an entry's own <author>; the feed's publisher otherwise", async () => {
    const typhoon = await v1Disruption("PLGDN");
    expect(typhoon.sources.map((s) => s.publisher).sort()).toEqual([
      "Atom digest",
      "Coastal Dispatch",
      "Container Monitor",
    ]);
  });

  it("corroboration counts distinct publishers: three publishers raise a severity by one", async () => {
    // The storm's reports alone are a closure at a port outside the largest 60 (3); three publishers
    // make it 4. Counted by feed, it would be two publishers (and the RSS strike one).
    const typhoon = await v1Disruption("PLGDN");
    expect(typhoon.severity).toBe(4);
  });
});
