import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

/**
 * Issue 26 item 8: an organisation learns nothing about another from what it is answered: not that
 * someone tracked a reference (lookup evidence, a stored document, its fetch time, versions, ETA history,
 * a stale copy during an outage), and not how busy the platform is (shipment numbers, history ids).
 * Always two organisations, A acting first, B looking for traces of A, through the HTTP surfaces.
 */
const MINUTE = 60_000;
const HOUR = 3_600_000;
const SIMULATOR_ENV = {
  QUAYSIDE_SIMULATOR: "embedded",
  QUAYSIDE_SIMULATOR_PORT: "0",
  QUAYSIDE_CARRIER_ATTEMPTS: "1",
  QUAYSIDE_CARRIER_TIMEOUT_MS: "3000",
};

let app: TestApp;
let clock: ManualClock;
/** MSC's own boxes the simulated MSC knows. */
let known: string[];
/** Boxes of a lessor's prefix (TGHU) the simulated MSC knows: no owner prefix points at a carrier. */
let leased: string[];

beforeAll(async () => {
  const now = new Date();
  clock = new ManualClock(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 14, 10, 0, 15));
  app = await startTestApp({ env: SIMULATOR_ENV, clock });
  const simulator = app.simulator!.url;
  ({ known } = await simulatedContainers(simulator, "MSCU", "MSCU", { known: 30, start: 500_000 }));
  ({ known: leased } = await simulatedContainers(simulator, "MSCU", "TGHU", { known: 2, start: 500_000 }));
  expect(leased).toHaveLength(2);
});
afterAll(() => app?.stop());

const v1 = (key: string, path: string) =>
  fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
const v1Json = async (key: string, path: string) => {
  const res = await v1(key, path);
  return { status: res.status, body: (await res.json()) as { success: boolean; data: any } };
};
const compat = async (key: string, path: string, params: Record<string, string>) => {
  const res = await fetch(`${app.url}/compat${path}?${new URLSearchParams({ api_key: key, ...params })}`);
  return (await res.json()) as { message: string; data: any };
};
/** The compat `YYYY-MM-DD HH:MM:SS` (UTC) of the clock's current time. */
const compatNow = () => clock.now().toISOString().slice(0, 19).replace("T", " ");
const instant = (value: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);

describe("carrier lookup evidence", () => {
  it("another organisation's tracking is never history or prefix-popularity evidence; the organisation's own is", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    expect((await v1(a.key, `/container/${leased[0]}?sealine=MSCU`)).status).toBe(200);

    // B: the lessor's prefix proves nothing, and A's answer is not B's evidence.
    for (const number of leased) {
      const { body } = await v1Json(b.key, `/carriers/lookup?number=${number}`);
      expect(body.data).toMatchObject({ carrier: null, candidates: [], sources_unavailable: [] });
    }
    const onGraphql = await graphql(
      app,
      b.key,
      `{ carrierLookup(number: "${leased[0]}") { ... on CarrierLookup { carrier { scac } candidates { source } } } }`,
    );
    expect(onGraphql.body.data?.carrierLookup).toEqual({ carrier: null, candidates: [] });

    // A: its own tracking is high evidence for that box and low evidence for another of the prefix.
    const same = await v1Json(a.key, `/carriers/lookup?number=${leased[0]}`);
    expect(same.body.data.carrier).toMatchObject({ scac: "MSCU", confidence: "high", source: "history" });
    const sibling = await v1Json(a.key, `/carriers/lookup?number=${leased[1]}`);
    expect(sibling.body.data.carrier).toMatchObject({
      scac: "MSCU",
      confidence: "low",
      source: "prefix-popularity",
    });
  });
});

