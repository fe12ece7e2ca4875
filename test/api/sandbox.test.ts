import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FacadeDeps } from "../../facades/facade";
import { expressPath, V1_ROUTES } from "../../facades/v1/contract/routes";
import { CongestionBoardAnswer, CongestionReadingAnswer } from "../../facades/v1/contract/schemas/congestion";
import { createV1Router } from "../../facades/v1/router";
import { SANDBOX_CONGESTION_PORTS } from "../../src/app/sandbox-congestion";
import { SANDBOX_NOW } from "../../src/app/sandbox-world";
import { COMPONENTS } from "../../src/domain/congestion/scoring";
import { verifySignature } from "../../src/domain/webhooks/signature";
import { startTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";

let app: TestApp;
let nextAddress = 1;

beforeAll(async () => {
  app = await startTestApp({
    env: {
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      // Each test speaks from its own address (X-Forwarded-For), so per-address windows do not mix.
      QUAYSIDE_TRUST_PROXY: "true",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
}, 120_000);
afterAll(() => app?.stop());

/** A client at its own address. */
function client() {
  const address = `203.0.113.${nextAddress++}`;
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.url}/api/v1/sandbox${path}`, {
      method,
      headers: {
        "x-forwarded-for": address,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, body: (await res.json()) as Record<string, any> };
  };
}

describe("the sandbox", () => {
  it("covers the live router: every route the live v1 API mounts is one of the contract's", () => {
    // Built without services: nothing runs until a request arrives.
    const router = createV1Router({} as FacadeDeps, (_req, _res, next) => next()) as unknown as {
      stack: { route?: { path: string; methods: Record<string, boolean> } }[];
    };
    const mounted = router.stack
      .filter((layer) => layer.route)
      .flatMap((layer) =>
        Object.keys(layer.route!.methods).map((m) => `${m.toUpperCase()} ${layer.route!.path}`),
      );
    const described = Object.values(V1_ROUTES).map((r) => `${r.method.toUpperCase()} ${expressPath(r.path)}`);
    expect(mounted.sort()).toEqual(described.sort());
  });

  it("answers every live v1 route without a key (the same router, by construction)", async () => {
    const call = client();
    const fill = (path: string) =>
      expressPath(path).replace(":number", "MSCU1234566").replace(":id", "SHP-1000");
    const missing: string[] = [];
    for (const route of Object.values(V1_ROUTES)) {
      const { res, body } = await call(
        route.method.toUpperCase(),
        fill(route.path),
        route.method === "get" ? undefined : {},
      );
      // Bad input is a real answer too; what must never come back is "no such route" or "needs a key".
      if (res.status === 404 && body.data?.error === "route_not_found") missing.push(route.path);
      if (res.status === 401 || res.status === 403) missing.push(`${route.path} (${res.status})`);
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it("lists the same eight shipments every time: in transit, delayed, delivered and one failed", async () => {
    const call = client();
    const first = await call("GET", "/shipments");
    expect(first.res.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, mode: "sandbox", total: 8 });
    const rows = first.body.data as Record<string, any>[];
    expect(rows.map((r) => r.name).sort()).toEqual([
      "SHP-1000",
      "SHP-1001",
      "SHP-1002",
      "SHP-1003",
      "SHP-1004",
      "SHP-1005",
      "SHP-1006",
      "SHP-1007",
    ]);
    const kinds = rows.map((r) =>
      r.status === "DELIVERED"
        ? "delivered"
        : r.status === "IN_TRANSIT"
          ? r.is_delayed
            ? "delayed"
            : "in transit"
          : r.status,
    );
    expect(kinds.filter((k) => k === "in transit")).toHaveLength(3);
    expect(kinds.filter((k) => k === "delayed")).toHaveLength(2);
    expect(kinds.filter((k) => k === "delivered")).toHaveLength(2);
    expect(rows.every((r) => r.reference_number.startsWith("SBXU"))).toBe(true);

    const failed = await call("GET", "/shipments/SHP-1007");
    expect(failed.body.data).toMatchObject({ name: "SHP-1007", number_of_containers: 0 });
  });

  it("pages the eight shipments with updated_since as live: delta mode, oldest first, with its continuation", async () => {
    const call = client();
    const rows = (await call("GET", "/shipments")).body.data as Record<string, any>[];
    // Every row is synced before 2099: none after it.
    const none = await call("GET", "/shipments?updated_since=2099-01-01T00:00:00Z");
    expect(none.body).toMatchObject({
      success: true,
      mode: "sandbox",
      updated_since: "2099-01-01T00:00:00.000Z",
      count: 0,
      has_more: false,
      next_cursor: null,
      data: [],
    });
    // Every row the carrier answered: the failed SHP-1007 was never synced, as live.
    const all = await call("GET", "/shipments?updated_since=2000-01-01T00:00:00Z");
    expect(all.body).toMatchObject({ count: 7, has_more: false });
    expect(all.body).not.toHaveProperty("total");
    const synced = (all.body.data as Record<string, any>[]).map((r) => r.last_synced_at as string);
    expect(synced).toEqual([...synced].sort());
    expect(all.body.data.map((r: any) => r.name).sort()).toEqual(
      rows
        .filter((r) => r.last_synced_at !== null)
        .map((r) => r.name)
        .sort(),
    );
    expect(rows.find((r) => r.name === "SHP-1007")?.last_synced_at).toBeNull();
  });

  it("reads a shipment by SHP id or by its SBXU number, and ?include=full says stored", async () => {
    const call = client();
    const list = await call("GET", "/shipments");
    const one = list.body.data.find((r: any) => r.name === "SHP-1003");
    const byNumber = await call("GET", `/shipments/${one.reference_number}`);
    expect(byNumber.body).toMatchObject({ success: true, mode: "sandbox", data: { name: "SHP-1003" } });
    const full = await call("GET", "/shipments/SHP-1003?include=full");
    expect(full.body).not.toHaveProperty("mode");
    expect(full.body.data.mode).toBe("stored");
    expect(full.body.data.document.events_table.length).toBeGreaterThan(0);
    const unknown = await call("GET", "/shipments/SHP-1008");
    expect(unknown.res.status).toBe(404);
    expect(unknown.body).toEqual({
      success: false,
      statusCode: 404,
      statusMessage: "Not Found",
      message: "This organisation does not track that shipment.",
      data: { error: "shipment_not_found" },
    });
  });

  // The longer timeout: run alone, this test's first request waits for the world to be built.
  it("answers a refresh as its frozen world stands: inside the refresh gap (429 with the wait), or not moving (400)", {
    timeout: 120_000,
  }, async () => {
    const call = client();
    const before = await call("GET", "/shipments/SHP-1000");
    const refused = await call("POST", "/shipments/SHP-1000/refresh");
    expect(refused.res.status).toBe(429);
    // The world's clock stands still at the moment its shipments were last synced.
    const wait = (Date.parse(before.body.data.next_refresh_eligible_at) - Date.parse(SANDBOX_NOW)) / 1000;
    expect(refused.res.headers.get("retry-after")).toBe(String(wait));
    expect(refused.body.data).toEqual({
      error: "refresh_too_soon",
      retryAfter: wait,
      next_refresh_eligible_at: before.body.data.next_refresh_eligible_at,
    });
    const rows = (await call("GET", "/shipments")).body.data as { name: string; status: string }[];
    const delivered = rows.find((r) => r.status === "DELIVERED");
    expect(delivered).toBeDefined();
    const over = await call("POST", `/shipments/${delivered!.name}/refresh`);
    expect([over.res.status, over.body.data]).toEqual([
      400,
      { error: "invalid_parameter", reason: "not_moving" },
    ]);
    expect((await call("POST", "/shipments/SHP-42/refresh")).res.status).toBe(404);
    expect((await call("GET", "/shipments/SHP-1000")).body).toEqual(before.body);
  });

  it("answers writes with the real shape and persisted: false, and changes nothing", async () => {
    const call = client();
    const before = await call("GET", "/shipments/SHP-1001");

    const patched = await call("PATCH", "/shipments/SHP-1001", { customer: "ACME Imports" });
    expect(patched.res.status).toBe(200);
    expect(patched.body).toMatchObject({ success: true, mode: "sandbox", persisted: false });
    expect(patched.body.data.customers).toEqual(["ACME Imports"]);
    expect((await call("GET", "/shipments/SHP-1001")).body).toEqual(before.body);

    const deleted = await call("DELETE", "/shipments/SHP-1002");
    expect(deleted.body).toEqual({
      success: true,
      mode: "sandbox",
      persisted: false,
      deleted: true,
      shipment_id: "SHP-1002",
    });
    expect((await call("GET", "/shipments/SHP-1002")).res.status).toBe(200);
    expect((await call("GET", "/shipments")).body.total).toBe(8);

    const shared = await call("POST", "/shipments/SHP-1000/share");
    expect(shared.res.status).toBe(201);
    expect(shared.body).toMatchObject({
      success: true,
      persisted: false,
      data: { shipment_id: "SHP-1000", created: true },
    });
    // Nothing was kept: the link does not resolve, and sharing again creates again.
    expect((await fetch(shared.body.data.url)).status).toBe(404);
    expect((await call("POST", "/shipments/SHP-1000/share")).res.status).toBe(201);

    const unshared = await call("DELETE", "/shipments/SHP-1000/share");
    expect(unshared.body).toMatchObject({
      success: true,
      persisted: false,
      revoked: false,
      shipment_id: "SHP-1000",
    });

    // One call per 15 minutes holds live; the sandbox keeps nothing, so it answers every time.
    for (let i = 0; i < 2; i++) {
      const retry = await call("POST", "/shipments/retry-failed", {});
      expect(retry.res.status).toBe(202);
      expect(retry.body).toMatchObject({
        success: true,
        persisted: false,
        examined: 1,
        queued: 1,
        skipped: 0,
      });
    }

    // A write on a shipment outside the eight answers as live does.
    const stranger = await call("PATCH", "/shipments/SHP-42", { customer: "X" });
    expect(stranger.res.status).toBe(404);
    expect(stranger.body.data.error).toBe("shipment_not_found");
  });

  it("resolves any reference on /container, /bl and per item in /track, without keeping it", async () => {
    const call = client();
    const container = await call("GET", "/container/TGHU1234567");
    expect(container.res.status).toBe(200);
    expect(container.body).toMatchObject({
      success: true,
      mode: "sandbox",
      data: { reference_number: "TGHU1234567" },
    });
    // The hint points where this caller can read the shipment: the sandbox, which needs no key (the
    // live path answers it 401). Of the eight kept shipments, the read it names answers.
    const readPath = (res: Response) =>
      /read=(\S+?);/.exec(res.headers.get("x-service-refresh-hint") ?? "")?.[1];
    expect(readPath(container.res)).toMatch(/^\/api\/v1\/sandbox\/shipments\/SHP-\d+$/);
    const kept = (await call("GET", "/shipments/SHP-1000")).body.data.reference_number as string;
    const retracked = await call("GET", `/container/${kept}`);
    expect(readPath(retracked.res)).toBe("/api/v1/sandbox/shipments/SHP-1000");
    const followed = await fetch(`${app.url}${readPath(retracked.res)}`, {
      headers: { "x-forwarded-for": "203.0.113.250" },
    });
    expect(followed.status).toBe(200);
    expect(((await followed.json()) as Record<string, any>).data.name).toBe("SHP-1000");
    // The world is frozen: the same answer twice.
    const again = await call("GET", "/container/TGHU1234567");
    expect(again.body.data.events_table).toEqual(container.body.data.events_table);

    const bl = await call("GET", "/bl/ZIMUXYZ123456");
    expect(bl.res.status).toBe(200);
    expect(bl.body.data.shipment_type).toBe("Bill of Lading");

    const bulk = await call("POST", "/track", {
      shipments: [
        { type: "container", number: "SBXU7777778" },
        { type: "container", number: "SBXU0000003" },
        { type: "container", number: "SBXU4020008" },
      ],
    });
    expect(bulk.res.status).toBe(200);
    expect(bulk.body).toMatchObject({ mode: "sandbox", total: 3, tracked: 1, failed: 2 });
    expect(bulk.body.results.map((r: any) => (r.ok ? "ok" : r.error))).toEqual([
      "ok",
      "not_found",
      "shipment_limit_reached",
    ]);
    expect((await call("GET", "/shipments")).body.total).toBe(8);
  });

  describe("reserved references answer the production error bodies", () => {
    it("SBXU0000003: 404, the carrier has no record", async () => {
      const { res, body } = await client()("GET", "/container/SBXU0000003");
      expect(res.status).toBe(404);
      expect(body).toMatchObject({ success: false, statusCode: 404, statusMessage: "Not Found" });
      expect(Object.keys(body.data).sort()).toEqual(["discovery", "error", "hint", "read_endpoint", "tried"]);
      expect(body.data).toMatchObject({ error: "not_found", discovery: "queued" });
      expect(body.data.read_endpoint).toMatch(/^\/api\/v1\/sandbox\/shipments\//);
    });

    it("NOT-A-REFERENCE: 400 malformed, on /container and /bl alike", async () => {
      const call = client();
      for (const path of ["/container/NOT-A-REFERENCE", "/bl/NOT-A-REFERENCE"]) {
        const { res, body } = await call("GET", path);
        expect(res.status).toBe(400);
        expect(body).toMatchObject({
          success: false,
          statusCode: 400,
          data: { error: "invalid_reference", param: "number" },
        });
      }
    });

    it("SBXU4020008: 402, every shipment slot used", async () => {
      const { res, body } = await client()("GET", "/container/SBXU4020008");
      expect(res.status).toBe(402);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(body.data).toEqual({
        error: "shipment_limit_reached",
        limit: expect.any(Number),
        used: body.data.limit,
        cycle_ends_at: expect.any(String),
        usageApi: "/api/v1/sandbox/account/usage",
      });
    });

    it("SBXU4029999: 402, payment failed and grace ended", async () => {
      const { res, body } = await client()("GET", "/container/SBXU4029999");
      expect(res.status).toBe(402);
      expect(res.headers.get("retry-after")).toBe("3600");
      expect(body.data).toEqual({
        error: "payment_overdue",
        overdueDays: expect.any(Number),
        graceDays: expect.any(Number),
        plan: expect.any(String),
        manageUrl: `${app.url}/billing`,
        usageApi: "/api/v1/sandbox/account/usage",
      });
      expect(body.data.overdueDays).toBeGreaterThan(body.data.graceDays);
    });

    it("SBXU4029999 in /track refuses the whole request with 402, as billing past grace does live", async () => {
      const bulk = await client()("POST", "/track", {
        shipments: [
          { type: "container", number: "SBXU7777778" },
          { type: "container", number: "SBXU4029999" },
        ],
      });
      expect(bulk.res.status).toBe(402);
      expect(bulk.res.headers.get("retry-after")).toBe("3600");
      expect(bulk.body).not.toHaveProperty("results");

      // Live, an organisation past its grace gets the same whole-request refusal, with the same keys.
      const org = await app.fixtures.organization({ plan: "business" });
      await app.services.db.prisma.organization.update({
        where: { id: org.organizationId },
        data: { billingState: "overdue", overdueDays: 21, graceDays: 14 },
      });
      const live = await fetch(`${app.url}/api/v1/track`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
        body: JSON.stringify({ shipments: [{ type: "container", number: "MSCU1234566" }] }),
      });
      expect(live.status).toBe(402);
      const liveBody = (await live.json()) as Record<string, any>;
      const shape = (b: Record<string, any>) => ({
        top: Object.keys(b).sort(),
        data: Object.keys(b.data).sort(),
        error: b.data.error,
        message: b.message,
      });
      expect(shape(bulk.body)).toEqual(shape(liveBody));
      expect(bulk.body.data).toMatchObject({ error: "payment_overdue", overdueDays: 21, graceDays: 14 });
    });

    it("SBXU4290003: 429 with Retry-After and the reset time, the body of a spent key window", async () => {
      const { res, body } = await client()("GET", "/container/SBXU4290003");
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("retry-after"));
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(body).toMatchObject({
        success: false,
        statusCode: 429,
        data: {
          error: "rate_limit_exceeded",
          limit: expect.any(Number),
          retryAfter,
          plan: expect.any(String),
        },
      });
      // A 429 refuses a whole /track, as live.
      const bulk = await client()("POST", "/track", {
        shipments: [{ type: "container", number: "SBXU4290003" }],
      });
      expect(bulk.res.status).toBe(429);
    });

    it("SBXU5020002: 502, a retryable carrier failure", async () => {
      const { res, body } = await client()("GET", "/bl/SBXU5020002");
      expect(res.status).toBe(502);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(body.data).toMatchObject({
        error: "carrier_unreachable",
        sealine: expect.any(String),
        retryAfter: 60,
      });
    });

    it("the same bodies as live for the same conditions", async () => {
      const org = await app.fixtures.organization({ plan: "business" });
      const liveInvalid = await fetch(`${app.url}/api/v1/container/NOT-A-REFERENCE`, {
        headers: { authorization: `Bearer ${org.key}` },
      });
      const sandboxInvalid = await client()("GET", "/container/NOT-A-REFERENCE");
      expect(sandboxInvalid.body).toEqual(await liveInvalid.json());
    });
  });

  it("reads port congestion as live: every board port with all five components and 90 days of history, computed at the sandbox's now", async () => {
    const call = client();
    const board = await call("GET", "/ports/congestion");
    expect(board.res.status).toBe(200);
    // The live contract's own schemas: every key live answers, `raised_by` among them.
    const ports = CongestionBoardAnswer.parse(board.body).data.map((p) => p.locode);
    expect(ports.sort()).toEqual([...SANDBOX_CONGESTION_PORTS].sort());
    for (const locode of ports) {
      const { res, body } = await call("GET", `/ports/${locode}/congestion`);
      expect(res.status).toBe(200);
      expect(CongestionReadingAnswer.parse(body).data.raised_by).toBeInstanceOf(Array);
      const reading = body.data as {
        computed_at: string;
        components: { name: string }[];
        history: { date: string }[];
      };
      expect(reading.components.map((c) => c.name).sort()).toEqual([...COMPONENTS].sort());
      expect(reading.history.length).toBeGreaterThanOrEqual(90);
      // One reading a day, the oldest 89 days before the frozen day.
      expect(reading.history[0]!.date).toBe("2026-06-04");
      expect(reading.history.at(-1)!.date).toBe(SANDBOX_NOW.slice(0, 10));
      expect(reading.computed_at).toBe(SANDBOX_NOW);
    }
  });

  it("allows 60 requests a minute per address with the X-RateLimit headers, then 429", async () => {
    // The window is the clock's minute: a run that straddles one starts again on a fresh address.
    for (let attempt = 1; ; attempt++) {
      const call = client();
      const answers: Awaited<ReturnType<typeof call>>[] = [];
      for (let i = 1; i <= 60; i++) answers.push(await call("GET", "/carriers?search=maersk"));
      const refused = await call("GET", "/carriers");
      const windows = new Set([...answers, refused].map((a) => a.res.headers.get("x-ratelimit-reset")));
      if (windows.size > 1 && attempt < 3) continue;
      for (const [i, answer] of answers.entries()) {
        expect(answer.res.status).toBe(200);
        expect(answer.res.headers.get("x-ratelimit-limit")).toBe("60");
        expect(answer.res.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
      }
      expectRefusedForTheAddress(refused);
      break;
    }
    // Another address has its own window.
    expect((await client()("GET", "/carriers")).res.status).toBe(200);
  }, 60_000);

  function expectRefusedForTheAddress(refused: Awaited<ReturnType<ReturnType<typeof client>>>) {
    expect(refused.res.status).toBe(429);
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.data).toMatchObject({ error: "rate_limit_exceeded", limit: 60 });
    // There is no key to blame: the answer says what the window counts.
    expect(refused.body.message).toMatch(/address/);
    expect(refused.body.message).not.toMatch(/key in the current minute|for this key/);
  }

  describe("POST /webhooks/fire", () => {
    it("sends one signed delivery and returns the one-time secret; nothing is saved", async () => {
      const receiver = await startReceiver();
      try {
        const { res, body } = await client()("POST", "/webhooks/fire", {
          url: receiver.url,
          event: "shipment.arrived",
        });
        expect(res.status).toBe(200);
        expect(body).toMatchObject({
          success: true,
          mode: "sandbox",
          persisted: false,
          event: "shipment.arrived",
          delivered: true,
          response_status: 200,
        });
        expect(body.signing_secret).toMatch(/^whsec_/);
        expect(receiver.received).toHaveLength(1);
        const delivery = receiver.received[0]!;
        expect(delivery.body).toBe(body.body);
        expect(delivery.headers["x-service-event"]).toBe("shipment.arrived");
        expect(delivery.headers["x-service-delivery"]).toBe(body.delivery_id);
        const [t, v1] = String(delivery.headers["x-service-signature"])
          .split(",")
          .map((p) => p.split("=")[1]);
        expect(createHmac("sha256", body.signing_secret).update(`${t}.${delivery.body}`).digest("hex")).toBe(
          v1,
        );
        // Signed now, not at the world's frozen moment: a receiver's 300 s tolerance accepts it.
        const nowSeconds = Math.floor(Date.now() / 1000);
        expect(Math.abs(nowSeconds - Number(t))).toBeLessThanOrEqual(300);
        expect(
          verifySignature(body.signing_secret, {
            body: delivery.body,
            header: String(delivery.headers["x-service-signature"]),
            nowSeconds,
          }),
        ).toBe(true);
        const payload = JSON.parse(delivery.body);
        expect(Math.abs(nowSeconds - payload.created)).toBeLessThanOrEqual(300);
        expect(payload).toMatchObject({
          event: "shipment.arrived",
          data: { status: "DELIVERED", previous_status: "IN_TRANSIT" },
        });
        expect(payload.data.shipment_id).toMatch(/^SHP-100\d$/);
      } finally {
        await receiver.close();
      }
    });

    it("allows 5 a minute per address", async () => {
      const receiver = await startReceiver();
      try {
        const call = client();
        for (let i = 0; i < 5; i++) {
          expect(
            (await call("POST", "/webhooks/fire", { url: receiver.url, event: "webhook.test" })).res.status,
          ).toBe(200);
        }
        const refused = await call("POST", "/webhooks/fire", { url: receiver.url, event: "webhook.test" });
        expect(refused.res.status).toBe(429);
        expect(refused.res.headers.get("x-ratelimit-limit")).toBe("5");
        expect(receiver.received).toHaveLength(5);
      } finally {
        await receiver.close();
      }
    });

    it("refuses bad input with a 400 naming the parameter", async () => {
      const call = client();
      const badEvent = await call("POST", "/webhooks/fire", {
        url: "https://example.com/h",
        event: "shipment.exploded",
      });
      expect(badEvent.res.status).toBe(400);
      expect(badEvent.body.data).toEqual({ error: "invalid_parameter", param: "event" });
      const badUrl = await call("POST", "/webhooks/fire", {
        url: "ftp://example.com/h",
        event: "eta.changed",
      });
      expect(badUrl.res.status).toBe(400);
      expect(badUrl.body.data).toEqual({ error: "invalid_parameter", param: "url" });
    });
  });
});

describe("the sandbox's webhook target guard", () => {
  it("refuses private and plain-http targets, as live webhooks do", async () => {
    const strict = await startTestApp({ env: { QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" } });
    try {
      for (const url of ["http://example.com/hooks", "https://127.0.0.1/hooks", "https://10.1.2.3/hooks"]) {
        const res = await fetch(`${strict.url}/api/v1/sandbox/webhooks/fire`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url, event: "eta.changed" }),
        });
        expect(res.status, url).toBe(400);
        expect(((await res.json()) as any).data).toEqual({ error: "invalid_parameter", param: "url" });
      }
    } finally {
      await strict.stop();
    }
  }, 60_000);

  it("is not served when switched off", async () => {
    const off = await startTestApp({ env: { QUAYSIDE_SANDBOX_ENABLED: "false" } });
    try {
      const res = await fetch(`${off.url}/api/v1/sandbox/shipments`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).data.error).toBe("route_not_found");
    } finally {
      await off.stop();
    }
  });
});
