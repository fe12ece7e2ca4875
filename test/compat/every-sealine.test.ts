import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containerPrefixesOf } from "../../simulator/world/carrier-profiles";
import { knownShipments } from "../../simulator/world/world";
import { CARRIERS } from "../../src/domain/carriers/carrier-directory";
import { type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { sealinesSchema } from "./compat-schema";
import { compatGet, SIMULATOR_ENV } from "./support";

/**
 * Issue 24 item 1: with the defaults of `npm start` (the embedded simulator), every line
 * `/info/sealines` lists is trackable: the registry routes every carrier of the directory to the
 * simulator, not only the ten its file describes.
 */
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  // 33 carriers asked one after another: the default attempts and a generous timeout, so a busy
  // machine is not a failing carrier.
  app = await startTestApp({
    env: { ...SIMULATOR_ENV, QUAYSIDE_CARRIER_TIMEOUT_MS: "15000", QUAYSIDE_CARRIER_ATTEMPTS: "3" },
  });
  org = await app.fixtures.organization({ plan: "business" });
});
afterAll(() => app?.stop());

/** A number of the carrier's the simulated world knows: a container, or HMM's booking/container pair. */
async function knownNumber(scac: string): Promise<{ number: string; type?: string }> {
  const carrier = CARRIERS.find((c) => c.scac === scac)!;
  if (!carrier.supportedTypes.includes("container")) {
    // HMM answers only a booking together with a container, as its API demands.
    const now = new Date();
    let tried = 0;
    for (const shipment of knownShipments(scac, now)) {
      const box = shipment.containers[0]?.equipmentReference;
      if (!shipment.cancelled && box && shipment.bookedAt.getTime() < now.getTime() - 40 * 86_400_000) {
        return { number: `${shipment.carrierBookingReference}/${box}`, type: "BK" };
      }
      if (++tried >= 2_000) break;
    }
    throw new Error(`no ${scac} booking with a box in the simulated world`);
  }
  const prefix = containerPrefixesOf(carrier)[0]!;
  const { known } = await simulatedContainers(app.simulator!.url, scac, prefix, { known: 1 });
  expect(known, `${scac} has no known ${prefix} box in the simulated world`).toHaveLength(1);
  return { number: known[0]! };
}

describe("every line of /info/sealines in embedded mode", () => {
  it("lists all the directory's lines and tracks a number of each with its own sealine", async () => {
    const listed = sealinesSchema.parse((await compatGet(app, org.key, "/info/sealines")).body.data);
    expect(listed.map((line) => line.scac_codes[0]).sort()).toEqual(CARRIERS.map((c) => c.scac).sort());

    const failures: string[] = [];
    for (const line of listed) {
      const scac = line.scac_codes[0]!;
      const { number, type } = await knownNumber(scac);
      const answer = await compatGet(app, org.key, "/tracking", { number, type, sealine: scac });
      expect(answer.status).toBe(200);
      if (answer.body.status !== "success" || answer.body.data?.metadata?.sealine !== scac) {
        failures.push(`${scac} ${number}: ${answer.body.message} ${answer.body.detail ?? ""}`);
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it("v1 /carriers flags every line as tracked", async () => {
    const res = await fetch(`${app.url}/api/v1/carriers`, {
      headers: { authorization: `Bearer ${org.key}` },
    });
    const body = (await res.json()) as { data: { scac: string; tracked: boolean }[] };
    expect(body.data).toHaveLength(CARRIERS.length);
    expect(body.data.filter((c) => !c.tracked)).toEqual([]);
  });
});
