import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { databaseEnvironment, freshDatabaseTarget } from "../support/database";
import { startReceiver } from "../support/receiver";

/**
 * Issue 26 item 9: a webhook target never reaches a private address, whatever the spelling, and a
 * target saved while private targets were allowed is not called once they are not.
 */

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { id url } signingSecret }
}`;
const SEND_TEST = "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }";
const DELIVERIES = `query($endpointId: ID) {
  webhookDeliveries(endpointId: $endpointId, first: 20) { status attempts attemptLog { responseStatus error } }
}`;

/** The forms the review found accepted, and their neighbours. */
const PRIVATE_TARGETS: readonly [url: string, reason: RegExp][] = [
  ["https://[::127.0.0.1]/hooks", /IPv4-compatible/],
  ["https://[2002:7f00:1::]/hooks", /6to4 address embedding 127\.0\.0\.1/],
  [
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks",
    /Teredo address \(client\) embedding 127\.0\.0\.1/,
  ],
  ["https://[::ffff:0:7f00:1]/hooks", /IPv4-translated address embedding 127\.0\.0\.1/],
  ["https://[fec0::1]/hooks", /site-local/],
  ["https://[::ffff:169.254.169.254]/latest/meta-data", /IPv4-mapped address embedding 169\.254\.169\.254/],
  ["https://[64:ff9b::a00:1]/hooks", /NAT64 address embedding 10\.0\.0\.1/],
  ["https://[64:ff9b:1::1]/hooks", /local-use NAT64/],
  ["https://2130706433/hooks", /127\.0\.0\.1 is a loopback/],
  ["https://0x7f.1/hooks", /127\.0\.0\.1 is a loopback/],
  ["https://api.localhost/hooks", /names this machine/],
  ["https://localhost./hooks", /names this machine/],
  ["https://example.com@127.0.0.1/hooks", /127\.0\.0\.1 is a loopback/],
  ["https://[fe80::1%25eth0]/hooks", /not a valid URL/],
];

describe("creating webhook endpoints in production mode", () => {
  let app: TestApp;
  let org: OrgWithKey;
  beforeAll(async () => {
    app = await startTestApp({ env: { QUAYSIDE_WORKERS: "off" } });
    org = await app.fixtures.organization();
  });
  afterAll(() => app?.stop());

  it.each(PRIVATE_TARGETS)("refuses %s in GraphQL's format and saves nothing", async (url, reason) => {
    const res = await graphql(app, org.key, CREATE, { input: { url, events: ["*"] } });
    expect(res.status).toBe(200);
    expect(res.body.data?.createWebhookEndpoint).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors!;
    expect(error!.extensions).toEqual({ code: "BAD_USER_INPUT", reason: "invalid_target" });
    expect(error!.message).toMatch(reason);
    const listed = await graphql(app, org.key, "{ webhookEndpoints { id } }");
    expect(listed.body.data?.webhookEndpoints).toEqual([]);
  });

  it("still accepts a 6to4 address that embeds a public IPv4 address", async () => {
    const res = await graphql(app, org.key, CREATE, {
      input: { url: "https://[2002:808:808::1]/hooks", events: ["*"] },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.createWebhookEndpoint).toMatchObject({
      endpoint: { url: "https://[2002:808:808::1]/hooks" },
    });
  });

  it("refuses the same forms on the sandbox's webhooks/fire, in v1's format", async () => {
    for (const [url, reason] of PRIVATE_TARGETS.slice(0, 5)) {
      const res = await fetch(`${app.url}/api/v1/sandbox/webhooks/fire`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url, event: "webhook.test" }),
      });
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as { message: string; data: unknown };
      expect(body.data).toEqual({ error: "invalid_parameter", param: "url" });
      expect(body.message).toMatch(reason);
    }
  });
});

describe("an endpoint saved while private targets were allowed", () => {
  it("is not called after a restart that disallows them: the attempt log says blocked and no connection arrives", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    // One database for both runs of the app: a folder on PGlite, a fresh database on PostgreSQL.
    const target = await freshDatabaseTarget();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "quayside-ssrf-"));
    const database =
      target.kind === "postgres" ? databaseEnvironment(target) : { QUAYSIDE_DATA_DIR: dataDir };
    const start = (allow: boolean) =>
      startTestApp({
        env: {
          ...database,
          QUAYSIDE_WORKERS: "off",
          QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: String(allow),
        },
      });
    const targets = [
      receiver.url, // plain http, loopback literal
      `https://127.0.0.1:${port}/hooks`, // an IP literal: connected to without any lookup
      `https://[::ffff:127.0.0.1]:${port}/hooks`,
      `https://localhost:${port}/hooks`, // a name: refused by the connect-time lookup too
      `https://2130706433:${port}/hooks`,
    ];
    let app: TestApp | undefined = await start(true);
    try {
      const org = await app.fixtures.organization();
      const ids: string[] = [];
      for (const url of targets) {
        const res = await graphql(app, org.key, CREATE, { input: { url, events: ["*"] } });
        expect(res.body.errors, url).toBeUndefined();
        ids.push((res.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id);
      }
      // While allowed, the receiver is reachable: the silence later is the guard, not the setup.
      await graphql(app, org.key, SEND_TEST, { id: ids[0] });
      await app.workers.webhooks.runOnce();
      expect(receiver.received).toHaveLength(1);

      for (const id of ids) await graphql(app, org.key, SEND_TEST, { id });
      await app.stop();
      app = undefined;
      const connectionsBefore = receiver.connections();
      const callsBefore = receiver.calls();

      app = await start(false);
      await app.workers.webhooks.runOnce();
      for (const [i, id] of ids.entries()) {
        const res = await graphql(app, org.key, DELIVERIES, { endpointId: id });
        const deliveries = res.body.data!.webhookDeliveries as {
          status: string;
          attempts: number;
          attemptLog: { responseStatus: number | null; error: string | null }[];
        }[];
        const pending = deliveries.find((d) => d.attemptLog.some((a) => a.error?.startsWith("blocked")));
        expect(pending, targets[i]).toMatchObject({ status: "pending", attempts: 1 });
        expect(pending!.attemptLog).toEqual([
          {
            responseStatus: null,
            error: expect.stringMatching(
              /^blocked: .*(127\.0\.0\.1|::1|localhost).*(loopback|names this machine)/,
            ),
          },
        ]);
      }
      expect(receiver.connections()).toBe(connectionsBefore);
      expect(receiver.calls()).toBe(callsBefore);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await app?.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("redirects", () => {
  it("are never followed: a 307 to another receiver is a failed attempt and the second receiver hears nothing", async () => {
    const elsewhere = await startReceiver();
    let redirected = 0;
    const redirecting = http.createServer((req, res) => {
      redirected++;
      req.resume();
      res.writeHead(307, { location: elsewhere.url }).end();
    });
    await new Promise<void>((r) => redirecting.listen(0, "127.0.0.1", r));
    const redirectingUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`;
    const app = await startTestApp({
      env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
    });
    try {
      const org = await app.fixtures.organization();
      const created = await graphql(app, org.key, CREATE, {
        input: { url: redirectingUrl, events: ["*"] },
      });
      const { id } = (created.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint;
      await graphql(app, org.key, SEND_TEST, { id });
      await app.workers.webhooks.runOnce();
      const res = await graphql(app, org.key, DELIVERIES, { endpointId: id });
      expect(res.body.data!.webhookDeliveries).toEqual([
        { status: "pending", attempts: 1, attemptLog: [{ responseStatus: 307, error: null }] },
      ]);
      expect(redirected).toBe(1);
      expect(elsewhere.connections()).toBe(0);
    } finally {
      await app.stop();
      await new Promise((r) => redirecting.close(r));
      await elsewhere.close();
    }
  });
});
