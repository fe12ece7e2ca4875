import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { systemClock } from "../../src/lib/clock";
import { compatGet } from "../compat/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

/**
 * Issue 24 item 1, live mode: a line the deployment has no connection to (no endpoint in the registry,
 * or its credentials unset) is reported as not supported, never as a carrier that does not answer.
 * Here only ONE is connected (its endpoint set by environment, pointing at a simulator; its registry
 * entry needs no credentials); Wan Hai has no registry entry and Maersk's credentials are not set.
 */
let simulator: RunningSimulator;
let app: TestApp;
let org: OrgWithKey;
let one: string;
let wanHai: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, host: "127.0.0.1", clock: systemClock });
  app = await startTestApp({
    env: {
      QUAYSIDE_CARRIER_ONEY_BASE_URL: `${simulator.url}/ONEY`,
      QUAYSIDE_CARRIER_ATTEMPTS: "3",
      QUAYSIDE_CARRIER_TIMEOUT_MS: "15000",
    },
  });
  org = await app.fixtures.organization({ plan: "business" });
  [one] = (await simulatedContainers(simulator.url, "ONEY", "ONEU", { known: 1 })).known as [string];
  [wanHai] = (await simulatedContainers(simulator.url, "WHLC", "WHLU", { known: 1 })).known as [string];
});
afterAll(async () => {
  await app?.stop();
  await simulator?.close();
});

const v1 = async (path: string) => {
  const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${org.key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe("lines this deployment cannot reach", () => {
  it("are absent from /info/sealines and flagged untracked in /carriers and GraphQL", async () => {
    const sealines = (await compatGet(app, org.key, "/info/sealines")).body.data as {
      scac_codes: string[];
    }[];
    const listed = sealines.map((line) => line.scac_codes[0]);
    expect(listed).toEqual(["ONEY"]);

    const carriers = (await v1("/carriers")).body.data as { scac: string; tracked: boolean }[];
    expect(carriers.find((c) => c.scac === "ONEY")?.tracked).toBe(true);
    expect(carriers.find((c) => c.scac === "WHLC")?.tracked).toBe(false);
    expect(carriers.find((c) => c.scac === "MAEU")?.tracked).toBe(false);

    const answer = await graphql(app, org.key, `{ carriers(search: "WHLC") { scac status tracked } }`);
    expect(answer.body.data?.carriers).toEqual([{ scac: "WHLC", status: "not_connected", tracked: false }]);
  });

  it("a named one answers SEALINE_NOT_SUPPORTED on compat and 400 on v1, with no Retry-After and no slot", async () => {
    for (const [sealine, number] of [
      ["WHLC", wanHai],
      ["MAEU", "MSKU1234565"],
    ] as const) {
      const compat = await compatGet(app, org.key, "/tracking", { number, sealine });
      expect(compat.body).toMatchObject({ status: "error", message: "SEALINE_NOT_SUPPORTED" });
      expect(compat.body.detail).toMatch(/not supported on this service/);
      expect(compat.headers.get("retry-after")).toBeNull();

      const live = await v1(`/container/${number}?sealine=${sealine}`);
      expect(live.status).toBe(400);
      expect(live.body).toMatchObject({
        success: false,
        statusCode: 400,
        data: { error: "invalid_parameter", param: "sealine" },
      });
      expect(live.headers.get("retry-after")).toBeNull();
    }
    expect(
      await app.services.db.prisma.shipmentSlot.count({ where: { organizationId: org.organizationId } }),
    ).toBe(0);
  });

  it("detection never sends a box to a line it cannot reach; a connected line tracks as usual", async () => {
    const detected = await compatGet(app, org.key, "/tracking", { number: wanHai });
    expect(detected.body.message).not.toBe("SEALINE_NO_RESPONSE");
    expect(detected.headers.get("retry-after")).toBeNull();

    const tracked = await compatGet(app, org.key, "/tracking", { number: one });
    expect(tracked.body).toMatchObject({ status: "success", data: { metadata: { sealine: "ONEY" } } });
  });
});
