/**
 * Issue 37 item 1: answers of the facades' read operations are kept (src/graphql/answer-cache.ts)
 * and never served stale. One box is read on v1 (summary, list, delta), MCP and GraphQL; the kept
 * answers are checked against GraphQL's /graphql (which executes every time) after each kind of
 * write that feeds them, and after the port's midnight passes with no write at all.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
import { callTool, httpClient, TRACKING_ENV } from "../mcp/support";
import { answerHits, graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

const NOW = "2026-11-20T12:00:00.000Z";
const MINUTE = 60_000;

let app: TestApp;
let clock: ManualClock;
let org: OrgWithKey;
let mcp: Client;
let reference: string;
let shipmentId: string;

beforeAll(async () => {
  clock = new ManualClock(NOW);
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
  mcp = await httpClient(app, org.key);
  // A box still at sea, so that its days left, prediction and D&D move with the clock.
  for (const box of (await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 12 })).known) {
    expect((await v1(`/api/v1/container/${box}`)).status).toBe(200);
    reference = box;
    shipmentId = (await app.services.db.prisma.shipment.findFirstOrThrow({ where: { reference } })).id;
    // The prediction is kept on the row (the eta worker's job): a read then computes nothing per call.
    await app.services.eta.compute([shipmentId]);
    const now = await truth();
    if (now && now.remainingDays > 1 && now.predictedAt !== null) break;
  }
  expect((await truth())!.remainingDays).toBeGreaterThan(1);
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
});

async function v1(path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json", ...init.headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** What GraphQL's /graphql says now: executed on every request, never kept. */
async function truth() {
  const { body } = await graphql(
    app,
    org.key,
    `query($id: String!) { shipment(id: $id) { customers lastSyncedAt status
       summary { remainingDays } predictiveEta { computedAt }
       demurrageRisk { daysRemaining termsSource } } }`,
    { id: reference },
  );
  const s = (body.data as any).shipment;
  if (!s) return null;
  return {
    customers: s.customers,
    lastSyncedAt: s.lastSyncedAt,
    remainingDays: s.summary.remainingDays,
    predictedAt: s.predictiveEta?.computedAt ?? null,
    dndDays: s.demurrageRisk?.daysRemaining ?? null,
    terms: s.demurrageRisk?.termsSource ?? null,
  };
}

/** The same facts through every kept read: v1's summary, list and delta, and MCP's status. */
async function keptViews() {
  const summary = await v1(`/api/v1/shipments/${reference}`);
  const list = (await v1("/api/v1/shipments?pageSize=100")).body.data;
  const delta = (await v1(`/api/v1/shipments?updated_since=${encodeURIComponent("2026-01-01T00:00:00Z")}`))
    .body.data;
  const status = await callTool(mcp, "get_shipment_status", { reference });
  const fromPage = (page: any) =>
    (page.items ?? page).find((s: any) => s.reference_number === reference) ?? null;
  const view = (s: any) =>
    s && {
      customers: s.customers,
      lastSyncedAt: s.last_synced_at,
      remainingDays: s.remaining_days,
      predictedAt: s.predictive_eta?.computed_at ?? null,
      dndDays: s.demurrage_risk?.days_remaining ?? null,
      terms: s.demurrage_risk?.terms_source ?? null,
    };
  const mcpStatus = status.isError ? null : (status.structuredContent as any);
  return {
    v1Summary: summary.status === 200 ? view(summary.body.data) : null,
    v1List: view(fromPage(list)),
    v1Delta: view(fromPage(delta)),
    mcp: mcpStatus && { lastSyncedAt: mcpStatus.lastSyncedAt ?? mcpStatus.last_synced_at ?? null },
  };
}

async function expectEverySurfaceToShow(what: string) {
  const expected = await truth();
  // Twice: the first may build the answer, the second is served from what was kept.
  for (const round of [1, 2]) {
    const views = await keptViews();
    for (const [surface, view] of Object.entries(views)) {
      if (surface === "mcp") {
        if (expected) expect(view, `${surface} ${what} (read ${round})`).not.toBeNull();
        continue;
      }
      expect(view, `${surface} ${what} (read ${round})`).toEqual(expected);
    }
  }
  // compat's tracking: a kept stored answer while the document is fresh, the carrier asked past 12
  // hours (which writes a new version). Either way it shows what GraphQL shows right after it, and
  // each call is counted once.
  if (expected) {
    const used: number[] = [];
    for (const round of [1, 2]) {
      const compat = (await compatGet(app, org.key, "/tracking", { number: reference, sealine: "MSCU" }))
        .body;
      expect(compat.status, `compat ${what} (read ${round})`).toBe("success");
      const synced = (await truth())!.lastSyncedAt;
      expect(compat.data.metadata.updated_at, `compat ${what} (read ${round})`).toBe(
        new Date(synced).toISOString().slice(0, 19).replace("T", " "),
      );
      used.push(compat.data.metadata.api_calls.used);
    }
    expect(used[1]! - used[0]!, `compat ${what}: calls counted`).toBe(1);
  }
}

