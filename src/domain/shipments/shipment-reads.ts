import type { PreparedSql, PreparedStatement } from "../../db/database";
import type { Shipment } from "../../generated/prisma/client";
import { normalizeIdentifier } from "../references/reference";
import type { DeltaPosition } from "./delta-cursor";
import { shipmentNumberOf } from "./shipment-id";

/** A shipment row as the hot reads return it: the whole row plus its customer's name. */
export type ShipmentRow = Shipment & { customerName: string | null };

/**
 * Timestamps are stored without a zone, in UTC (Prisma's DateTime); reading them `AT TIME ZONE 'UTC'`
 * hands the driver an instant, so no process time zone can shift them.
 */
const COLUMNS = `s.id, s.number::text AS number, s.organization_id, s.added_by_user_id,
       s.reference_type::text AS reference_type, s.reference, s.reference_key, s.carrier_scac,
       s.carrier_provided, s.document_id, s.status::text AS status,
       s.eta AT TIME ZONE 'UTC' AS eta, s.ata AT TIME ZONE 'UTC' AS ata,
       s.failed_at AT TIME ZONE 'UTC' AS failed_at, s.failure_reason, s.tried_carriers,
       s.last_synced_at AT TIME ZONE 'UTC' AS last_synced_at, s.created_at AT TIME ZONE 'UTC' AS created_at,
       s.updated_at AT TIME ZONE 'UTC' AS updated_at, s.deleted_at AT TIME ZONE 'UTC' AS deleted_at,
       s.customer_id, s.next_refresh_at AT TIME ZONE 'UTC' AS next_refresh_at, s.discovery_status,
       s.discovery_updated_at AT TIME ZONE 'UTC' AS discovery_updated_at, s.summary,
       s.disruptions_matched_at AT TIME ZONE 'UTC' AS disruptions_matched_at,
       s.predicted_eta, s.eta_due_at AT TIME ZONE 'UTC' AS eta_due_at,
       s.archived_at AT TIME ZONE 'UTC' AS archived_at, s.free_time,
       s.last_free_day_starts_at AT TIME ZONE 'UTC' AS last_free_day_starts_at,
       s.free_time_ends_at AT TIME ZONE 'UTC' AS free_time_ends_at,
       s.holds_until AT TIME ZONE 'UTC' AS holds_until, s.free_time_at AT TIME ZONE 'UTC' AS free_time_at,
       s.dnd_schedule, s.dnd_valid_until AT TIME ZONE 'UTC' AS dnd_valid_until,
       c.name AS customer_name
  FROM shipments s LEFT JOIN customers c ON c.id = s.customer_id`;

const BY_NUMBER: PreparedStatement = {
  name: "shipment_by_number",
  text: `SELECT ${COLUMNS}
 WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND s.number = $2::bigint
 ORDER BY s.created_at DESC LIMIT 1`,
};

const BY_REFERENCE: PreparedStatement = {
  name: "shipment_by_reference",
  text: `SELECT ${COLUMNS}
 WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND s.reference_key = $2
 ORDER BY s.created_at DESC LIMIT 1`,
};

const LIVE_BY_REFERENCE: PreparedStatement = {
  name: "shipment_live_by_reference",
  text: `SELECT ${COLUMNS}
 WHERE s.organization_id = $1 AND s.reference_type = $2::"ReferenceKind" AND s.reference_key = $3
   AND s.deleted_at IS NULL
 LIMIT 1`,
};

const PAGE: PreparedStatement = {
  name: "shipments_page",
  text: `SELECT ${COLUMNS}
 WHERE s.organization_id = $1 AND s.deleted_at IS NULL
 ORDER BY s.created_at DESC, s.number DESC OFFSET $2 LIMIT $3`,
};

const LIVE_COUNT: PreparedStatement = {
  name: "shipments_live_count",
  text: "SELECT live::text AS live FROM organization_shipment_counts WHERE organization_id = $1",
};

/**
 * Synced at or after $2 and after the position ($4, $5) in (last_synced_at, number) order: the
 * continuation of a delta page. The first page's position is ($2, 0), before every row of $2 (numbers
 * start at 1). The range on last_synced_at keeps the (organization_id, last_synced_at) index in use.
 */
const SYNCED_SINCE: PreparedStatement = {
  name: "shipments_synced_since",
  text: `SELECT ${COLUMNS}
 WHERE s.organization_id = $1 AND s.deleted_at IS NULL
   AND s.last_synced_at >= ($2::timestamptz AT TIME ZONE 'UTC')
   AND (s.last_synced_at, s.number) > ($4::timestamptz AT TIME ZONE 'UTC', $5::bigint)
 ORDER BY s.last_synced_at ASC, s.number ASC LIMIT $3`,
};

