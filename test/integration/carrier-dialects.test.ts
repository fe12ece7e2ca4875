/**
 * Carrier dialects (issue 24 item 3): each real DCSA member's entry of config/carriers.registry.json,
 * loaded in live mode exactly as shipped (only its endpoint pointed at the simulator by the documented
 * QUAYSIDE_CARRIER_<SCAC>_* overrides, credentials from the environment), tracks a known shipment of a
 * simulator that demands that carrier's own way of authenticating; wrong credentials are refused.
 */
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_RETRY_AFTER_SECONDS, REAL_CARRIER_HABITS } from "../../simulator/habits";
import { type RunningSimulator, type SimulatorAuth, startSimulator } from "../../simulator/server";
import { knownShipments, type Shipment } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import type { CarrierQuery } from "../../src/upstream/carriers/carrier-adapter";
import {
  createCarrierGateway,
  createCarrierTracker,
  loadCarrierRegistry,
} from "../../src/upstream/carriers/carrier-registry";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
// A throw-away test client of our own, made for this test (openssl req -x509): never a real key.
const MSC_KEY = fixture("msc-test-client.key.pem");
const MSC_CERT = fixture("msc-test-client.cert.pem");

/** What each carrier's gateway demands, as carrier-readiness.md reports it. */
const DEMANDS = {
  MAEU: {
    kind: "oauth2",
    tokenAuthMethod: "client_secret_post",
    clientId: "maersk-client",
    clientSecret: "maersk secret/+=",
    apiKeyHeader: "Consumer-Key",
    apiKey: "maersk-consumer-key",
    apiKeyOnTokenRequest: true,
  },
  MSCU: {
    kind: "oauth2",
    tokenAuthMethod: "private_key_jwt",
    clientId: "3f1c7a52-msc-app",
    clientSecret: "",
    certificate: MSC_CERT,
  },
  CMDU: { kind: "api-key", header: "keyId", value: "cma-key" },
  HLCU: {
    kind: "client-id-secret",
    idHeader: "X-IBM-Client-Id",
    secretHeader: "X-IBM-Client-Secret",
    clientId: "hlag-client",
    clientSecret: "hlag-secret",
  },
  ONEY: { kind: "none" },
  EGLV: {
    kind: "oauth2",
    tokenAuthMethod: "client_secret_post",
    clientId: "evergreen-client",
    clientSecret: "evergreen-secret",
  },
  YMLU: { kind: "none" },
  HDMU: { kind: "api-key", header: "x-Gateway-APIKey", value: "hmm-key" },
  ZIMU: { kind: "api-key", header: "Ocp-Apim-Subscription-Key", value: "zim-key" },
} satisfies Record<string, SimulatorAuth>;

type Scac = keyof typeof DEMANDS;
const SCACS = Object.keys(DEMANDS) as Scac[];

/** The environment an operator would set for each carrier, by the variable names the registry gives. */
const CREDENTIALS: Record<Scac, Record<string, string>> = {
  MAEU: {
    QUAYSIDE_CARRIER_MAEU_CLIENT_ID: "maersk-client",
    QUAYSIDE_CARRIER_MAEU_CLIENT_SECRET: "maersk secret/+=",
    QUAYSIDE_CARRIER_MAEU_CONSUMER_KEY: "maersk-consumer-key",
  },
  MSCU: {
    QUAYSIDE_CARRIER_MSCU_CLIENT_ID: "3f1c7a52-msc-app",
    QUAYSIDE_CARRIER_MSCU_PRIVATE_KEY: MSC_KEY,
    QUAYSIDE_CARRIER_MSCU_CERTIFICATE: MSC_CERT,
    QUAYSIDE_CARRIER_MSCU_SCOPE: "api://msc-tnt/.default",
  },
  CMDU: { QUAYSIDE_CARRIER_CMDU_API_KEY: "cma-key" },
  HLCU: {
    QUAYSIDE_CARRIER_HLCU_CLIENT_ID: "hlag-client",
    QUAYSIDE_CARRIER_HLCU_CLIENT_SECRET: "hlag-secret",
  },
  ONEY: {},
  EGLV: {
    QUAYSIDE_CARRIER_EGLV_CLIENT_ID: "evergreen-client",
    QUAYSIDE_CARRIER_EGLV_CLIENT_SECRET: "evergreen-secret",
  },
  YMLU: {},
  HDMU: { QUAYSIDE_CARRIER_HDMU_API_KEY: "hmm-key" },
  ZIMU: { QUAYSIDE_CARRIER_ZIMU_SUBSCRIPTION_KEY: "zim-key" },
};

