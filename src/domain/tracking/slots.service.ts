import { randomUUID } from "node:crypto";
import type { PreparedSql, PreparedStatement } from "../../db/database";
import type { Organization, PrismaClient } from "../../generated/prisma/client";
import { answerValidUntil } from "../../lib/answer-scope";
import type { Clock } from "../../lib/clock";
import { shipmentSlotsPerCycle } from "../accounts/plans";
import { currentCycleStart, cycleEnd } from "./billing-cycle";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface SlotUsage {
  cycleStart: Date;
  cycleEnd: Date;
  /** The cycle's allowance, add-ons included. */
  limit: number;
  /** Distinct references tracked this cycle; never goes down (untracking frees, not forgets). */
  used: number;
  /** Slots held now (used minus freed by untracking); what the limit is checked against. */
  held: number;
  remaining: number;
}

export type SlotReservation = "already_held" | "acquired" | "exhausted";

/**
 * The cycle's counter row, kept by a trigger on "shipment_slots" in the transaction that takes or
 * frees a slot (migration 20261129072500_shipment_slot_counts). The cycle's start is bound as an
 * instant and read in UTC, as the column is stored (docs/decisions/read-path.md).
 */
const SLOT_COUNTS: PreparedStatement = {
  name: "shipment_slot_counts",
  text: `SELECT used, held FROM shipment_slot_counts
 WHERE organization_id = $1 AND cycle_start = ($2::timestamptz AT TIME ZONE 'UTC')`,
};

/**
 * One slot per distinct reference per billing cycle per organisation. Reservations of one
 * organisation are serialised by a transaction-scoped advisory lock, so the limit holds exactly under
 * concurrency, and the unique row makes ten simultaneous tracks of one new reference cost one slot.
 */
export class SlotsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** Prepared statements for the usage read (every compat call and usage answer makes one). */
    private readonly sql?: PreparedSql,
  ) {}

  /** The cycle's usage: one primary-key read of its counter row (issue 37 item 2), not two counts. */
  async usage(org: Organization): Promise<SlotUsage> {
    const cycleStart = currentCycleStart(org, this.clock.now());
    const end = cycleEnd(cycleStart, org.billingCycle);
    // The figures hold until the cycle ends (a slot taken or freed drops the organisation's answers).
    answerValidUntil(end);
    const { used, held } = await this.countsOf(org.id, cycleStart);
    const limit = shipmentSlotsPerCycle(org.plan, org.billingCycle, org.slotAddOns);
    return {
      cycleStart,
      cycleEnd: end,
      limit,
      used,
      held,
      remaining: Math.max(0, limit - held),
    };
  }

  private async countsOf(organizationId: string, cycleStart: Date): Promise<{ used: number; held: number }> {
    if (this.sql) {
      const [row] = await this.sql.query<{ used: number; held: number }>(SLOT_COUNTS, [
        organizationId,
        cycleStart.toISOString(),
      ]);
      return { used: Number(row?.used ?? 0), held: Number(row?.held ?? 0) };
    }
    const row = await this.prisma.shipmentSlotCount.findUnique({
      where: { organizationId_cycleStart: { organizationId, cycleStart } },
    });
    return { used: row?.used ?? 0, held: row?.held ?? 0 };
  }

  /** Whether a new reference could take a slot now, without taking it (checked before a carrier call). */
  async canReserve(org: Organization, referenceKey: string): Promise<boolean> {
    const cycleStart = currentCycleStart(org, this.clock.now());
    const existing = await this.prisma.shipmentSlot.findUnique({
      where: { organizationId_cycleStart_referenceKey: { organizationId: org.id, cycleStart, referenceKey } },
    });
    if (existing && existing.releasedAt === null) return true;
    const usage = await this.usage(org);
    return usage.held < usage.limit;
  }

  /** Takes the reference's slot inside the caller's transaction. */
  async reserve(tx: Tx, org: Organization, referenceKey: string): Promise<SlotReservation> {
    const cycleStart = currentCycleStart(org, this.clock.now());
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`slots:${org.id}`}))`;
    const existing = await tx.shipmentSlot.findUnique({
      where: { organizationId_cycleStart_referenceKey: { organizationId: org.id, cycleStart, referenceKey } },
    });
    if (existing && existing.releasedAt === null) return "already_held";
    // Exact under the advisory lock: every taking of this organisation's slots waits for it.
    const counts = await tx.shipmentSlotCount.findUnique({
      where: { organizationId_cycleStart: { organizationId: org.id, cycleStart } },
    });
    const held = counts?.held ?? 0;
    if (held >= shipmentSlotsPerCycle(org.plan, org.billingCycle, org.slotAddOns)) return "exhausted";
    if (existing) {
      await tx.shipmentSlot.update({ where: { id: existing.id }, data: { releasedAt: null } });
    } else {
      await tx.shipmentSlot.create({
        data: {
          id: randomUUID(),
          organizationId: org.id,
          cycleStart,
          referenceKey,
          createdAt: this.clock.now(),
        },
      });
    }
    return "acquired";
  }

  /** Frees a reference's slot of the current cycle (untracking); the distinct count stays. */
  async release(tx: Tx, org: Organization, referenceKey: string): Promise<void> {
    const cycleStart = currentCycleStart(org, this.clock.now());
    await tx.shipmentSlot.updateMany({
      where: { organizationId: org.id, cycleStart, referenceKey, releasedAt: null },
      data: { releasedAt: this.clock.now() },
    });
  }
}
