import type { ShipmentSummaryFieldsFragment } from "../../generated/operations";
import { renderDemurrageRisk } from "./demurrage-risk";
import { renderPredictiveEta } from "./predictive-eta";
import { SHIPMENT_TYPE } from "./tracking-document";

/** The shipment summary of spec v1 section 2.3. */
export function renderShipmentSummary(s: ShipmentSummaryFieldsFragment) {
  const doc = s.summary;
  return {
    name: s.name,
    number_of_containers: doc?.containerNumbers.length ?? 0,
    shipment_type: SHIPMENT_TYPE[s.referenceType],
    reference_number: s.reference,
    sealine_name: s.carrier?.name ?? null,
    sealine: s.carrierScac,
    status: s.status,
    origin: doc?.origin ?? "",
    destination: doc?.destination ?? "",
    total_days: doc?.totalDays ?? 0,
    remaining_days: doc?.remainingDays ?? 0,
    eta: doc?.arrivalLocalDateTime ?? null,
    // The same moments in UTC (docs/decisions/times.md): `eta` and `ata` are the port's wall clock.
    eta_utc: doc?.arrival ?? null,
    created_at: s.createdAt,
    last_synced_at: s.lastSyncedAt,
    is_active: s.isActive ? 1 : 0,
    is_delayed: doc?.isDelayed ? 1 : 0,
    ata: doc?.ataLocalDateTime ?? null,
    ata_utc: doc?.ata ?? null,
    customers: s.customers,
    next_refresh_eligible_at: s.nextRefreshEligibleAt,
    refresh_eligible_now: s.refreshEligibleNow,
    ...renderPredictiveEta(s),
    // Absent, not null, unless the plan has predictive ETA (spec v1 section 2.3).
    ...(s.demurrageRisk ? { demurrage_risk: renderDemurrageRisk(s.demurrageRisk) } : {}),
  };
}

/**
 * The same summary as JSON text, written straight from the operation's result: byte for byte
 * `JSON.stringify(renderShipmentSummary(s))`, without the intermediate object per row (issue 37 item
 * 4). A list or delta page writes a hundred of these per answer. Kept per result object: the answer
 * cache hands out the same objects on every hit in this process, so a kept page's rows are written
 * once; nothing mutates a result once rendered (the cache never changes what it handed out).
 */
export function shipmentSummaryJson(s: ShipmentSummaryFieldsFragment): string {
  let text = summaryText.get(s);
  if (text === undefined) {
    text = writeSummary(s);
    summaryText.set(s, text);
  }
  return text;
}

/** The JSON array of a page's summaries, kept per items array as the rows are. */
export function shipmentSummariesJson(items: readonly ShipmentSummaryFieldsFragment[]): string {
  let text = listText.get(items);
  if (text === undefined) {
    text = `[${items.map(shipmentSummaryJson).join(",")}]`;
    listText.set(items, text);
  }
  return text;
}

const summaryText = new WeakMap<object, string>();
const listText = new WeakMap<object, string>();

/** `,"key":value` as JSON.stringify writes an object's member; nothing for undefined, as it omits it. */
function member(key: string, value: unknown): string {
  return value === undefined ? "" : `,"${key}":${JSON.stringify(value)}`;
}

function writeSummary(s: ShipmentSummaryFieldsFragment): string {
  const doc = s.summary;
  let out =
    member("name", s.name) +
    member("number_of_containers", doc?.containerNumbers.length ?? 0) +
    member("shipment_type", SHIPMENT_TYPE[s.referenceType]) +
    member("reference_number", s.reference) +
    member("sealine_name", s.carrier?.name ?? null) +
    member("sealine", s.carrierScac) +
    member("status", s.status) +
    member("origin", doc?.origin ?? "") +
    member("destination", doc?.destination ?? "") +
    member("total_days", doc?.totalDays ?? 0) +
    member("remaining_days", doc?.remainingDays ?? 0) +
    member("eta", doc?.arrivalLocalDateTime ?? null) +
    member("eta_utc", doc?.arrival ?? null) +
    member("created_at", s.createdAt) +
    member("last_synced_at", s.lastSyncedAt) +
    member("is_active", s.isActive ? 1 : 0) +
    member("is_delayed", doc?.isDelayed ? 1 : 0) +
    member("ata", doc?.ataLocalDateTime ?? null) +
    member("ata_utc", doc?.ata ?? null) +
    member("customers", s.customers) +
    member("next_refresh_eligible_at", s.nextRefreshEligibleAt) +
    member("refresh_eligible_now", s.refreshEligibleNow);
  if (s.predictiveEtaEnabled) {
    const eta = s.predictiveEta;
    out += eta
      ? `,"predictive_eta":{${(
          member("p50", eta.p50) +
            member("p80", eta.p80) +
            member("source", eta.source) +
            member("confidence", eta.confidence) +
            member("computed_at", eta.computedAt) +
            member("fallback_reason", eta.fallbackReason ?? null)
        ).slice(1)}}`
      : `,"predictive_eta":null`;
  }
  const r = s.demurrageRisk;
  if (r) {
    out += `,"demurrage_risk":{${(
      member("status", r.status) +
        member("unknown_reason", r.unknownReason) +
        member("charge_type", r.chargeType) +
        member("container", r.container) +
        member("containers", r.containers) +
        member("last_free_day", r.lastFreeDay) +
        member(
          "last_free_day_source",
          r.lastFreeDaySource === "terminal" || r.lastFreeDaySource === "tariff" ? r.lastFreeDaySource : null,
        ) +
        member("free_days", r.freeDays) +
        member("free_day_basis", r.freeDayBasis) +
        member("charge_day_basis", r.chargeDayBasis) +
        member("days_remaining", r.daysRemaining) +
        member("clock_started_at", r.clockStartedAt) +
        member("clock_stopped_at", r.clockStoppedAt) +
        member("overrun_days", r.overrunDays) +
        member("accrued_cost", r.accruedCost) +
        member("next_daily_rate", r.nextDailyRate) +
        member("currency", r.currency) +
        member("projected_pickup", r.projectedPickup) +
        member("projected_overrun_days", r.projectedOverrunDays) +
        member("projected_cost", r.projectedCost) +
        member("terms_source", r.termsSource) +
        member("confidence", r.confidence) +
        member("is_estimate", r.isEstimate) +
        member("source_url", r.sourceUrl)
    ).slice(1)}}`;
  }
  return `{${out.slice(1)}}`;
}
