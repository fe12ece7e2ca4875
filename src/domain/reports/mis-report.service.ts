import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { ShipmentStatus } from "../../generated/prisma/enums";
import type { Clock } from "../../lib/clock";
import { normalizeIdentifier } from "../references/reference";
import { shipmentNumberOf } from "../shipments/shipment-id";
import type { EtaRevision } from "../tracking/model";
import { type DelayStatus, type MisReportData, type MisShipment, misReportOf } from "./mis-figures";

/**
 * The filters of the MIS report, with the names and values of MCP `get_mis_report` (spec section 4.4)
 * and v1's shipment summary: `status` as v1 `status`, `shipmentType` as v1 `shipment_type`,
 * `sealine` a SCAC. They combine with AND and narrow the whole report (totals, carriers and rows).
 */
export interface MisFilter {
  status?: ShipmentStatus;
  delayStatus?: DelayStatus;
  shipmentType?: "Container" | "Bill of Lading";
  sealine?: string;
  /** Part of the reference (case, spaces and hyphens ignored), the SHP id, the customer, origin or destination. */
  q?: string;
}

interface RawMisShipment {
  number: string;
  reference: string;
  reference_type: MisShipment["referenceType"];
  carrier_scac: string | null;
  status: string;
  eta: string | null;
  ata: string | null;
  failed: boolean;
  origin: string | null;
  destination: string | null;
  customer_name: string | null;
  created_at: string;
  eta_history: unknown;
  pol: unknown;
}

const instant = (value: string | null): Date | null => (value === null ? null : new Date(value));

function etaHistoryOf(value: unknown): MisShipment["etaHistory"] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (r): r is Pick<EtaRevision, "eta" | "actual"> =>
      typeof r === "object" && r !== null && typeof (r as EtaRevision).eta === "string",
  );
}

/** The departure from the port of loading, once it happened (an estimated departure is no ATD). */
function atdOf(pol: unknown): Date | null {
  if (typeof pol !== "object" || pol === null) return null;
  const point = pol as { instant?: unknown; actual?: unknown };
  return point.actual === true && typeof point.instant === "string" ? new Date(point.instant) : null;
}

/** Pure: the filter's SQL conditions on `shipments s` joined with `customers c` (organisation excluded). */
export function misFilterSql(filter: MisFilter): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (filter.status) conditions.push(Prisma.sql`s.status = ${filter.status}::"ShipmentStatus"`);
  if (filter.shipmentType === "Container") conditions.push(Prisma.sql`s.reference_type = 'container'`);
  if (filter.shipmentType === "Bill of Lading")
    conditions.push(Prisma.sql`s.reference_type IN ('bl', 'booking')`);
  if (filter.sealine) conditions.push(Prisma.sql`s.carrier_scac = ${filter.sealine.trim().toUpperCase()}`);
  const q = filter.q?.trim();
  if (q) {
    const key = normalizeIdentifier(q);
    const words = q.toLowerCase();
    const number = shipmentNumberOf(q);
    const matches = [
      Prisma.sql`strpos(lower(coalesce(c.name, '')), ${words}) > 0`,
      Prisma.sql`strpos(lower(coalesce(s.summary->>'origin', '')), ${words}) > 0`,
      Prisma.sql`strpos(lower(coalesce(s.summary->>'destination', '')), ${words}) > 0`,
    ];
    if (key) matches.push(Prisma.sql`strpos(s.reference_key, ${key}) > 0`);
    if (number !== null) matches.push(Prisma.sql`s.number = ${number.toString()}::bigint`);
    conditions.push(Prisma.sql`(${Prisma.join(matches, " OR ")})`);
  }
  return conditions;
}

/**
 * The MIS report of the caller's organisation: its tracked (not untracked) shipments only, read in one
 * statement of narrow rows (the row, its customer's name, and only the ETA history and departure of
 * its newest document, never the whole document), then figured in `mis-figures.ts`.
 */
export class MisReportService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async shipments(organizationId: string, filter: MisFilter): Promise<MisShipment[]> {
    const conditions = [
      Prisma.sql`s.organization_id = ${organizationId}`,
      Prisma.sql`s.deleted_at IS NULL`,
      ...misFilterSql(filter),
    ];
    // Instants as ISO text in UTC: no driver or process time zone can shift them.
    const rows = await this.prisma.$queryRaw<RawMisShipment[]>`
      SELECT s.number::text AS number, s.reference, s.reference_type::text AS reference_type,
             s.carrier_scac, s.status::text AS status,
             to_char(s.eta, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS eta,
             to_char(s.ata, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ata,
             s.failed_at IS NOT NULL AS failed,
             s.summary->>'origin' AS origin, s.summary->>'destination' AS destination,
             c.name AS customer_name,
             to_char(s.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
             v.content->'etaHistory' AS eta_history, v.content->'route'->'pol' AS pol
        FROM shipments s
        LEFT JOIN customers c ON c.id = s.customer_id
        LEFT JOIN carrier_documents d ON d.id = s.document_id
        LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = d.latest_version
       WHERE ${Prisma.join(conditions, " AND ")}
       ORDER BY s.created_at DESC, s.number DESC`;
    return rows.map((r) => ({
      number: BigInt(r.number),
      reference: r.reference,
      referenceType: r.reference_type,
      carrierScac: r.carrier_scac,
      status: r.status,
      eta: instant(r.eta),
      ata: instant(r.ata),
      failed: r.failed,
      origin: r.origin,
      destination: r.destination,
      atd: atdOf(r.pol),
      customer: r.customer_name,
      createdAt: new Date(r.created_at),
      etaHistory: etaHistoryOf(r.eta_history),
    }));
  }

  async report(organizationId: string, filter: MisFilter): Promise<MisReportData> {
    const shipments = await this.shipments(organizationId, filter);
    return misReportOf(shipments, { delayStatus: filter.delayStatus, now: this.clock.now() });
  }
}
