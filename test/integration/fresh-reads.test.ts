/**
 * Reads are served from caches now (parsed versions, summaries on the shipment row, prepared
 * statements), so this proves the promise those caches make: the moment the carrier's new answer is
 * stored, every read path shows it (v1 summary, full document, list and delta page; compat's stored
 * answer; GraphQL; MCP), never the version before; and history-by-id still returns exactly the
 * document each call was given.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
import { callTool, httpClient, TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

const NOW = "2026-11-20T12:00:00.000Z";
const DAY = 86_400_000;

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let mcp: Client;

beforeAll(async () => {
  clock = new ManualClock(NOW);
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  mcp = await httpClient(app, org.key);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

const v1 = async (path: string) => {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

const VERSION = `query($id: String!) { shipment(id: $id) { status document { version } } }`;

/** What the newest stored version says, as v1's live track answered it. */
interface Truth {
  version: number;
  status: string;
  eta: string | null;
  events: number;
}

async function liveTrack(reference: string): Promise<Truth> {
  const answer = await v1(`/api/v1/container/${reference}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const gql = await graphql(app, org.key, VERSION, { id: reference });
  const d = answer.body.data;
  return {
    version: (gql.body.data as any).shipment.document.version,
    status: d.status,
    eta: d.eta,
    events: d.events_table.filter((e: any) => e.container_number === reference && e.is_actual === 1).length,
  };
}

/** Every read path's view of the shipment, in the same vocabulary. */
async function everyReadPath(
  reference: string,
  since: string,
): Promise<Record<string, Omit<Truth, "version">>> {
  const summary = (await v1(`/api/v1/shipments/${reference}`)).body.data;
  const full = (await v1(`/api/v1/shipments/${reference}?include=full`)).body.data;
  const list = (await v1("/api/v1/shipments?pageSize=100")).body.data;
  const delta = (await v1(`/api/v1/shipments?updated_since=${encodeURIComponent(since)}`)).body.data;
  const compat = (await compatGet(app, org.key, "/tracking", { number: reference })).body.data;
  const status = (await callTool(mcp, "get_shipment_status", { reference })).structuredContent as any;
  const timeline = (await callTool(mcp, "get_shipment_timeline", { reference })).structuredContent as any;
  const gql = (
    await graphql(
      app,
      org.key,
      `query($id: String!) { shipment(id: $id) { status summary { arrivalLocalDateTime }
        document { containers { number events { eventCode actual } } } } }`,
      { id: reference },
    )
  ).body.data as any;
  const fromList = (items: any[]) => items.find((s: any) => s.reference_number === reference);
  const fullEvents = full.document.events_table.filter(
    (e: any) => e.container_number === reference && e.is_actual === 1,
  ).length;
  const compatBox = compat.containers.find((c: any) => c.number === reference);
  return {
    v1Summary: { status: summary.status, eta: summary.eta, events: fullEvents },
    v1List: {
      status: fromList(list.items ?? list).status,
      eta: fromList(list.items ?? list).eta,
      events: fullEvents,
    },
    v1Delta: {
      status: fromList(delta.items ?? delta).status,
      eta: fromList(delta.items ?? delta).eta,
      events: fullEvents,
    },
    compat: {
      status: compat.metadata.status,
      eta: compat.route.pod.date,
      events: compatBox.events.filter((e: any) => e.actual).length,
    },
    graphql: {
      status: gql.shipment.status,
      eta: gql.shipment.summary.arrivalLocalDateTime,
      events: gql.shipment.document.containers
        .find((c: any) => c.number === reference)
        .events.filter((e: any) => e.actual).length,
    },
    mcp: {
      status: status.status,
      eta: status.etaLocal,
      events: timeline.containers.find((c: any) => c.number === reference).events.filter((e: any) => e.actual)
        .length,
    },
  };
}

describe("a new document version", () => {
  it("is what every read path serves the moment it is stored, and history keeps each call's own", async () => {
    const [reference] = (await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 1 })).known;
    const since = new Date(Date.parse(NOW) - DAY).toISOString();
    const seen: Truth[] = [await liveTrack(reference!)];
    // Every tracking call is logged (v1's live tracks and compat's stored answers alike), in order:
    // the actual events each was answered with.
    const calls: number[] = [seen[0]!.events];
    for (let day = 1; day <= 40 && new Set(seen.map((t) => t.version)).size < 3; day++) {
      const truth = seen.at(-1)!;
      const paths = await everyReadPath(reference!, since);
      for (const [path, view] of Object.entries(paths)) {
        expect(view, `${path} on version ${truth.version}`).toEqual({
          status: truth.status,
          eta: truth.eta,
          events: truth.events,
        });
      }
      calls.push(paths.compat!.events);
      clock.advance(DAY);
      seen.push(await liveTrack(reference!));
      calls.push(seen.at(-1)!.events);
    }
    // Not vacuous: the carrier's story changed at least twice (boxes moved) while reads were checked.
    expect(new Set(seen.map((t) => t.version)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(seen.map((t) => t.events)).size).toBeGreaterThanOrEqual(2);

    // History-by-id: each call's entry returns the document that call was given.
    const list = (await compatGet(app, org.key, "/history", { number: reference, type: "CT" })).body.data;
    const entries = list.requests as { id: number }[];
    const expected = calls.slice(-entries.length);
    expect(entries.length).toBeGreaterThanOrEqual(Math.min(calls.length, 10));
    for (const [i, entry] of entries.entries()) {
      const doc = (
        await compatGet(app, org.key, "/history", { number: reference, type: "CT", id: String(entry.id) })
      ).body.data;
      const box = doc.containers.find((c: any) => c.number === reference);
      expect(box.events.filter((e: any) => e.actual).length, `history entry ${entry.id}`).toBe(expected[i]);
    }
  }, 300_000);
});
