import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/lib/clock";
import {
  CarrierRegistryError,
  createCarrierGateway,
  loadCarrierRegistry,
} from "../../../src/upstream/carriers/carrier-registry";
import { json, startTestServer, type TestServer } from "./test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const noWait = async () => {};

function registryFile(content: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "quayside-registry-"));
  const file = path.join(dir, "carriers.registry.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe("the committed registry file", () => {
  const registry = loadCarrierRegistry({ env: {} });

  it("lists the ten largest DCSA-era carriers by SCAC", () => {
    expect([...registry.carriers.keys()].sort()).toEqual(
      ["CMDU", "COSU", "EGLV", "HDMU", "HLCU", "MAEU", "MSCU", "ONEY", "YMLU", "ZIMU"].sort(),
    );
  });

  it("notes the source of every real DCSA member's entry", () => {
    const file = JSON.parse(
      readFileSync(new URL("../../../config/carriers.registry.json", import.meta.url), "utf8"),
    );
    for (const scac of ["MAEU", "MSCU", "CMDU", "HLCU", "ONEY", "EGLV", "YMLU", "HDMU", "ZIMU"]) {
      expect(file.carriers[scac].source, scac).toMatch(/carrier-readiness\.md|carriers\.md/);
    }
    expect(file.carriers.MSCU.auth).toMatchObject({ kind: "oauth2", tokenAuthMethod: "private_key_jwt" });
    expect(file.carriers.MAEU.auth).toMatchObject({
      tokenAuthMethod: "client_secret_post",
      apiKeyHeader: "Consumer-Key",
      apiKeyOnTokenRequest: true,
    });
    expect(file.carriers.ZIMU.baseUrl).toBe("https://apigw.zim.com/trackAndTrace/v2");
  });

  it("refuses an oauth2 entry that could not authenticate: no secret for Basic, no key for a JWT assertion", () => {
    const entry = (auth: Record<string, unknown>) =>
      registryFile({
        carriers: {
          MSCU: { name: "MSC", adapter: "dcsa-tnt-2.2", baseUrl: "https://x.example", auth },
        },
      });
    const base = { kind: "oauth2", tokenUrl: "https://x.example/token", clientIdEnv: "A_ID" };
    expect(() => loadCarrierRegistry({ file: entry(base), env: {} })).toThrow(/needs clientSecretEnv/);
    expect(() =>
      loadCarrierRegistry({ file: entry({ ...base, tokenAuthMethod: "private_key_jwt" }), env: {} }),
    ).toThrow(/needs privateKeyEnv/);
    expect(() => loadCarrierRegistry({ file: entry({ ...base, tokenAuthMethod: "mtls" }), env: {} })).toThrow(
      CarrierRegistryError,
    );
  });

  it("holds only endpoints named by our references; the others are simulator-only", () => {
    const live = [...registry.carriers.values()].filter((c) => c.baseUrl !== null).map((c) => c.scac);
    expect(live.sort()).toEqual(["CMDU", "COSU", "HDMU", "HLCU", "MAEU", "MSCU", "ZIMU"]);
    expect(registry.get("COSU")).toMatchObject({
      adapter: "cosco-cop",
      baseUrl: "https://api.lines.coscoshipping.com/service",
      rateLimit: { perDay: 1000 },
    });
    expect(registry.get("hlcu")?.baseUrl).toBe("https://api.hlag.com/hlag/external");
    expect(registry.get("HLCU")?.eventsPath).toBe("/v2/events");
  });
});

