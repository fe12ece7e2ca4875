/**
 * Issue 34 on the service's own path, on voyages of the simulator's world (the embedded simulator, one
 * manual clock): the ship's own AIS report is read with its position. A ship sailing its voyage
 * normally is not called a fault (a call of its rotation the box's plan does not name, the Cape instead
 * of the network's Suez, a fix where the sea network has no path), and a ship alongside at the port of
 * discharge before its carrier says so gets no new prediction. The moments are ones the service-path
 * replay's tuning split (bench/eta-replay) mislabelled or predicted after the arrival.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { TRACKING_ENV } from "../mcp/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";

const clock = new ManualClock("2026-05-01T00:00:00.000Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ env: { ...TRACKING_ENV, QUAYSIDE_WORKERS: "off" }, clock });
  org = await app.fixtures.organization({ plan: "professional" });
}, 120_000);
afterAll(() => app?.stop());

const READ = `query($id: String!) { shipment(id: $id) {
  id predictiveEta { p50 p80 source confidence fallbackReason }
} }`;

/** Tracks a box through v1 at `at`, lets the eta worker compute, and reads the prediction it stored. */
async function predictedAt(reference: string, sealine: string, at: string) {
  clock.set(at);
  const res = await fetch(`${app.url}/api/v1/track`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
    body: JSON.stringify({ shipments: [{ type: "container", number: reference, sealine }] }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const tracked = (await res.json()) as { results: { ok: boolean }[] };
  expect(tracked.results[0]?.ok, JSON.stringify(tracked)).toBe(true);
  await app.services.eta.computeDue();
  const { body } = await graphql(app, org.key, READ, { id: reference });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  const shipmentId = (body.data as any).shipment.id as string;
  const kept = await app.services.db.prisma.predictiveEtaSnapshot.findMany({ where: { shipmentId } });
  return { eta: (body.data as any).shipment.predictiveEta, kept };
}

describe("a ship sailing its voyage normally is not called a fault", () => {
  it("off Port Said bound for Valencia, where the sea network joins no path: no `no_route`", async () => {
    const { eta } = await predictedAt("REGU9468048", "REGU", "2026-05-10T12:00:00.000Z");
    expect(eta).not.toBeNull();
    expect(eta.fallbackReason).toBeNull();
  });

  it("alongside at Haiphong, a call of its rotation the plan from Singapore to New York does not name: no `off_planned_leg`", async () => {
    const { eta } = await predictedAt("GSLU2520841", "GOSU", "2026-06-09T18:00:00.000Z");
    expect(eta).not.toBeNull();
    expect(eta.fallbackReason).toBeNull();
  });

  it("off Angola, sailing from Sines to Singapore around the Cape: no `off_planned_leg`", async () => {
    const { eta } = await predictedAt("TGHU7941119", "XPRS", "2026-05-29T12:00:00.000Z");
    expect(eta).not.toBeNull();
    expect(eta.fallbackReason).toBeNull();
  });
});

describe("a ship at its port of discharge before the carrier says so", () => {
  it("gets no new prediction once its AIS shows it alongside there", async () => {
    // The ship berthed at 11:57; the carrier's document still says 2026-07-29 14:00, four days on.
    const { eta, kept } = await predictedAt("MSCU1520195", "MSCU", "2026-07-25T12:00:00.000Z");
    expect(eta).toBeNull();
    expect(kept).toEqual([]);
  });
});

describe("a transshipped box's last ship published late at the transshipment port", () => {
  it("is predicted to make good its late departure: p50 at the booked arrival, the carrier's ETA days later", async () => {
    // PCIU3123328 (tuning split): the last ship's departure from the transshipment port was first
    // estimated 2026-06-23 14:30; three days before, the carrier publishes it six days late and carries
    // it to the port of discharge, while the ship makes good a fifth of its leg and arrives as booked.
    await predictedAt("PCIU3123328", "PCIU", "2026-06-02T00:00:00.000Z");
    clock.set("2026-06-21T00:00:00.000Z");
    while ((await app.services.background.refreshDue(25)) > 0) {}
    const { eta, kept } = await predictedAt("PCIU3123328", "PCIU", "2026-06-21T00:00:00.000Z");
    const latest = kept.sort((a, b) => b.computedAt.getTime() - a.computedAt.getTime())[0]!;
    expect(eta.source).toBe("blend");
    // The carrier's ETA is nearly six days later than p50 (arrival - carrier ETA: -142 h in the world).
    const carrierAheadHours = (latest.carrierEta!.getTime() - Date.parse(eta.p50)) / 3_600_000;
    expect(carrierAheadHours).toBeGreaterThan(100);
  }, 60_000);
});

describe("a box rolled to a later connecting sailing it will not need", () => {
  it("is predicted to make its booked connection: p50 at the booked arrival, weeks before the carrier's ETA", async () => {
    // SLVU2379239 (tuning split): the first ship's late departure is published, the carrier rolls the
    // box to the connecting loop's next bookable sailing (another voyage) and its ETA moves 49 days
    // later; the first ship makes good a fifth of its leg and the box sails as booked.
    await predictedAt("SLVU2379239", "SQQY", "2026-05-15T00:00:00.000Z");
    clock.set("2026-05-17T00:00:00.000Z");
    while ((await app.services.background.refreshDue(25)) > 0) {}
    const { eta, kept } = await predictedAt("SLVU2379239", "SQQY", "2026-05-17T00:00:00.000Z");
    const first = kept.sort((a, b) => a.computedAt.getTime() - b.computedAt.getTime())[0]!;
    const latest = kept.at(-1)!;
    expect(eta.source).toBe("blend");
    expect(Date.parse(eta.p50)).toBe(first.carrierEta!.getTime());
    expect((latest.carrierEta!.getTime() - Date.parse(eta.p50)) / 3_600_000).toBeGreaterThan(30 * 24);
  }, 60_000);
});
