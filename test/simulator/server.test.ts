/**
 * The simulator's HTTP behaviour around the events: paging, per-carrier authentication and faults
 * injected through the admin API.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runSimulatorCli } from "../../simulator/cli";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { shipmentFor } from "../../simulator/world/world";
import { ManualClock, systemClock } from "../../src/lib/clock";
import { type AnyEvent, containersOf, eventsUrl, getJson, tntValidator } from "./support";

const NOW = "2026-11-20T12:00:00Z";

let simulator: RunningSimulator;
const clock = new ManualClock(NOW);

beforeAll(async () => {
  simulator = await startSimulator({
    clock,
    auth: {
      MAEU: { kind: "oauth2", clientId: "quayside", clientSecret: "s3cret", tokenTtlSeconds: 600 },
      HLCU: {
        kind: "client-id-secret",
        idHeader: "X-IBM-Client-Id",
        secretHeader: "X-IBM-Client-Secret",
        clientId: "hl-id",
        clientSecret: "hl-secret",
      },
      CMDU: { kind: "api-key", header: "keyId", value: "cma-key" },
    },
  });
});

afterAll(async () => {
  await simulator.close();
});

/** A B/L of MSC with enough events to page through. */
function busyBillOfLading(): string {
  for (const box of containersOf("MSCU", 200, 11)) {
    const shipment = shipmentFor("MSCU", box, "equipment", new Date(NOW));
    if (shipment && shipment.containers.length >= 3 && shipment.plan.legs.length >= 2) {
      return shipment.transportDocumentReference;
    }
  }
  throw new Error("no busy B/L in the sample");
}