describe("simulator mode", () => {
  it("points every SCAC at the simulator with no auth", () => {
    const registry = loadCarrierRegistry({ env: {}, simulatorUrl: "http://127.0.0.1:8090/" });
    expect(registry.mode).toBe("simulator");
    for (const entry of registry.carriers.values()) {
      expect(entry.baseUrl).toBe(`http://127.0.0.1:8090/${entry.scac}`);
      expect(entry.eventsPath).toBe("/v2/events");
      expect(entry.auth).toEqual({ kind: "none" });
    }
  });

  it("lets a test make one carrier demand credentials", () => {
    const registry = loadCarrierRegistry({
      env: {},
      simulatorUrl: "http://sim",
      simulatorAuth: { MAEU: { kind: "oauth2", clientId: "id", clientSecret: "secret" } },
    });
    expect(registry.get("MAEU")?.auth).toEqual({ kind: "oauth2", clientId: "id", clientSecret: "secret" });
    expect(registry.get("HLCU")?.auth).toEqual({ kind: "none" });
  });

  it("refuses an override for a carrier it does not know", () => {
    expect(() =>
      loadCarrierRegistry({ env: {}, simulatorUrl: "http://sim", simulatorAuth: { XXXX: { kind: "none" } } }),
    ).toThrow(CarrierRegistryError);
  });

  it("routes each SCAC to its own path on the simulator", async () => {
    server.handle((req, res) => json(res, 200, [{ seenAt: req.path }]));
    const gateway = createCarrierGateway(loadCarrierRegistry({ env: {}, simulatorUrl: server.url }), {
      sleep: noWait,
    });
    const outcome = await gateway.fetchEvents({
      scac: "zimu",
      reference: "ZIMU1234567",
      referenceType: "container",
    });
    expect(outcome).toMatchObject({ kind: "found", events: [{ seenAt: "/ZIMU/v2/events" }] });
  });
});

describe("file mode", () => {
  const file = registryFile({
    carriers: {
      HLCU: {
        name: "Hapag-Lloyd",
        adapter: "dcsa-tnt-2.2",
        baseUrl: "https://carrier.invalid/hlag",
        auth: {
          kind: "client-id-secret",
          idHeader: "X-IBM-Client-Id",
          secretHeader: "X-IBM-Client-Secret",
          clientIdEnv: "HL_ID",
          clientSecretEnv: "HL_SECRET",
        },
      },
      MAEU: {
        name: "Maersk",
        adapter: "dcsa-tnt-2.2",
        baseUrl: "https://carrier.invalid/maersk",
        eventsPath: "/events",
        auth: {
          kind: "oauth2",
          tokenUrlEnv: "MK_TOKEN_URL",
          clientIdEnv: "MK_ID",
          clientSecretEnv: "MK_SECRET",
        },
      },
      ONEY: { name: "ONE", adapter: "dcsa-tnt-2.2", baseUrl: null, auth: { kind: "none" } },
    },
  });

  it("resolves credentials from the env object it is given", () => {
    const registry = loadCarrierRegistry({
      file,
      env: {
        HL_ID: "id-1",
        HL_SECRET: "s-1",
        MK_TOKEN_URL: "https://login.invalid/token",
        MK_ID: "m",
        MK_SECRET: "n",
      },
    });
    expect(registry.mode).toBe("live");
    expect(registry.get("HLCU")).toMatchObject({
      baseUrl: "https://carrier.invalid/hlag",
      eventsPath: "/v2/events",
      auth: { kind: "client-id-secret", clientId: "id-1", clientSecret: "s-1" },
    });
    expect(registry.get("MAEU")).toMatchObject({
      eventsPath: "/events",
      auth: { kind: "oauth2", tokenUrl: "https://login.invalid/token", clientId: "m", clientSecret: "n" },
    });
  });

  it("lets the environment point a carrier at another endpoint", () => {
    const registry = loadCarrierRegistry({
      file,
      env: {
        QUAYSIDE_CARRIER_ONEY_BASE_URL: "https://one.invalid/tnt",
        QUAYSIDE_CARRIER_ONEY_EVENTS_PATH: "/v2.2/events",
      },
    });
    expect(registry.get("ONEY")).toMatchObject({
      baseUrl: "https://one.invalid/tnt",
      eventsPath: "/v2.2/events",
    });
  });

  it("turns missing credentials into an unauthorized answer naming the variables, with no request made", async () => {
    const registry = loadCarrierRegistry({ file, env: { HL_ID: "id-1", HL_SECRET: "  " } });
    const gateway = createCarrierGateway(registry, { sleep: noWait });
    const outcome = await gateway.fetchEvents({
      scac: "HLCU",
      reference: "HLXU8034420",
      referenceType: "container",
    });
    expect(outcome).toEqual({
      kind: "unauthorized",
      reason: "HLCU credentials are not configured: set HL_SECRET",
    });
    const maersk = await gateway.fetchEvents({ scac: "MAEU", reference: "X", referenceType: "bl" });
    expect(maersk).toMatchObject({
      kind: "unauthorized",
      reason: expect.stringContaining("MK_TOKEN_URL, MK_ID, MK_SECRET"),
    });
  });

  it("answers unreachable for a simulator-only carrier and for a SCAC it does not know", async () => {
    const gateway = createCarrierGateway(loadCarrierRegistry({ file, env: {} }), { sleep: noWait });
    expect(gateway.supports("ONEY")).toBe(true);
    expect(await gateway.fetchEvents({ scac: "ONEY", reference: "X", referenceType: "bl" })).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("simulator only"),
    });
    expect(gateway.supports("WHLC")).toBe(false);
    expect(await gateway.fetchEvents({ scac: "WHLC", reference: "X", referenceType: "bl" })).toMatchObject({
      kind: "unreachable",
      reason: expect.stringContaining("WHLC"),
    });
  });

  it("refuses a file with a secret in it, or an unreadable one, at load time", () => {
    const withSecret = registryFile({
      carriers: {
        HLCU: {
          name: "Hapag-Lloyd",
          adapter: "dcsa-tnt-2.2",
          baseUrl: "https://carrier.invalid",
          auth: { kind: "api-key", header: "keyId", valueEnv: "K", value: "pasted-secret" },
        },
      },
    });
    expect(() => loadCarrierRegistry({ file: withSecret, env: {} })).toThrow(CarrierRegistryError);
    expect(() => loadCarrierRegistry({ file: "/nonexistent/registry.json", env: {} })).toThrow(
      /cannot be read/,
    );
  });
});

