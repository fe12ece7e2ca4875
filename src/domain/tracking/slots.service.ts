import { randomUUID } from "node:crypto";
import type { Organization, PrismaClient } from "../../generated/prisma/client";
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
 * One slot per distinct reference per billing cycle per organisation. Reservations of one
 * organisation are serialised by a transaction-scoped advisory lock, so the limit holds exactly under
 * concurrency, and the unique row makes ten simultaneous tracks of one new reference cost one slot.
 */
export class SlotsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async usage(org: Organization): Promise<SlotUsage> {
    const cycleStart = currentCycleStart(org, this.clock.now());
    const [used, held] = await Promise.all([
      this.prisma.shipmentSlot.count({ where: { organizationId: org.id, cycleStart } }),
      this.prisma.shipmentSlot.count({ where: { organizationId: org.id, cycleStart, releasedAt: null } }),
    ]);
    const limit = shipmentSlotsPerCycle(org.plan, org.billingCycle, org.slotAddOns);
    return {
      cycleStart,
      cycleEnd: cycleEnd(cycleStart, org.billingCycle),
      limit,
      used,
      held,
      remaining: Math.max(0, limit - held),
    };
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
    const held = await tx.shipmentSlot.count({
      where: { organizationId: org.id, cycleStart, releasedAt: null },
    });
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
