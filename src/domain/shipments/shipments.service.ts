import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Customer, PrismaClient, ShareLink, Shipment } from "../../generated/prisma/client";
import type { PlanCode } from "../../generated/prisma/enums";
import { answersChanged } from "../../lib/answer-changes";
import type { Clock } from "../../lib/clock";
import type { SecretBox } from "../../lib/secret-box";
import { minimumPlanFor } from "../accounts/plans";
import type { Principal } from "../accounts/principal";
import { featureAccess } from "../accounts/principal";
import type { ReferenceType } from "../references/reference";
import type { SlotsService } from "../tracking/slots.service";
import type { TrackingService, TrackOutcome } from "../tracking/tracking.service";
import type { DeltaPosition } from "./delta-cursor";
import { shipmentIdWhere } from "./shipment-id";
import type { ShipmentReads, ShipmentRow } from "./shipment-reads";
import { isShareable } from "./shipment-standing";

/** `/shipments` page sizes and the delta cap (spec v1 section 8). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const DELTA_CAP = 200;

/** One page of a delta sync and where the next one starts (null: the page is empty). */
export interface DeltaPage {
  items: ShipmentRow[];
  hasMore: boolean;
  next: DeltaPosition | null;
}

export type ShipmentChange =
  | { kind: "updated"; shipment: Shipment; unchanged: boolean; stillFailed: boolean }
  | { kind: "not_found" }
  | { kind: "customers_plan_required"; minPlan: PlanCode }
  | { kind: "customers_disabled" }
  | { kind: "customer_limit_reached"; limit: number }
  | { kind: "tracking_refused"; outcome: TrackOutcome };

/**
 * Shipments an organisation tracks: reading (teammates' included), correcting and untracking (only
 * the key's own user's), customers and share links. Rules of spec v1 section 4.1, rules 4 to 7.
 */
