import { describe, expect, it } from "vitest";
import { currentTerminalFacts } from "../../../src/domain/terminals/terminal-facts";
import {
  dcsaTerminalSignals,
  signalsForBox,
} from "../../../src/upstream/terminals/dcsa-terminal-signals.mapper";

const BOX = "MSCU1234566";

/** T&T 2.2 shipment events as the 2.2 OpenAPI file shapes them. */
function v22Shipment(code: string, documentTypeCode: string, at: string, classifier = "ACT") {
  return {
    eventID: `00000000-0000-4000-8000-${code}${documentTypeCode}`.slice(0, 36),
    eventType: "SHIPMENT",
    eventClassifierCode: classifier,
    eventCreatedDateTime: at,
    eventDateTime: at,
    shipmentEventTypeCode: code,
    documentTypeCode,
    documentID: "MEDU1234567",
  };
}

/** T&T 3.0 equipment events (eventClassification, equipmentDetails). */
function v3Equipment(code: string, at: string) {
  return {
    eventID: `e-${code}`,
    eventDateTime: at,
    eventUpdatedDateTime: at,
    eventClassification: {
      eventTypeCode: "EQUIPMENT",
      eventClassifierCode: "ACT",
      equipmentEventTypeCode: code,
    },
    equipmentDetails: { equipmentReference: BOX, ISOEquipmentCode: "45G1", emptyIndicatorCode: "LADEN" },
  };
}

function v3Shipment(code: string, typeCode: string, at: string) {
  return {
    eventID: `s-${code}-${typeCode}`,
    eventDateTime: at,
    eventUpdatedDateTime: at,
    eventClassification: {
      eventTypeCode: "SHIPMENT",
      eventClassifierCode: "ACT",
      shipmentEventTypeCode: code,
    },
    shipmentDetails: { documentReference: { typeCode, reference: "MEDU1234567" } },
  };
}

describe("DCSA events carrying holds and releases", () => {
  it("reads 2.2 HOLD/RELS with CUS as a customs hold and its release, and SRM as the freight hold", () => {
    const signals = dcsaTerminalSignals([
      v22Shipment("HOLD", "CUS", "2026-03-09T08:00:00+01:00"),
      v22Shipment("HOLD", "SRM", "2026-03-09T09:00:00Z"),
      v22Shipment("RELS", "CUS", "2026-03-10T06:00:00Z"),
      v22Shipment("CONF", "BKG", "2026-03-01T06:00:00Z"),
      v22Shipment("RELS", "SRM", "2026-03-12T06:00:00Z", "PLN"),
    ]);
    expect(signals.shipment).toEqual([
      { kind: "hold", holdType: "customs", at: "2026-03-09T07:00:00.000Z", code: "HOLD/CUS" },
      { kind: "hold", holdType: "freight", at: "2026-03-09T09:00:00.000Z", code: "HOLD/SRM" },
      { kind: "release", holdType: "customs", at: "2026-03-10T06:00:00.000Z", code: "RELS/CUS" },
    ]);
    const facts = currentTerminalFacts(
      {
        answer: null,
        carrier: { observedAt: "2026-03-10T11:00:00.000Z", signals: signalsForBox(signals, BOX) },
      },
      new Date("2026-03-10T12:00:00Z"),
    );
    expect(facts?.holds.map((h) => h.type)).toEqual(["freight"]);
  });

  it("reads 3.0 CUSTOMS_SELECTED_FOR_INSPECTION, CUSTOMS_RELEASED and AVAILABLE_FOR_PICKUP for the box", () => {
    const signals = dcsaTerminalSignals([
      v3Equipment("CUSTOMS_SELECTED_FOR_INSPECTION", "2026-03-09T05:00:00Z"),
      v3Equipment("DISCHARGED", "2026-03-09T04:00:00Z"),
      v3Equipment("CUSTOMS_RELEASED", "2026-03-10T02:00:00Z"),
      v3Equipment("AVAILABLE_FOR_PICKUP", "2026-03-10T03:00:00Z"),
    ]);
    expect(signals.shipment).toEqual([]);
    expect(signalsForBox(signals, BOX).map((s) => `${s.kind}:${s.holdType}:${s.code}`)).toEqual([
      "hold:customs:CUSTOMS_SELECTED_FOR_INSPECTION",
      "release:customs:CUSTOMS_RELEASED",
      "available:null:AVAILABLE_FOR_PICKUP",
    ]);
    const facts = currentTerminalFacts(
      {
        answer: null,
        carrier: { observedAt: "2026-03-10T04:00:00.000Z", signals: signalsForBox(signals, BOX) },
      },
      new Date("2026-03-10T12:00:00Z"),
    );
    expect(facts).toMatchObject({ holds: [], availableForPickup: true, readyForPickup: true });
    expect(signalsForBox(signals, "MSCU7654321")).toEqual([]);
  });

  it("reads 3.0 ON_HOLD/RELEASED by document type, and 2.2 codes written in the 3.0 shape", () => {
    const signals = dcsaTerminalSignals([
      v3Shipment("ON_HOLD", "CUSTOMS_CLEARANCE", "2026-03-09T05:00:00Z"),
      v3Shipment("ON_HOLD", "CONTAINER_RELEASE_ORDER", "2026-03-09T06:00:00Z"),
      v3Shipment("RELEASED", "DELIVERY_ORDER", "2026-03-09T07:00:00Z"),
      v3Shipment("HOLD", "CUS", "2026-03-09T08:00:00Z"),
      v3Shipment("ON_HOLD", "INVOICE", "2026-03-09T09:00:00Z"),
      v3Equipment("CUSTOMS_SELECTED_FOR_SCAN", "2026-03-09T10:00:00Z"),
    ]);
    expect(signals.shipment.map((s) => `${s.kind}:${s.holdType}`)).toEqual([
      "hold:customs",
      "hold:freight",
      "release:freight",
      "hold:customs",
    ]);
    expect(signals.byContainer.get(BOX)?.map((s) => s.code)).toEqual(["CUSTOMS_SELECTED_FOR_SCAN"]);
  });
});
