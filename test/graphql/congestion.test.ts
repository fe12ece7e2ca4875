/**
 * Port congestion through GraphQL: the board, one port's reading, `Port.congestion` and a tracked
 * shipment's `Route.portOfDischargeCongestion`, after the app scored the shipment's port of discharge
 * from its simulated anchorage over ten days; and the access rules (plan before switch) on every field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipmentFor } from "../../simulator/world/world";
import type { BoardItem } from "../../src/domain/congestion/congestion.service";
import { findPort } from "../../src/domain/ports/port-directory";
import { ManualClock } from "../../src/lib/clock";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { containerNumber } from "../support/references";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T = Date.parse("2026-11-20T12:00:00Z");
const clock = new ManualClock(new Date(T - 10 * DAY));

let app: TestApp;
let org: OrgWithKey;
/** A tracked container and its shipment's port of discharge, scored. */
let reference: string;
let pod: string;
let scored: BoardItem;
let shipmentName: string;

/** An MSCU container the world has on a shipment at T whose port of discharge Quayside knows. */
function trackedContainer(): { reference: string; pod: string } {
  for (let serial = 500_000; serial < 520_000; serial += 7) {
    const number = containerNumber("MSCU", serial);
    const shipment = shipmentFor("MSCU", number, "equipment", new Date(T));
    const code = shipment && findPort(shipment.portOfDischarge.unLocode)?.locode;
    if (code) return { reference: number, pod: code };
  }
  throw new Error("no MSCU container on a shipment");
}

/** Runs a document and fails the test on any error, so each test reads as its answer. */
async function ask(key: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(app, key, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as Record<string, any>;
}

const READING = `
  locode name country score bucket tier trend7d vesselsWaiting medianAnchorageWaitH longestWaitDays
  computedAt lat lng
  components { name raw unit baselineMedian baselineMad z weight n windowDays }`;

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
    },
  });
  org = await app.fixtures.organization({ plan: "professional" });
  ({ reference, pod } = trackedContainer());
  // Ten days of the port's anchorage every 3 hours and a reading a day: a baseline, then today.
  for (let t = T - 10 * DAY; t <= T; t += 3 * HOUR) {
    clock.set(new Date(t));
    expect(await app.services.congestion.samplePort(pod)).toBe(true);
    if ((T - t) % DAY === 0 && t < T) await app.services.congestion.scorePortNow(pod);
  }
  const { track } = await ask(
    org.key,
    `mutation($r: String!) { track(reference: $r, type: container, carrier: "MSCU") {
       __typename ... on TrackSuccess { shipment { name } } } }`,
    { r: reference },
  );
  expect(track.__typename).toBe("TrackSuccess");
  shipmentName = track.shipment.name;
  const reading = await app.services.congestion.scorePortNow(pod);
  expect(reading, `${pod} scored`).toBeTruthy();
  scored = reading!;
}, 300_000);

afterAll(() => app?.stop());

/** The reading as GraphQL names its fields. */
function expected(item: BoardItem) {
  return {
    locode: item.locode,
    name: item.name,
    country: item.country,
    score: item.score,
    bucket: item.bucket,
    tier: item.tier,
    trend7d: item.trend7d,
    vesselsWaiting: item.vesselsWaiting,
    medianAnchorageWaitH: item.medianAnchorageWaitH,
    longestWaitDays: item.longestWaitDays,
    computedAt: item.computedAt.toISOString(),
    lat: item.lat,
    lng: item.lng,
    components: item.components.map((c) => ({
      name: c.name,
      raw: c.raw,
      unit: c.unit,
      baselineMedian: c.baseline_median,
      baselineMad: c.baseline_mad,
      z: c.z,
      weight: c.weight,
      n: c.n,
      windowDays: c.window_days,
    })),
  };
}

describe("the congestion board and a reading", () => {
  it("lists the scored port on the board with the reading the scorer wrote", async () => {
    const { portCongestionBoard } = await ask(
      org.key,
      `{ portCongestionBoard { __typename ... on PortCongestionBoard { total items { ${READING} } } } }`,
    );
    expect(portCongestionBoard.__typename).toBe("PortCongestionBoard");
    expect(portCongestionBoard.total).toBe(1);
    expect(portCongestionBoard.items).toEqual([expected(scored)]);
    expect(scored.components.length).toBeGreaterThan(0);
  });

  it("answers one port's reading with its daily history, oldest first, by UN/LOCODE", async () => {
    const { portCongestion } = await ask(
      org.key,
      `query($l: String!) { portCongestion(locode: $l) {
         __typename ... on PortCongestion { ${READING} history { date score bucket tier vesselsWaiting } } } }`,
      { l: pod.toLowerCase() },
    );
    expect(portCongestion.__typename).toBe("PortCongestion");
    const { history, __typename, ...reading } = portCongestion;
    expect(reading).toEqual(expected(scored));
    const dates = history.map((h: { date: string }) => h.date);
    // Days are scored once a baseline day exists before the last 7: the last three of the ten.
    expect(dates).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
    expect(history.at(-1)).toMatchObject({ date: "2026-11-20", score: scored.score, bucket: scored.bucket });
  });

  it("says PortNotScored for a known port without signal and PortNotFound for a code no port has", async () => {
    const query = `query($l: String!) { portCongestion(locode: $l) { __typename
      ... on PortNotScored { locode name } ... on PortNotFound { locode } } }`;
    const other = pod === "NLRTM" ? "DEHAM" : "NLRTM";
    expect((await ask(org.key, query, { l: other })).portCongestion).toMatchObject({
      __typename: "PortNotScored",
      locode: other,
    });
    expect((await ask(org.key, query, { l: "ZZZZZ" })).portCongestion).toEqual({
      __typename: "PortNotFound",
      locode: "ZZZZZ",
    });
  });
});

