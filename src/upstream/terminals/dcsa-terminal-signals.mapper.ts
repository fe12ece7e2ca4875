/**
 * The DCSA Track & Trace events that carry holds, releases or availability, read into the terminal
 * model's signals. The tracking mapper keeps milestones only; this one reads the same raw answer for
 * what a terminal record needs:
 *
 * - T&T 2.2 SHIPMENT events `HOLD` (On Hold) and `RELS` (Released) with `documentTypeCode` `CUS`
 *   (Customs Inspection: a customs hold) or `SRM` (Shipment Release Message: the line's freight
 *   release). They name a document, not a box: they hold every box of the shipment.
 * - T&T 3.0 EQUIPMENT events `CUSTOMS_SELECTED_FOR_INSPECTION` and `CUSTOMS_SELECTED_FOR_SCAN` (a customs
 *   hold on the box), `CUSTOMS_RELEASED` (lifted) and `AVAILABLE_FOR_PICKUP`; SHIPMENT events `ON_HOLD` /
 *   `RELEASED` with a `CUSTOMS_CLEARANCE` document (customs) or `CONTAINER_RELEASE_ORDER` /
 *   `DELIVERY_ORDER` (freight), and the four-letter codes of 2.2 written in the 3.0 shape, which
 *   producers of the conformance suite's 3.0 examples send.
 *
 * Only actual events count (ACT): a planned release is not a release. Anything else is not a signal.
 */
import type { CarrierTerminalSignal, HoldType } from "../../domain/terminals/terminal-facts";
import { parseDcsaDateTime } from "../carriers/dcsa-datetime";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : "");

/** Signals for the whole shipment (document events) and per box (equipment events). */
export interface DcsaTerminalSignals {
  shipment: CarrierTerminalSignal[];
  byContainer: Map<string, CarrierTerminalSignal[]>;
}

const HOLD_DOCUMENTS: Readonly<Record<string, HoldType>> = {
  CUS: "customs",
  SRM: "freight",
  CUSTOMS_CLEARANCE: "customs",
  CONTAINER_RELEASE_ORDER: "freight",
  DELIVERY_ORDER: "freight",
};

const HOLD_CODES = new Set(["HOLD", "ON_HOLD"]);
const RELEASE_CODES = new Set(["RELS", "RELEASED"]);

const EQUIPMENT_SIGNALS: Readonly<Record<string, Pick<CarrierTerminalSignal, "kind" | "holdType">>> = {
  CUSTOMS_SELECTED_FOR_INSPECTION: { kind: "hold", holdType: "customs" },
  CUSTOMS_SELECTED_FOR_SCAN: { kind: "hold", holdType: "customs" },
  CUSTOMS_RELEASED: { kind: "release", holdType: "customs" },
  AVAILABLE_FOR_PICKUP: { kind: "available", holdType: null },
};

function instantOf(event: Json): string | null {
  for (const field of ["eventDateTime", "eventCreatedDateTime", "eventUpdatedDateTime"]) {
    const value = event[field];
    if (typeof value !== "string") continue;
    const parsed = parseDcsaDateTime(value);
    if (parsed) return new Date(parsed.instantMs).toISOString();
  }
  return null;
}

/** Reads one raw event (2.2 or 3.0); null when it carries no hold, release or availability. */
export function terminalSignalOf(raw: unknown): { signal: CarrierTerminalSignal; box: string | null } | null {
  if (!isObject(raw)) return null;
  const classification = isObject(raw.eventClassification) ? raw.eventClassification : null;
  const source = classification ?? raw;
  if (upper(source.eventClassifierCode) !== "ACT") return null;
  const type = upper(classification ? classification.eventTypeCode : raw.eventType);
  const at = instantOf(raw);
  if (at === null) return null;
  if (type === "SHIPMENT") {
    const code = upper(source.shipmentEventTypeCode);
    const hold = HOLD_CODES.has(code);
    if (!hold && !RELEASE_CODES.has(code)) return null;
    const details = isObject(raw.shipmentDetails) ? raw.shipmentDetails : null;
    const reference = details && isObject(details.documentReference) ? details.documentReference : null;
    const documentType = upper(reference ? reference.typeCode : raw.documentTypeCode);
    const holdType = HOLD_DOCUMENTS[documentType];
    if (!holdType) return null;
    return {
      signal: { kind: hold ? "hold" : "release", holdType, at, code: `${code}/${documentType}` },
      box: null,
    };
  }
  if (type === "EQUIPMENT") {
    const code = upper(source.equipmentEventTypeCode);
    const meaning = EQUIPMENT_SIGNALS[code];
    if (!meaning) return null;
    const equipment = isObject(raw.equipmentDetails) ? raw.equipmentDetails : raw;
    const box = upper(equipment.equipmentReference).replace(/\s+/g, "");
    if (!box) return null;
    return { signal: { ...meaning, at, code }, box };
  }
  return null;
}

/** Every hold, release and availability signal of a carrier's answer, oldest first. */
export function dcsaTerminalSignals(rawEvents: readonly unknown[]): DcsaTerminalSignals {
  const shipment: CarrierTerminalSignal[] = [];
  const byContainer = new Map<string, CarrierTerminalSignal[]>();
  for (const raw of rawEvents) {
    const read = terminalSignalOf(raw);
    if (!read) continue;
    if (read.box === null) shipment.push(read.signal);
    else byContainer.set(read.box, [...(byContainer.get(read.box) ?? []), read.signal]);
  }
  const byTime = (a: CarrierTerminalSignal, b: CarrierTerminalSignal) => Date.parse(a.at) - Date.parse(b.at);
  shipment.sort(byTime);
  for (const list of byContainer.values()) list.sort(byTime);
  return { shipment, byContainer };
}

/** The signals that concern one box: the shipment's and its own. */
export function signalsForBox(
  signals: DcsaTerminalSignals,
  containerNumber: string,
): CarrierTerminalSignal[] {
  return [...signals.shipment, ...(signals.byContainer.get(containerNumber) ?? [])].sort(
    (a, b) => Date.parse(a.at) - Date.parse(b.at),
  );
}
