import { DELTA_CAP } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";
import { shipmentsInOrder } from "./shipments-in-order";

const ShipmentDeltaRef = builder
  .objectRef<{ since: Date; items: { id: string }[] }>("ShipmentDelta")
  .implement({
    fields: (t) => ({
      updatedSince: t.field({ type: "DateTime", resolve: (d) => d.since }),
      count: t.int({ resolve: (d) => d.items.length }),
      items: t.prismaField({
        type: ["Shipment"],
        extensions: { listSize: DELTA_CAP },
        resolve: (query, d, _a, ctx) =>
          shipmentsInOrder(
            ctx.services.db.prisma,
            query,
            d.items.map((i) => i.id),
          ),
      }),
    }),
  });

builder.queryFields((t) => ({
  shipmentsUpdatedSince: t.field({
    type: ShipmentDeltaRef,
    nullable: true,
    description:
      "Delta sync: shipments whose last_synced_at is at or after `since`, oldest first, at most 200.",
    authScopes: { developerMode: true },
    args: { since: t.arg({ type: "DateTime", required: true }) },
    resolve: async (_r, { since }, ctx) => ({
      since,
      items: await ctx.services.shipments.updatedSince(ctx.principal!, since),
    }),
  }),
}));