describe("congestion on a port and on a shipment's route", () => {
  it("gives Port.congestion for the scored port, null for one without signal", async () => {
    const other = pod === "NLRTM" ? "DEHAM" : "NLRTM";
    const data = await ask(
      org.key,
      `query($a: String!, $b: String!) {
         a: port(locode: $a) { locode congestion { locode score bucket tier computedAt } }
         b: port(locode: $b) { locode congestion { score } } }`,
      { a: pod, b: other },
    );
    expect(data.a.congestion).toEqual({
      locode: pod,
      score: scored.score,
      bucket: scored.bucket,
      tier: scored.tier,
      computedAt: scored.computedAt.toISOString(),
    });
    expect(data.b).toEqual({ locode: other, congestion: null });
  });

  it("gives the tracked shipment's Route.portOfDischargeCongestion for its scored port of discharge", async () => {
    const { shipment } = await ask(
      org.key,
      `query($id: String!) { shipment(id: $id) { document { route {
         portOfDischarge { location { unLocode } }
         portOfDischargeCongestion { locode score bucket trend7d } } } } }`,
      { id: shipmentName },
    );
    expect(shipment.document.route.portOfDischarge.location.unLocode).toBe(pod);
    expect(shipment.document.route.portOfDischargeCongestion).toEqual({
      locode: pod,
      score: scored.score,
      bucket: scored.bucket,
      trend7d: scored.trend7d,
    });
  });
});

describe("access (spec rule 9: the plan before the switch)", () => {
  const BOARD = `{ portCongestionBoard { __typename
    ... on PlanRequired { feature minPlan } ... on FeatureDisabled { feature } } }`;
  const READ = `query($l: String!) { portCongestion(locode: $l) { __typename
    ... on PlanRequired { feature minPlan } ... on FeatureDisabled { feature } } }`;

  async function organization(plan: "starter" | "professional", switchedOn: boolean) {
    const made = await app.fixtures.organization({ plan });
    if (!switchedOn) {
      await app.services.db.prisma.organization.update({
        where: { id: made.organizationId },
        data: { featureSwitches: { port_congestion: false } },
      });
    }
    return made;
  }

  it("answers PlanRequired to a plan without port congestion, even with the switch off", async () => {
    for (const switchedOn of [true, false]) {
      const starter = await organization("starter", switchedOn);
      const refusal = { __typename: "PlanRequired", feature: "port_congestion", minPlan: "professional" };
      expect((await ask(starter.key, BOARD)).portCongestionBoard).toEqual(refusal);
      expect((await ask(starter.key, READ, { l: pod })).portCongestion).toEqual(refusal);
    }
  });

  it("answers FeatureDisabled to a plan with port congestion switched off", async () => {
    const off = await organization("professional", false);
    const refusal = { __typename: "FeatureDisabled", feature: "port_congestion" };
    expect((await ask(off.key, BOARD)).portCongestionBoard).toEqual(refusal);
    expect((await ask(off.key, READ, { l: pod })).portCongestion).toEqual(refusal);
  });

  it("leaves Port.congestion and Route.portOfDischargeCongestion null for a caller without the feature", async () => {
    const starter = await organization("starter", false);
    const { track } = await ask(
      starter.key,
      `mutation($r: String!) { track(reference: $r, type: container, carrier: "MSCU") {
         __typename ... on TrackSuccess { document { route {
           portOfDischarge { location { unLocode } } portOfDischargeCongestion { score } } } } } }`,
      { r: reference },
    );
    expect(track).toEqual({
      __typename: "TrackSuccess",
      document: {
        route: { portOfDischarge: { location: { unLocode: pod } }, portOfDischargeCongestion: null },
      },
    });
    const { port } = await ask(
      starter.key,
      `query($l: String!) { port(locode: $l) { congestion { score } } }`,
      {
        l: pod,
      },
    );
    expect(port).toEqual({ congestion: null });
  });
});
