import { describe, expect, it } from "vitest";
import { failureExplanation, isShareable } from "../../../src/domain/shipments/shipment-standing";
import { vesselNow } from "../../../src/domain/vessels/vessel-now";

const underWay = {
  leg: {
    sequence: 1,
    vesselKey: "v1",
    voyage: "412W",
    departure: {} as never,
    arrival: null,
    status: "SAILING" as const,
  },
  vessel: { key: "v1", name: "MSC AURORA", imo: 9_811_000, mmsi: 255_806_000 },
};
const now = new Date("2026-12-01T12:00:00Z");

describe("how a shipment stands, in words and in facts a page offers actions on", () => {
  it("explains a failed shipment without a raw code, and without naming a guessed carrier", () => {
    const searching = failureExplanation({
      reference: "ABCD1234567",
      namedCarrier: null,
      discoveryStatus: "queued",
      triedCarriers: ["MAEU"],
    });
    expect(searching).toBe(
      "No carrier has found ABCD1234567 yet; other carriers are being asked now. Asked so far: MAEU.",
    );
    expect(
      failureExplanation({
        reference: "X1",
        namedCarrier: "Maersk",
        discoveryStatus: null,
        triedCarriers: [],
      }),
    ).toMatch(/^Maersk does not know X1 \(yet\)\. Check the number and the carrier/);
  });

  it("offers a share link only when the page would show a journey", () => {
    expect(isShareable({ documentId: null, deletedAt: null })).toBe(false);
    expect(isShareable({ documentId: "d1", deletedAt: now })).toBe(false);
    expect(isShareable({ documentId: "d1", deletedAt: null })).toBe(true);
  });

  it("places the vessel at its AIS report while it is at most 6 hours old, else along the route", () => {
    const estimate = { lat: 10, lng: 60 };
    const fresh = { lat: 12.5, lon: 58.25, positionAt: new Date("2026-12-01T07:00:00Z") };
    expect(vesselNow(underWay, fresh, estimate, now)).toMatchObject({
      name: "MSC AURORA",
      voyage: "412W",
      lat: 12.5,
      lng: 58.25,
      source: "ais",
    });
    const stale = { ...fresh, positionAt: new Date("2026-12-01T05:59:00Z") };
    expect(vesselNow(underWay, stale, estimate, now)).toMatchObject({
      lat: 10,
      lng: 60,
      source: "route_estimate",
    });
    expect(vesselNow(null, fresh, estimate, now)).toBeNull();
  });
});