describe("a carrier's request budget from the registry", () => {
  it("the committed file gives Hapag-Lloyd its portal's 10 calls a minute and 6,000 a day", () => {
    expect(loadCarrierRegistry({ env: {} }).get("HLCU")?.rateLimit).toEqual({ perMinute: 10, perDay: 6000 });
  });

  it("is spent by the gateway: the eleventh call of a minute is not sent and answers rate-limited", async () => {
    const file = registryFile({
      carriers: {
        HLCU: {
          name: "Hapag-Lloyd",
          adapter: "dcsa-tnt-2.2",
          baseUrl: `${server.url}/hl`,
          auth: { kind: "none" },
          rateLimit: { perMinute: 10 },
        },
      },
    });
    server.handle((_req, res) => json(res, 200, [{ eventID: "a", eventType: "EQUIPMENT" }]));
    const clock = new ManualClock("2026-11-26T10:00:30Z");
    const gateway = createCarrierGateway(loadCarrierRegistry({ file, env: {} }), { sleep: noWait, clock });
    const outcomes = [];
    for (let i = 0; i < 11; i++) {
      outcomes.push(
        await gateway.fetchEvents({ scac: "HLCU", reference: `HLXU00000${i}`, referenceType: "container" }),
      );
    }
    expect(outcomes.slice(0, 10).every((o) => o.kind === "found")).toBe(true);
    expect(outcomes[10]).toEqual({ kind: "rate-limited", retryAfterSeconds: 30 });
    expect(server.requests).toHaveLength(10);
  });

  it("does not apply to the simulated carriers of embedded mode", () => {
    const registry = loadCarrierRegistry({ env: {}, simulatorUrl: "http://127.0.0.1:1" });
    expect(registry.get("HLCU")?.rateLimit).toBeUndefined();
  });
});
