/**
 * The sandbox's predicted arrivals (spec v1 sections 2.4 and 4.3): its organisation has every feature,
 * its clock is frozen, so each of its eight shipments shows the same `predictive_eta` on every request:
 * a window on the two still sailing to their port of discharge (SHP-1003 and SHP-1004, the delayed
 * ones: in the one consistent world a carrier's ETA moves by over a day while the ship sails), null
 * on those whose vessel has arrived (discharged and waiting at the terminal, or delivered).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_NOW } from "../../src/app/sandbox-world";
import { startTestApp, type TestApp } from "../support/app";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    env: { QUAYSIDE_SIMULATOR: "embedded", QUAYSIDE_SIMULATOR_PORT: "0", QUAYSIDE_CARRIER_ATTEMPTS: "1" },
  });
}, 180_000);
afterAll(() => app?.stop());

const sandbox = async (path: string) => {
  const res = await fetch(`${app.url}/api/v1/sandbox${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: any }).data;
};

describe("the sandbox's predicted arrivals", () => {
  it("are fixed: the same on every request, computed at the frozen moment, on the list and the single read", async () => {
    const first = await sandbox("/shipments");
    const second = await sandbox("/shipments");
    expect(first.map((s: any) => s.predictive_eta)).toEqual(second.map((s: any) => s.predictive_eta));
    const sailing = first.filter(
      (s: any) => s.ata === null && s.is_active === 1 && s.last_synced_at !== null,
    );
    expect(sailing.map((s: any) => s.name)).toEqual(["SHP-1004", "SHP-1003"]);
    for (const s of sailing) {
      expect(s.predictive_eta, s.name).toMatchObject({ computed_at: SANDBOX_NOW });
      expect(Date.parse(s.predictive_eta.p80)).toBeGreaterThanOrEqual(Date.parse(s.predictive_eta.p50));
      const single = await sandbox(`/shipments/${s.name}`);
      expect(single.predictive_eta).toEqual(s.predictive_eta);
    }
  }, 180_000);

  it("are null, with the key present, once the vessel has arrived (in transit inland or delivered)", async () => {
    const list = await sandbox("/shipments");
    const arrived = list.filter((s: any) => s.ata !== null);
    expect(arrived.length).toBe(5);
    for (const s of arrived) expect(s).toHaveProperty("predictive_eta", null);
  }, 120_000);
});
