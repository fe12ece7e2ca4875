import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

/** Issue 38: a key's name tells keys apart (lists, the revoke confirmation), so live keys never share one. */
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp();
  org = await app.fixtures.organization({ plan: "starter" });
});
afterAll(() => app?.stop());

const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id name } } }`;
const REVOKE = "mutation($id: ID!) { revokeApiKey(id: $id) { id } }";

describe("API key names", () => {
  it("refuses a second live key of the same name in the organisation, in words, whatever the case", async () => {
    const first = await graphql(app, org.key, CREATE_KEY, { input: { name: "Warehouse sync" } });
    const id = (first.body.data!.createApiKey as { apiKey: { id: string } }).apiKey.id;
    const again = await graphql(app, org.key, CREATE_KEY, { input: { name: " warehouse SYNC " } });
    expect(again.body.data?.createApiKey).toBeNull();
    expect(again.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(again.body.errors?.[0]?.message).toBe(
      'A live key is already named "warehouse SYNC". Choose another name, or revoke that key first.',
    );

    // Another organisation may use the name; once the key is revoked, the name is free again.
    const other = await app.fixtures.organization({ plan: "starter" });
    const elsewhere = await graphql(app, other.key, CREATE_KEY, { input: { name: "Warehouse sync" } });
    expect(elsewhere.body.errors).toBeUndefined();
    await graphql(app, org.key, REVOKE, { id });
    const reused = await graphql(app, org.key, CREATE_KEY, { input: { name: "Warehouse sync" } });
    expect((reused.body.data!.createApiKey as { apiKey: { name: string } }).apiKey.name).toBe(
      "Warehouse sync",
    );
  });

  it("numbers keys created without a name instead of repeating one", async () => {
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await app.services.accounts.createApiKey({ userId: org.userId });
      names.push(created.apiKey.name);
    }
    expect(new Set(names).size).toBe(2);
  });
});
