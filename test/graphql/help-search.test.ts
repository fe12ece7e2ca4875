import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, startTestApp, type TestApp } from "../support/app";

let app: TestApp;
const SEARCH = `query($q: String!, $limit: Int) {
  searchHelp(query: $q, limit: $limit) { query articlesSearched results { slug title summary snippet path score } }
}`;

beforeAll(async () => {
  app = await startTestApp({ env: { QUAYSIDE_WORKERS: "off" } });
}, 120_000);
afterAll(() => app?.stop());

describe("GraphQL searchHelp (the dashboard's help box)", () => {
  it("answers any key, developer mode off included: the articles explain how to switch it on", async () => {
    const org = await app.fixtures.organization({ developerMode: false });
    const res = await graphql(app, org.key, SEARCH, { q: "developer mode disabled", limit: 3 });
    expect(res.body.errors).toBeUndefined();
    const search = res.body.data!.searchHelp as {
      articlesSearched: number;
      results: { slug: string; path: string; snippet: string }[];
    };
    expect(search.results).toHaveLength(3);
    expect(search.results.map((r) => r.slug)).toContain("api-keys");
    expect(search.results[0]!.path).toMatch(/^docs\/help\/[a-z-]+\.md$/);
    // The same key is refused the data fields that need developer mode.
    const refused = await graphql(app, org.key, "{ misReport { rowsTotal } }");
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("DEVELOPER_MODE_DISABLED");
  });

  it("refuses a missing key and bad arguments with a clear error", async () => {
    const org = await app.fixtures.organization();
    expect((await graphql(app, undefined, SEARCH, { q: "webhooks" })).status).toBe(401);
    for (const [variables, message] of [
      [{ q: " a " }, /at least 2 characters/],
      [{ q: "x".repeat(201) }, /at most 200 characters/],
      [{ q: "webhooks", limit: 11 }, /limit is at most 10/],
    ] as const) {
      const res = await graphql(app, org.key, SEARCH, variables);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors?.[0]?.message).toMatch(message);
    }
  });
});
