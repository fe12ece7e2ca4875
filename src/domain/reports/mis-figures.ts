import type { EtaRevision } from "../tracking/model";
import { DELAY_THRESHOLD_MS, isActive } from "../tracking/shipment-facts";

/**
 * The management (MIS) report's figures, pure: shipments in, totals, per-carrier figures and rows out.
 * Definitions (docs/decisions/workspace-reports.md):
 * - the first ETA is the first estimated (not actual) arrival Quayside recorded for the shipment;
 * - a shipment's delay is its arrival (the actual arrival at the final port of discharge once there,
 *   else the current ETA) minus that first ETA: positive is late, negative early;
 * - delayed: more than one day late (the same threshold as v1 `is_delayed`); early: more than one
 *   day early; on time: within a day either way; unknown: no first ETA, no arrival, or cancelled;
 * - shares, averages and the 90th percentile are over the assessed shipments (delay known) only.
 */
export const DELAY_STATUSES = ["on_time", "delayed", "early", "unknown"] as const;
export type DelayStatus = (typeof DELAY_STATUSES)[number];

const DAY_MS = 86_400_000;

/** One shipment as the report reads it: its row, plus the ETA history and departure of its document. */
export interface MisShipment {
  number: bigint;
  reference: string;
  referenceType: "container" | "bl" | "booking";
  carrierScac: string | null;
  status: string;
  eta: Date | null;
  ata: Date | null;
  failed: boolean;
  origin: string | null;
  destination: string | null;
  /** Departure from the port of loading once it happened; null before. */
  atd: Date | null;
  customer: string | null;
  createdAt: Date;
  /** Our own record of the carrier's ETAs, oldest first (empty before the carrier answered). */
  etaHistory: readonly Pick<EtaRevision, "eta" | "actual">[];
}

export interface MisRow {
  shipmentId: string;
  reference: string;
  /** As v1 `shipment_type`: `Container` or `Bill of Lading` (a booking is listed as a bill of lading). */
  type: "Container" | "Bill of Lading";
  sealine: string | null;
  status: string;
  origin: string | null;
  destination: string | null;
  atd: Date | null;
  firstEta: Date | null;
  eta: Date | null;
  ata: Date | null;
  /** Arrival minus the first ETA in days, one decimal; null when unknown. */
  delayDays: number | null;
  delayStatus: DelayStatus;
  customer: string | null;
  /** The exact delay, for the aggregates (rounded only when shown). */
  delayMs: number | null;
}

export interface MisFigures {
  shipments: number;
  active: number;
  delivered: number;
  delayed: number;
  onTime: number;
  early: number;
  unknown: number;
  /** Shipments whose delay is known: the denominator of the share, the average and the percentile. */
  assessed: number;
  /** On time as a percentage of the assessed, one decimal; null when none is assessed. */
  onTimePct: number | null;
  avgDelayDays: number | null;
  p90DelayDays: number | null;
}

export interface MisCarrierFigures extends MisFigures {
  /** The SCAC; null for shipments no carrier is recorded for. */
  sealine: string | null;
}

export interface MisReportData {
  generatedAt: Date;
  totals: MisFigures;
  byCarrier: MisCarrierFigures[];
  /** Every matching row, newest first: callers take as many as they show. */
  rows: MisRow[];
}

export const shipmentTypeOf = (referenceType: MisShipment["referenceType"]): MisRow["type"] =>
  referenceType === "container" ? "Container" : "Bill of Lading";

/** The first estimated arrival we recorded; an actual arrival seen first is no forecast to be late against. */
export function firstEtaOf(history: MisShipment["etaHistory"]): Date | null {
  const first = history.find((revision) => !revision.actual);
  return first ? new Date(first.eta) : null;
}

export function delayStatusOf(delayMs: number | null): DelayStatus {
  if (delayMs === null) return "unknown";
  if (delayMs > DELAY_THRESHOLD_MS) return "delayed";
  if (delayMs < -DELAY_THRESHOLD_MS) return "early";
  return "on_time";
}

/** Days with one decimal; computed on exact milliseconds and rounded only here. */
export const roundDays = (ms: number): number => Math.round((ms / DAY_MS) * 10) / 10;

export function misRowOf(s: MisShipment): MisRow {
  const firstEta = firstEtaOf(s.etaHistory);
  const arrival = s.ata ?? s.eta;
  const delayMs =
    firstEta && arrival && s.status !== "CANCELLED" ? arrival.getTime() - firstEta.getTime() : null;
  return {
    shipmentId: `SHP-${s.number}`,
    reference: s.reference,
    type: shipmentTypeOf(s.referenceType),
    sealine: s.carrierScac,
    status: s.status,
    origin: s.origin || null,
    destination: s.destination || null,
    atd: s.atd,
    firstEta,
    eta: s.eta,
    ata: s.ata,
    delayDays: delayMs === null ? null : roundDays(delayMs),
    delayStatus: delayStatusOf(delayMs),
    customer: s.customer,
    delayMs,
  };
}

/**
 * The nearest-rank percentile: the smallest value with at least `p` percent of the values at or
 * below it (`sorted[ceil(p/100 × n) − 1]`). Always one of the values, no interpolation, so a reader
 * can check it by counting.
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function figuresOf(rows: readonly MisRow[]): MisFigures {
  const count = (status: DelayStatus) => rows.filter((r) => r.delayStatus === status).length;
  const delays = rows
    .map((r) => r.delayMs)
    .filter((d): d is number => d !== null)
    .sort((a, b) => a - b);
  const onTime = count("on_time");
  const p90 = nearestRank(delays, 90);
  return {
    shipments: rows.length,
    active: rows.filter((r) => isActive(r.status)).length,
    delivered: rows.filter((r) => r.status === "DELIVERED").length,
    delayed: count("delayed"),
    onTime,
    early: count("early"),
    unknown: count("unknown"),
    assessed: delays.length,
    onTimePct: delays.length === 0 ? null : Math.round((onTime / delays.length) * 1000) / 10,
    avgDelayDays:
      delays.length === 0 ? null : roundDays(delays.reduce((sum, d) => sum + d, 0) / delays.length),
    p90DelayDays: p90 === null ? null : roundDays(p90),
  };
}

/** Per carrier, most shipments first (then by SCAC; shipments without a carrier last). */
export function carrierFiguresOf(rows: readonly MisRow[]): MisCarrierFigures[] {
  const groups = new Map<string | null, MisRow[]>();
  for (const row of rows) {
    const group = groups.get(row.sealine);
    if (group) group.push(row);
    else groups.set(row.sealine, [row]);
  }
  return [...groups]
    .map(([sealine, group]) => ({ sealine, ...figuresOf(group) }))
    .sort(
      (a, b) =>
        b.shipments - a.shipments ||
        (a.sealine === null ? 1 : 0) - (b.sealine === null ? 1 : 0) ||
        (a.sealine ?? "").localeCompare(b.sealine ?? ""),
    );
}

/** The whole report over shipments already filtered by their row, newest first; `delayStatus` filters here. */
export function misReportOf(
  shipments: readonly MisShipment[],
  options: { delayStatus?: DelayStatus; now: Date },
): MisReportData {
  let rows = shipments.map(misRowOf);
  if (options.delayStatus) rows = rows.filter((r) => r.delayStatus === options.delayStatus);
  return { generatedAt: options.now, totals: figuresOf(rows), byCarrier: carrierFiguresOf(rows), rows };
}