interface RawShipment {
  id: string;
  number: string;
  organization_id: string;
  added_by_user_id: string;
  reference_type: Shipment["referenceType"];
  reference: string;
  reference_key: string;
  carrier_scac: string | null;
  carrier_provided: boolean;
  document_id: string | null;
  status: Shipment["status"];
  eta: Date | null;
  ata: Date | null;
  failed_at: Date | null;
  failure_reason: string | null;
  tried_carriers: string[];
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  customer_id: string | null;
  next_refresh_at: Date | null;
  discovery_status: string | null;
  discovery_updated_at: Date | null;
  summary: Shipment["summary"];
  disruptions_matched_at: Date | null;
  predicted_eta: Shipment["predictedEta"];
  eta_due_at: Date | null;
  archived_at: Date | null;
  free_time: Shipment["freeTime"];
  last_free_day_starts_at: Date | null;
  free_time_ends_at: Date | null;
  holds_until: Date | null;
  free_time_at: Date | null;
  dnd_schedule: Shipment["dndSchedule"];
  dnd_valid_until: Date | null;
  customer_name: string | null;
}

function toRow(r: RawShipment): ShipmentRow {
  return {
    id: r.id,
    number: BigInt(r.number),
    organizationId: r.organization_id,
    addedByUserId: r.added_by_user_id,
    referenceType: r.reference_type,
    reference: r.reference,
    referenceKey: r.reference_key,
    carrierScac: r.carrier_scac,
    carrierProvided: r.carrier_provided,
    documentId: r.document_id,
    status: r.status,
    eta: r.eta,
    ata: r.ata,
    failedAt: r.failed_at,
    failureReason: r.failure_reason,
    triedCarriers: r.tried_carriers,
    lastSyncedAt: r.last_synced_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
    customerId: r.customer_id,
    nextRefreshAt: r.next_refresh_at,
    discoveryStatus: r.discovery_status,
    discoveryUpdatedAt: r.discovery_updated_at,
    summary: r.summary,
    disruptionsMatchedAt: r.disruptions_matched_at,
    predictedEta: r.predicted_eta,
    etaDueAt: r.eta_due_at,
    archivedAt: r.archived_at,
    freeTime: r.free_time,
    lastFreeDayStartsAt: r.last_free_day_starts_at,
    freeTimeEndsAt: r.free_time_ends_at,
    holdsUntil: r.holds_until,
    freeTimeAt: r.free_time_at,
    dndSchedule: r.dnd_schedule,
    dndValidUntil: r.dnd_valid_until,
    customerName: r.customer_name,
  };
}

/**
 * The reads every poll, list and delta sync makes, as prepared statements: a shipment by id or
 * reference, a page with its total, the shipments synced since a moment. Each is one statement, and
 * the summary a list shows is on the row (`summary-facts.ts`), so no document is opened.
 */
export class ShipmentReads {
  constructor(private readonly sql: PreparedSql) {}

  /** The same reading of an id as `shipmentIdWhere`: a shipment id by number, else the reference. */
  async byId(organizationId: string, id: string): Promise<ShipmentRow | null> {
    const number = shipmentNumberOf(id);
    const rows =
      number !== null
        ? await this.sql.query<RawShipment>(BY_NUMBER, [organizationId, number.toString()])
        : await this.sql.query<RawShipment>(BY_REFERENCE, [organizationId, normalizeIdentifier(id)]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The organisation's live shipment of a reference (at most one: a partial unique index). */
  async liveByReference(
    organizationId: string,
    referenceType: Shipment["referenceType"],
    referenceKey: string,
  ): Promise<ShipmentRow | null> {
    const rows = await this.sql.query<RawShipment>(LIVE_BY_REFERENCE, [
      organizationId,
      referenceType,
      referenceKey,
    ]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  async page(organizationId: string, page: number, pageSize: number) {
    const [counted, rows] = await Promise.all([
      this.sql.query<{ live: string }>(LIVE_COUNT, [organizationId]),
      this.sql.query<RawShipment>(PAGE, [organizationId, (page - 1) * pageSize, pageSize]),
    ]);
    // No count row: the organisation has never had a shipment.
    return { total: Number(counted[0]?.live ?? 0), items: rows.map(toRow) };
  }

  /** At most `limit` rows synced at or after `since`, after `after` when given, oldest first. */
  async syncedSince(
    organizationId: string,
    since: Date,
    limit: number,
    after?: DeltaPosition,
  ): Promise<ShipmentRow[]> {
    const position = after ?? { syncedAt: since, number: 0n };
    const rows = await this.sql.query<RawShipment>(SYNCED_SINCE, [
      organizationId,
      since.toISOString(),
      limit,
      position.syncedAt.toISOString(),
      position.number.toString(),
    ]);
    return rows.map(toRow);
  }
}
