import { z } from "zod";
import { type FeatureAccess, featureAccess } from "../../../domain/accounts/principal";
import { customerWhere } from "../../../domain/shipments/customer-filter";
import { builder } from "../../builder";
import { FeatureAccessEnum } from "../accounts/feature-access";
import { CustomerFilterInput } from "./customer-filter";

const CUSTOMER_LIST_MAX = 100;

const CustomerListRef = builder
  .objectRef<{ total: number; ids: string[]; access: FeatureAccess; limit: number }>("CustomerList")
  .implement({
    description: "The organisation's customers, by name.",
    fields: (t) => ({
      total: t.exposeInt("total", { description: "Customers matching the search and filter." }),
      access: t.field({
        type: FeatureAccessEnum,
        description: "The customers feature for the organisation.",
        resolve: (l) => l.access,
      }),
      limit: t.exposeInt("limit", { description: "Customers the plan allows." }),
      items: t.prismaField({
        type: ["Customer"],
        extensions: { listSize: CUSTOMER_LIST_MAX },
        resolve: async (query, list, _a, ctx) => {
          const rows = await ctx.services.db.prisma.customer.findMany({
            ...query,
            where: { id: { in: list.ids } },
          });
          const byId = new Map(rows.map((r) => [r.id, r]));
          return list.ids.flatMap((id) => byId.get(id) ?? []);
        },
      }),
    }),
  });

builder.queryFields((t) => ({
  customers: t.withAuth({ developerMode: true }).field({
    type: CustomerListRef,
    nullable: true,
    description: "The organisation's customers in name order, with how many shipments name each.",
    args: {
      search: t.arg.string({
        required: false,
        description: "Part of the name, any case.",
        validate: z.string().max(200),
      }),
      filter: t.arg({ type: CustomerFilterInput, required: false }),
      limit: t.arg.int({
        required: false,
        defaultValue: 50,
        validate: z.number().int().min(1).max(CUSTOMER_LIST_MAX, `limit is at most ${CUSTOMER_LIST_MAX}`),
      }),
    },
    resolve: async (_r, args, ctx) => {
      const p = ctx.principal;
      const where = customerWhere(p.organization.id, {
        search: args.search ?? undefined,
        hasActiveShipments: args.filter?.hasActiveShipments ?? undefined,
      });
      const { prisma } = ctx.services.db;
      const [total, rows] = await Promise.all([
        prisma.customer.count({ where }),
        prisma.customer.findMany({
          where,
          select: { id: true },
          orderBy: [{ nameKey: "asc" }, { id: "asc" }],
          take: args.limit ?? 50,
        }),
      ]);
      return {
        total,
        ids: rows.map((r) => r.id),
        access: featureAccess(p.organization, "customers"),
        limit: p.plan.customerLimit,
      };
    },
  }),
}));
