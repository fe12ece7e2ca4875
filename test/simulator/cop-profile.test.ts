import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator/server";
import { INLAND_PLACES } from "../../simulator/world/inland-places";
import { findPort as findSimulatedPort } from "../../simulator/world/ports";
import { knownShipments } from "../../simulator/world/world";
import type { TrackingDocument } from "../../src/domain/tracking/model";
import { ManualClock } from "../../src/lib/clock";
import { buildRegistry, createCarrierTracker } from "../../src/upstream/carriers/carrier-registry";
import { resolveCopPlace } from "../../src/upstream/carriers/cosco-cop.adapter";

const NOW = "2026-11-20T12:00:00Z";
const keys = { apiKey: "sim-cop-key", secretKey: "sim-cop-secret" };
const file = {
  carriers: {
    COSU: {
      name: "COSCO Shipping Lines",
      adapter: "cosco-cop" as const,
      baseUrl: "https://api.lines.coscoshipping.com/service",
      auth: { kind: "cop-hmac" as const, apiKeyEnv: "COP_KEY", secretKeyEnv: "COP_SECRET" },
    },
  },
};

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, clock: new ManualClock(NOW), cop: { COSU: keys } });
});
afterAll(() => simulator.close());

const tracker = (cop: typeof keys | undefined) =>
  createCarrierTracker(
    buildRegistry(file, {
      env: {},
      simulatorUrl: simulator.url,
      ...(cop ? { simulatorCop: { COSU: cop } } : {}),
    }),
    { clock: new ManualClock(NOW) },
  );

async function documentOf(
  cop: typeof keys | undefined,
  reference: string,
  referenceType: "container" | "bl",
) {
  const answer = await tracker(cop).track({ scac: "COSU", reference, referenceType });
  if (answer.kind !== "found") throw new Error(`${reference}: ${JSON.stringify(answer)}`);
  return answer.document;
}

/**
 * The box's moves COP has words for, as a user reads them: what, where, when (to the minute: COP's
 * times have no seconds), and whether empty.
 */
const moves = (document: TrackingDocument, box: string) =>
  (document.containers.find((c) => c.number === box)?.events ?? [])
    .filter(
      (e) => e.kind === "EQUIPMENT" && e.actual && ["GTOT", "GTIN", "LOAD", "DISC"].includes(e.eventCode),
    )
    .map(
      (e) =>
        `${e.eventCode} ${e.locationKey} ${e.localDateTime?.slice(0, 16)} ${e.utcOffset} ${e.emptyIndicator}`,
    );

/**
 * COP names places in words, and words do not always find the code the simulator's carrier sends
 * (`Tianjin (Xingang)` is CNXGG in the catalogue, CNTXG in carrier feeds; `Genoa` is `Genova` there):
 * the comparison takes a shipment whose every port the words name back to its own code.
 */
const english = new Intl.DisplayNames(["en"], { type: "region" });
const namedBack = (locode: string) => {
  const port = findSimulatedPort(locode) ?? INLAND_PLACES.find((p) => p.unLocode === locode);
  return (
    port !== undefined &&
    resolveCopPlace(`T,${port.name},,${english.of(port.countryCode)}`)?.unLocode === locode
  );
};

describe("the simulator's COP profile for COSU", () => {
  let shipment: { box: string; bl: string };
  beforeAll(async () => {
    let tried = 0;
    for (const candidate of knownShipments("COSU", new Date(NOW))) {
      const box = candidate.containers[0]?.equipmentReference;
      if (!box || !candidate.transportDocumentReference || tried++ > 80) continue;
      const viaDcsa = await documentOf(undefined, candidate.transportDocumentReference, "bl");
      const ports = viaDcsa.locations.map((l) => l.unLocode).filter((c): c is string => c !== null);
      const discharged = viaDcsa.containers.some((c) =>
        c.events.some((e) => e.eventCode === "DISC" && e.actual),
      );
      if (discharged && ports.every(namedBack)) {
        shipment = { box, bl: candidate.transportDocumentReference };
        return;
      }
      if (tried > 80) break;
    }
    throw new Error("no COSU shipment whose ports COP's words name back");
  });

  it("tells a box's journey through COP as through DCSA (moves, places, local times)", async () => {
    const viaDcsa = await documentOf(undefined, shipment.box, "container");
    const viaCop = await documentOf(keys, shipment.box, "container");
    const dcsaMoves = moves(viaDcsa, shipment.box);
    expect(dcsaMoves.length).toBeGreaterThan(3);
    expect(dcsaMoves.some((move) => move.startsWith("DISC"))).toBe(true);
    expect(moves(viaCop, shipment.box)).toEqual(dcsaMoves);
  });

  it("gives a B/L the same vessels and ports of loading and discharge", async () => {
    const viaDcsa = await documentOf(undefined, shipment.bl, "bl");
    const viaCop = await documentOf(keys, shipment.bl, "bl");
    expect(viaCop.vessels.map((v) => v.name).sort()).toEqual(viaDcsa.vessels.map((v) => v.name).sort());
    expect(viaCop.route.pol.locationKey).toBe(viaDcsa.route.pol.locationKey);
    expect(viaCop.route.pod.locationKey).toBe(viaDcsa.route.pod.locationKey);
    expect(viaCop.containers.map((c) => c.number).sort()).toEqual(
      viaDcsa.containers.map((c) => c.number).sort(),
    );
  });

  it("refuses a wrong secret as unauthorized", async () => {
    const answer = await tracker({ ...keys, secretKey: "guessed" }).track({
      scac: "COSU",
      reference: shipment.bl,
      referenceType: "bl",
    });
    expect(answer).toMatchObject({ kind: "unauthorized" });
  });
});
