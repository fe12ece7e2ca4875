import type { PrismaClient } from "../../../generated/prisma/client";

/**
 * The rows of a page, with what the selection needs (`query` from the Prisma plugin), in the page's
 * order, in one statement: a page's ids come from the domain, its fields from the selection.
 */
export async function shipmentsInOrder(prisma: PrismaClient, query: object, ids: readonly string[]) {
  const rows = await prisma.shipment.findMany({ ...query, where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
