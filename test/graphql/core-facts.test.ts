import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber, simulatedContainers } from "../support/references";

/**
 * The facts the surfaces used to derive for themselves, asked of the core: each is a typed field or
 * argument, computed once, so v1, compat, MCP and the sandbox can only select it.
 */

let app: TestApp;
// A whole second, so that second counts computed from it are exact.
const clock = new ManualClock("2026-11-22T10:00:00Z");

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      QUAYSIDE_CARRIER_STATUS: "ZIMU=disabled,HLCU=maintenance",
    },
  });
}, 120_000);
afterAll(() => app?.stop());

/** Runs a document and fails the test on any error, so each test reads as its answer. */
async function ask(org: OrgWithKey, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(app, org.key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, any>;
}

const TRACK = `mutation($reference: String!, $carrier: String) {
  track(reference: $reference, type: container, carrier: $carrier) {
    __typename
    ... on TrackSuccess { shipment { name } }
    ... on ReferenceNotFound {
      discoveryEligible discoveryQueued discoveryReason upgradeMinPlan
      shipment { name discoveryStatus }
    }
    ... on CarrierUnavailable { scac cause }
    ... on ShipmentLimitReached { limit used cycleEnd retryAfterSeconds }
  }
}`;

describe("Carrier.tracked", () => {
  it("is true for an active carrier and one under maintenance, false only for one the operator disabled", async () => {
    const org = await app.fixtures.organization();
    const { carriers } = await ask(org, "{ carriers { scac status tracked supportedTypes } }");
    const byScac = new Map<string, any>(carriers.map((c: { scac: string }) => [c.scac, c]));
    expect(byScac.get("MAEU")).toMatchObject({ status: "active", tracked: true });
    expect(byScac.get("HLCU")).toMatchObject({ status: "maintenance", tracked: true });
    expect(byScac.get("ZIMU")).toMatchObject({ status: "disabled", tracked: false });
    expect(byScac.get("MAEU").supportedTypes).toEqual(expect.arrayContaining(["container", "bl"]));
  });

  it("a disabled or maintained carrier named in a track is refused with its cause as an enum", async () => {
    const org = await app.fixtures.organization();
    const reference = containerNumber("ZIMU", 123_456);
    for (const [carrier, cause] of [
      ["ZIMU", "disabled"],
      ["HLCU", "maintenance"],
    ]) {
      const { track } = await ask(org, TRACK, { reference, carrier });
      expect(track).toEqual({ __typename: "CarrierUnavailable", scac: carrier, cause });
    }
  });
});

describe("the shipment id", () => {
  it("finds the organisation's shipment by SHP-<n> however it is written, and nothing for another number", async () => {
    const org = await app.fixtures.organization();
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      known: 1,
      start: 610_000,
    });
    const { track } = await ask(org, TRACK, { reference: known[0] });
    expect(track).toEqual({ __typename: "TrackSuccess", shipment: { name: "SHP-1" } });
    const read = `query($id: String!) { shipment(id: $id) { name reference } }`;
    for (const id of ["SHP-1", "shp 1", "SHP1", "shp-1", known[0]!.toLowerCase()]) {
      expect((await ask(org, read, { id })).shipment, id).toEqual({ name: "SHP-1", reference: known[0] });
    }
    expect((await ask(org, read, { id: "SHP-2" })).shipment).toBeNull();
    // Another organisation's SHP-1 is its own shipment, never this one.
    const other = await app.fixtures.organization();
    expect((await ask(other, read, { id: "SHP-1" })).shipment).toBeNull();
  });
});

