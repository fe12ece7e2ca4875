import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { graphql, startTestApp, type TestApp } from "../support/app";
import { freshDatabaseTarget } from "../support/database";
import { startTimedReceiver } from "../support/receiver";

/**
 * Issue 27 item 3: two instances delivering from one PostgreSQL never send one attempt twice, nor two
 * deliveries to one endpoint at once (an endpoint's lease is held by one sender across processes). A
 * PostgreSQL pass test (QUAYSIDE_TEST_DB=postgres): PGlite is one process's own database.
 */
const onPostgresPass = Boolean(inject("postgresUrl"));

const ENDPOINTS = 4;
const PER_ENDPOINT = 30;

describe.runIf(onPostgresPass)("two instances on one PostgreSQL", { timeout: 120_000 }, () => {
  let instances: TestApp[] = [];
  beforeAll(async () => {
    const target = await freshDatabaseTarget();
    if (target.kind !== "postgres") throw new Error("the PostgreSQL pass gives a PostgreSQL database");
    const env = {
      DATABASE_URL: target.url,
      QUAYSIDE_WORKERS: "on",
      QUAYSIDE_WEBHOOK_INTERVAL_MS: "100",
      QUAYSIDE_WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    };
    // One after the other: the first applies the migrations, the second finds them applied.
    instances = [await startTestApp({ env }), await startTestApp({ env })];
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
  });

  it("deliver every delivery once, one at a time per endpoint, in the order of the changes", async () => {
    // A receiver slow enough (60 ms) that both instances are at work while deliveries are due.
    const receiver = await startTimedReceiver(() => 60);
    try {
      const [a, b] = instances as [TestApp, TestApp];
      const org = await a.fixtures.organization();
      const endpoints: string[] = [];
      for (let e = 0; e < ENDPOINTS; e++) {
        const res = await graphql(
          a,
          org.key,
          `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
          { input: { url: receiver.url(`/endpoint-${e}`), events: ["*"] } },
        );
        endpoints.push((res.body.data!.createWebhookEndpoint as { endpoint: { id: string } }).endpoint.id);
      }
      // Changes arrive through both instances, all endpoints at once.
      const created = new Set<string>();
      await Promise.all(
        endpoints.map(async (id, e) => {
          for (let n = 0; n < PER_ENDPOINT; n++) {
            const via = (n + e) % 2 === 0 ? a : b;
            const delivery = await via.services.webhooks.sendTest(org.organizationId, id);
            created.add(delivery!.id);
          }
        }),
      );
      const total = ENDPOINTS * PER_ENDPOINT;
      for (let i = 0; i < 600 && new Set(receiver.arrivals.map((r) => r.deliveryId)).size < total; i++)
        await new Promise((r) => setTimeout(r, 100));
      // Time for a late duplicate to show.
      await new Promise((r) => setTimeout(r, 1_000));

      const arrived = receiver.arrivals.map((r) => r.deliveryId);
      expect(new Set(arrived)).toEqual(created);
      expect(arrived.length).toBe(total); // none twice
      for (let e = 0; e < ENDPOINTS; e++) expect(receiver.mostOpen.get(`/endpoint-${e}`)).toBe(1);
      // Each endpoint received its deliveries in the order of the changes.
      const rows = await a.services.db.prisma.webhookDelivery.findMany({
        where: { organizationId: org.organizationId },
        orderBy: { seq: "asc" },
        include: { attemptLog: true },
      });
      expect(
        rows.every((d) => d.status === "delivered" && d.attempts === 1 && d.attemptLog.length === 1),
      ).toBe(true);
      for (let e = 0; e < ENDPOINTS; e++) {
        const order = rows.filter((d) => d.endpointId === endpoints[e]).map((d) => d.id);
        expect(receiver.arrivals.filter((r) => r.path === `/endpoint-${e}`).map((r) => r.deliveryId)).toEqual(
          order,
        );
      }
      const leases = await a.services.db.prisma.webhookEndpoint.findMany({
        where: { organizationId: org.organizationId },
      });
      expect(leases.every((l) => l.leasedUntil === null)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
