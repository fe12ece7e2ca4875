import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { seedShipment } from "../support/shipment-seed";

/**
 * Windows that start "now" are the core's to compute on its clock, never a client's: the dashboard
 * asked with its own `Date.now()` (arriving this week, a key's expiry in days, whether a key expired).
 */
const clock = new ManualClock("2026-11-20T12:00:00Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
  const ship = (reference: string, eta: string, status: "IN_TRANSIT" | "DELIVERED" = "IN_TRANSIT") =>
    seedShipment(app.services, clock, org, {
      reference,
      scac: "MSCU",
      status,
      answers: [{ eta, actual: status === "DELIVERED" }],
      createdAt: "2026-11-01T00:00:00.000Z",
    });
  await ship("MSCU1000001", "2026-11-22T00:00:00.000Z");
  await ship("MSCU1000002", "2026-11-26T00:00:00.000Z");
  await ship("MSCU1000003", "2026-12-15T00:00:00.000Z");
  await ship("MSCU1000004", "2026-11-10T00:00:00.000Z");
}, 120_000);
afterAll(() => app?.stop());

const SEARCH = `query($filter: ShipmentFilter) { shipmentSearch(filter: $filter) { total } }`;
const total = async (filter: Record<string, unknown>) => {
  const res = await graphql(app, org.key, SEARCH, { filter });
  expect(res.body.errors).toBeUndefined();
  return (res.body.data!.shipmentSearch as { total: number }).total;
};

describe("ShipmentFilter.arrivingWithinDays", () => {
  it("counts active shipments arriving from now to that many days ahead, on the server's clock", async () => {
    expect(await total({ arrivingWithinDays: 3 })).toBe(1);
    expect(await total({ arrivingWithinDays: 7 })).toBe(2);
    clock.set("2026-11-23T12:00:00Z");
    expect(await total({ arrivingWithinDays: 7 })).toBe(1);
    // Combined with an explicit bound, the narrower one holds.
    expect(await total({ arrivingWithinDays: 30, etaTo: "2026-12-01T00:00:00Z" })).toBe(1);
    clock.set("2026-11-20T12:00:00Z");
  });

  it("refuses a window outside 1 to 365 days with a coded input error", async () => {
    for (const days of [0, 366]) {
      const res = await graphql(app, org.key, SEARCH, { filter: { arrivingWithinDays: days } });
      expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
  });
});

describe("API key expiry in days", () => {
  it("expires the given days after the server's now, and says when it has expired", async () => {
    const res = await graphql(
      app,
      org.key,
      `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id expiresAt expired } } }`,
      { input: { name: "two days", expiresInDays: 2 } },
    );
    expect(res.body.errors).toBeUndefined();
    const created = (
      res.body.data!.createApiKey as { apiKey: { id: string; expiresAt: string; expired: boolean } }
    ).apiKey;
    expect(created.expiresAt).toBe("2026-11-22T12:00:00.000Z");
    expect(created.expired).toBe(false);
    clock.set("2026-11-23T12:00:00Z");
    const keys = await graphql(app, org.key, "{ viewer { organization { apiKeys { id expired } } } }");
    const listed = (
      keys.body.data as { viewer: { organization: { apiKeys: { id: string; expired: boolean }[] } } }
    ).viewer.organization.apiKeys;
    expect(listed.find((k) => k.id === created.id)?.expired).toBe(true);
    expect(listed.find((k) => k.id === org.keyId)?.expired).toBe(false);
    clock.set("2026-11-20T12:00:00Z");
  });
});