/** The same variables with a wrong value each: a key of another client, secrets one letter off. */
const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
  type: "pkcs8",
  format: "pem",
}) as string;
const WRONG: Partial<Record<Scac, Record<string, string>>> = {
  MAEU: { ...CREDENTIALS.MAEU, QUAYSIDE_CARRIER_MAEU_CLIENT_SECRET: "maersk secret/+" },
  MSCU: { ...CREDENTIALS.MSCU, QUAYSIDE_CARRIER_MSCU_PRIVATE_KEY: otherKey },
  CMDU: { QUAYSIDE_CARRIER_CMDU_API_KEY: "cma-kez" },
  HLCU: { ...CREDENTIALS.HLCU, QUAYSIDE_CARRIER_HLCU_CLIENT_SECRET: "hlag-secreT" },
  EGLV: { ...CREDENTIALS.EGLV, QUAYSIDE_CARRIER_EGLV_CLIENT_SECRET: "evergreen" },
  HDMU: { QUAYSIDE_CARRIER_HDMU_API_KEY: "hmm-kex" },
  ZIMU: { QUAYSIDE_CARRIER_ZIMU_SUBSCRIPTION_KEY: "zim-kez" },
};

const clock = new ManualClock("2025-06-01T00:00:00Z");
let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, clock, auth: DEMANDS });
});
afterAll(async () => {
  await simulator.close();
});

/** Live mode, the shipped registry file, endpoints moved to a simulator by environment only. */
function liveRegistry(credentials: Record<string, string>, at: RunningSimulator) {
  const env: Record<string, string> = { ...credentials };
  for (const scac of SCACS) {
    env[`QUAYSIDE_CARRIER_${scac}_BASE_URL`] = `${at.url}/${scac}`;
    // The simulator serves the standard path; each carrier's own path stays in the registry file.
    env[`QUAYSIDE_CARRIER_${scac}_EVENTS_PATH`] = "/v2/events";
    env[`QUAYSIDE_CARRIER_${scac}_TOKEN_URL`] = `${at.url}/${scac}/oauth/token`;
  }
  return loadCarrierRegistry({ env });
}

function liveGateway(credentials: Record<string, string>, sent: URL[] = []) {
  const registry = liveRegistry(credentials, simulator);
  expect(registry.mode).toBe("live");
  // Real HTTP to the simulator; the wrapper only notes where each request went.
  const recordingFetch: typeof fetch = (input, init) => {
    sent.push(new URL(input instanceof Request ? input.url : String(input)));
    return fetch(input, init);
  };
  return {
    registry,
    gateway: createCarrierGateway(registry, {
      clock,
      fetch: recordingFetch,
      timeoutMs: 5_000,
      retry: { maxAttempts: 1 },
    }),
  };
}

function knownShipment(scac: string): Shipment {
  let tried = 0;
  for (const shipment of knownShipments(scac, clock.now())) {
    if (!shipment.cancelled && shipment.containers.length > 0) return shipment;
    if (++tried >= 2_000) break;
  }
  throw new Error(`no ${scac} shipment in the simulated world`);
}

/** The lookup a user would make of each carrier: a B/L, or for HMM its booking with a box. */
function queryFor(scac: Scac): CarrierQuery {
  const shipment = knownShipment(scac);
  if (scac === "HDMU") {
    return {
      scac,
      reference: shipment.carrierBookingReference,
      referenceType: "booking",
      container: shipment.containers[0]?.equipmentReference,
    };
  }
  const bl = shipment.transportDocumentReference;
  // Evergreen B/Ls are quoted with the EGLV prefix by users; the registry says the API wants it off.
  const reference = scac === "EGLV" && !bl.startsWith("EGLV") ? `EGLV${bl}` : bl;
  return { scac, reference, referenceType: "bl" };
}

const allCredentials = Object.assign({}, ...Object.values(CREDENTIALS)) as Record<string, string>;

