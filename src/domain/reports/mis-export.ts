import { stringify } from "csv-stringify/sync";
// exceljs is CommonJS: its default export is the module object, under Node's ESM loader and vitest alike.
import ExcelJS from "exceljs";
import type { MisCarrierFigures, MisFigures, MisReportData, MisRow } from "./mis-figures";

export type MisExportFormat = "csv" | "xlsx";

export interface MisExportFile {
  fileName: string;
  contentType: string;
  content: Buffer;
  /** Shipment rows in the file. */
  rows: number;
}

/** The most rows an export holds; the totals always count every matching shipment. */
export const MIS_EXPORT_MAX_ROWS = 10_000;

type Cell = string | number | Date | null;

const ROW_COLUMNS: { header: string; value: (r: MisRow) => Cell; width: number }[] = [
  { header: "shipment_id", value: (r) => r.shipmentId, width: 12 },
  { header: "reference", value: (r) => r.reference, width: 22 },
  { header: "shipment_type", value: (r) => r.type, width: 15 },
  { header: "sealine", value: (r) => r.sealine, width: 9 },
  { header: "status", value: (r) => r.status, width: 12 },
  { header: "origin", value: (r) => r.origin, width: 26 },
  { header: "destination", value: (r) => r.destination, width: 26 },
  // Instants stay dates: ISO 8601 text in the CSV, date cells (UTC) in the XLSX, so a spreadsheet
  // sorts and filters them as dates (issue 43).
  { header: "atd", value: (r) => r.atd, width: 20 },
  { header: "first_eta", value: (r) => r.firstEta, width: 20 },
  { header: "eta", value: (r) => r.eta, width: 20 },
  { header: "ata", value: (r) => r.ata, width: 20 },
  { header: "delay_days", value: (r) => r.delayDays, width: 11 },
  { header: "delay_status", value: (r) => r.delayStatus, width: 13 },
  { header: "customer", value: (r) => r.customer, width: 22 },
];

const FIGURE_COLUMNS: { header: string; value: (f: MisFigures) => number | null }[] = [
  { header: "shipments", value: (f) => f.shipments },
  { header: "active", value: (f) => f.active },
  { header: "delivered", value: (f) => f.delivered },
  { header: "delayed", value: (f) => f.delayed },
  { header: "on_time", value: (f) => f.onTime },
  { header: "early", value: (f) => f.early },
  { header: "unknown", value: (f) => f.unknown },
  { header: "assessed", value: (f) => f.assessed },
  { header: "on_time_pct", value: (f) => f.onTimePct },
  { header: "avg_delay_days", value: (f) => f.avgDelayDays },
  { header: "p90_delay_days", value: (f) => f.p90DelayDays },
];

/** How date cells read in the XLSX: the instant in UTC (ExcelJS writes a Date as its UTC serial). */
const DATE_FORMAT = "yyyy-mm-dd hh:mm:ss";

/** `quayside-mis-2026-11-26T2130Z.csv`: the moment it was made, sortable, no characters a file system refuses. */
export function misFileName(generatedAt: Date, format: MisExportFormat): string {
  const stamp = generatedAt.toISOString().slice(0, 16).replace(":", "");
  return `quayside-mis-${stamp}Z.${format}`;
}

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a
 * leading apostrophe: references and customer names come from users (CSV injection, OWASP).
 */
function inert(value: Cell): Cell {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const asText = (value: Cell) => (value instanceof Date ? value.toISOString() : value);

/** CSV: one line per shipment (the rows); totals and per-carrier figures are in the XLSX and GraphQL. */
export function misCsv(report: MisReportData, rows: readonly MisRow[]): MisExportFile {
  const text = stringify(
    rows.map((r) => ROW_COLUMNS.map((c) => asText(inert(c.value(r))))),
    { header: true, columns: ROW_COLUMNS.map((c) => c.header), bom: true },
  );
  return {
    fileName: misFileName(report.generatedAt, "csv"),
    contentType: "text/csv; charset=utf-8",
    content: Buffer.from(text, "utf8"),
    rows: rows.length,
  };
}

/** XLSX: sheets Summary (totals), Carriers (per carrier) and Shipments (the rows). */
export async function misXlsx(report: MisReportData, rows: readonly MisRow[]): Promise<MisExportFile> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Quayside";
  workbook.created = report.generatedAt;
  const summary = workbook.addWorksheet("Summary");
  summary.columns = [
    { header: "figure", key: "figure", width: 18 },
    { header: "value", key: "value", width: 14 },
  ];
  summary.addRow({ figure: "generated_at", value: report.generatedAt }).getCell("value").numFmt = DATE_FORMAT;
  for (const c of FIGURE_COLUMNS) summary.addRow({ figure: c.header, value: c.value(report.totals) });

  const carriers = workbook.addWorksheet("Carriers");
  carriers.columns = [
    { header: "sealine", key: "sealine", width: 9 },
    ...FIGURE_COLUMNS.map((c) => ({ header: c.header, key: c.header, width: 14 })),
  ];
  for (const carrier of report.byCarrier) carriers.addRow(carrierLine(carrier));

  const shipments = workbook.addWorksheet("Shipments");
  shipments.columns = ROW_COLUMNS.map((c) => ({
    header: c.header,
    key: c.header,
    width: c.width,
    ...(["atd", "first_eta", "eta", "ata"].includes(c.header) ? { style: { numFmt: DATE_FORMAT } } : {}),
  }));
  for (const r of rows) shipments.addRow(ROW_COLUMNS.map((c) => inert(c.value(r))));
  for (const sheet of [summary, carriers, shipments]) sheet.getRow(1).font = { bold: true };

  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  return {
    fileName: misFileName(report.generatedAt, "xlsx"),
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    content,
    rows: rows.length,
  };
}

function carrierLine(carrier: MisCarrierFigures): Record<string, string | number | null> {
  return {
    sealine: carrier.sealine ?? "",
    ...Object.fromEntries(FIGURE_COLUMNS.map((c) => [c.header, c.value(carrier)])),
  };
}

export async function misExport(
  report: MisReportData,
  format: MisExportFormat,
  limit = MIS_EXPORT_MAX_ROWS,
): Promise<MisExportFile> {
  const rows = report.rows.slice(0, Math.min(limit, MIS_EXPORT_MAX_ROWS));
  return format === "csv" ? misCsv(report, rows) : misXlsx(report, rows);
}
