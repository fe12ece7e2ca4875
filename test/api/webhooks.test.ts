import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealStoredSecrets } from "../../src/app/seal-secrets";
import {
  DISABLE_AFTER_FAILING_MS,
  DISABLE_AFTER_FAILURES,
  MAX_ATTEMPTS,
} from "../../src/domain/webhooks/webhooks.service";
import { ManualClock } from "../../src/lib/clock";
import { SecretBox } from "../../src/lib/secret-box";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";

/**
 * The independent verifier: Stripe's documented scheme, which ours is (docs.stripe.com/webhooks,
 * "Verify signatures manually"), written here from that page rather than from our signer: the header
 * is `t=<unix seconds>,v1=<hex>[,v1=...]`; the expected value is HMAC-SHA256 keyed with the whole
 * secret over `<t>.<raw body>`; any v1 may match, compared in constant time; a timestamp older than
 * the tolerance is refused. Throws like stripe-node's `verifyHeader`, which this replaced (a 23 MB
 * devDependency for these lines).
 */
function verifyHeader(body: string, header: string, secret: string, toleranceSeconds: number): void {
  const items = header.split(",").map((item) => item.split("="));
  const t = items.find(([k]) => k === "t")?.[1];
  const v1 = items.filter(([k]) => k === "v1").map(([, v]) => v ?? "");
  if (!t || !/^\d+$/.test(t) || v1.length === 0)
    throw new Error("Unable to extract timestamp and signatures");
  const expected = createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest();
  const matches = v1.some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error("No signatures found matching the expected signature for payload");
  if (toleranceSeconds > 0 && Math.floor(Date.now() / 1000) - Number(t) > toleranceSeconds) {
    throw new Error("Timestamp outside the tolerance zone");
  }
}
let app: TestApp;
let org: OrgWithKey;
const clock = new ManualClock("2026-11-22T10:00:00Z");

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { QUAYSIDE_WORKERS: "off", QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  org = await app.fixtures.organization();
});
afterAll(() => app?.stop());

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { id url events enabled } signingSecret }
}`;

async function createEndpoint(url: string, events = ["*"], key = org.key) {
  const res = await graphql(app, key, CREATE, { input: { url, events } });
  return res.body.data?.createWebhookEndpoint as { endpoint: { id: string }; signingSecret: string };
}
const sendTest = (id: string) =>
  graphql(app, org.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id event status } }", { id });
const deliver = () => app.workers.webhooks.runOnce();

describe("webhook endpoints and signatures", () => {
  it("answers the whsec_ secret once and signs deliveries so that an independent verifier accepts them", async () => {
    const receiver = await startReceiver();
    try {
      const created = await createEndpoint(receiver.url);
      expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const listed = await graphql(app, org.key, "{ webhookEndpoints { id url events enabled } }");
      expect(JSON.stringify(listed.body)).not.toContain(created.signingSecret);

      await sendTest(created.endpoint.id);
      await deliver();
      expect(receiver.received).toHaveLength(1);
      const [hook] = receiver.received;
      expect(hook!.headers["x-service-event"]).toBe("webhook.test");
      expect(hook!.headers["user-agent"]).toBe("Service-Webhooks/1");
      expect(hook!.headers["x-service-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
      const signature = String(hook!.headers["x-service-signature"]);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const body = JSON.parse(hook!.body);
      expect(body).toMatchObject({
        event: "webhook.test",
        created: expect.any(Number),
        data: expect.any(Object),
      });

      // Stripe's verifier checks the timestamp against the real clock; our clock is a test clock.
      const t = Number(/t=(\d+)/.exec(signature)![1]);
      const realTime = Math.floor(Date.now() / 1000);
      const resigned = signature; // the header as sent
      expect(() =>
        verifyHeader(hook!.body, resigned, created.signingSecret, Math.abs(realTime - t) + 300),
      ).not.toThrow();
      expect(() =>
        verifyHeader(
          hook!.body.replace("webhook.test", "webhook.tesT"),
          resigned,
          created.signingSecret,
          Math.abs(realTime - t) + 300,
        ),
      ).toThrow();
      expect(() =>
        verifyHeader(hook!.body, resigned, "whsec_not_the_secret", Math.abs(realTime - t) + 300),
      ).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("rotates the secret: later deliveries are signed with the new one only", async () => {
    const receiver = await startReceiver();
    try {
      const created = await createEndpoint(receiver.url);
      const rotated = await graphql(
        app,
        org.key,
        "mutation($id: ID!) { rotateWebhookSecret(id: $id) { signingSecret } }",
        {
          id: created.endpoint.id,
        },
      );
      const secret = (rotated.body.data!.rotateWebhookSecret as { signingSecret: string }).signingSecret;
      expect(secret).not.toBe(created.signingSecret);
      await sendTest(created.endpoint.id);
      await deliver();
      const hook = receiver.received[0]!;
      const t = Number(/t=(\d+)/.exec(String(hook.headers["x-service-signature"]))![1]);
      const tolerance = Math.abs(Math.floor(Date.now() / 1000) - t) + 300;
      expect(() =>
        verifyHeader(hook.body, String(hook.headers["x-service-signature"]), secret, tolerance),
      ).not.toThrow();
      expect(() =>
        verifyHeader(
          hook.body,
          String(hook.headers["x-service-signature"]),
          created.signingSecret,
          tolerance,
        ),
      ).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("keeps the signing secret sealed at rest: the row never holds it, deliveries still verify with it, and a row from before is sealed at start", async () => {
    const receiver = await startReceiver();
    const { prisma } = app.services.db;
    const verifies = (secret: string) => {
      const hook = receiver.received.at(-1)!;
      const header = String(hook.headers["x-service-signature"]);
      const t = Number(/t=(\d+)/.exec(header)![1]);
      verifyHeader(hook.body, header, secret, Math.abs(Math.floor(Date.now() / 1000) - t) + 300);
    };
    try {
      const created = await createEndpoint(receiver.url);
      const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.endpoint.id } });
      // A copy of the database (a backup, a dump) cannot sign as us.
      expect(row.secret).toMatch(/^enc:v1:/);
      expect(row.secret).not.toContain(created.signingSecret);
      expect(row.secret).not.toContain(created.signingSecret.slice("whsec_".length));
      await sendTest(created.endpoint.id);
      await deliver();
      expect(receiver.received).toHaveLength(1);
      expect(() => verifies(created.signingSecret)).not.toThrow();

      // Rotating seals the new secret too.
      const rotated = await graphql(
        app,
        org.key,
        "mutation($id: ID!) { rotateWebhookSecret(id: $id) { signingSecret } }",
        { id: created.endpoint.id },
      );
      const secret = (rotated.body.data!.rotateWebhookSecret as { signingSecret: string }).signingSecret;
      const rotatedRow = await prisma.webhookEndpoint.findUniqueOrThrow({
        where: { id: created.endpoint.id },
      });
      expect(rotatedRow.secret).toMatch(/^enc:v1:/);
      expect(rotatedRow.secret).not.toContain(secret.slice("whsec_".length));

      // An endpoint saved before secrets were sealed holds its secret in clear: the start-up pass seals
      // it (once), and its receiver's verifier keeps working with the secret it was given.
      await prisma.webhookEndpoint.update({ where: { id: created.endpoint.id }, data: { secret } });
      expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ webhookEndpoints: 1 });
      expect(await sealStoredSecrets(prisma, app.services.secrets)).toMatchObject({ webhookEndpoints: 0 });
      const sealedRow = await prisma.webhookEndpoint.findUniqueOrThrow({
        where: { id: created.endpoint.id },
      });
      expect(sealedRow.secret).toMatch(/^enc:v1:/);
      expect(sealedRow.secret).not.toContain(secret.slice("whsec_".length));
      await sendTest(created.endpoint.id);
      await deliver();
      expect(receiver.received).toHaveLength(2);
      expect(() => verifies(secret)).not.toThrow();
      expect(() => verifies(created.signingSecret)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("an endpoint whose sealed secret does not open under this instance's key is sent nothing, and the others are served", async () => {
    const receiver = await startReceiver();
    const stranger = await startReceiver();
    const { prisma } = app.services.db;
    try {
      const good = await createEndpoint(receiver.url);
      const foreign = await createEndpoint(stranger.url);
      // Sealed by an instance with another key (QUAYSIDE_SECRETS_KEY not shared).
      await prisma.webhookEndpoint.update({
        where: { id: foreign.endpoint.id },
        data: { secret: new SecretBox(randomBytes(32)).seal(foreign.signingSecret) },
      });
      await sendTest(foreign.endpoint.id);
      await sendTest(good.endpoint.id);
      await deliver();
      expect(receiver.received).toHaveLength(1);
      expect(stranger.received).toHaveLength(0);
      const pending = await prisma.webhookDelivery.findMany({ where: { endpointId: foreign.endpoint.id } });
      expect(pending.map((d) => d.status)).toEqual(["pending"]);
      expect(JSON.stringify(app.logs)).toContain("does not open under this instance's secrets key");
    } finally {
      await receiver.close();
      await stranger.close();
      await prisma.webhookEndpoint.deleteMany({ where: { url: stranger.url } });
    }
  });

  it("refuses unknown events and webhook.test as a subscription", async () => {
    for (const events of [["shipment.nope"], ["webhook.test"], []]) {
      const res = await graphql(app, org.key, CREATE, { input: { url: "http://127.0.0.1:9/x", events } });
      expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
  });

  it("another organisation's endpoint is not found", async () => {
    const created = await createEndpoint("http://127.0.0.1:9/x");
    const other = await app.fixtures.organization();
    const res = await graphql(app, other.key, "mutation($id: ID!) { sendTestWebhook(id: $id) { id } }", {
      id: created.endpoint.id,
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("delivery", () => {
  it("retries a failing receiver with backoff until it recovers, with a stable delivery id, and loses nothing", async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 503));
    try {
      const { endpoint } = await createEndpoint(receiver.url);
      for (let i = 0; i < 3; i++) await sendTest(endpoint.id);
      const ids = new Set<string>();
      for (const delayS of [0, 30, 60, 120]) {
        clock.advance(delayS * 1000 + 1);
        await deliver();
      }
      expect(receiver.calls()).toBe(12); // 3 deliveries x 4 attempts: at 0 s, 30 s, 1 min, 2 min
      healthy = true;
      clock.advance(240_001);
      await deliver();
      expect(receiver.received).toHaveLength(3);
      for (const hook of receiver.received) ids.add(String(hook.headers["x-service-delivery"]));
      expect(ids.size).toBe(3);
      const deliveries = await graphql(
        app,
        org.key,
        `query($id: ID) { webhookDeliveries(endpointId: $id) { id status attempts attemptLog { responseStatus } } }`,
        {
          id: endpoint.id,
        },
      );
      const list = deliveries.body.data!.webhookDeliveries as {
        id: string;
        status: string;
        attempts: number;
        attemptLog: { responseStatus: number }[];
      }[];
      expect(list.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
      expect(new Set(list.map((d) => d.id))).toEqual(ids);
      expect(list[0]!.attemptLog.map((a) => a.responseStatus)).toEqual([503, 503, 503, 503, 200]);
    } finally {
      await receiver.close();
    }
  });

  it("numbers an organisation's deliveries in commit order, so the sender's order is the order of the changes", async () => {
    // The sender sends an endpoint's deliveries by number, reading them in one statement whose
    // snapshot can predate a slower transaction's commit: had a later change taken a higher number
    // and committed first, it could be sent before the slower one's lower number became visible.
    const receiver = await startReceiver();
    try {
      const { endpoint } = await createEndpoint(receiver.url);
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let written!: () => void;
      const inOutbox = new Promise<void>((resolve) => {
        written = resolve;
      });
      // A discovery's recovery: its transaction writes the delivery, then is slow to commit.
      const recovery = app.services.db.prisma.$transaction(
        async (tx) => {
          await app.services.webhooks.enqueue(tx, org.organizationId, [
            { event: "discovery.recovered", data: { reference_number: "MSKU0000001" } },
          ]);
          written();
          await committing;
        },
        { timeout: 30_000 },
      );
      await inOutbox;
      // Meanwhile a user asks for a test delivery: it is numbered only once the recovery is visible.
      let answered = false;
      const testDelivery = sendTest(endpoint.id).then((res) => {
        answered = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(answered).toBe(false);
      commit();
      await recovery;
      expect((await testDelivery).body.errors).toBeUndefined();
      await deliver();
      expect(receiver.received.map((hook) => hook.headers["x-service-event"])).toEqual([
        "discovery.recovered",
        "webhook.test",
      ]);
    } finally {
      await receiver.close();
    }
  });

  const endpointState = async (id: string) => {
    const state = await graphql(
      app,
      org.key,
      "{ webhookEndpoints { id enabled disabledReason consecutiveFailures failingSince } }",
    );
    return (
      state.body.data!.webhookEndpoints as {
        id: string;
        enabled: boolean;
        disabledReason: string | null;
        consecutiveFailures: number;
        failingSince: string | null;
      }[]
    ).find((e) => e.id === id)!;
  };

  it("a 20-second outage with 30 deliveries due does not disable the endpoint, and all 30 arrive after it", async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 503));
    try {
      const { endpoint } = await createEndpoint(receiver.url);
      for (let i = 0; i < 30; i++) await sendTest(endpoint.id);
      await deliver();
      clock.advance(10_000);
      await deliver();
      expect(receiver.calls()).toBe(30); // 30 failed attempts in a row, more than DISABLE_AFTER_FAILURES
      const during = await endpointState(endpoint.id);
      expect(during).toMatchObject({ enabled: true, consecutiveFailures: 30, disabledReason: null });
      expect(during.failingSince).toBe(new Date(clock.now().getTime() - 10_000).toISOString());

      clock.advance(10_000); // the receiver is back after 20 s; the retries are due 30 s after the failure
      healthy = true;
      clock.advance(10_001);
      await deliver();
      expect(receiver.received).toHaveLength(30);
      expect(await endpointState(endpoint.id)).toMatchObject({
        enabled: true,
        consecutiveFailures: 0,
        failingSince: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it("disables an endpoint once it has failed continuously for 3 days, sends it nothing, and re-enabling clears the streak and resumes", async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 204 : 500));
    try {
      const { endpoint } = await createEndpoint(receiver.url);
      const firstFailure = clock.now().getTime();
      // A change every 6 hours, each retried on its schedule: the endpoint never answers.
      let sends = 0;
      let disabledAfterMs = -1;
      for (let step = 0; step <= 16 && disabledAfterMs < 0; step++) {
        await sendTest(endpoint.id);
        sends++;
        await deliver();
        const state = await endpointState(endpoint.id);
        if (!state.enabled) disabledAfterMs = clock.now().getTime() - firstFailure;
        else clock.advance(6 * 3_600_000);
      }
      expect(disabledAfterMs).toBe(DISABLE_AFTER_FAILING_MS);
      const disabled = await endpointState(endpoint.id);
      expect(disabled.disabledReason).toMatch(
        /^failing continuously since .* \(3\.0 days, \d+ failed attempts in a row\)$/,
      );
      expect(disabled.consecutiveFailures).toBe(receiver.calls());
      expect(disabled.consecutiveFailures).toBeGreaterThanOrEqual(DISABLE_AFTER_FAILURES);
      const callsWhenDisabled = receiver.calls();
      clock.advance(7 * 3_600_000);
      await deliver();
      expect(receiver.calls()).toBe(callsWhenDisabled);

      healthy = true;
      const enabled = await graphql(
        app,
        org.key,
        "mutation($id: ID!) { setWebhookEndpointEnabled(id: $id, enabled: true) { enabled consecutiveFailures failingSince } }",
        {
          id: endpoint.id,
        },
      );
      expect(enabled.body.data).toEqual({
        setWebhookEndpointEnabled: { enabled: true, consecutiveFailures: 0, failingSince: null },
      });
      clock.advance(7 * 3_600_000);
      await deliver();
      // No delivery reached its last attempt (one a step): every change arrives.
      expect(receiver.received.length).toBe(sends);
      expect(sends).toBeLessThan(MAX_ATTEMPTS);
    } finally {
      await receiver.close();
    }
  });
});

describe("webhook targets", () => {
  it("refuse private, loopback, link-local and metadata addresses, and plain http, in production mode", async () => {
    const strict = await startTestApp({ env: { QUAYSIDE_WORKERS: "off" } });
    try {
      const o = await strict.fixtures.organization();
      for (const url of [
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://192.168.1.10/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
        "http://203.0.114.10/hook",
        "ftp://example.com/",
        "not a url",
      ]) {
        const res = await graphql(strict, o.key, CREATE, { input: { url, events: ["*"] } });
        expect(res.body.errors?.[0]?.extensions?.code, url).toBe("BAD_USER_INPUT");
      }
      // Checked again at delivery: a row that points at loopback (say, after a DNS change) is never sent.
      const row = await strict.services.db.prisma.webhookEndpoint.create({
        data: {
          organizationId: o.organizationId,
          url: "https://localhost:1/hook",
          events: ["*"],
          secret: "whsec_x",
        },
      });
      await strict.services.webhooks.sendTest(o.organizationId, row.id);
      await strict.workers.webhooks.runOnce();
      const attempt = await strict.services.db.prisma.webhookAttempt.findFirstOrThrow({
        where: { delivery: { endpointId: row.id } },
      });
      expect(attempt.responseStatus).toBeNull();
      expect(attempt.error).toBe("blocked: localhost names this machine");
    } finally {
      await strict.stop();
    }
  });
});