describe("a first track", () => {
  it("compat: is fetched for the organisation, never served from another's stored copy, and each keeps its own 12 hours", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    const aFetchedAt = compatNow();
    const first = await compat(a.key, "/tracking", { number: known[0]! });
    expect(first.message).toBe("OK");
    expect(first.data.metadata).toMatchObject({ from_cache: false, updated_at: aFetchedAt });

    clock.advance(HOUR);
    const bFetchedAt = compatNow();
    const bFirst = await compat(b.key, "/tracking", { number: known[0]! });
    expect(bFirst.data.metadata).toMatchObject({ from_cache: false, updated_at: bFetchedAt });

    // Each organisation's cache is its own: B's fetch neither refreshes nor shows in A's answers.
    clock.advance(MINUTE);
    const bAgain = await compat(b.key, "/tracking", { number: known[0]! });
    expect(bAgain.data.metadata).toMatchObject({ from_cache: true, updated_at: bFetchedAt });
    const aAgain = await compat(a.key, "/tracking", { number: known[0]! });
    expect(aAgain.data.metadata).toMatchObject({ from_cache: true, updated_at: aFetchedAt });
  });

  it("v1 and GraphQL: the organisation's document starts at its own fetch (version, fetch times, ETA history)", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    const aFirst = clock.now().getTime();
    expect((await v1(a.key, `/container/${known[1]}`)).status).toBe(200);
    clock.advance(13 * HOUR);
    expect((await v1(a.key, `/container/${known[1]}`)).status).toBe(200);

    clock.advance(2 * HOUR);
    const bFetch = clock.now().getTime();
    const { status, body } = await v1Json(b.key, `/container/${known[1]}`);
    expect(status).toBe(200);
    expect(instant(body.data.last_synced_at)).toBe(bFetch);
    expect(instant(body.data.last_updated_at)).toBe(bFetch);
    expect(body.data.eta_history_table.length).toBeGreaterThan(0);
    for (const row of body.data.eta_history_table) expect(instant(row.recorded_at)).toBe(bFetch);

    const query = `query($id: String!) { shipment(id: $id) { lastSyncedAt document { version fetchedAt lastSyncedAt etaHistory { recordedAt } } } }`;
    const seen = await graphql(app, b.key, query, { id: known[1] });
    const shipment = seen.body.data?.shipment as any;
    expect(shipment.document.version).toBe(1);
    expect(instant(shipment.lastSyncedAt)).toBe(bFetch);
    expect(instant(shipment.document.fetchedAt)).toBe(bFetch);
    expect(instant(shipment.document.lastSyncedAt)).toBe(bFetch);
    for (const r of shipment.document.etaHistory) expect(instant(r.recordedAt)).toBe(bFetch);
    // A's own view still starts at A's first fetch.
    const theirs = (await graphql(app, a.key, query, { id: known[1] })).body.data?.shipment as any;
    expect(instant(theirs.document.etaHistory[0].recordedAt)).toBe(aFirst);
  });

  it("a carrier outage serves the organisation's own stored copy, never another's", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    expect((await v1(a.key, `/container/${known[2]}`)).status).toBe(200);
    clock.advance(MINUTE);
    app.simulator!.faults.set("MSCU", { mode: "down" });
    try {
      const mine = await v1Json(a.key, `/container/${known[2]}`);
      expect(mine.status).toBe(200);
      expect(mine.body.data.stale_reason).toMatch(/could not be reached/);
      // B never tracked it: nothing of A's is served, exactly as if nobody had.
      const theirs = await v1Json(b.key, `/container/${known[2]}`);
      expect(theirs.status).toBe(502);
      expect(theirs.body.data).toMatchObject({ error: "carrier_unreachable", sealine: "MSCU" });
      const compatTheirs = await compat(b.key, "/tracking", { number: known[2]! });
      expect(compatTheirs.message).toBe("SEALINE_NO_RESPONSE");
    } finally {
      app.simulator!.faults.clear("MSCU");
    }
  });
});

describe("numbers", () => {
  const names = async (org: OrgWithKey) => {
    const { body } = await v1Json(org.key, "/shipments?pageSize=100");
    return body.data as { name: string; reference_number: string }[];
  };

  it("an organisation's first shipment is SHP-1 and its first history id is 1, whatever others did", async () => {
    const a = await app.fixtures.organization();
    for (const number of known.slice(3, 6))
      expect((await v1(a.key, `/container/${number}`)).status).toBe(200);
    for (let i = 0; i < 3; i++) await compat(a.key, "/tracking", { number: known[3]! });

    const b = await app.fixtures.organization();
    const tracked = await compat(b.key, "/tracking", { number: known[6]! });
    expect(tracked.message).toBe("OK");
    expect((await names(b)).map((s) => s.name)).toEqual(["SHP-1"]);
    expect(new Set((await names(a)).map((s) => s.name))).toEqual(new Set(["SHP-1", "SHP-2", "SHP-3"]));

    // SHP-1 is each organisation's own first shipment.
    const bOne = await v1Json(b.key, "/shipments/SHP-1");
    expect(bOne.body.data.reference_number).toBe(known[6]);
    const aOne = await v1Json(a.key, "/shipments/SHP-1");
    expect(aOne.body.data.reference_number).toBe(known[3]);

    // History ids: B's first logged call is 1, and id 1 is B's own call.
    const history = await compat(b.key, "/history", { number: known[6]!, type: "CT" });
    expect(history.data.requests.map((r: { id: number }) => r.id)).toEqual([1]);
    const byId = await compat(b.key, "/history", { number: known[6]!, type: "CT", id: "1" });
    expect(byId.message).toBe("OK");
    expect(byId.data.metadata.number).toBe(known[6]);
    const onGraphql = await graphql(app, b.key, `{ trackingLookup(id: 1) { id reference } }`);
    expect(onGraphql.body.data?.trackingLookup).toEqual({ id: 1, reference: known[6] });
    // A's calls: 3 v1 tracks, then 3 compat calls, numbered 1 to 6 for A alone.
    const aHistory = await compat(a.key, "/history", { number: known[3]!, type: "CT" });
    expect(aHistory.data.requests.map((r: { id: number }) => r.id)).toEqual([1, 4, 5, 6]);
  });

  it("stay dense and distinct when two organisations track many references at once", async () => {
    const c = await app.fixtures.organization();
    const d = await app.fixtures.organization();
    const batch = known.slice(10, 18);
    const [cAnswers, dAnswers] = await Promise.all([
      Promise.all(batch.map((n) => v1(c.key, `/container/${n}`))),
      Promise.all(batch.map((n) => v1(d.key, `/container/${n}`))),
    ]);
    for (const res of [...cAnswers, ...dAnswers]) expect(res.status).toBe(200);
    const expected = new Set(batch.map((_, i) => `SHP-${i + 1}`));
    expect(new Set((await names(c)).map((s) => s.name))).toEqual(expected);
    expect(new Set((await names(d)).map((s) => s.name))).toEqual(expected);
  });
});
