import { describe, expect, it } from "vitest";
import type { ShipmentSummaryFieldsFragment } from "../../../facades/generated/operations";
import { renderShipmentSummary, shipmentSummariesJson } from "../../../facades/v1/render/shipment-summary";

/**
 * The v1 list and delta write a page's rows as text kept per result (issue 37 item 4). A client must
 * not be able to tell: every page is byte for byte what the summary objects serialised as `res.json`
 * did, in every shape a row takes, and a page's text is what it was when first written.
 */
const base: ShipmentSummaryFieldsFragment = {
  id: "SHP-1000",
  name: 'Spring "promo" stock — Ü',
  referenceType: "container",
  reference: "MSKU1234565",
  carrierScac: "MAEU",
  carrier: { name: "Maersk" },
  status: "IN_TRANSIT",
  eta: "2026-12-01T08:00:00.000Z",
  ata: null,
  failed: false,
  createdAt: "2026-11-01T10:00:00.000Z",
  lastSyncedAt: "2026-11-28T10:00:00.000Z",
  isActive: true,
  nextRefreshEligibleAt: null,
  refreshEligibleNow: true,
  customers: ["ACME", "Line\nbreak"],
  discoveryStatus: null,
  predictiveEtaEnabled: true,
  predictiveEta: {
    p50: "2026-12-01T10:00:00.000Z",
    p80: "2026-12-02T10:00:00.000Z",
    source: "model",
    confidence: "medium",
    computedAt: "2026-11-28T10:00:00.000Z",
    fallbackReason: null,
  },
  demurrageRisk: {
    status: "at_risk",
    unknownReason: null,
    chargeType: "demurrage",
    container: "MSKU1234565",
    containers: 2,
    lastFreeDay: "2026-12-05",
    lastFreeDaySource: "tariff",
    freeDays: 4,
    freeDayBasis: "working",
    chargeDayBasis: "calendar",
    daysRemaining: 2,
    clockStartedAt: "2026-11-30T10:00:00.000Z",
    clockStoppedAt: null,
    overrunDays: 0,
    accruedCost: 0,
    nextDailyRate: 120.5,
    currency: "USD",
    projectedPickup: "2026-12-06",
    projectedOverrunDays: 1,
    projectedCost: 120.5,
    termsSource: "benchmark",
    confidence: "low",
    isEstimate: true,
    sourceUrl: "https://example.com/tariff",
  },
  summary: {
    origin: "Shanghai",
    destination: "Rotterdam",
    isDelayed: true,
    totalDays: 31,
    remainingDays: 3,
    arrivalLocalDateTime: "2026-12-01 09:00",
    arrival: "2026-12-01T08:00:00.000Z",
    ataLocalDateTime: null,
    ata: null,
    containerNumbers: ["MSKU1234565", "MSKU7654321"],
  },
} as ShipmentSummaryFieldsFragment;

const shapes: Record<string, ShipmentSummaryFieldsFragment> = {
  "with predictive ETA and D&D": base,
  "predictive ETA on, nothing to predict": { ...base, predictiveEta: null },
  "plan without predictive ETA (keys absent)": {
    ...base,
    predictiveEtaEnabled: false,
    predictiveEta: null,
    demurrageRisk: null,
  },
  "fallback reason and an unknown D&D": {
    ...base,
    predictiveEta: { ...base.predictiveEta!, fallbackReason: "no_model" as never },
    demurrageRisk: {
      ...base.demurrageRisk!,
      status: "unknown",
      unknownReason: "no_terms",
      lastFreeDaySource: "something else",
      nextDailyRate: null,
    },
  },
  "no stored summary yet, no carrier": { ...base, summary: null, carrier: null, carrierScac: null },
  "a booking, arrived": {
    ...base,
    referenceType: "booking",
    isActive: false,
    summary: { ...base.summary!, isDelayed: false, ataLocalDateTime: "2026-12-01 10:00", ata: "x" },
  },
};

describe("v1 list rows written as text", () => {
  for (const [shape, row] of Object.entries(shapes)) {
    it(`is byte for byte the rendered summary: ${shape}`, () => {
      expect(shipmentSummariesJson([row])).toBe(JSON.stringify([renderShipmentSummary(row)]));
    });
  }

  it("writes a page as the array res.json wrote, an empty page as [], and a kept page once", () => {
    const items = Object.values(shapes);
    const text = shipmentSummariesJson(items);
    expect(text).toBe(JSON.stringify(items.map(renderShipmentSummary)));
    expect(shipmentSummariesJson(items)).toBe(text);
    expect(shipmentSummariesJson([])).toBe("[]");
  });
});
