/**
 * What one mapping run works with: its context and result, the thresholds it reads dates against, and
 * the shapes of events and places between reading and output.
 */
import type {
  EmptyIndicator,
  EventCode,
  ModeOfTransport,
  ReferenceType,
  TrackedEventKind,
  TrackingDocument,
} from "../../../domain/tracking/model";
import type { ParsedDateTime } from "../dcsa-datetime";

export interface LocationLookupResult {
  name?: string | null;
  state?: string | null;
  country?: string | null;
  countryCode?: string | null;
  lat?: number | null;
  lng?: number | null;
  timeZone?: string | null;
}

export type LocationLookup = (unLocode: string) => LocationLookupResult | undefined;

export interface DcsaMapContext {
  reference: string;
  referenceType: ReferenceType;
  carrierScac: string;
  fetchedAt: Date;
  /** Port data by UN/LOCODE (name, country, coordinates, zone); the events alone rarely carry it. */
  locationLookup?: LocationLookup;
}

export type MapResult =
  | { ok: true; document: TrackingDocument; warnings: string[] }
  | { ok: false; reason: "malformed"; detail: string }
  /**
   * A container query answered about other boxes only (requested-box.ts): the carrier said nothing
   * about the asked one. `boxes`: the ones it answered about.
   */
  | { ok: false; reason: "other-equipment"; detail: string; boxes: string[] };

type Classifier = "ACT" | "EST" | "PLN";

export const CLASSIFIER_RANK: Record<Classifier, number> = { PLN: 0, EST: 1, ACT: 2 };

// DCSA T&T did not exist before 2019; a record "created" before 2000 is an epoch or placeholder bug.
export const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
// Clock skew between carrier and us is tolerated up to a day; beyond that a record from the future
// (or an "actual" event in the future) is wrong data, not an early clock.
export const FUTURE_TOLERANCE_MS = DAY_MS;
export const LATEST_PLAUSIBLE_EVENT_AHEAD_MS = 2 * 365 * DAY_MS;

// Same-instant order: how a call unfolds (arrive, discharge, gate out ... gate in, load, depart).
export const SAME_INSTANT_RANK: Readonly<Record<string, number>> = {
  ARRI: 0,
  DISC: 1,
  GTOT: 2,
  PICK: 3,
  DROP: 4,
  STRP: 5,
  STUF: 6,
  INSP: 7,
  RSEA: 8,
  RMVD: 9,
  GTIN: 10,
  LOAD: 11,
  DEPA: 12,
};
// An undated event sits next to the dated events of its call: arrival-like codes at the start of the
// call, everything else at its end.
export const ANCHOR_AT_START = new Set(["ARRI", "GTIN", "PICK"]);

export interface FacilityData {
  code: string | null;
  provider: "SMDG" | "BIC" | null;
  name: string | null;
  lat: number | null;
  lng: number | null;
}

export interface PlaceData {
  locode: string | null;
  /** Only for places without a UN/LOCODE; a coded place takes its name from the port lookup. */
  name: string | null;
  state: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  facility: FacilityData | null;
}

export interface Candidate {
  index: number;
  kind: TrackedEventKind;
  code: EventCode;
  classifier: Classifier;
  createdMs: number;
  date: ParsedDateTime | null;
  dcsaEventId: string | null;
  place: PlaceData | null;
  transportCallId: string | null;
  callSequence: number | null;
  mode: ModeOfTransport | null;
  facilityTypeCode: string | null;
  vessel: { imo: number | null; name: string | null } | null;
  voyage: string | null;
  containerNumber: string | null;
  isoEquipmentCode: string | null;
  emptyIndicator: EmptyIndicator | null;
  eqReferences: string[];
  // Resolved once locations, facilities and vessels are known.
  locationKey: string;
  facilityKey: string | null;
  vesselKey: string | null;
  actual: boolean;
  local: string | null;
  offset: string | null;
  instantMs: number | null;
}

export interface ShipmentFact {
  code: string;
  documentTypeCode: string;
  atMs: number;
  createdMs: number;
}

export class MappingRun {
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();

  constructor(readonly context: DcsaMapContext) {}

  warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warnings.push(message);
  }
}
