import type { DemurrageRiskFieldsFragment } from "../../generated/operations";

/** `demurrage_risk` of a shipment summary (docs/decisions/demurrage.md), field for field. */
export function renderDemurrageRisk(r: DemurrageRiskFieldsFragment) {
  return {
    status: r.status,
    unknown_reason: r.unknownReason,
    charge_type: r.chargeType,
    container: r.container,
    containers: r.containers,
    last_free_day: r.lastFreeDay,
    last_free_day_source:
      r.lastFreeDaySource === "terminal" || r.lastFreeDaySource === "tariff" ? r.lastFreeDaySource : null,
    free_days: r.freeDays,
    free_day_basis: r.freeDayBasis,
    charge_day_basis: r.chargeDayBasis,
    days_remaining: r.daysRemaining,
    clock_started_at: r.clockStartedAt,
    clock_stopped_at: r.clockStoppedAt,
    overrun_days: r.overrunDays,
    accrued_cost: r.accruedCost,
    next_daily_rate: r.nextDailyRate,
    currency: r.currency,
    projected_pickup: r.projectedPickup,
    projected_overrun_days: r.projectedOverrunDays,
    projected_cost: r.projectedCost,
    terms_source: r.termsSource,
    confidence: r.confidence,
    is_estimate: r.isEstimate,
    source_url: r.sourceUrl,
  };
}