async function admin(method: string, path: string, body?: unknown) {
  return getJson<Record<string, unknown>>(`${simulator.url}/_admin/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

describe("paging", () => {
  it("pages with limit and absolute Next-Page links until the list is exhausted", async () => {
    const transportDocumentReference = busyBillOfLading();
    const all = await getJson<AnyEvent[]>(
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "1000" }),
    );
    expect(all.body.length).toBeGreaterThan(12);
    expect(all.headers.get("next-page")).toBeNull();

    const collected: AnyEvent[] = [];
    let next: string | null = eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "5" });
    let pages = 0;
    while (next) {
      expect(next.startsWith(`${simulator.url}/MSCU/v2/events?`)).toBe(true);
      const page: Awaited<ReturnType<typeof getJson<AnyEvent[]>>> = await getJson<AnyEvent[]>(next);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(5);
      expect(tntValidator().events(page.body)).toEqual([]);
      collected.push(...page.body);
      next = page.headers.get("next-page");
      pages++;
    }
    expect(pages).toBe(Math.ceil(all.body.length / 5));
    expect(collected).toEqual(all.body);
  });

  it("uses the default page size of 20 when no limit is given", async () => {
    const transportDocumentReference = busyBillOfLading();
    const all = await getJson<AnyEvent[]>(
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "1000" }),
    );
    const first = await getJson<AnyEvent[]>(eventsUrl(simulator.url, "MSCU", { transportDocumentReference }));
    expect(all.body.length).toBeGreaterThan(20);
    expect(first.body).toEqual(all.body.slice(0, 20));
    expect(first.headers.get("next-page")).toContain("cursor=");
    expect(first.headers.get("current-page")).toContain("/MSCU/v2/events?");
  });

  it("refuses a forged cursor, a cursor of another query and a bad limit with 400", async () => {
    const transportDocumentReference = busyBillOfLading();
    const first = await getJson(eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "2" }));
    const cursor = new URL(first.headers.get("next-page") ?? "").searchParams.get("cursor") ?? "";
    const bad = [
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "2", cursor: "not-a-cursor" }),
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "3", cursor }),
      eventsUrl(simulator.url, "MSCU", { equipmentReference: "MSCU1000001", limit: "2", cursor }),
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "-1" }),
      eventsUrl(simulator.url, "MSCU", { transportDocumentReference, limit: "two" }),
    ];
    for (const url of bad) {
      const answer = await getJson<{ statusCode: number }>(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.statusCode).toBe(400);
      expect(tntValidator().error(answer.body)).toEqual([]);
    }
  });
});

describe("authentication", () => {
  const maerskBox = containersOf("MAEU", 1)[0] ?? "";

  async function token(init: RequestInit) {
    return getJson<{ access_token: string; token_type: string; expires_in: number }>(
      `${simulator.url}/MAEU/oauth/token`,
      {
        method: "POST",
        ...init,
      },
    );
  }

  it("lets carriers without a strategy answer anyone", async () => {
    const answer = await getJson(eventsUrl(simulator.url, "MSCU", { equipmentReference: "MSCU1000001" }));
    expect(answer.status).toBe(200);
  });

  it("demands the API key header", async () => {
    const url = eventsUrl(simulator.url, "CMDU", { equipmentReference: containersOf("CMDU", 1)[0] ?? "" });
    expect((await getJson(url)).status).toBe(401);
    expect((await getJson(url, { headers: { keyId: "wrong" } })).status).toBe(401);
    expect((await getJson(url, { headers: { keyId: "cma-key" } })).status).toBe(200);
  });

  it("demands both client id and secret headers", async () => {
    const url = eventsUrl(simulator.url, "HLCU", { equipmentReference: containersOf("HLCU", 1)[0] ?? "" });
    const refused = await getJson(url, { headers: { "X-IBM-Client-Id": "hl-id" } });
    expect(refused.status).toBe(401);
    expect(tntValidator().error(refused.body)).toEqual([]);
    const headers = { "X-IBM-Client-Id": "hl-id", "X-IBM-Client-Secret": "hl-secret" };
    expect((await getJson(url, { headers })).status).toBe(200);
  });

  it("issues OAuth2 tokens for client credentials in Basic or in the body, and counts them", async () => {
    const before = (await admin("GET", "state")).body as { tokenIssues: Record<string, number> };
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const basic = await token({
      headers: { ...form, authorization: `Basic ${Buffer.from("quayside:s3cret").toString("base64")}` },
      body: "grant_type=client_credentials",
    });
    expect(basic.status).toBe(200);
    expect(basic.body.token_type).toBe("Bearer");
    expect(basic.body.expires_in).toBe(600);
    const inBody = await token({
      headers: form,
      body: "grant_type=client_credentials&client_id=quayside&client_secret=s3cret",
    });
    expect(inBody.status).toBe(200);
    expect(
      (
        await token({
          headers: form,
          body: "grant_type=client_credentials&client_id=quayside&client_secret=nope",
        })
      ).status,
    ).toBe(401);
    expect((await token({ headers: form, body: "grant_type=password" })).status).toBe(400);
    const after = (await admin("GET", "state")).body as { tokenIssues: Record<string, number> };
    expect((after.tokenIssues.MAEU ?? 0) - (before.tokenIssues.MAEU ?? 0)).toBe(2);
  });

  it("accepts a valid bearer token and refuses a missing, unknown or expired one", async () => {
    const url = eventsUrl(simulator.url, "MAEU", { equipmentReference: maerskBox });
    const issued = await token({
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=quayside&client_secret=s3cret",
    });
    const bearer = { authorization: `Bearer ${issued.body.access_token}` };
    const missing = await getJson(url);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await getJson(url, { headers: { authorization: "Bearer forged" } })).status).toBe(401);
    expect((await getJson(url, { headers: bearer })).status).toBe(200);
    // Tokens expire by the simulator's clock.
    clock.advance(599_000);
    expect((await getJson(url, { headers: bearer })).status).toBe(200);
    clock.advance(2_000);
    const expired = await getJson<{ errors: { message: string }[] }>(url, { headers: bearer });
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0]?.message).toContain("expired");
    clock.set(NOW);
  });
});

describe("faults", () => {
  const url = () =>
    eventsUrl(simulator.url, "ONEY", { equipmentReference: containersOf("ONEY", 1)[0] ?? "" });

  afterAll(async () => {
    await admin("DELETE", "faults");
  });

  it("drops the connection while a carrier is down, and answers again once cleared", async () => {
    expect((await admin("PUT", "faults/ONEY", { mode: "down" })).status).toBe(200);
    await expect(fetch(url())).rejects.toThrow();
    // Other carriers are unaffected.
    expect(
      (await getJson(eventsUrl(simulator.url, "MSCU", { equipmentReference: "MSCU1000001" }))).status,
    ).toBe(200);
    expect((await admin("DELETE", "faults/ONEY")).status).toBe(204);
    expect((await getJson(url())).status).toBe(200);
  });

  it("answers slowly, then normally", async () => {
    await admin("PUT", "faults/ONEY", { mode: "slow", delayMs: 300 });
    const started = performance.now();
    const answer = await getJson(url());
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(tntValidator().events(answer.body)).toEqual([]);
  });

  it("fails with a server error of the chosen status", async () => {
    await admin("PUT", "faults/ONEY", { mode: "server-error", status: 503, retryAfterSeconds: 7 });
    const answer = await getJson(url());
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("7");
    expect(tntValidator().error(answer.body)).toEqual([]);
    await admin("PUT", "faults/ONEY", { mode: "server-error" });
    expect((await getJson(url())).status).toBe(500);
  });

  it("sends a 200 whose body is not JSON", async () => {
    await admin("PUT", "faults/ONEY", { mode: "malformed" });
    const answer = await getJson(url());
    expect(answer.status).toBe(200);
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it("rate-limits with 429 and Retry-After", async () => {
    await admin("PUT", "faults/ONEY", { mode: "rate-limited", retryAfterSeconds: 12 });
    const answer = await getJson(url());
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("12");
    expect(tntValidator().error(answer.body)).toEqual([]);
  });

  it("shows faults and request counts in the admin state, and clears them all at once", async () => {
    await admin("PUT", "faults/MEDU", { mode: "rate-limited" });
    const state = (await admin("GET", "state")).body as {
      faults: Record<string, { mode: string }>;
      requests: Record<string, number>;
      clock: { now: string; manual: boolean };
    };
    // An alternative SCAC addresses the same carrier.
    expect(state.faults.MSCU?.mode).toBe("rate-limited");
    expect(state.faults.ONEY?.mode).toBe("rate-limited");
    expect(state.requests.ONEY).toBeGreaterThan(0);
    expect(state.clock).toEqual({ now: new Date(NOW).toISOString(), manual: true });
    expect((await admin("DELETE", "faults")).status).toBe(204);
    expect((await admin("GET", "state")).body.faults).toEqual({});
    expect((await getJson(url())).status).toBe(200);
  });

  it("refuses bad fault bodies and unknown carriers", async () => {
    expect((await admin("PUT", "faults/ONEY", { mode: "flaky" })).status).toBe(400);
    expect((await admin("PUT", "faults/ONEY", { mode: "slow", delayMs: -5 })).status).toBe(400);
    expect((await admin("PUT", "faults/QQQQ", { mode: "down" })).status).toBe(404);
  });

  it("can be set in-process too", async () => {
    simulator.faults.set("ONEY", { mode: "server-error", status: 502 });
    expect((await getJson(url())).status).toBe(502);
    simulator.faults.clear("ONEY");
    expect((await getJson(url())).status).toBe(200);
  });
});

describe("the CLI", () => {
  it("starts the simulator on the port asked for, prints its URL and stops when told", async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const running = runSimulatorCli(["--port", "0", "--clock", NOW], {
      signal: stop.signal,
      write: (line) => lines.push(line),
    });
    await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(lines[0] ?? "")?.[0] ?? "";
    const answer = await getJson(`${url}/_admin/state`);
    expect(answer.status).toBe(200);
    expect((answer.body as { clock: { manual: boolean } }).clock.manual).toBe(true);
    stop.abort();
    await running;
    await expect(fetch(`${url}/_admin/state`)).rejects.toThrow();
  });
});

describe("the admin clock", () => {
  it("moves a manual clock and refuses to move the system clock", async () => {
    expect((await admin("PUT", "clock", { advanceMs: 3_600_000 })).body.now).toBe("2026-11-20T13:00:00.000Z");
    expect((await admin("PUT", "clock", { now: NOW })).body.now).toBe(new Date(NOW).toISOString());
    expect((await admin("PUT", "clock", { now: "yesterday" })).status).toBe(400);
    const live = await startSimulator({ clock: systemClock });
    try {
      const answer = await getJson(`${live.url}/_admin/clock`, {
        method: "PUT",
        body: JSON.stringify({ advanceMs: 1000 }),
      });
      expect(answer.status).toBe(409);
    } finally {
      await live.close();
    }
  });
});
