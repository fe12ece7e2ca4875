import { z } from "zod";
import { MIS_EXPORT_MAX_ROWS, type MisExportFile, misExport } from "../../../domain/reports/mis-export";
import { MisReportService } from "../../../domain/reports/mis-report.service";
import { builder } from "../../builder";
import { MisFilterInput, misFilterOf } from "./mis-filter";

const MisExportFormatEnum = builder.enumType("MisExportFormat", {
  description: "The file an MIS export is written as.",
  values: {
    CSV: {
      value: "csv",
      description: "Comma-separated rows, UTF-8 with a byte-order mark (opens in Excel).",
    },
    XLSX: { value: "xlsx", description: "An Excel workbook: sheets Summary, Carriers and Shipments." },
  } as const,
});

const MisExportFileRef = builder.objectRef<MisExportFile>("MisExportFile").implement({
  description:
    "An MIS report as a file: save contentBase64 decoded under fileName (the dashboard offers it as a download).",
  fields: (t) => ({
    fileName: t.exposeString("fileName"),
    contentType: t.exposeString("contentType"),
    byteLength: t.int({ resolve: (f) => f.content.length }),
    rows: t.exposeInt("rows", { description: "Shipment rows in the file." }),
    contentBase64: t.string({ resolve: (f) => f.content.toString("base64") }),
  }),
});

builder.queryFields((t) => ({
  misReportExport: t.withAuth({ developerMode: true }).field({
    type: MisExportFileRef,
    nullable: true,
    description:
      "The MIS report as a CSV (rows) or XLSX (totals, per carrier and rows) file, base64-encoded, with the same filters as misReport. Stored data only.",
    args: {
      format: t.arg({ type: MisExportFormatEnum, required: true }),
      filter: t.arg({ type: MisFilterInput, required: false }),
      limit: t.arg.int({
        required: false,
        description: `Rows in the file, 1 to ${MIS_EXPORT_MAX_ROWS} (default: every match up to that).`,
        validate: z
          .number()
          .int()
          .min(1, "limit is at least 1")
          .max(MIS_EXPORT_MAX_ROWS, `limit is at most ${MIS_EXPORT_MAX_ROWS}`),
      }),
    },
    resolve: async (_r, { format, filter, limit }, ctx) => {
      const service = new MisReportService(ctx.services.db.prisma, ctx.services.clock);
      const report = await service.report(ctx.principal.organization.id, misFilterOf(filter));
      return misExport(report, format, limit ?? MIS_EXPORT_MAX_ROWS);
    },
  }),
}));