describe("ShipmentLimitReached.retryAfterSeconds", () => {
  it("is the seconds until the billing cycle ends, counted on the service's clock", async () => {
    const small = await app.fixtures.organization({ plan: "free" });
    const { cycleStartedAt } = await app.services.db.prisma.organization.findUniqueOrThrow({
      where: { id: small.organizationId },
    });
    await app.services.db.prisma.shipmentSlot.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        organizationId: small.organizationId,
        cycleStart: cycleStartedAt,
        referenceKey: `FILLER${i}`,
      })),
    });
    const reference = containerNumber("MSCU", 700_001);
    const first = (await ask(small, TRACK, { reference })).track;
    expect(first).toMatchObject({ __typename: "ShipmentLimitReached", limit: 25, used: 25 });
    // A monthly cycle that started now ends in 30 days.
    expect(first.retryAfterSeconds).toBe(30 * 86_400);
    expect(first.retryAfterSeconds).toBe((Date.parse(first.cycleEnd) - clock.now().getTime()) / 1000);

    clock.advance(3_600_000);
    try {
      const later = (await ask(small, TRACK, { reference })).track;
      expect(later.retryAfterSeconds).toBe(30 * 86_400 - 3_600);
    } finally {
      clock.advance(-3_600_000);
    }
  });
});

describe("the discovery state", () => {
  it("a free plan: not queued, because of the plan, with the cheapest plan that has it", async () => {
    const free = await app.fixtures.organization({ plan: "free" });
    const { unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      unknown: 1,
      start: 620_000,
    });
    const { track } = await ask(free, TRACK, { reference: unknown[0], carrier: "MSCU" });
    expect(track).toEqual({
      __typename: "ReferenceNotFound",
      discoveryEligible: false,
      discoveryQueued: false,
      discoveryReason: "plan",
      upgradeMinPlan: "professional",
      shipment: { name: "SHP-1", discoveryStatus: null },
    });
  });

  it("a plan with discovery and another candidate: queued, no reason, and the shipment says queued", async () => {
    const org = await app.fixtures.organization({ plan: "professional" });
    // A Maersk box asked of MSC: the box's owner prefix makes Maersk the candidate left to try.
    const { known } = await simulatedContainers(app.simulator!.url, "MAEU", "MSKU", {
      known: 1,
      start: 630_000,
    });
    const { track } = await ask(org, TRACK, { reference: known[0], carrier: "MSCU" });
    expect(track).toMatchObject({
      __typename: "ReferenceNotFound",
      discoveryEligible: true,
      discoveryQueued: true,
      discoveryReason: null,
      shipment: { discoveryStatus: "queued" },
    });
  });

  it("retry-failed says why it skipped: the plan, or the organisation's own switch", async () => {
    const RETRY = "mutation { retryFailedShipments { examined queued skipped skippedReason } }";
    const { unknown } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", {
      unknown: 1,
      start: 650_000,
    });
    const starter = await app.fixtures.organization({ plan: "starter" });
    const switchedOff = await app.fixtures.organization({ plan: "professional" });
    await app.services.db.prisma.organization.update({
      where: { id: switchedOff.organizationId },
      data: { featureSwitches: { carrier_discovery: false } },
    });
    const on = await app.fixtures.organization({ plan: "professional" });
    for (const org of [starter, switchedOff, on]) {
      await ask(org, TRACK, { reference: unknown[0], carrier: "MSCU" });
    }
    expect((await ask(starter, RETRY)).retryFailedShipments).toEqual({
      examined: 1,
      queued: 0,
      skipped: 1,
      skippedReason: "plan",
    });
    expect((await ask(switchedOff, RETRY)).retryFailedShipments).toEqual({
      examined: 1,
      queued: 0,
      skipped: 1,
      skippedReason: "disabled",
    });
    expect((await ask(on, RETRY)).retryFailedShipments).toEqual({
      examined: 1,
      queued: 1,
      skipped: 0,
      skippedReason: null,
    });
  });
});