describe("each real DCSA member's registry entry against a simulator demanding its auth", () => {
  it.each(SCACS)(
    "%s: the shipped entry, credentials from the environment, tracks a known B/L",
    async (scac) => {
      const sent: URL[] = [];
      const { registry, gateway } = liveGateway(allCredentials, sent);
      expect(registry.connected(scac)).toBe(true);
      const query = queryFor(scac);
      const outcome = await gateway.fetchEvents(query);
      if (outcome.kind !== "found")
        throw new Error(`${scac}: expected found, got ${JSON.stringify(outcome)}`);
      const shipment = knownShipment(scac);
      const boxes = new Set(
        outcome.events.map((e) => (e as { equipmentReference?: string }).equipmentReference).filter(Boolean),
      );
      expect(boxes.has(shipment.containers[0]?.equipmentReference)).toBe(true);
      expect(sent.some((u) => u.pathname === `/${scac}/v2/events`)).toBe(true);
    },
  );

  it("sends Evergreen's B/L without the EGLV prefix and keeps other carriers' references as typed", async () => {
    const sent: URL[] = [];
    const { gateway } = liveGateway(allCredentials, sent);
    const evergreen = queryFor("EGLV");
    const maersk = queryFor("MAEU");
    expect((await gateway.fetchEvents(evergreen)).kind).toBe("found");
    expect((await gateway.fetchEvents(maersk)).kind).toBe("found");
    const documentSent = (scac: string) =>
      sent.find((u) => u.pathname === `/${scac}/v2/events`)?.searchParams.get("transportDocumentReference");
    expect(documentSent("EGLV")).toBe(evergreen.reference.slice("EGLV".length));
    expect(documentSent("MAEU")).toBe(maersk.reference);
  });

  it("asks HMM with booking and container together", async () => {
    const sent: URL[] = [];
    const { gateway } = liveGateway(allCredentials, sent);
    const query = queryFor("HDMU");
    expect((await gateway.fetchEvents(query)).kind).toBe("found");
    const asked = sent.find((u) => u.pathname === "/HDMU/v2/events");
    expect(asked?.searchParams.get("carrierBookingReference")).toBe(query.reference);
    expect(asked?.searchParams.get("equipmentReference")).toBe(query.container);
  });

  it.each(Object.keys(WRONG) as Scac[])("%s: wrong credentials answer unauthorized", async (scac) => {
    const { gateway } = liveGateway({ ...allCredentials, ...WRONG[scac] });
    const outcome = await gateway.fetchEvents(queryFor(scac));
    expect(outcome.kind).toBe("unauthorized");
    // Nothing secret is repeated back in the reason.
    for (const value of Object.values(WRONG[scac] ?? {})) {
      if (value.length > 0) expect(JSON.stringify(outcome)).not.toContain(value);
    }
  });

  it("refuses a token request in another carrier's dialect: Basic where Maersk wants the body, no Consumer-Key", async () => {
    const tokenUrl = `${simulator.url}/MAEU/oauth/token`;
    const form = "grant_type=client_credentials";
    const basic = Buffer.from("maersk-client:maersk%20secret%2F%2B%3D").toString("base64");
    const asBasic = await fetch(tokenUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${basic}`,
        "Consumer-Key": "maersk-consumer-key",
      },
      body: form,
    });
    expect(asBasic.status).toBe(401);
    const withoutKey = await fetch(tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `${form}&client_id=maersk-client&client_secret=${encodeURIComponent("maersk secret/+=")}`,
    });
    expect(withoutKey.status).toBe(401);
    expect(((await withoutKey.json()) as { error: string }).error).toBe("invalid_client");
  });

  it("a carrier with missing credentials is not connected in live mode, and says which variables to set", () => {
    const { registry, gateway } = liveGateway({});
    expect(registry.connected("MSCU")).toBe(false);
    const msc = registry.get("MSCU");
    expect(msc?.auth).toMatchObject({ kind: "unconfigured" });
    const reason = msc?.auth.kind === "unconfigured" ? msc.auth.reason : "";
    expect(reason).toContain("QUAYSIDE_CARRIER_MSCU_PRIVATE_KEY");
    expect(gateway.supports("MSCU")).toBe(true);
  });
});

describe("each real DCSA member's entry against a simulator demanding its auth and answering in its habits", () => {
  // carrier-readiness.md's habits (simulator/habits.ts REAL_CARRIER_HABITS): Maersk wraps its events,
  // Evergreen writes PLAN, ZIM leaves out transportCall, Hapag-Lloyd answers 10 a minute, CMA CGM
  // sends 429 with Retry-After: 3600.
  let habitual: RunningSimulator;
  beforeAll(async () => {
    habitual = await startSimulator({ port: 0, clock, auth: DEMANDS, habits: { ...REAL_CARRIER_HABITS } });
  });
  afterAll(async () => {
    await habitual?.close();
  });

  it.each(SCACS)("%s: maps the carrier's answer, in its habits, to the shipment's boxes", async (scac) => {
    const tracker = createCarrierTracker(liveRegistry(allCredentials, habitual), {
      clock,
      timeoutMs: 5_000,
      retry: { maxAttempts: 1 },
    });
    const answer = await tracker.track(queryFor(scac));
    if (REAL_CARRIER_HABITS[scac]?.habits.includes("long-retry-after")) {
      expect(answer).toEqual({ kind: "rate-limited", retryAfterSeconds: LONG_RETRY_AFTER_SECONDS });
      return;
    }
    if (answer.kind !== "found") throw new Error(`${scac}: expected found, got ${JSON.stringify(answer)}`);
    const numbers = answer.document.containers.map((c) => c.number);
    expect(numbers).toContain(knownShipment(scac).containers[0]?.equipmentReference);
    expect(answer.document.containers.every((c) => c.events.length > 0)).toBe(true);
  });
});
