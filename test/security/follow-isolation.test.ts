import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { seedShipment } from "../support/shipment-seed";

/**
 * Issue 39 item 9: following and unfollowing answer another organisation's user alike, "not found"
 * (tenant isolation: another organisation's data answers as if it did not exist), and neither
 * changes anything. Only GraphQL takes a user id; the dashboard follows and unfollows the signed-in
 * person, and v1, compat and MCP do not follow.
 */
const clock = new ManualClock("2026-11-22T10:00:00.000Z");
const REFERENCE = "MSCU1234566";
const FOLLOW = `mutation($shipment: String!, $userId: ID) { followShipment(shipment: $shipment, userId: $userId) { id } }`;
const UNFOLLOW = `mutation($shipment: String!, $userId: ID) { unfollowShipment(shipment: $shipment, userId: $userId) { id } }`;
const NOT_FOUND = { code: "NOT_FOUND", message: "No such shipment or user in your organisation." };

let app: TestApp;
let org: OrgWithKey;
let other: OrgWithKey;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { QUAYSIDE_WORKERS: "off" } });
  org = await app.fixtures.organization();
  other = await app.fixtures.organization();
  for (const owner of [org, other]) {
    await seedShipment(app.services, clock, owner, {
      reference: REFERENCE,
      scac: "MSCU",
      status: "IN_TRANSIT",
      answers: [{ eta: "2026-12-01T08:00:00Z" }],
      createdAt: "2026-11-20T10:00:00Z",
    });
  }
}, 120_000);
afterAll(() => app?.stop());

const refusalOf = (body: Awaited<ReturnType<typeof graphql>>["body"]) => ({
  code: body.errors?.[0]?.extensions?.code,
  message: body.errors?.[0]?.message,
});

const followerRows = () =>
  app.services.db.prisma.shipmentFollower.findMany({ select: { userId: true, organizationId: true } });

describe("another organisation's user", () => {
  it("is not found by unfollowShipment, exactly as by followShipment, and nothing changes", async () => {
    // B's user follows B's own shipment with the same reference.
    expect((await graphql(app, other.key, FOLLOW, { shipment: REFERENCE })).body.errors).toBeUndefined();
    const before = await followerRows();

    const follow = await graphql(app, org.key, FOLLOW, { shipment: REFERENCE, userId: other.userId });
    const unfollow = await graphql(app, org.key, UNFOLLOW, { shipment: REFERENCE, userId: other.userId });
    expect(refusalOf(follow.body)).toEqual(NOT_FOUND);
    expect(refusalOf(unfollow.body)).toEqual(NOT_FOUND);
    expect(unfollow.status).toBe(follow.status);
    expect(unfollow.body.data).toEqual({ unfollowShipment: null });

    // The same answer for a user id that exists nowhere: no way to tell another tenant's user apart.
    const nobody = "00000000-0000-4000-8000-000000000000";
    const unknown = await graphql(app, org.key, UNFOLLOW, { shipment: REFERENCE, userId: nobody });
    expect(refusalOf(unknown.body)).toEqual(NOT_FOUND);

    expect(await followerRows()).toEqual(before);
    const theirs = await graphql(
      app,
      other.key,
      "query($s: String!) { shipmentFollowers(shipment: $s) { id } }",
      {
        s: REFERENCE,
      },
    );
    expect(theirs.body.data).toEqual({ shipmentFollowers: [{ id: other.userId }] });
  });

  it("leaves a teammate's unfollow working, also for a teammate who follows nothing", async () => {
    const mate = await app.fixtures.teammate(org.organizationId);
    await graphql(app, org.key, FOLLOW, { shipment: REFERENCE, userId: mate.userId });
    const unfollowed = await graphql(app, org.key, UNFOLLOW, { shipment: REFERENCE, userId: mate.userId });
    expect(unfollowed.body.errors).toBeUndefined();
    expect(unfollowed.body.data).toEqual({ unfollowShipment: [] });
    const again = await graphql(app, org.key, UNFOLLOW, { shipment: REFERENCE, userId: mate.userId });
    expect(again.body).toEqual({ data: { unfollowShipment: [] } });
  });
});