describe("vesselPosition(vessel:)", () => {
  const TRACK_VESSEL = `query($vessel: String, $imo: String) {
    vesselPosition(vessel: $vessel, imo: $imo) {
      __typename
      ... on VesselTrack { matchedBy position { imo name source } }
      ... on VesselNotFound { imo name }
      ... on LookupInputInvalid { param message }
    }
  }`;

  it("reads an IMO number however it is written, and anything else as a name", async () => {
    const org = await app.fixtures.organization();
    for (const vessel of ["9811000", "IMO 9811000", "imo:9811000"]) {
      expect((await ask(org, TRACK_VESSEL, { vessel })).vesselPosition, vessel).toEqual({
        __typename: "VesselTrack",
        matchedBy: "imo",
        position: { imo: "9811000", name: "EVER GIVEN", source: "simulator" },
      });
    }
    const byName = (await ask(org, TRACK_VESSEL, { vessel: "Ever Given" })).vesselPosition;
    expect(byName).toMatchObject({ __typename: "VesselTrack", matchedBy: "name" });
    const unknownName = (await ask(org, TRACK_VESSEL, { vessel: "Flying Dutchman" })).vesselPosition;
    expect(unknownName).toEqual({ __typename: "VesselNotFound", imo: null, name: "Flying Dutchman" });
  });

  it("refuses a number that is no IMO number, and a vessel given with other arguments, spending nothing", async () => {
    const org = await app.fixtures.organization();
    const authentication = await app.services.accounts.authenticate(org.key);
    if (!authentication.ok) throw new Error("key refused");
    const before = await app.services.lookups.allowances.peek(authentication.principal, "vessel_schedule");
    for (const [variables, message] of [
      [{ vessel: "981100" }, /7 digits/],
      [{ vessel: "353136000" }, /MMSI/],
      [{ vessel: "IMO 98110001" }, /7 digits/],
      [{ vessel: "EVER GIVEN", imo: "9811000" }, /vessel alone/],
    ] as const) {
      const answer = (await ask(org, TRACK_VESSEL, variables)).vesselPosition;
      expect(answer, JSON.stringify(variables)).toMatchObject({
        __typename: "LookupInputInvalid",
        param: "vessel",
      });
      expect(answer.message).toMatch(message);
    }
    const after = await app.services.lookups.allowances.peek(authentication.principal, "vessel_schedule");
    expect(after.remaining).toBe(before.remaining);
  });
});

describe("sailingSchedules defaults", () => {
  const SEARCH = `query($weekRange: Int, $dateType: ScheduleDateType) {
    sailingSchedules(origin: "CNSHA", destination: "NLRTM", date: "2026-12-01", weekRange: $weekRange, dateType: $dateType) {
      __typename
      ... on SailingSchedules { weekRange dateType total items { transitType transshipmentPorts } }
    }
  }`;

  it("applies one week of departures when the search names no window, whether omitted or null", async () => {
    const org = await app.fixtures.organization();
    for (const variables of [{}, { weekRange: null, dateType: null }]) {
      const answer = (await ask(org, SEARCH, variables)).sailingSchedules;
      expect(answer, JSON.stringify(variables)).toMatchObject({
        __typename: "SailingSchedules",
        weekRange: 1,
        dateType: "departure",
      });
    }
    const wider = (await ask(org, SEARCH, { weekRange: 3, dateType: "arrival" })).sailingSchedules;
    expect(wider).toMatchObject({ weekRange: 3, dateType: "arrival" });
  });

  it("names the transit type from the routing: transshipment exactly when the cargo changes ship", async () => {
    const org = await app.fixtures.organization();
    const { items } = (await ask(org, SEARCH, { weekRange: 6 })).sailingSchedules;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.transitType).toBe(item.transshipmentPorts.length > 0 ? "transshipment" : "unspecified");
    }
  });
});

describe("closed sets of the account", () => {
  it("are enums with the values the database stores", async () => {
    const org = await app.fixtures.organization({ plan: "starter", billingCycle: "yearly" });
    const { viewer } = await ask(
      org,
      "{ viewer { user { role } organization { billingCycle billingState plan { code features } features { feature access } } } }",
    );
    expect(viewer.user.role).toBe("owner");
    expect(viewer.organization).toMatchObject({
      billingCycle: "yearly",
      billingState: "active",
      plan: { code: "starter" },
    });
    expect(viewer.organization.features).toContainEqual({
      feature: "carrier_discovery",
      access: "plan_required",
    });
  });
});
