import { type DocumentView, SHIPMENT_TYPE } from "./tracking-document";

/** A shipment as GraphQL hands it to the v1 facade (ShipmentRead and the list operations). */
export interface ShipmentRecord {
  id: string;
  name: string;
  referenceType: "container" | "bl" | "booking";
  reference: string;
  carrierScac: string | null;
  carrier: { name: string } | null;
  status: string;
  eta: string | null;
  ata: string | null;
  failed: boolean;
  createdAt: string;
  lastSyncedAt: string | null;
  isActive: boolean;
  nextRefreshEligibleAt: string | null;
  refreshEligibleNow: boolean;
  customers?: string[];
  discoveryStatus?: string | null;
  document: DocumentView | null;
}

/** The shipment summary of spec v1 section 2.3. */
export function renderShipmentSummary(s: ShipmentRecord) {
  const doc = s.document?.content;
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
    customers: s.customers ?? [],
    next_refresh_eligible_at: s.nextRefreshEligibleAt,
    refresh_eligible_now: s.refreshEligibleNow,
  };
}
