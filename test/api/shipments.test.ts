import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealStoredSecrets } from "../../src/app/seal-secrets";
import { answersChanged } from "../../src/lib/answer-changes";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let known: string[];
let unknown: string[];

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
  ({ known, unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
    known: 18,
    unknown: 3,
    start: 300_000,
  }));
});
afterAll(() => app?.stop());

function call(key: string, method: string, path: string, body?: unknown) {
  return fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}
const json = async (res: Response) => (await res.json()) as Record<string, any>;

describe("POST /api/v1/track", () => {
  it("tracks items in parallel, each with its own outcome, and counts a slot once per new reference", async () => {
    const org = await app.fixtures.organization();
    const res = await call(org.key, "POST", "/track", {
      shipments: [
        { type: "container", number: known[0] },
        { type: "container", number: known[0] },
        { type: "container", number: known[1], sealine: "MSCU" },
        { type: "container", number: "MSCU1234565" },
        { type: "container", number: unknown[0], sealine: "MSCU" },
      ],
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      success: true,
      total: 5,
      tracked: 3,
      failed: 2,
      slots: { used: 2, limit: 500, remaining: 498 },
    });
    const byIndex = body.results as Record<string, any>[];
    expect(byIndex.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(byIndex[0]).toMatchObject({ ok: true, number: known[0], type: "Container" });
    expect(byIndex[0]!.data.reference_number).toBe(known[0]);
    expect([byIndex[0]!.slot_consumed, byIndex[1]!.slot_consumed].filter(Boolean)).toHaveLength(1);
    expect(byIndex[3]).toMatchObject({ ok: false, error: "invalid_reference", message: expect.any(String) });
    expect(byIndex[4]).toMatchObject({ ok: false, error: "not_found" });
    // Tracked again: free.
    const again = await json(
      await call(org.key, "POST", "/track", { shipments: [{ type: "container", number: known[1] }] }),
    );
    expect(again.results[0].slot_consumed).toBe(false);
    expect(again.slots.used).toBe(2);
  });

  it("refuses a malformed body whole with 400, and 0 or 51 items", async () => {
    const org = await app.fixtures.organization();
    for (const body of [
      '{"shipments":',
      { shipments: [] },
      { shipments: Array(51).fill({ type: "container", number: known[0] }) },
      { shipments: [{ type: "truck", number: "X" }] },
      { nope: 1 },
    ]) {
      const res = await call(org.key, "POST", "/track", body);
      expect(res.status).toBe(400);
      expect((await json(res)).data.error).toMatch(/malformed_body/);
    }
  });

  it("refuses the whole batch with 402 payment_overdue past the grace period, while reads keep working", async () => {
    const org = await app.fixtures.organization();
    expect((await call(org.key, "GET", `/container/${known[2]}`)).status).toBe(200);
    await app.services.accounts.updateOrganization(org.organizationId, {
      billingState: "overdue",
      overdueDays: 20,
      graceDays: 14,
    });
    const res = await call(org.key, "POST", "/track", {
      shipments: [{ type: "container", number: known[3] }],
    });
    expect(res.status).toBe(402);
    expect(res.headers.get("retry-after")).toBe("3600");
    expect((await json(res)).data).toEqual({
      error: "payment_overdue",
      overdueDays: 20,
      graceDays: 14,
      plan: "professional",
      manageUrl: expect.stringContaining("/billing"),
      usageApi: "/api/v1/account/usage",
    });
    expect((await call(org.key, "GET", `/container/${known[3]}`)).status).toBe(402);
    expect((await call(org.key, "GET", `/shipments/${known[2]}`)).status).toBe(200);
    expect((await call(org.key, "GET", "/shipments")).status).toBe(200);
  });
});

describe("GET /api/v1/shipments", () => {
  let org: OrgWithKey;
  beforeAll(async () => {
    org = await app.fixtures.organization();
    await call(org.key, "POST", "/track", {
      shipments: known.slice(4, 7).map((number) => ({ type: "container", number })),
    });
  });

  it("pages with defaults 1 and 20, newest first, with every summary field", async () => {
    const body = await json(await call(org.key, "GET", "/shipments?pageSize=2"));
    expect(body).toMatchObject({ success: true, total: 3, page: 1, pageSize: 2 });
    expect(body.data).toHaveLength(2);
    expect(Object.keys(body.data[0]).sort()).toEqual(
      [
        "name",
        "number_of_containers",
        "shipment_type",
        "reference_number",
        "sealine_name",
        "sealine",
        "status",
        "origin",
        "destination",
        "total_days",
        "remaining_days",
        "eta",
        // Its UTC companion (docs/decisions/times.md): `eta` and `ata` are the port's wall clock.
        "eta_utc",
        "created_at",
        "last_synced_at",
        "is_active",
        "is_delayed",
        "ata",
        "ata_utc",
        "customers",
        "next_refresh_eligible_at",
        "refresh_eligible_now",
        // The fixture organisation is on the professional plan, which has predictive ETA.
        "predictive_eta",
        // The fixture's plan is professional, which has predictive ETA: spec 2.3's demurrage_risk.
        "demurrage_risk",
      ].sort(),
    );
    expect(body.data[0].name).toMatch(/^SHP-\d+$/);
    const defaults = await json(await call(org.key, "GET", "/shipments"));
    expect(defaults).toMatchObject({ page: 1, pageSize: 20, total: 3 });
    const second = await json(await call(org.key, "GET", "/shipments?page=2&pageSize=2"));
    expect(second.data).toHaveLength(1);
  });

  it("refuses a page size over 100 and a bad updated_since with 400", async () => {
    expect((await call(org.key, "GET", "/shipments?pageSize=101")).status).toBe(400);
    expect((await call(org.key, "GET", "/shipments?page=0")).status).toBe(400);
    const bad = await call(org.key, "GET", "/shipments?updated_since=yesterday");
    expect(bad.status).toBe(400);
    expect((await json(bad)).data.param).toBe("updated_since");
  });

  it("delta mode returns only shipments synced at or after the time, at most 200, and supersedes paging", async () => {
    const bulk = await app.fixtures.organization();
    const prisma = app.services.db.prisma;
    const base = Date.parse("2026-01-01T00:00:00Z");
    await prisma.shipment.createMany({
      data: Array.from({ length: 230 }, (_, i) => ({
        organizationId: bulk.organizationId,
        addedByUserId: bulk.userId,
        referenceType: "bl" as const,
        reference: `DELTA${i}`,
        referenceKey: `DELTA${i}`,
        status: "IN_TRANSIT" as const,
        lastSyncedAt: new Date(base + i * 60_000),
      })),
    });
    const since = new Date(base + 10 * 60_000).toISOString();
    const body = await json(
      await call(bulk.key, "GET", `/shipments?updated_since=${since}&page=3&pageSize=5`),
    );
    expect(Object.keys(body).sort()).toEqual([
      "count",
      "data",
      "has_more",
      "next_cursor",
      "next_updated_since",
      "success",
      "updated_since",
    ]);
    expect(body.count).toBe(200);
    expect(body.has_more).toBe(true);
    expect(body.data).toHaveLength(200);
    expect(body.data[0].reference_number).toBe("DELTA10"); // at or after: the boundary is included
    const later = await json(
      await call(bulk.key, "GET", `/shipments?updated_since=${new Date(base + 225 * 60_000).toISOString()}`),
    );
    expect(later.count).toBe(5);
    expect(later.has_more).toBe(false);
  });

  it("delta pages continue with has_more and the cursor: 450 changed shipments are each read exactly once", async () => {
    const org = await app.fixtures.organization();
    const prisma = app.services.db.prisma;
    const base = Date.parse("2026-03-01T00:00:00Z");
    // Runs of 9 shipments synced in the same millisecond, so page ends (200, 400) fall inside a run.
    await prisma.shipment.createMany({
      data: Array.from({ length: 450 }, (_, i) => ({
        organizationId: org.organizationId,
        addedByUserId: org.userId,
        referenceType: "bl" as const,
        reference: `PAGED${i}`,
        referenceKey: `PAGED${i}`,
        status: "IN_TRANSIT" as const,
        lastSyncedAt: new Date(base + Math.floor(i / 9) * 1000),
      })),
    });
    const seen: string[] = [];
    const pages: { count: number; has_more: boolean }[] = [];
    let query = `updated_since=${new Date(base).toISOString()}`;
    for (let round = 0; round < 10; round++) {
      const res = await call(org.key, "GET", `/shipments?${query}`);
      expect(res.status).toBe(200);
      const page = await json(res);
      pages.push({ count: page.count, has_more: page.has_more });
      seen.push(...(page.data as Record<string, any>[]).map((s) => s.reference_number as string));
      query = `updated_since=${encodeURIComponent(page.next_updated_since)}&cursor=${page.next_cursor}`;
      if (!page.has_more) break;
    }
    expect(pages).toEqual([
      { count: 200, has_more: true },
      { count: 200, has_more: true },
      { count: 50, has_more: false },
    ]);
    expect(seen).toHaveLength(450);
    expect(new Set(seen).size).toBe(450);

    // The last page's continuation is where the next poll starts: nothing new, nothing repeated.
    const idle = await json(await call(org.key, "GET", `/shipments?${query}`));
    expect(idle).toMatchObject({ count: 0, has_more: false, next_updated_since: null, next_cursor: null });
  });

  it("refuses a cursor this API did not give, and a cursor without updated_since, with 400 naming cursor", async () => {
    const org = await app.fixtures.organization();
    const since = "2026-01-01T00:00:00Z";
    for (const path of [
      `/shipments?updated_since=${since}&cursor=not-a-cursor`,
      `/shipments?updated_since=${since}&cursor=${Buffer.from("2026-02-30T00:00:00.000Z~5").toString("base64url")}`,
      `/shipments?cursor=${Buffer.from("2026-01-01T00:00:00.000Z~5").toString("base64url")}`,
    ]) {
      const res = await call(org.key, "GET", path);
      expect(res.status, path).toBe(400);
      expect((await json(res)).data.param, path).toBe("cursor");
    }
  });
});

describe("GET /api/v1/shipments total", () => {
  /** What a user sees of the list: its total, and every shipment when they ask for all of them. */
  async function list(org: OrgWithKey) {
    const body = await json(await call(org.key, "GET", "/shipments?pageSize=100"));
    return {
      total: body.total as number,
      references: (body.data as Record<string, any>[]).map((s) => s.reference_number as string).sort(),
    };
  }

  it("follows tracking, a failed lookup and untracking, each organisation on its own", async () => {
    const a = await app.fixtures.organization();
    const b = await app.fixtures.organization();
    expect(await list(a)).toEqual({ total: 0, references: [] });

    await call(a.key, "POST", "/track", {
      shipments: [known[13], known[14]].map((number) => ({ type: "container", number })),
    });
    expect(await list(a)).toEqual({ total: 2, references: [known[13], known[14]].sort() });
    expect((await list(b)).total).toBe(0);

    // A reference the carrier does not know is still a shipment in the list (it failed).
    expect((await call(a.key, "GET", `/container/${unknown[2]}?sealine=MSCU`)).status).toBe(404);
    expect(await list(a)).toEqual({ total: 3, references: [known[13], known[14], unknown[2]].sort() });

    // Tracking the same reference again adds nothing.
    await call(a.key, "GET", `/container/${known[13]}`);
    expect((await list(a)).total).toBe(3);

    await call(b.key, "GET", `/container/${known[15]}`);
    expect(await list(b)).toEqual({ total: 1, references: [known[15]] });
    expect((await list(a)).total).toBe(3);

    expect((await call(a.key, "DELETE", `/shipments/${known[14]}`)).status).toBe(200);
    expect(await list(a)).toEqual({ total: 2, references: [known[13], unknown[2]].sort() });
    expect((await list(b)).total).toBe(1);

    // Another organisation tracking the reference a deleted, then a tracking it again.
    await call(b.key, "GET", `/container/${known[14]}`);
    expect(await list(b)).toEqual({ total: 2, references: [known[14], known[15]].sort() });
    expect((await list(a)).total).toBe(2);
    await call(a.key, "GET", `/container/${known[14]}`);
    expect(await list(a)).toEqual({ total: 3, references: [known[13], known[14], unknown[2]].sort() });
    expect((await list(b)).total).toBe(2);
  });

  it("stays equal to counting the rows after bulk writes, moves between organisations and hard deletes in SQL", async () => {
    const c = await app.fixtures.organization();
    const d = await app.fixtures.organization();
    const { prisma, sql } = app.services.db;
    const rows = (org: OrgWithKey, prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        organizationId: org.organizationId,
        addedByUserId: org.userId,
        referenceType: "bl" as const,
        reference: `${prefix}${i}`,
        referenceKey: `${prefix}${i}`,
      }));
    await prisma.shipment.createMany({ data: [...rows(c, "CNT", 40), ...rows(d, "DNT", 25)] });
    // Soft-delete 11 (CNT1, CNT10 to CNT19), change all 40 without touching liveness, bring 3 back.
    await sql.query(
      `UPDATE shipments SET deleted_at = now() WHERE organization_id = $1 AND reference_key LIKE 'CNT1%'`,
      [c.organizationId],
    );
    await sql.query(`UPDATE shipments SET status = 'IN_TRANSIT' WHERE organization_id = $1`, [
      c.organizationId,
    ]);
    await sql.query(
      `UPDATE shipments SET deleted_at = NULL
        WHERE organization_id = $1 AND reference_key IN ('CNT10', 'CNT11', 'CNT12')`,
      [c.organizationId],
    );
    // Move 5 shipments (2 of them deleted) from c to d in one statement.
    await sql.query(
      `UPDATE shipments SET organization_id = $2
        WHERE organization_id = $1 AND reference_key IN ('CNT2', 'CNT3', 'CNT4', 'CNT13', 'CNT14')`,
      [c.organizationId, d.organizationId],
    );
    // Hard-delete live and deleted rows of both organisations in one statement.
    await sql.query(
      `DELETE FROM shipments WHERE organization_id IN ($1, $2)
         AND reference_key IN ('CNT5', 'CNT15', 'DNT0', 'DNT1', 'CNT2')`,
      [c.organizationId, d.organizationId],
    );

    const counted = async (org: OrgWithKey) => {
      const { rows } = await sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM shipments WHERE organization_id = $1 AND deleted_at IS NULL`,
        [org.organizationId],
      );
      return Number(rows[0]!.n);
    };
    const counter = async (org: OrgWithKey) => {
      const { rows } = await sql.query<{ live: string }>(
        `SELECT live::text AS live FROM organization_shipment_counts WHERE organization_id = $1`,
        [org.organizationId],
      );
      return Number(rows[0]?.live ?? 0);
    };
    // c: 40 - 11 + 3 - 3 live moved away - CNT5 = 28; d: 25 + 3 live moved in - DNT0, DNT1, CNT2 = 25.
    expect(await counted(c)).toBe(28);
    expect(await counted(d)).toBe(25);
    expect(await counter(c)).toBe(28);
    expect(await counter(d)).toBe(25);
    expect((await list(c)).total).toBe(28);
    expect((await list(d)).total).toBe(25);

    // Deleting an organisation takes its shipments and its count with it, and its user's shipments
    // that moved to d (CNT3, CNT4: added by c's user, deleted with the user).
    await prisma.organization.delete({ where: { id: c.organizationId } });
    const { rows: left } = await sql.query(
      `SELECT live FROM organization_shipment_counts WHERE organization_id = $1`,
      [c.organizationId],
    );
    expect(left).toEqual([]);
    // Written in SQL behind the service's back (there is no organisation deletion in the product):
    // say what changed, as every write site does, or the answer cache keeps d's page of 25.
    await answersChanged({ organizations: [d.organizationId] });
    expect(await counted(d)).toBe(23);
    expect(await counter(d)).toBe(23);
    expect((await list(d)).total).toBe(23);
  });
});

describe("GET /api/v1/account/usage", () => {
  it("reports plan, quota, slots, cycle, period and the rate window of the headers", async () => {
    const org = await app.fixtures.organization({ plan: "starter", billingCycle: "yearly" });
    await call(org.key, "GET", `/container/${known[7]}`);
    const res = await call(org.key, "GET", "/account/usage");
    const { data } = await json(res);
    expect(data).toMatchObject({
      plan: "starter",
      quota: 1200,
      used: 1,
      slots_remaining: 1199,
      cycle: "yearly",
      period_days: 365,
    });
    expect(data.rate_limit).toEqual({
      limit: Number(res.headers.get("x-ratelimit-limit")),
      remaining: Number(res.headers.get("x-ratelimit-remaining")),
      reset: Number(res.headers.get("x-ratelimit-reset")),
    });
  });
});

describe("PATCH and DELETE /api/v1/shipments/{id}", () => {
  it("replaces the customer, matching an existing one by name in any case", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    await call(org.key, "GET", `/container/${known[8]}`);
    await call(org.key, "GET", `/container/${known[9]}`);
    const first = await json(
      await call(org.key, "PATCH", `/shipments/${known[8]}`, { customer: "Acme Ltd" }),
    );
    expect(first.data.customers).toEqual(["Acme Ltd"]);
    const second = await json(
      await call(org.key, "PATCH", `/shipments/${known[9]}`, { customer: "ACME LTD" }),
    );
    expect(second.data.customers).toEqual(["Acme Ltd"]);
    expect(
      await app.services.db.prisma.customer.count({ where: { organizationId: org.organizationId } }),
    ).toBe(1);
    const same = await json(await call(org.key, "PATCH", `/shipments/${known[8]}`, { customer: "Acme Ltd" }));
    expect(same.unchanged).toBe(true);
    const replaced = await json(
      await call(org.key, "PATCH", `/shipments/${known[8]}`, { customer: "Globex" }),
    );
    expect(replaced.data.customers).toEqual(["Globex"]);
    const cleared = await json(await call(org.key, "PATCH", `/shipments/${known[8]}`, { customer: null }));
    expect(cleared.data.customers).toEqual([]);
    const list = await json(await call(org.key, "GET", "/shipments"));
    expect(
      list.data.find((s: { reference_number: string }) => s.reference_number === known[9]).customers,
    ).toEqual(["Acme Ltd"]);
  });

  it("refuses reference_number, an empty body, a view-only key, a plan without customers, and the customer limit", async () => {
    const org = await app.fixtures.organization({ plan: "starter" });
    await call(org.key, "GET", `/container/${known[10]}`);
    expect(
      (await json(await call(org.key, "PATCH", `/shipments/${known[10]}`, { reference_number: "X" })))
        .statusCode,
    ).toBe(400);
    expect((await call(org.key, "PATCH", `/shipments/${known[10]}`, {})).status).toBe(400);
    const viewer = await app.fixtures.teammate(org.organizationId, { viewOnly: true });
    const viewOnly = await call(viewer.key, "PATCH", `/shipments/${known[10]}`, { customer: "X" });
    expect(viewOnly.status).toBe(403);
    expect((await call(viewer.key, "GET", `/shipments/${known[10]}`)).status).toBe(200);

    const free = await app.fixtures.organization({ plan: "free" });
    await call(free.key, "GET", `/container/${known[10]}`);
    const noCustomers = await call(free.key, "PATCH", `/shipments/${known[10]}`, { customer: "Acme" });
    expect(noCustomers.status).toBe(403);
    expect((await json(noCustomers)).data).toMatchObject({ error: "plan_required", min_plan: "starter" });

    await app.services.db.prisma.customer.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        organizationId: org.organizationId,
        name: `C${i}`,
        nameKey: `c${i}`,
      })),
    });
    const full = await call(org.key, "PATCH", `/shipments/${known[10]}`, { customer: "One too many" });
    expect(full.status).toBe(422);
    expect((await json(full)).data).toMatchObject({ error: "customer_limit_reached", limit: 25 });
    // An existing name still matches at the limit.
    expect((await call(org.key, "PATCH", `/shipments/${known[10]}`, { customer: "c3" })).status).toBe(200);
  });

  it("re-tracks under a new carrier and says still_failed when it still finds nothing", async () => {
    const org = await app.fixtures.organization();
    await call(org.key, "GET", `/container/${unknown[1]}?sealine=MSCU`);
    const res = await call(org.key, "PATCH", `/shipments/${unknown[1]}`, { carrier: "MAEU" });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.still_failed).toBe(true);
    expect(body.data.sealine).toBe("MAEU");
  });

  it("untracks softly: gone from the list, repeat is 404, real id returned, slot freed but the count kept", async () => {
    const org = await app.fixtures.organization();
    const tracked = await json(await call(org.key, "GET", `/container/${known[11]}`));
    const name = (await json(await call(org.key, "GET", `/shipments/${known[11]}`))).data.name;
    const res = await call(org.key, "DELETE", `/shipments/${known[11]!.toLowerCase()}`);
    expect(await json(res)).toEqual({ success: true, deleted: true, shipment_id: name });
    expect((await call(org.key, "DELETE", `/shipments/${known[11]}`)).status).toBe(404);
    expect((await call(org.key, "GET", `/shipments/${known[11]}`)).status).toBe(404);
    expect((await json(await call(org.key, "GET", "/shipments"))).total).toBe(0);
    const usage = (await json(await call(org.key, "GET", "/account/usage"))).data;
    expect(usage.used).toBe(1);
    expect(usage.slots_remaining).toBe(usage.quota);
    expect(tracked.data.reference_number).toBe(known[11]);
  });
});

describe("POST /api/v1/shipments/{id}/share", () => {
  it("refuses a shipment no carrier has found with 409 in words and makes no link; a found one gets a working link", async () => {
    const org = await app.fixtures.organization();
    expect((await call(org.key, "GET", `/container/${unknown[0]}?sealine=MSCU`)).status).toBe(404);
    const refused = await call(org.key, "POST", `/shipments/${unknown[0]}/share`);
    expect(refused.status).toBe(409);
    const body = await json(refused);
    expect(body).toMatchObject({
      success: false,
      statusCode: 409,
      statusMessage: "Conflict",
      data: { error: "shipment_not_shareable" },
    });
    expect(body.message).toBe(
      `${unknown[0]} cannot be shared yet: no carrier has found it, so the page would have no journey to show. Share it once a carrier has answered.`,
    );
    expect(
      await app.services.db.prisma.shareLink.count({ where: { organizationId: org.organizationId } }),
    ).toBe(0);

    await call(org.key, "GET", `/container/${known[16]}`);
    const shared = await call(org.key, "POST", `/shipments/${known[16]}/share`);
    expect(shared.status).toBe(201);
    const url: string = (await json(shared)).data.url;
    expect((await fetch(url)).status).toBe(200);

    // At rest the link is sealed and found by its hash: the table alone opens no page. Sharing again
    // shows the same link.
    const { prisma } = app.services.db;
    const token = url.split("/").pop()!;
    const row = await prisma.shareLink.findFirstOrThrow({ where: { organizationId: org.organizationId } });
    expect(row.token).toMatch(/^enc:v1:/);
    expect(row.token).not.toContain(token);
    expect(row.tokenHash).not.toContain(token);
    const again = await call(org.key, "POST", `/shipments/${known[16]}/share`);
    expect(again.status).toBe(200);
    expect((await json(again)).data.url).toBe(url);
    // A link from before: its token in clear and the hash the migration computed in SQL. The start-up
    // pass seals it once, and the link keeps working.
    await prisma.$executeRaw`UPDATE share_links SET token = ${token}, token_hash = encode(sha256(convert_to(${token}, 'UTF8')), 'hex') WHERE id = ${row.id}`;
    expect((await prisma.shareLink.findUniqueOrThrow({ where: { id: row.id } })).tokenHash).toBe(
      row.tokenHash,
    );
    expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ shareLinks: 1 });
    expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ shareLinks: 0 });
    expect((await prisma.shareLink.findUniqueOrThrow({ where: { id: row.id } })).token).toMatch(/^enc:v1:/);
    expect((await fetch(url)).status).toBe(200);
    expect((await json(await call(org.key, "POST", `/shipments/${known[16]}/share`))).data.url).toBe(url);
  });
});

describe("teams and tenants", () => {
  it("teammates read each other's shipments but change only their own; other organisations see 404 everywhere", async () => {
    const owner = await app.fixtures.organization();
    const mate = await app.fixtures.teammate(owner.organizationId);
    const stranger = await app.fixtures.organization();
    await call(owner.key, "GET", `/container/${known[12]}`);
    expect((await call(mate.key, "GET", `/shipments/${known[12]}`)).status).toBe(200);
    expect((await json(await call(mate.key, "GET", "/shipments"))).total).toBe(1);
    expect((await call(mate.key, "PATCH", `/shipments/${known[12]}`, { carrier: "MAEU" })).status).toBe(404);
    expect((await call(mate.key, "DELETE", `/shipments/${known[12]}`)).status).toBe(404);
    for (const [method, path, body] of [
      ["GET", `/shipments/${known[12]}`],
      ["PATCH", `/shipments/${known[12]}`, { customer: "X" }],
      ["DELETE", `/shipments/${known[12]}`],
      ["POST", `/shipments/${known[12]}/share`],
      ["DELETE", `/shipments/${known[12]}/share`],
    ] as const) {
      const res = await call(stranger.key, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await json(await call(stranger.key, "GET", "/shipments"))).total).toBe(0);
  });
});
