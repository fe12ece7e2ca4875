import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
let owner: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.fixtures.organization({ plan: "starter" });
});
afterAll(() => app?.stop());

const CREATE_KEY = `mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { key apiKey { id name viewOnly displayPrefix expiresAt } }
}`;

describe("API keys through GraphQL", () => {
  it("shows a new key once, stores only its hash, and the key works at once", async () => {
    const { body } = await graphql(app, owner.key, CREATE_KEY, { input: { name: "CI key" } });
    const created = body.data!.createApiKey as { key: string; apiKey: { id: string; displayPrefix: string } };
    expect(created.key).toMatch(/^qs_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.apiKey.displayPrefix)).toBe(true);

    // The raw key appears nowhere in the database: not in the key table, not anywhere else.
    const dump = await app.services.db.sql.query<{ row: string }>(
      `SELECT row_to_json(k)::text AS row FROM api_keys k
       UNION ALL SELECT row_to_json(o)::text FROM organizations o
       UNION ALL SELECT row_to_json(u)::text FROM users u`,
    );
    expect(dump.rows.length).toBeGreaterThan(0);
    for (const { row } of dump.rows) expect(row).not.toContain(created.key);
    expect(app.rawLogs.join("\n")).not.toContain(created.key);

    const listed = await graphql(app, created.key, "{ viewer { apiKey { id name } } }");
    expect(listed.body.data).toEqual({ viewer: { apiKey: { id: created.apiKey.id, name: "CI key" } } });
  });

  it("revokes a key so that the next request with it is refused", async () => {
    const { body } = await graphql(app, owner.key, CREATE_KEY, { input: { name: "short-lived" } });
    const created = body.data!.createApiKey as { key: string; apiKey: { id: string } };
    const revoked = await graphql(
      app,
      owner.key,
      "mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }",
      {
        id: created.apiKey.id,
      },
    );
    expect((revoked.body.data!.revokeApiKey as { revokedAt: string }).revokedAt).toBeTruthy();
    const after = await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${created.key}` },
    });
    expect(after.status).toBe(401);
    expect((await after.json()).data.error).toBe("api_key_revoked");
  });

  it("a key of another organisation cannot be revoked: it is not found", async () => {
    const stranger = await app.fixtures.organization();
    const res = await graphql(app, owner.key, "mutation($id: ID!) { revokeApiKey(id: $id) { id } }", {
      id: stranger.keyId,
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const stillWorks = await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${stranger.key}` },
    });
    expect(stillWorks.status).toBe(200);
  });

  it("a view-only key reads but cannot create keys or switch developer mode", async () => {
    const viewer = await app.fixtures.teammate(owner.organizationId, { role: "owner", viewOnly: true });
    const read = await graphql(app, viewer.key, "{ viewer { apiKey { viewOnly } } }");
    expect(read.body.data).toEqual({ viewer: { apiKey: { viewOnly: true } } });
    const create = await graphql(app, viewer.key, CREATE_KEY, { input: { name: "nope" } });
    expect(create.body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
    const toggle = await graphql(
      app,
      viewer.key,
      "mutation { setDeveloperMode(enabled: false) { developerMode } }",
    );
    expect(toggle.body.errors?.[0]?.extensions?.code).toBe("VIEW_ONLY_KEY");
  });

  it("a member cannot switch developer mode; an owner can, and the surfaces follow at once", async () => {
    const member = await app.fixtures.teammate(owner.organizationId, { role: "member" });
    const refused = await graphql(
      app,
      member.key,
      "mutation { setDeveloperMode(enabled: false) { developerMode } }",
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("OWNER_REQUIRED");

    const off = await graphql(
      app,
      owner.key,
      "mutation { setDeveloperMode(enabled: false) { developerMode } }",
    );
    expect(off.body.data).toEqual({ setDeveloperMode: { developerMode: false } });
    const v1 = await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${member.key}` },
    });
    expect(v1.status).toBe(403);
    const compat = await fetch(`${app.url}/compat/info/sealines?api_key=${member.key}`);
    expect((await compat.json()).message).toBe("API_KEY_ACCESS_DENIED");

    // The dashboard API still answers the owner with developer mode off, so it can be switched back.
    const on = await graphql(
      app,
      owner.key,
      "mutation { setDeveloperMode(enabled: true) { developerMode } }",
    );
    expect(on.body.data).toEqual({ setDeveloperMode: { developerMode: true } });
    expect(
      (await fetch(`${app.url}/api/v1/carriers`, { headers: { authorization: `Bearer ${member.key}` } }))
        .status,
    ).toBe(200);
  });

  it("a member sees only their own keys; an owner sees all of the organisation's", async () => {
    const member = await app.fixtures.teammate(owner.organizationId, { role: "member" });
    const q = "{ viewer { organization { apiKeys { id } } } }";
    const mine = (await graphql(app, member.key, q)).body.data as {
      viewer: { organization: { apiKeys: { id: string }[] } };
    };
    expect(mine.viewer.organization.apiKeys.map((k) => k.id)).toEqual([member.keyId]);
    const all = (await graphql(app, owner.key, q)).body.data as {
      viewer: { organization: { apiKeys: { id: string }[] } };
    };
    expect(all.viewer.organization.apiKeys.map((k) => k.id)).toContain(member.keyId);
  });

  it("refuses an expiry in the past with a coded input error", async () => {
    const res = await graphql(app, owner.key, CREATE_KEY, {
      input: { name: "old", expiresAt: "2001-01-01T00:00:00Z" },
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("plans and usage", () => {
  it("reports the spec's numbers and the billing cycle", async () => {
    const yearly = await app.fixtures.organization({ plan: "business", billingCycle: "yearly" });
    const res = await graphql(
      app,
      yearly.key,
      "{ plans { code ratePerMinute lookupsPerDay carrierLookupsPerDay } viewer { organization { periodDays billingCycle shipmentSlotsPerCycle plan { shipmentSlotsPerMonth } } } }",
    );
    const data = res.body.data as {
      plans: { code: string; ratePerMinute: number; lookupsPerDay: number; carrierLookupsPerDay: number }[];
      viewer: {
        organization: {
          periodDays: number;
          shipmentSlotsPerCycle: number;
          plan: { shipmentSlotsPerMonth: number };
        };
      };
    };
    expect(data.plans.map((p) => [p.code, p.ratePerMinute, p.lookupsPerDay, p.carrierLookupsPerDay])).toEqual(
      [
        ["free", 30, 100, 1000],
        ["starter", 60, 500, 1000],
        ["professional", 120, 1500, 1000],
        ["business", 240, 5000, 1000],
        ["custom", 600, 10000, 1000],
      ],
    );
    expect(data.viewer.organization.periodDays).toBe(365);
    expect(data.viewer.organization.shipmentSlotsPerCycle).toBe(
      data.viewer.organization.plan.shipmentSlotsPerMonth * 12,
    );
  });
});

describe("bounded work per request", () => {
  it("refuses a query nested deeper than the limit", async () => {
    const deep = `{ viewer { organization { users { id } apiKeys { user { id } } } } }`;
    expect((await graphql(app, owner.key, deep)).body.errors).toBeUndefined();
    const bounded = await startTestApp({ env: { QUAYSIDE_GRAPHQL_MAX_DEPTH: "3" } });
    try {
      const o = await bounded.fixtures.organization();
      const res = await graphql(bounded, o.key, deep);
      expect(res.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_DEEP");
      expect(res.body.data ?? null).toBeNull();
    } finally {
      await bounded.stop();
    }
  });

  it("refuses a query whose lists multiply into too much work", async () => {
    const bounded = await startTestApp({ env: { QUAYSIDE_GRAPHQL_MAX_COST: "500" } });
    try {
      const o = await bounded.fixtures.organization();
      const wide = `{ a: carriers { scac } b: carriers { scac } c: carriers { scac } d: carriers { scac } e: carriers { scac } f: carriers { scac } }`;
      const res = await graphql(bounded, o.key, wide);
      expect(res.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_COSTLY");
    } finally {
      await bounded.stop();
    }
  });

  it("answers an invalid document with its validation error and nothing internal", async () => {
    const bad = await graphql(app, owner.key, "{ nope }");
    expect(bad.body.errors?.[0]?.message).toMatch(/Cannot query field "nope"/);
    expect(JSON.stringify(bad.body)).not.toMatch(/node_modules|\.ts:\d+/);
  });
});
