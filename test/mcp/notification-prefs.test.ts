/**
 * MCP get_notification_prefs (issue 22 item 2): the asking user's choices as GraphQL saved them, the
 * address masked, webhook endpoints by host only, never a secret or a path; nothing of another user's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { callTool, inMemoryClient, textOf } from "./support";

let app: TestApp;
let org: OrgWithKey;
let mate: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  org = await app.fixtures.organization();
  mate = await app.fixtures.teammate(org.organizationId);
}, 60_000);
afterAll(() => app?.stop());

describe("get_notification_prefs", () => {
  it("answers the defaults, then what the user saved; the address masked and endpoints by host only", async () => {
    const client = await inMemoryClient(app, org.key);
    const first = await callTool(client, "get_notification_prefs");
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      channels: { email: { enabled: true, addressMasked: "u***@e***.com" }, webhooks: [] },
      events: {
        statusChanges: true,
        etaChanges: true,
        vesselArrival: true,
        lastFreeDayReminders: true,
        disruptions: true,
        dailyDigest: false,
      },
      etaChangeMinHours: 6,
      lfdReminders: [72, 24],
      digest: "none",
      timezone: "UTC",
      quietHours: null,
      followedShipments: 0,
    });

    const created = await graphql(
      app,
      org.key,
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } signingSecret } }`,
      { input: { url: "http://127.0.0.1:9/hooks/secret-path?token=abc123", events: ["eta.changed"] } },
    );
    expect(created.body.errors).toBeUndefined();
    const { endpoint, signingSecret } = created.body.data!.createWebhookEndpoint as {
      endpoint: { id: string };
      signingSecret: string;
    };
    const saved = await graphql(
      app,
      org.key,
      `mutation($input: NotificationPreferencesInput!) { updateNotificationPreferences(input: $input) { timeZone } }`,
      {
        input: {
          dailyDigest: true,
          etaChangeMinHours: 12,
          disruptions: false,
          timeZone: "Europe/Amsterdam",
          quietHours: { start: "22:30", end: "06:45" },
        },
      },
    );
    expect(saved.body.errors).toBeUndefined();

    const second = await callTool(client, "get_notification_prefs");
    expect(second.structuredContent).toMatchObject({
      channels: {
        email: { enabled: true, addressMasked: "u***@e***.com" },
        webhooks: [{ id: endpoint.id, urlHostOnly: "127.0.0.1", events: ["eta.changed"], enabled: true }],
      },
      events: { disruptions: false, dailyDigest: true },
      etaChangeMinHours: 12,
      digest: "daily",
      timezone: "Europe/Amsterdam",
      quietHours: { start: "22:30", end: "06:45" },
    });
    const text = textOf(second);
    for (const secret of [signingSecret, "secret-path", "abc123", "http://", "@example.com"]) {
      expect(text).not.toContain(secret);
    }

    // The teammate's own preferences are the defaults: one user's choices are never another's.
    const theirs = await callTool(await inMemoryClient(app, mate.key), "get_notification_prefs");
    expect(theirs.structuredContent).toMatchObject({ digest: "none", timezone: "UTC", quietHours: null });
  });

  it("takes no arguments (no account or user id) and is annotated read-only", async () => {
    const client = await inMemoryClient(app, org.key);
    const tools = await client.listTools();
    const tool = tools.tools.find((t) => t.name === "get_notification_prefs")!;
    expect(Object.keys((tool.inputSchema.properties ?? {}) as object)).toEqual([]);
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
  });
});