export class ShipmentsService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      clock: Clock;
      slots: SlotsService;
      tracking: TrackingService;
      reads: ShipmentReads;
      /** Seals share links' tokens at rest (docs/decisions/secrets-at-rest.md). */
      secrets: SecretBox;
    },
  ) {}

  /** A live shipment of the organisation (teammates' included) by id or reference: the hot read. */
  async read(principal: Principal, id: string): Promise<ShipmentRow | null> {
    return this.deps.reads.byId(principal.organization.id, id);
  }

  /** By container, bill-of-lading or booking number or by `SHP-<digits>`; case, spaces, hyphens ignored. */
  async find(
    principal: Principal,
    id: string,
    options: { ownOnly?: boolean } = {},
  ): Promise<Shipment | null> {
    return this.deps.prisma.shipment.findFirst({
      where: {
        ...shipmentIdWhere(principal.organization.id, id),
        ...(options.ownOnly ? { addedByUserId: principal.user.id } : {}),
      },
      orderBy: { createdAt: "desc" },
    });
  }

  /**
   * One page of the list and its `total`. The total is the organisation's row in
   * `organization_shipment_counts`, kept by triggers on `shipments` (docs/decisions/v1-shipments.md): one key
   * read, where `count()` scanned every one of the organisation's shipments on each page.
   */
  async page(principal: Principal, page: number, pageSize: number) {
    return this.deps.reads.page(principal.organization.id, page, pageSize);
  }

  /**
   * Delta sync: shipments synced at or after `since` (and after `after`, the last row of the previous
   * page), oldest first, at most 200. One row more is read to say whether more follow, so a client
   * knows to continue rather than taking a full page for the whole change set.
   */
  async updatedSince(principal: Principal, since: Date, after?: DeltaPosition): Promise<DeltaPage> {
    const rows = await this.deps.reads.syncedSince(principal.organization.id, since, DELTA_CAP + 1, after);
    const items = rows.slice(0, DELTA_CAP);
    const last = items.at(-1);
    return {
      items,
      hasMore: rows.length > DELTA_CAP,
      // Every row read has a sync time (the query asks for one at or after `since`).
      next: last?.lastSyncedAt ? { syncedAt: last.lastSyncedAt, number: last.number } : null,
    };
  }

  /**
   * PATCH: `carrier` and `type` re-track under the new values (the carrier may still find nothing:
   * `stillFailed`); `customer` replaces the previous one, matching an existing customer by name in
   * any case, creating one otherwise (nothing is sent to anyone).
   */
  async update(
    principal: Principal,
    id: string,
    changes: { carrier?: string; type?: Exclude<ReferenceType, "booking">; customer?: string | null },
  ): Promise<ShipmentChange> {
    const { prisma, clock } = this.deps;
    let shipment = await this.find(principal, id, { ownOnly: true });
    if (!shipment) return { kind: "not_found" };

    let customerId = shipment.customerId;
    if (changes.customer !== undefined) {
      const access = featureAccess(principal.organization, "customers");
      if (access === "plan_required")
        return { kind: "customers_plan_required", minPlan: minimumPlanFor("customers").code };
      if (access === "feature_disabled") return { kind: "customers_disabled" };
      const name = changes.customer?.trim() ?? "";
      if (name === "") {
        customerId = null;
      } else {
        const customer = await this.customerNamed(principal, name);
        if (customer === "limit")
          return { kind: "customer_limit_reached", limit: principal.plan.customerLimit };
        customerId = customer.id;
      }
    }

    const carrier = changes.carrier?.trim().toUpperCase();
    const retrack =
      (carrier !== undefined && carrier !== shipment.carrierScac) ||
      (changes.type !== undefined && changes.type !== shipment.referenceType);
    const customerChanged = customerId !== shipment.customerId;
    if (!retrack && !customerChanged)
      return { kind: "updated", shipment, unchanged: true, stillFailed: false };

    if (customerChanged) {
      shipment = await prisma.shipment.update({
        where: { id: shipment.id },
        data: { customerId, updatedAt: clock.now() },
      });
      await answersChanged({ shipments: [shipment] });
    }
    if (!retrack) return { kind: "updated", shipment, unchanged: false, stillFailed: false };

    if (changes.type !== undefined && changes.type !== shipment.referenceType) {
      shipment = await prisma.shipment.update({
        where: { id: shipment.id },
        data: { referenceType: changes.type, updatedAt: clock.now() },
      });
      await answersChanged({ shipments: [shipment] });
    }
    const outcome = await this.deps.tracking.track(principal, {
      reference: shipment.reference,
      type: changes.type ?? shipment.referenceType,
      carrier: carrier ?? shipment.carrierScac ?? undefined,
      freshness: "fetch",
      surface: "v1",
    });
    if (outcome.kind === "tracked") {
      return { kind: "updated", shipment: outcome.shipment, unchanged: false, stillFailed: false };
    }
    if (outcome.kind === "not_found") {
      return { kind: "updated", shipment: outcome.shipment, unchanged: false, stillFailed: true };
    }
    return { kind: "tracking_refused", outcome };
  }

  /** Soft delete: leaves the list, stops updating, frees the slot for the cycle's limit. */
  async untrack(principal: Principal, id: string): Promise<Shipment | null> {
    const { prisma, clock, slots } = this.deps;
    const shipment = await this.find(principal, id, { ownOnly: true });
    if (!shipment) return null;
    const untracked = await prisma.$transaction(async (tx) => {
      const deleted = await tx.shipment.update({
        where: { id: shipment.id },
        data: { deletedAt: clock.now(), nextRefreshAt: null, updatedAt: clock.now() },
      });
      await tx.shareLink.updateMany({
        where: { shipmentId: shipment.id, revokedAt: null },
        data: { revokedAt: clock.now() },
      });
      await slots.release(tx, principal.organization, shipment.referenceKey);
      return deleted;
    });
    // Pages, totals and a read by reference all change: the organisation's answers go.
    await answersChanged({ organizations: [principal.organization.id] });
    return untracked;
  }

  /**
   * Puts a shipment of the organisation aside, or back (issue 38). Any teammate who may write may:
   * it changes only which list the organisation sees it in, never the tracking (still refreshed, its
   * webhooks still sent, its slot kept, its share link kept). Null when it is not the organisation's.
   */
  async setArchived(principal: Principal, id: string, archived: boolean): Promise<Shipment | null> {
    const { prisma, clock } = this.deps;
    const shipment = await this.find(principal, id);
    if (!shipment) return null;
    if ((shipment.archivedAt !== null) === archived) return shipment;
    const changed = await prisma.shipment.update({
      where: { id: shipment.id },
      data: { archivedAt: archived ? clock.now() : null },
    });
    // Searches and counts change: the organisation's kept answers go.
    await answersChanged({ organizations: [principal.organization.id] });
    return changed;
  }

  async customerNamesOf(shipments: Pick<Shipment, "customerId">[]): Promise<Map<string, string>> {
    const ids = [...new Set(shipments.map((s) => s.customerId).filter((x): x is string => x !== null))];
    if (ids.length === 0) return new Map();
    const rows = await this.deps.prisma.customer.findMany({ where: { id: { in: ids } } });
    return new Map(rows.map((c) => [c.id, c.name]));
  }

  private async customerNamed(principal: Principal, name: string): Promise<Customer | "limit"> {
    const { prisma, clock } = this.deps;
    const orgId = principal.organization.id;
    const nameKey = name.toLowerCase();
    const existing = await prisma.customer.findUnique({
      where: { organizationId_nameKey: { organizationId: orgId, nameKey } },
    });
    if (existing) return existing;
    return prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`customers:${orgId}`}))`;
      const again = await tx.customer.findUnique({
        where: { organizationId_nameKey: { organizationId: orgId, nameKey } },
      });
      if (again) return again;
      if ((await tx.customer.count({ where: { organizationId: orgId } })) >= principal.plan.customerLimit)
        return "limit";
      return tx.customer.create({
        data: { id: randomUUID(), organizationId: orgId, name, nameKey, createdAt: clock.now() },
      });
    });
  }

  /**
   * A public page for a shipment of the organisation (teammates' too): one live link per shipment.
   * `notShareable` while no carrier has answered for it: the page shows the carrier's journey, so a
   * link made before there is one would answer 404 (issue 38).
   */
  async share(
    principal: Principal,
    id: string,
  ): Promise<{ link: ShareLink; shipment: Shipment; created: boolean } | { notShareable: Shipment } | null> {
    const { prisma, clock } = this.deps;
    const shipment = await this.find(principal, id);
    if (!shipment) return null;
    if (!isShareable(shipment)) return { notShareable: shipment };
    const live = await prisma.shareLink.findFirst({ where: { shipmentId: shipment.id, revokedAt: null } });
    if (live)
      return { link: { ...live, token: this.deps.secrets.open(live.token) }, shipment, created: false };
    // 192 random bits: unguessable, and the only thing the public URL carries. The row keeps it sealed
    // (shown again while the link lives) and is found by its hash, so a copy of the table opens no page.
    const token = randomBytes(24).toString("base64url");
    const link = await prisma.shareLink.create({
      data: {
        id: randomUUID(),
        shipmentId: shipment.id,
        organizationId: principal.organization.id,
        token: this.deps.secrets.seal(token),
        tokenHash: shareTokenHash(token),
        createdByUserId: principal.user.id,
        createdAt: clock.now(),
      },
    });
    return { link: { ...link, token }, shipment, created: true };
  }

  async revokeShare(
    principal: Principal,
    id: string,
  ): Promise<{ shipment: Shipment; revoked: number } | null> {
    const shipment = await this.find(principal, id);
    if (!shipment) return null;
    const { count } = await this.deps.prisma.shareLink.updateMany({
      where: { shipmentId: shipment.id, revokedAt: null },
      data: { revokedAt: this.deps.clock.now() },
    });
    return { shipment, revoked: count };
  }

  /** The public page's shipment, by token; null once revoked or untracked. */
  async sharedShipment(token: string) {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
    const link = await this.deps.prisma.shareLink.findUnique({
      where: { tokenHash: shareTokenHash(token) },
      include: { shipment: true },
    });
    if (!link || link.revokedAt || link.shipment.deletedAt) return null;
    return link.shipment;
  }
}

/** What a share link is looked up by: hex SHA-256 of its token (the migration computes the same). */
export function shareTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
