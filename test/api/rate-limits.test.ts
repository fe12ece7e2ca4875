import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { startTestApp, type TestApp } from "../support/app";

// Mid-minute, so a burst never straddles a window boundary.
const MID_MINUTE = "2026-11-22T10:00:30.000Z";
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function burst(urls: string[], headers: Record<string, string>) {
  const responses = await Promise.all(urls.map((u) => fetch(u, { headers })));
  return Promise.all(
    responses.map(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: (await r.json()) as Record<string, unknown>,
    })),
  );
}

describe("per-key window, in-memory store", () => {
  let app: TestApp;
  const clock = new ManualClock(MID_MINUTE);
  beforeAll(async () => {
    app = await startTestApp({ clock });
  });
  afterAll(() => app?.stop());

  it("lets exactly the plan's limit through when more requests arrive at once, then resets with the window", async () => {
    const { key } = await app.fixtures.organization({ plan: "free" });
    const results = await burst(Array(45).fill(`${app.url}/api/v1/carriers`), bearer(key));
    expect(results.filter((r) => r.status === 200)).toHaveLength(30);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    for (const r of results) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("30");
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2026-11-22T10:01:00Z") / 1000));
      expect(Number(r.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
    }
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.body).toEqual({
      success: false,
      statusCode: 429,
      statusMessage: "Too Many Requests",
      message: expect.any(String),
      data: {
        error: "rate_limit_exceeded",
        limit: 30,
        retryAfter: 30,
        plan: "free",
        upgrade: {
          next_plan: "starter",
          next_limit_per_min: 60,
          url: expect.stringContaining("plan=starter"),
        },
      },
    });

    clock.advance(60_000);
    const next = await fetch(`${app.url}/api/v1/carriers`, { headers: bearer(key) });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("29");
    clock.set(MID_MINUTE);
  });

  it("spends one window across every surface of the same key", async () => {
    const { key } = await app.fixtures.organization({ plan: "free" });
    clock.advance(120_000);
    const mixed = [
      ...Array(12).fill(`${app.url}/api/v1/carriers`),
      ...Array(12).fill(`${app.url}/compat/info/sealines`),
    ];
    await burst(mixed, bearer(key));
    const gql = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(key) },
      body: JSON.stringify({ query: "{ viewer { rateLimit { remaining } } }" }),
    });
    expect(gql.headers.get("x-ratelimit-remaining")).toBe("5");
    const more = await burst(Array(6).fill(`${app.url}/compat/info/sealines`), bearer(key));
    const limited = more.filter((r) => r.body.message === "API_KEY_RATE_LIMIT");
    expect(limited).toHaveLength(1);
    expect(more.every((r) => r.status === 200)).toBe(true);
    expect(Number(limited[0]!.headers.get("retry-after"))).toBe(30);
    const graphqlRefused = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(key) },
      body: JSON.stringify({ query: "{ viewer { user { email } } }" }),
    });
    expect(graphqlRefused.status).toBe(429);
    expect((await graphqlRefused.json()).errors[0].extensions.code).toBe("RATE_LIMITED");
  });

  it("names a contact address instead of an upgrade when no plan buys a bigger minute", async () => {
    const { key } = await app.fixtures.organization({ plan: "custom" });
    clock.advance(240_000);
    const results = await burst(Array(610).fill(`${app.url}/api/v1/carriers`), bearer(key));
    expect(results.filter((r) => r.status === 200)).toHaveLength(600);
    const data = results.find((r) => r.status === 429)!.body.data as Record<string, unknown>;
    expect(data.plan).toBe("custom");
    expect(data.contactUrl).toEqual(expect.stringContaining("/contact"));
    expect(data).not.toHaveProperty("upgrade");
  });

  it("windows a custom plan at its negotiated rate (quayside orgs rate) from the next request, and only a custom plan", async () => {
    const { accounts, db } = app.services;
    const { key, organizationId } = await app.fixtures.organization({ plan: "custom" });
    // Used once, so the key is in this process's cache when the rate changes.
    expect((await fetch(`${app.url}/api/v1/carriers`, { headers: bearer(key) })).status).toBe(200);
    await accounts.setRatePerMinute(
      await db.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } }),
      8,
    );
    const viewer = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(key) },
      body: JSON.stringify({
        query: "{ viewer { organization { plan { ratePerMinute } } rateLimit { limit } } }",
      }),
    });
    expect((await viewer.json()).data.viewer).toEqual({
      organization: { plan: { ratePerMinute: 8 } },
      rateLimit: { limit: 8 },
    });
    // Two of the minute's eight spent: the first call and the viewer.
    const results = await burst(Array(10).fill(`${app.url}/api/v1/carriers`), bearer(key));
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(4);
    expect(results[0]!.headers.get("x-ratelimit-limit")).toBe("8");

    const starter = await app.fixtures.organization({ plan: "starter" });
    await expect(
      accounts.setRatePerMinute(
        await db.prisma.organization.findUniqueOrThrow({ where: { id: starter.organizationId } }),
        8,
      ),
    ).rejects.toThrow(/Only the custom plan has a negotiated rate/);
  });
});

