import { z } from "zod";
import type { ShipmentRow } from "../../../domain/shipments/shipment-reads";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../../domain/shipments/shipments.service";
import { builder } from "../../builder";
import { ShipmentRef } from "./shipment";

const ShipmentPageRef = builder
  .objectRef<{ total: number; page: number; pageSize: number; items: ShipmentRow[] }>("ShipmentPage")
  .implement({
    fields: (t) => ({
      total: t.exposeInt("total"),
      page: t.exposeInt("page"),
      pageSize: t.exposeInt("pageSize"),
      // The rows of the page as read (one statement, summaries included): nothing is fetched again.
      items: t.field({
        type: [ShipmentRef],
        extensions: { listSize: MAX_PAGE_SIZE },
        resolve: (p) => p.items,
      }),
    }),
  });

builder.queryFields((t) => ({
  shipments: t.withAuth({ developerMode: true }).field({
    type: ShipmentPageRef,
    nullable: true,
    description: "The organisation's tracked shipments (teammates' included), newest first.",
    args: {
      page: t.arg.int({
        required: false,
        defaultValue: 1,
        validate: z.number().int().min(1, "page starts at 1"),
      }),
      pageSize: t.arg.int({
        required: false,
        defaultValue: DEFAULT_PAGE_SIZE,
        validate: z.number().int().min(1).max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`),
      }),
    },
    resolve: async (_r, { page, pageSize }, ctx) => {
      const p = page ?? 1;
      const size = pageSize ?? DEFAULT_PAGE_SIZE;
      const { total, items } = await ctx.services.shipments.page(ctx.principal, p, size);
      return { total, page: p, pageSize: size, items };
    },
  }),
}));
