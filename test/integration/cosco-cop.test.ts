/**
 * Issue 24 item 6: COSCO through its own API. The real service with the embedded simulator's COP
 * profile on for COSU (QUAYSIDE_SIMULATOR_COP) tracks a COSU box through signed COP requests, and the
 * compat answer tells the box's moves at the same places and times as the simulator's DCSA API does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INLAND_PLACES } from "../../simulator/world/inland-places";
import { findPort as findSimulatedPort } from "../../simulator/world/ports";
import { knownShipments } from "../../simulator/world/world";
import { ManualClock } from "../../src/lib/clock";
import { buildRegistry, createCarrierTracker } from "../../src/upstream/carriers/carrier-registry";
import { resolveCopPlace } from "../../src/upstream/carriers/cosco-cop.adapter";
import { compatGet, SIMULATOR_ENV } from "../compat/support";
import { startTestApp, type TestApp } from "../support/app";

const clock = new ManualClock("2026-11-20T12:00:00Z");
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    env: { ...SIMULATOR_ENV, QUAYSIDE_CARRIER_TIMEOUT_MS: "15000", QUAYSIDE_SIMULATOR_COP: "COSU" },
    clock,
  });
}, 120_000);
afterAll(() => app?.stop());

const english = new Intl.DisplayNames(["en"], { type: "region" });
/** COP names places in words; take a shipment whose every place the words name back to its code. */
const namedBack = (locode: string) => {
  const place = findSimulatedPort(locode) ?? INLAND_PLACES.find((p) => p.unLocode === locode);
  return (
    place !== undefined &&
    resolveCopPlace(`T,${place.name},,${english.of(place.countryCode)}`)?.unLocode === locode
  );
};
const COP_CODES = ["GTOT", "GTIN", "LOAD", "DISC"];

describe("COSU tracked through COP by the real service", () => {
  it("tells a box's moves at the places and times the DCSA API gives", async () => {
    const simulatorUrl = app.simulator?.url ?? "";
    const viaDcsa = createCarrierTracker(buildRegistry({ carriers: {} }, { env: {}, simulatorUrl }), {
      clock,
    });
    let chosen: { box: string; moves: string[]; seconds: string[] } | undefined;
    let tried = 0;
    for (const shipment of knownShipments("COSU", clock.now())) {
      const box = shipment.containers[0]?.equipmentReference;
      if (!box || ++tried > 80) break;
      const answer = await viaDcsa.track({ scac: "COSU", reference: box, referenceType: "container" });
      if (answer.kind !== "found") continue;
      const events = (answer.document.containers.find((c) => c.number === box)?.events ?? []).filter(
        (e) => e.kind === "EQUIPMENT" && e.actual && COP_CODES.includes(e.eventCode),
      );
      const locodes = answer.document.locations.map((l) => l.unLocode ?? "");
      if (!events.some((e) => e.eventCode === "DISC") || !locodes.every(namedBack)) continue;
      const locodeOf = new Map(answer.document.locations.map((l) => [l.key, l.unLocode]));
      chosen = {
        box,
        moves: events.map(
          (e) => `${e.eventCode} ${locodeOf.get(e.locationKey)} ${e.localDateTime?.slice(0, 16)}`,
        ),
        seconds: events.map((e) => e.localDateTime?.slice(17) ?? ""),
      };
      break;
    }
    if (!chosen) throw new Error("no COSU box whose places COP's words name back");

    const org = await app.fixtures.organization({ plan: "business" });
    const answer = await compatGet(app, org.key, "/tracking", {
      number: chosen.box,
      type: "CT",
      sealine: "COSU",
      force_update: "true",
    });
    expect(answer.body.status).toBe("success");
    const data = answer.body.data as {
      locations: { id: number; locode: string | null }[];
      containers: {
        number: string;
        events: { location: number; event_code: string; date?: string; actual: boolean }[];
      }[];
    };
    const locode = new Map(data.locations.map((l) => [l.id, l.locode]));
    const events = (data.containers.find((c) => c.number === chosen.box)?.events ?? []).filter(
      (e) => e.actual && COP_CODES.includes(e.event_code),
    );
    expect(events.map((e) => `${e.event_code} ${locode.get(e.location)} ${e.date?.slice(0, 16)}`)).toEqual(
      chosen.moves,
    );
    expect(chosen.moves.length).toBeGreaterThan(3);
    // COP writes times to the minute: the answer came through COP, not the simulator's DCSA API.
    expect(chosen.seconds.some((s) => s !== "00")).toBe(true);
    expect(events.every((e) => e.date?.endsWith(":00"))).toBe(true);
  }, 120_000);
});
