import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ShipmentStatus } from "../../generated/prisma/enums";
import type { Principal } from "../accounts/principal";
import { normalizeIdentifier } from "../references/reference";
import { LAST_FREE_DAY_SOON_DAYS } from "./shipment-free-time";

/**
 * Which of the organisation's shipments to list (MCP `list_my_shipments`, GraphQL `shipmentSearch`).
 * Every criterion is optional and they combine with AND; each is answerable from the shipment row
 * alone, so a page costs two statements whatever the filter.
 */
export interface ShipmentFilter {
  /** Any of these statuses. */
  status?: readonly ShipmentStatus[];
  /** Still moving (not delivered or cancelled), or the opposite. */
  active?: boolean;
  /** No carrier has found the reference yet, or the opposite. */
  failed?: boolean;
  /** The SCAC of the carrier that answered. */
  carrier?: string;
  /** Part of the customer's name, any case. */
  customer?: string;
  /** Part of the container, bill-of-lading or booking number; case, spaces and hyphens ignored. */
  reference?: string;
  /** ETA at or after this instant. */
  etaFrom?: Date;
  /** ETA at or before this instant. */
  etaTo?: Date;
  /** A UN/LOCODE among the route's ports (receipt, loading, discharge, delivery). */
  port?: string;
  /** Delayed against the first ETA the carrier gave (the summary's `isDelayed`), or not. */
  delayed?: boolean;
  /** The carrier's last update moved the ETA by ETA_MOVED_HOURS or more (`summary.etaMoved`), or not. */
  etaMoved?: boolean;
  /** Only archived shipments (true), or only those in the working list (false, the default). */
  archived?: boolean;
  /**
   * A running clock's last free day is today or within LAST_FREE_DAY_SOON_DAYS days at the port, not
   * passed (true); or not (false). Compared with `asOf`, from the row's kept free time.
   */
  lastFreeDaySoon?: boolean;
  /** A running clock's last free day has passed at the port (overdue), or not. */
  lastFreeDayPassed?: boolean;
  /** A box has a current customs, line (freight), terminal or other hold, or none does. */
  onHold?: boolean;
  /** The core's clock: what the three above are compared with. Required when any of them is given. */
  asOf?: Date;
}

const ENDED: ShipmentStatus[] = ["DELIVERED", "CANCELLED"];

/** Pure: the filter as a Prisma condition on the organisation's tracked (not untracked) shipments. */
export function shipmentFilterWhere(
  organizationId: string,
  filter: ShipmentFilter,
): Prisma.ShipmentWhereInput {
  const and: Prisma.ShipmentWhereInput[] = [{ organizationId, deletedAt: null }];
  if (filter.status && filter.status.length > 0) and.push({ status: { in: [...filter.status] } });
  if (filter.active !== undefined) and.push({ status: filter.active ? { notIn: ENDED } : { in: ENDED } });
  if (filter.failed !== undefined) and.push({ failedAt: filter.failed ? { not: null } : null });
  if (filter.carrier) and.push({ carrierScac: filter.carrier.trim().toUpperCase() });
  if (filter.customer?.trim()) {
    and.push({ customer: { nameKey: { contains: filter.customer.trim().toLowerCase() } } });
  }
  if (filter.reference) {
    const key = normalizeIdentifier(filter.reference);
    if (key) and.push({ referenceKey: { contains: key } });
  }
  if (filter.etaFrom) and.push({ eta: { gte: filter.etaFrom } });
  if (filter.etaTo) and.push({ eta: { lte: filter.etaTo } });
  // Both from the summary kept on the row (summary-facts.ts), so still one statement a page.
  if (filter.port) {
    and.push({ summary: { path: ["portLocodes"], array_contains: [filter.port.trim().toUpperCase()] } });
  }
  if (filter.delayed !== undefined) and.push({ summary: { path: ["isDelayed"], equals: filter.delayed } });
  if (filter.etaMoved === true) and.push({ summary: { path: ["etaMoved"], equals: true } });
  if (filter.etaMoved === false) {
    and.push({ NOT: { summary: { path: ["etaMoved"], equals: true } } });
  }
  // Free time and holds are kept on the row (shipment-free-time.ts); only the clock moves here.
  const asOf = filter.asOf ?? new Date(Number.NaN);
  if (filter.lastFreeDaySoon !== undefined) {
    const soon: Prisma.ShipmentWhereInput = {
      freeTimeEndsAt: { gt: asOf },
      lastFreeDayStartsAt: { lte: new Date(asOf.getTime() + LAST_FREE_DAY_SOON_DAYS * 86_400_000) },
    };
    // NOT alone would leave out rows with no running clock (a comparison with NULL is not false).
    and.push(filter.lastFreeDaySoon ? soon : { OR: [{ freeTimeEndsAt: null }, { NOT: soon }] });
  }
  if (filter.lastFreeDayPassed === true) and.push({ freeTimeEndsAt: { lte: asOf } });
  if (filter.lastFreeDayPassed === false) {
    and.push({ OR: [{ freeTimeEndsAt: null }, { freeTimeEndsAt: { gt: asOf } }] });
  }
  if (filter.onHold === true) and.push({ holdsUntil: { gt: asOf } });
  if (filter.onHold === false) and.push({ OR: [{ holdsUntil: null }, { holdsUntil: { lte: asOf } }] });
  // An archived shipment is out of every list and count unless archived ones are asked for.
  and.push({ archivedAt: filter.archived ? { not: null } : null });
  return { AND: and };
}

/** One page of matching shipments, newest first (the order of `/shipments`), and how many match. */
/** The orders a list can be read in; every one ends on the shipment number, so pages never overlap. */
export type ShipmentSort =
  | "newest"
  | "arrival"
  | "arrival_desc"
  | "reference"
  | "carrier"
  | "status"
  | "synced"
  | "last_free_day";

const ORDER: Record<ShipmentSort, Prisma.ShipmentOrderByWithRelationInput[]> = {
  newest: [{ createdAt: "desc" }],
  // Without an ETA a shipment cannot be placed in time: last, whichever way.
  arrival: [{ eta: { sort: "asc", nulls: "last" } }],
  arrival_desc: [{ eta: { sort: "desc", nulls: "last" } }],
  reference: [{ reference: "asc" }],
  carrier: [{ carrierScac: { sort: "asc", nulls: "last" } }],
  status: [{ status: "asc" }],
  synced: [{ lastSyncedAt: { sort: "desc", nulls: "last" } }],
  // The earliest running clock's last free day first; none running: last.
  last_free_day: [{ lastFreeDayStartsAt: { sort: "asc", nulls: "last" } }],
};

export async function searchShipments(
  prisma: PrismaClient,
  principal: Principal,
  search: { filter: ShipmentFilter; page: number; pageSize: number; sort?: ShipmentSort },
): Promise<{ total: number; ids: string[] }> {
  const { filter, page, pageSize, sort = "newest" } = search;
  const where = shipmentFilterWhere(principal.organization.id, filter);
  const [total, rows] = await Promise.all([
    // Counted on each call, unlike the unfiltered list's maintained total (ShipmentsService.page):
    // the filters vary too much to keep a count per combination.
    prisma.shipment.count({ where }),
    prisma.shipment.findMany({
      where,
      select: { id: true },
      orderBy: [...ORDER[sort], { number: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return { total, ids: rows.map((r) => r.id) };
}