describe("kept answers", () => {
  it("are served again: the second read of each kept operation is a hit", async () => {
    await keptViews();
    const before = await answerHits(app);
    await keptViews();
    // v1 summary, list, delta and MCP status: four kept operations, each answered from the cache.
    expect((await answerHits(app)) - before).toBeGreaterThanOrEqual(4);
    await expectEverySurfaceToShow("before any write");
  });

  it("answer compat tracking from the store: kept, yet every call counted and logged", async () => {
    const track = () => compatGet(app, org.key, "/tracking", { number: reference, sealine: "MSCU" });
    const history = async () => {
      const answer = await compatGet(app, org.key, "/history", { number: reference, type: "CT" });
      return (answer.body.data.requests as unknown[]).length;
    };
    const first = (await track()).body;
    expect(first.data.metadata.from_cache).toBe(true);
    const logged = await history();
    const hits = await answerHits(app);
    const again = (await track()).body;
    // The stored answer was kept (one operation: the document, the sealine's entry, the slot figures),
    // the call and the lookup recorded.
    expect((await answerHits(app)) - hits).toBe(1);
    expect(again.data).toEqual({
      ...first.data,
      metadata: {
        ...first.data.metadata,
        api_calls: { ...first.data.metadata.api_calls, used: first.data.metadata.api_calls.used + 2 },
      },
    });
    expect(await history()).toBe(logged + 1);
  });

  it("show a PATCH the moment it is acknowledged", async () => {
    await expectEverySurfaceToShow("before the PATCH");
    const patched = await v1(`/api/v1/shipments/${reference}`, {
      method: "PATCH",
      body: JSON.stringify({ customer: "Harbour Foods" }),
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await truth())?.customers).toEqual(["Harbour Foods"]);
    await expectEverySurfaceToShow("after the PATCH");
  });

  it("show a new stored answer from the carrier", async () => {
    await expectEverySurfaceToShow("before the refresh");
    const before = (await truth())!.lastSyncedAt;
    clock.advance(10 * MINUTE);
    expect((await v1(`/api/v1/container/${reference}`)).status).toBe(200);
    expect((await truth())!.lastSyncedAt).not.toBe(before);
    await expectEverySurfaceToShow("after the refresh");
  });

  it("show a new prediction", async () => {
    await expectEverySurfaceToShow("before the prediction");
    const before = (await truth())!.predictedAt;
    clock.advance(10 * MINUTE);
    await app.services.eta.compute([shipmentId]);
    expect((await truth())!.predictedAt).not.toBe(before);
    await expectEverySurfaceToShow("after the prediction");
  });

  it("show new contract terms", async () => {
    await expectEverySurfaceToShow("before the terms");
    await app.services.dnd.addContractTerms(org.organizationId, {
      carrierScac: null,
      portLocode: null,
      countryCode: null,
      direction: "import",
      chargeType: "demurrage",
      equipment: "any",
      freeDays: 1,
      freeDayBasis: "calendar",
      chargeDayBasis: "calendar",
      clockStartRule: "discharge",
      slabs: [{ fromDay: 1, toDay: null, rate: 500 }],
      currency: "USD",
      effectiveFrom: "2020-01-01",
      effectiveTo: null,
    } as never);
    await expectEverySurfaceToShow("after the terms");
  });

  it("follow the calendar: past the port's midnight, days left are counted again without any write", async () => {
    await expectEverySurfaceToShow("before midnight");
    const before = await truth();
    clock.advance(24 * 60 * MINUTE);
    const after = await truth();
    // Not vacuous: the count moved with the day.
    expect([after!.remainingDays, after!.dndDays]).not.toEqual([before!.remainingDays, before!.dndDays]);
    await expectEverySurfaceToShow("after midnight");
  });

  it("show a plan change", async () => {
    await expectEverySurfaceToShow("on professional");
    await app.services.accounts.updateOrganization(org.organizationId, {
      featureSwitches: { predictive_eta: false },
    });
    await expectEverySurfaceToShow("with predictive ETA switched off");
    await app.services.accounts.updateOrganization(org.organizationId, { featureSwitches: {} });
    await expectEverySurfaceToShow("with it on again");
  });

  it("show a DELETE: the shipment is gone from every read", async () => {
    await expectEverySurfaceToShow("before the DELETE");
    expect((await v1(`/api/v1/shipments/${reference}`, { method: "DELETE" })).status).toBe(200);
    expect(await truth()).toBeNull();
    await expectEverySurfaceToShow("after the DELETE");
  });
});

