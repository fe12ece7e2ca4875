import { z } from "zod";
import { type ShipmentFilter, searchShipments } from "../../domain/shipments/shipment-filter";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../domain/shipments/shipments.service";
import { ShipmentStatus } from "../../generated/prisma/enums";
import { builder } from "../builder";

const STATUSES = Object.values(ShipmentStatus);

const ShipmentFilterInput = builder.inputType("ShipmentFilter", {
  description: "Which shipments to list. Every criterion is optional; they combine with AND.",
  fields: (t) => ({
    status: t.stringList({
      required: false,
      description: `Any of these statuses: ${STATUSES.join(", ")}.`,
      validate: z.array(z.enum(STATUSES, { message: `status is one of ${STATUSES.join(", ")}` })).max(5),
    }),
    active: t.boolean({
      required: false,
      description: "true: still moving (not delivered or cancelled); false: delivered or cancelled.",
    }),
    failed: t.boolean({
      required: false,
      description: "true: no carrier has found the reference yet; false: found.",
    }),
    carrier: t.string({
      required: false,
      description: "SCAC of the carrier that answered, e.g. MAEU.",
      validate: z.string().regex(/^[A-Za-z0-9]{4}$/, "carrier is a 4-character SCAC"),
    }),
    customer: t.string({
      required: false,
      description: "Part of the customer's name, any case.",
      validate: z.string().max(200),
    }),
    reference: t.string({
      required: false,
      description:
        "Part of the container, bill-of-lading or booking number; case, spaces and hyphens ignored.",
      validate: z.string().max(100),
    }),
    etaFrom: t.field({ type: "DateTime", required: false, description: "ETA at or after this instant." }),
    etaTo: t.field({ type: "DateTime", required: false, description: "ETA at or before this instant." }),
  }),
});

const ShipmentSearchPageRef = builder
  .objectRef<{ total: number; page: number; pageSize: number; ids: string[] }>("ShipmentSearchPage")
  .implement({
    fields: (t) => ({
      total: t.exposeInt("total", { description: "Shipments matching the filter." }),
      page: t.exposeInt("page"),
      pageSize: t.exposeInt("pageSize"),
      items: t.prismaField({
        type: ["Shipment"],
        extensions: { listSize: MAX_PAGE_SIZE },
        resolve: async (query, p, _a, ctx) => {
          const rows = await ctx.services.db.prisma.shipment.findMany({
            ...query,
            where: { id: { in: p.ids } },
          });
          const byId = new Map(rows.map((r) => [r.id, r]));
          return p.ids.flatMap((id) => byId.get(id) ?? []);
        },
      }),
    }),
  });

builder.queryFields((t) => ({
  shipmentSearch: t.field({
    type: ShipmentSearchPageRef,
    nullable: true,
    description:
      "The organisation's tracked shipments (teammates' included) that match a filter, newest first. Stored data only: no carrier call.",
    authScopes: { developerMode: true },
    args: {
      filter: t.arg({ type: ShipmentFilterInput, required: false }),
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
    resolve: async (_r, args, ctx) => {
      const page = args.page ?? 1;
      const pageSize = args.pageSize ?? DEFAULT_PAGE_SIZE;
      const f = args.filter;
      const filter: ShipmentFilter = {
        status: (f?.status ?? undefined) as ShipmentFilter["status"],
        active: f?.active ?? undefined,
        failed: f?.failed ?? undefined,
        carrier: f?.carrier ?? undefined,
        customer: f?.customer ?? undefined,
        reference: f?.reference ?? undefined,
        etaFrom: f?.etaFrom ?? undefined,
        etaTo: f?.etaTo ?? undefined,
      };
      const { total, ids } = await searchShipments(
        ctx.services.db.prisma,
        ctx.principal!,
        filter,
        page,
        pageSize,
      );
      return { total, page, pageSize, ids };
    },
  }),
}));