describe("per-key window shared through Redis by two instances", () => {
  const redisUrl = inject("redisUrl");
  it.skipIf(!redisUrl)("lets exactly the limit through across both processes' stores", async () => {
    const clock = new ManualClock(MID_MINUTE);
    const first = await startTestApp({ clock, env: { REDIS_URL: redisUrl } });
    try {
      const { key } = await first.fixtures.organization({ plan: "starter" });
      const second = await startTestApp({ clock, env: { REDIS_URL: redisUrl } });
      try {
        // Each test app has its own database, so the same key (same id, same hash) is copied into the
        // second one: both processes then spend from one window, which only the shared store can keep.
        const org2 = await second.services.accounts.createOrganization({
          name: "Twin",
          plan: "starter",
          developerMode: true,
        });
        const user2 = await second.services.accounts.createUser({
          organizationId: org2.id,
          email: "twin@example.com",
        });
        const firstKey = (await first.services.accounts.listApiKeys({})).at(-1)!;
        await second.services.db.prisma.apiKey.create({
          data: {
            id: firstKey.id,
            organizationId: org2.id,
            userId: user2.id,
            name: "twin",
            displayPrefix: firstKey.displayPrefix,
            keyHash: firstKey.keyHash,
          },
        });
        const urls = Array.from({ length: 90 }, (_, i) => `${(i % 2 ? first : second).url}/api/v1/carriers`);
        const results = await burst(urls, bearer(key));
        expect(results.filter((r) => r.status === 200)).toHaveLength(60);
        expect(results.filter((r) => r.status === 429)).toHaveLength(30);
        expect(first.services.counters.kind).toBe("redis");
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });
});

describe("organisation window shared through Redis", () => {
  const redisUrl = inject("redisUrl");
  it.skipIf(!redisUrl)(
    "lets exactly five keys' worth through when six keys of one organisation race, with the counts in Redis",
    async () => {
      const clock = new ManualClock("2026-11-22T10:07:30.000Z");
      const app = await startTestApp({ clock, env: { REDIS_URL: redisUrl } });
      try {
        expect(app.services.counters.kind).toBe("redis");
        const org = await app.fixtures.organization({ plan: "starter" }); // 60 per key, 300 together
        const keys = [org.key];
        for (let i = 0; i < 5; i++) keys.push((await app.fixtures.teammate(org.organizationId)).key);
        const answers = await Promise.all(
          keys.flatMap((key) =>
            Array.from({ length: 60 }, () =>
              fetch(`${app.url}/api/v1/carriers`, { headers: bearer(key) }).then(async (r) => ({
                status: r.status,
                error: ((await r.json()) as { data?: { error?: string } }).data?.error,
              })),
            ),
          ),
        );
        expect(answers.filter((a) => a.status === 200)).toHaveLength(300);
        expect(answers.filter((a) => a.error === "organization_rate_limit_exceeded")).toHaveLength(60);
      } finally {
        await app.stop();
      }
    },
    120_000,
  );
});
