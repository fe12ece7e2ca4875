import type { Prisma } from "../../generated/prisma/client";

/** Which customers to list (MCP `list_customers`, GraphQL `customers`). */
export interface CustomerFilter {
  /** Part of the name, any case. */
  search?: string;
  /** With at least one tracked shipment still moving, or with none. */
  hasActiveShipments?: boolean;
}

/** Pure: the filter as a Prisma condition on the organisation's customers. */
export function customerWhere(organizationId: string, filter: CustomerFilter): Prisma.CustomerWhereInput {
  const and: Prisma.CustomerWhereInput[] = [{ organizationId }];
  const search = filter.search?.trim().toLowerCase();
  if (search) and.push({ nameKey: { contains: search } });
  if (filter.hasActiveShipments !== undefined) {
    const moving: Prisma.ShipmentWhereInput = {
      deletedAt: null,
      status: { notIn: ["DELIVERED", "CANCELLED"] },
    };
    and.push({ shipments: filter.hasActiveShipments ? { some: moving } : { none: moving } });
  }
  return { AND: and };
}