/**
 * A miss keeps its answer unless a write to something the answer holds lands while it executes: a
 * write elsewhere (another shipment, another organisation) does not stop it being kept, on a busy
 * service where writes land all the time. Each write below is made in the middle of a miss: after the
 * read resolved the shipment row, before the answer is stored. On this process's store and on Redis.
 */
const stores: { name: string; env: Record<string, string> | null }[] = [
  { name: "in memory", env: {} },
  { name: "in Redis", env: inject("redisUrl") ? { REDIS_URL: inject("redisUrl") } : null },
];

for (const store of stores) {
  describe.skipIf(!store.env)(`a write during a miss (${store.name})`, () => {
    let service: TestApp;
    let owner: OrgWithKey;
    let other: OrgWithKey;
    let box: string;
    let sibling: string;

    beforeAll(async () => {
      service = await startTestApp({
        env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off", ...store.env },
        clock: new ManualClock(NOW),
      });
      owner = await service.fixtures.organization({ plan: "professional" });
      other = await service.fixtures.organization({ plan: "professional" });
      // No prediction worker here: with predictive ETA on, a read computes one stamped with the clock,
      // which is never kept (src/lib/answer-scope.ts).
      await service.services.accounts.updateOrganization(owner.organizationId, {
        featureSwitches: { predictive_eta: false },
      });
      const known = (await simulatedContainers(service.simulator!.url, "MSCU", "MSCU", { known: 12 })).known;
      [box, sibling] = known.slice(-2) as [string, string];
      for (const reference of [box, sibling]) {
        expect((await call(owner, `/api/v1/container/${reference}`)).status).toBe(200);
      }
    }, 180_000);
    afterAll(async () => {
      await service?.stop();
    });

    async function call(as: OrgWithKey, path: string, init: RequestInit = {}) {
      const res = await fetch(`${service.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${as.key}`, "content-type": "application/json", ...init.headers },
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }

    const hits = () => answerHits(service);

    async function patchCustomer(reference: string, customer: string) {
      const patched = await call(owner, `/api/v1/shipments/${reference}`, {
        method: "PATCH",
        body: JSON.stringify({ customer }),
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }

    /** Reads `reference` on v1 with `write` made once the shipment row was read, before the answer is kept. */
    async function readWithWriteMidway(reference: string, write: () => Promise<void>) {
      const shipments = service.services.shipments;
      const read = shipments.read;
      let wrote = false;
      shipments.read = async (...args: Parameters<typeof read>) => {
        const found = await read.apply(shipments, args);
        if (!wrote) {
          wrote = true;
          await write();
        }
        return found;
      };
      try {
        const answer = await call(owner, `/api/v1/shipments/${reference}`);
        expect(answer.status).toBe(200);
        // A miss: the read executed, and the write was made in its middle.
        expect(wrote).toBe(true);
        return answer.body.data;
      } finally {
        shipments.read = read;
      }
    }

    it("keeps the answer when the write touched another shipment and another organisation", async () => {
      // A write to this shipment first, so that the read below is a miss.
      await patchCustomer(box, "Harbour Foods");
      const built = await readWithWriteMidway(box, async () => {
        await patchCustomer(sibling, "Dock Supplies");
        await service.services.accounts.updateOrganization(other.organizationId, {
          featureSwitches: { predictive_eta: false },
        });
      });
      expect(built.customers).toEqual(["Harbour Foods"]);
      // Not vacuous: both writes landed.
      expect((await call(owner, `/api/v1/shipments/${sibling}`)).body.data.customers).toEqual([
        "Dock Supplies",
      ]);

      const before = await hits();
      const again = await call(owner, `/api/v1/shipments/${box}`);
      expect(again.body.data).toEqual(built);
      expect((await hits()) - before, "the second read is served from the kept answer").toBe(1);
    });

    it("keeps nothing when the write touched the shipment it shows, and the next read shows the write", async () => {
      // A write to this shipment first (another customer than the test above's), so that the read is a miss.
      await patchCustomer(box, "Pier Provisions");
      const built = await readWithWriteMidway(box, () => patchCustomer(box, "Quay Traders"));
      // Built from the row as it was before the write: this is the answer that must not be kept.
      expect(built.customers).toEqual(["Pier Provisions"]);

      const before = await hits();
      const next = await call(owner, `/api/v1/shipments/${box}`);
      expect(next.body.data.customers).toEqual(["Quay Traders"]);
      expect((await hits()) - before, "the next read executes").toBe(0);
      // And that answer, built after the write, is kept.
      expect((await call(owner, `/api/v1/shipments/${box}`)).body.data.customers).toEqual(["Quay Traders"]);
      expect((await hits()) - before).toBe(1);
    });
  });
}
