import type { ShipmentRow } from "../../../domain/shipments/shipment-reads";
import { DELTA_CAP } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";
import { ShipmentRef } from "./shipment";

const ShipmentDeltaRef = builder.objectRef<{ since: Date; items: ShipmentRow[] }>("ShipmentDelta").implement({
  fields: (t) => ({
    updatedSince: t.field({ type: "DateTime", resolve: (d) => d.since }),
    count: t.int({ resolve: (d) => d.items.length }),
    items: t.field({
      type: [ShipmentRef],
      extensions: { listSize: DELTA_CAP },
      resolve: (d) => d.items,
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
