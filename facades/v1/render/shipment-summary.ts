import type { ShipmentSummaryFieldsFragment } from "../../generated/operations";
import { canonicalDocument, SHIPMENT_TYPE } from "./tracking-document";

/** The shipment summary of spec v1 section 2.3. */
export function renderShipmentSummary(s: ShipmentSummaryFieldsFragment) {
  const doc = s.document ? canonicalDocument(s.document) : undefined;
  return {
    name: s.name,
    number_of_containers: doc?.containers.length ?? 0,
    shipment_type: SHIPMENT_TYPE[s.referenceType],
    reference_number: s.reference,
    sealine_name: s.carrier?.name ?? null,
    sealine: s.carrierScac,
    status: s.status,
    origin: s.document?.origin ?? "",
    destination: s.document?.destination ?? "",
    total_days: s.document?.totalDays ?? 0,
    remaining_days: s.document?.remainingDays ?? 0,
    eta: doc?.route.pod.localDateTime ?? null,
    created_at: s.createdAt,
    last_synced_at: s.lastSyncedAt,
    is_active: s.isActive ? 1 : 0,
    is_delayed: s.document?.isDelayed ? 1 : 0,
    // Vessel arrival at the final port of discharge only (a transshipment call never sets it).
    ata: doc?.ata ? (doc.route.pod.actual ? doc.route.pod.localDateTime : null) : null,
    customers: s.customers,
    next_refresh_eligible_at: s.nextRefreshEligibleAt,
    refresh_eligible_now: s.refreshEligibleNow,
  };
}
