import { z } from "zod";
import type { MisReportData } from "../../../domain/reports/mis-figures";
import { type MisFilter, MisReportService } from "../../../domain/reports/mis-report.service";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { MisCarrierFiguresRef, MisFiguresRef } from "./mis-figures";
import { MisFilterInput, misFilterOf } from "./mis-filter";
import { MisRowRef } from "./mis-row";

export const MIS_DEFAULT_ROWS = 50;
export const MIS_MAX_ROWS = 500;

type MisReportShape = MisReportData & { filter: MisFilter; limit: number };

const MisReportRef = builder.objectRef<MisReportShape>("MisReport").implement({
  description:
    "The management report of the organisation's tracked shipments: totals, per carrier, and rows, with delays measured against the first ETA Quayside recorded.",
  fields: (t) => ({
    generatedAt: t.expose("generatedAt", { type: "DateTime" }),
    totals: t.field({ type: MisFiguresRef, resolve: (r) => r.totals }),
    byCarrier: t.field({
      type: [MisCarrierFiguresRef],
      description: "Per carrier, most shipments first.",
      extensions: LIST_SIZE(40),
      resolve: (r) => r.byCarrier,
    }),
    rows: t.field({
      type: [MisRowRef],
      description: "Matching shipments, newest first, at most `limit`.",
      extensions: LIST_SIZE(MIS_MAX_ROWS),
      resolve: (r) => r.rows.slice(0, r.limit),
    }),
    rowsTotal: t.int({
      description: "Matching shipments (the rows before `limit`).",
      resolve: (r) => r.rows.length,
    }),
  }),
});

builder.queryFields((t) => ({
  misReport: t.withAuth({ developerMode: true }).field({
    type: MisReportRef,
    nullable: true,
    description:
      "The organisation's MIS report: shipments, active, delivered, delayed and on time (with its share), average and 90th-percentile delay against the first ETA seen, per carrier, and rows. Stored data only: no carrier call.",
    args: {
      filter: t.arg({ type: MisFilterInput, required: false }),
      limit: t.arg.int({
        required: false,
        defaultValue: MIS_DEFAULT_ROWS,
        description: `Rows to answer, 1 to ${MIS_MAX_ROWS}; the totals count every match.`,
        validate: z
          .number()
          .int()
          .min(1, "limit is at least 1")
          .max(MIS_MAX_ROWS, `limit is at most ${MIS_MAX_ROWS}`),
      }),
    },
    resolve: async (_r, { filter, limit }, ctx) => {
      const f = misFilterOf(filter);
      const service = new MisReportService(ctx.services.db.prisma, ctx.services.clock);
      const report = await service.report(ctx.principal.organization.id, f);
      return { ...report, filter: f, limit: limit ?? MIS_DEFAULT_ROWS };
    },
  }),
}));
