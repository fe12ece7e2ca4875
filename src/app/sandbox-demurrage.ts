import type { Services } from "./services";

/** The sandbox shipment whose port gets a short contract free time, so the world shows an overdue box. */
export const SANDBOX_OVERDUE_REFERENCE = "SBXU1002058";

/**
 * The sandbox organisation's contract terms (docs/decisions/demurrage.md): at the port of discharge of
 * one discharged, not yet returned box, one free day under a combined clock. The other fixed
 * shipments keep the published tariffs and benchmarks, so the eight show every D&D status: within
 * free time, at risk, overdue (this one, on the contract), closed (the delivered ones), unknown (the
 * failed one). Stored before the world's snapshot, like its shipments.
 */
export async function seedSandboxContractTerms(services: Services, organizationId: string): Promise<void> {
  const shipment = await services.db.prisma.shipment.findFirst({
    where: { organizationId, reference: SANDBOX_OVERDUE_REFERENCE, deletedAt: null },
    select: { documentId: true, carrierScac: true },
  });
  if (!shipment?.documentId) return;
  const [latest] = await services.documents.latestOfMany([shipment.documentId]);
  const doc = latest?.content;
  const pod = doc?.locations.find((l) => l.key === doc.route.pod.locationKey)?.unLocode;
  if (!pod) return;
  await services.dnd.addContractTerms(organizationId, {
    carrierScac: shipment.carrierScac,
    portLocode: pod,
    countryCode: null,
    direction: "import",
    chargeType: "combined",
    equipment: "any",
    freeDays: 1,
    freeDayBasis: "calendar",
    chargeDayBasis: "calendar",
    clockStartRule: "same_day",
    slabs: [
      { fromDay: 1, toDay: 4, rate: 95 },
      { fromDay: 5, toDay: null, rate: 150 },
    ],
    currency: "USD",
    effectiveFrom: "2026-01-01",
    effectiveTo: null,
    note: "Sandbox demo contract: one free day at this port, so SHP-1002 shows an overdue box.",
  });
}
