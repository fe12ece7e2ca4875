import type { PrismaClient } from "../../generated/prisma/client";

/**
 * The per-organisation sequences behind public numbers: `shipments` (SHP-<n>) and `tracking_lookups`
 * (compat history ids). The database trigger `organization_number` hands the numbers out on insert;
 * nothing in the application writes them, so no insert path can forget one.
 */
export type OrganizationCounter = "shipments" | "tracking_lookups";

/**
 * Makes the organisation's next number `first` (the sandbox's eight shipments are SHP-1000 to
 * SHP-1007, as the spec's examples). Only for an organisation that has not numbered anything yet.
 */
export async function startNumberingAt(
  prisma: PrismaClient,
  organizationId: string,
  counter: OrganizationCounter,
  first: number,
): Promise<void> {
  await prisma.organizationCounter.create({
    data: { organizationId, counter, value: BigInt(first - 1) },
  });
}
