/**
 * A person's "refresh now" on one shipment (issue 38 part D): the core asks the carrier again only
 * within the contract's refresh limits (spec v1 section 8: 12 hours, 4 while arriving), says from when
 * otherwise, and never for a shipment that no longer moves or that no carrier has found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFor } from "../../src/http/outcomes";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";
import { startRefreshTestApp } from "../support/refresh";

const clock = new ManualClock("2026-11-15T12:00:00.000Z");
let app: TestApp;
let org: OrgWithKey;

beforeAll(async () => {
  ({ app, org } = await startRefreshTestApp(clock));
}, 120_000);
afterAll(() => app?.stop());

const REFRESH = `mutation($id: String!) {
  refreshShipment(id: $id) {
    __typename
    ... on TrackSuccess { fromCache shipment { name lastSyncedAt eta refreshEligibleNow } }
    ... on RefreshNotAllowed { reason nextRefreshEligibleAt retryAfterSeconds explanation }
    ... on ShipmentNotFound { id }
  }
}`;
const TRACK = `mutation($reference: String!) {
  track(reference: $reference) {
    __typename
    ... on TrackSuccess { shipment { name lastSyncedAt eta refreshGapHours refreshEligibleNow nextRefreshEligibleAt } }
    ... on ReferenceNotFound { shipment { name } }
  }
}`;

async function run(query: string, variables: Record<string, unknown>) {
  const { body } = await graphql(app, org.key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as any;
}

describe("refreshShipment", () => {
  it("refuses within the refresh gap, saying from when, then asks the carrier once the gap has passed", async () => {
    clock.set("2026-11-15T12:00:00.000Z");
    const tracked = (await run(TRACK, { reference: "MSCU1038521" })).track;
    expect(tracked.__typename).toBe("TrackSuccess");
    const { name, eta: firstEta, refreshGapHours } = tracked.shipment;
    expect(tracked.shipment.refreshEligibleNow).toBe(false);

    clock.set("2026-11-15T13:00:00.000Z");
    const refused = (await run(REFRESH, { id: name })).refreshShipment;
    const allowedFrom = new Date(Date.parse("2026-11-15T12:00:00.000Z") + refreshGapHours * 3_600_000);
    expect(refused).toEqual({
      __typename: "RefreshNotAllowed",
      reason: "too_soon",
      nextRefreshEligibleAt: allowedFrom.toISOString(),
      retryAfterSeconds: (allowedFrom.getTime() - Date.parse("2026-11-15T13:00:00.000Z")) / 1000,
      explanation: expect.stringMatching(/less than one refresh gap ago/),
    });
    // The same instant the shipment shows, so the page's "allowed from" and the refusal agree.
    expect(refused.nextRefreshEligibleAt).toBe(tracked.shipment.nextRefreshEligibleAt);
    // Every surface refuses it as the outcome table says: 429 with the wait.
    expect(answerFor("RefreshShipmentResult", refused)).toEqual({
      kind: "refusal",
      outcome: "refresh_too_soon",
      retryAfterSeconds: refused.retryAfterSeconds,
    });

    // Five days on: the carrier is asked again, and its moved arrival is the shipment's now.
    clock.set("2026-11-20T12:00:00.000Z");
    const refreshed = (await run(REFRESH, { id: name })).refreshShipment;
    expect(refreshed.__typename).toBe("TrackSuccess");
    expect(refreshed.fromCache).toBe(false);
    expect(refreshed.shipment.name).toBe(name);
    expect(refreshed.shipment.lastSyncedAt).toBe("2026-11-20T12:00:00.000Z");
    expect(Date.parse(refreshed.shipment.eta) - Date.parse(firstEta)).toBe(41 * 3_600_000);
    // And the gap starts again from this answer.
    const again = (await run(REFRESH, { id: name })).refreshShipment;
    expect([again.__typename, again.reason]).toEqual(["RefreshNotAllowed", "too_soon"]);
  });

  it("does not ask for a delivered shipment, nor for one no carrier has found", async () => {
    clock.set("2026-11-20T12:00:00.000Z");
    const delivered = (await run(TRACK, { reference: "MSCU1030053" })).track.shipment.name;
    clock.set("2026-11-22T12:00:00.000Z");
    const over = (await run(REFRESH, { id: delivered })).refreshShipment;
    expect(over).toMatchObject({
      __typename: "RefreshNotAllowed",
      reason: "not_moving",
      nextRefreshEligibleAt: null,
      retryAfterSeconds: null,
    });
    expect(answerFor("RefreshShipmentResult", over)).toEqual({ kind: "refusal", outcome: "bad_request" });

    const { unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      unknown: 1,
      start: 700_000,
    });
    const failed = (await run(TRACK, { reference: unknown[0]! })).track;
    expect(failed.__typename).toBe("ReferenceNotFound");
    const never = (await run(REFRESH, { id: failed.shipment.name })).refreshShipment;
    expect(never).toMatchObject({ __typename: "RefreshNotAllowed", reason: "never_found" });
  });

  it("answers ShipmentNotFound for a shipment the organisation does not track", async () => {
    expect((await run(REFRESH, { id: "SHP-999999" })).refreshShipment).toEqual({
      __typename: "ShipmentNotFound",
      id: "SHP-999999",
    });
  });
});

describe("one lookup, one write", () => {
  /** How many times `write` stored a shipment's free time. */
  async function freeTimeWrites(write: () => Promise<unknown>): Promise<number> {
    const captured: string[] = [];
    app.services.db.statements.capture = captured;
    try {
      await write();
    } finally {
      app.services.db.statements.capture = null;
    }
    return captured.filter((sql) => sql.includes('SET "free_time"')).length;
  }

  it("keeps the shipment's free time once per track and per refresh, from everything either stored", async () => {
    clock.set("2026-11-15T12:00:00.000Z");
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 1,
      start: 731_000,
    });
    const box = known[0]!;
    let name = "";
    // The track stores a version, each box's terminal record and the shipment, and each says so.
    expect(
      await freeTimeWrites(async () => {
        name = (await run(TRACK, { reference: box })).track.shipment.name;
      }),
    ).toBe(1);
    clock.set("2026-11-20T12:00:00.000Z");
    expect(await freeTimeWrites(() => run(REFRESH, { id: name }))).toBe(1);
    // Computed after the refresh's last write and before its answer.
    const row = await app.services.db.prisma.shipment.findFirstOrThrow({
      where: { organizationId: org.organizationId, referenceKey: box },
      select: { freeTimeAt: true, lastSyncedAt: true },
    });
    expect(row.lastSyncedAt?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    expect(row.freeTimeAt?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
  });
});
