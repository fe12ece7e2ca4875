import { DashMisExportDocument, DashMisReportDocument } from "../../generated/operations";
import { emptyState, refusal } from "../context";
import { esc, time } from "../html";
import type { Mount } from "../mount";

const days = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : `${value > 0 ? "+" : ""}${value.toFixed(1)} days`;
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : `${value.toFixed(1)} %`;

/**
 * The MIS report: the organisation's totals and per-carrier figures as the core computes them, and
 * its XLSX or CSV file (misReportExport) downloaded with the session.
 */
export function mountReportPages(get: Mount): void {
  get("/dashboard/reports", async (s) => {
    const data = await s.run(s.deps.run(s.caller, DashMisReportDocument));
    if (!data?.misReport) {
      const r = refusal(s);
      return s.render("Reports", "/dashboard/reports", r.html, r.status);
    }
    const { totals, byCarrier, generatedAt } = data.misReport;
    const tiles = `<ul class="tiles" aria-label="Totals"><li><strong>${totals.shipments}</strong>shipments tracked</li><li><strong>${pct(totals.onTimePct)}</strong>on time (of ${totals.assessed} with a known delay)</li><li><strong>${days(totals.avgDelayDays)}</strong>average delay against the first ETA</li><li><strong>${days(totals.p90DelayDays)}</strong>delay 9 shipments in 10 stay within</li></ul>`;
    const carriers =
      byCarrier.length === 0
        ? emptyState("No shipments yet: the report fills as you track.")
        : `<div class="table-wrap"><table aria-label="Per carrier"><thead><tr><th scope="col">Carrier</th><th scope="col">Shipments</th><th scope="col">On time</th><th scope="col">Average delay</th><th scope="col">Delayed</th></tr></thead><tbody>${byCarrier
            .map(
              (c) =>
                `<tr><td>${esc(c.sealineName ?? c.sealine ?? "No carrier recorded")}${c.sealineName && c.sealine ? ` <span class="muted">(${esc(c.sealine)})</span>` : ""}</td><td>${c.shipments}</td><td>${pct(c.onTimePct)}</td><td>${days(c.avgDelayDays)}</td><td>${c.delayed}</td></tr>`,
            )
            .join("")}</tbody></table></div>`;
    s.render(
      "Reports",
      "/dashboard/reports",
      `<p>The management (MIS) report of every tracked shipment, as of ${time(generatedAt)}: delays are measured against the first ETA Quayside recorded.</p>${tiles}<h2>Per carrier</h2>${carriers}<h2>Download</h2><p><a href="/dashboard/reports/mis.xlsx" download>Download the report as an Excel workbook (XLSX)</a></p><p><a href="/dashboard/reports/mis.csv" download>Download the shipments as CSV</a></p>`,
    );
  });
  for (const format of ["xlsx", "csv"] as const) {
    get(`/dashboard/reports/mis.${format}`, async (s) => {
      const data = await s.run(
        s.deps.run(s.caller, DashMisExportDocument, { format: format === "xlsx" ? "XLSX" : "CSV" }),
      );
      const file = data?.misReportExport;
      if (!file) {
        const r = refusal(s);
        return s.render("Reports", "/dashboard/reports", r.html, r.status);
      }
      s.res.setHeader("Cache-Control", "no-store");
      s.res.setHeader(
        "Content-Disposition",
        `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, "")}"`,
      );
      s.res.type(file.contentType).send(Buffer.from(file.contentBase64, "base64"));
    });
  }
}
