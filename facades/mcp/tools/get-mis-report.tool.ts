import { z } from "zod";
import { DelayStatus, McpMisReportDocument, ShipmentStatus } from "../../generated/operations";
import { instant } from "../render/shipment";
import { answer, defineTool, refusalOf } from "../tool";

const STATUSES = Object.values(ShipmentStatus);
const DELAY_STATUSES = Object.values(DelayStatus);
const SHIPMENT_TYPES = ["Container", "Bill of Lading"] as const;

const figures = {
  shipments: z.number().int().describe("Tracked shipments that match the filters"),
  active: z.number().int().describe("Still moving: not delivered or cancelled"),
  delivered: z.number().int(),
  delayed: z.number().int().describe("Arrival more than a day later than the first ETA"),
  onTime: z.number().int().describe("Arrival within a day of the first ETA, either way"),
  early: z.number().int().describe("Arrival more than a day earlier than the first ETA"),
  unknown: z.number().int().describe("No first ETA or arrival yet, or cancelled: not assessed"),
  assessed: z
    .number()
    .int()
    .describe("Shipments whose delay is known: the denominator of onTimePct, avgDelayDays and p90DelayDays"),
  onTimePct: z
    .number()
    .nullable()
    .describe("onTime / assessed × 100, one decimal; null when none is assessed"),
  avgDelayDays: z
    .number()
    .nullable()
    .describe("Mean of arrival minus first ETA, in days (negative: early); null when none is assessed"),
  p90DelayDays: z
    .number()
    .nullable()
    .describe(
      "90th percentile (nearest rank) of arrival minus first ETA, in days; null when none is assessed",
    ),
};

const output = z.object({
  generatedAt: z.string().describe("ISO 8601 instant in UTC when the report was computed"),
  filters: z
    .object({
      status: z.string().nullable(),
      delayStatus: z.string().nullable(),
      shipmentType: z.string().nullable(),
      sealine: z.string().nullable(),
      q: z.string().nullable(),
      limit: z.number().int(),
    })
    .describe("The filters applied (null: not filtered)"),
  totals: z.object(figures),
  byCarrier: z
    .array(
      z.object({
        sealine: z.string().nullable().describe("SCAC; null for shipments no carrier is recorded for"),
        sealineName: z.string().nullable(),
        ...figures,
      }),
    )
    .describe("Per carrier, most shipments first"),
  rowsTotal: z.number().int().describe("Shipments matching the filters; rows holds the first `limit`"),
  rows: z
    .array(
      z.object({
        shipmentId: z.string().describe("SHP-<digits>"),
        reference: z.string(),
        shipmentType: z.string().describe("Container or Bill of Lading"),
        sealine: z.string().nullable(),
        status: z.string().describe("PLANNED, IN_TRANSIT, DELIVERED, CANCELLED or UNKNOWN"),
        origin: z.string().nullable(),
        destination: z.string().nullable(),
        atd: instant.describe("Departure from the port of loading; null before it happened"),
        firstEta: instant.describe("The first estimated arrival Quayside recorded"),
        eta: instant.describe("The current ETA, or the arrival"),
        ata: instant.describe("Vessel arrival at the final port of discharge; null until then"),
        delayDays: z.number().nullable().describe("Arrival (ATA, else ETA) minus first ETA, in days"),
        delayStatus: z.enum(DELAY_STATUSES),
        customer: z.string().nullable(),
      }),
    )
    .describe("Newest first"),
});

export const getMisReport = defineTool({
  name: "get_mis_report",
  title: "MIS report",
  description:
    "Your organisation's management report over its tracked shipments: how many are active, delivered, delayed and on time (with the on-time share), the average and 90th-percentile delay against the first ETA Quayside recorded, the same per carrier, and the shipments themselves with each one's delay. Delayed means more than a day later than the first ETA. Stored data only: no carrier is called.",
  input: z.object({
    status: z.enum(STATUSES).optional().describe("Only shipments with this status, e.g. IN_TRANSIT"),
    delayStatus: z
      .enum(DELAY_STATUSES)
      .optional()
      .describe("Only delayed, early, on_time or unknown shipments, e.g. delayed"),
    shipmentType: z
      .enum(SHIPMENT_TYPES)
      .optional()
      .describe("Container, or Bill of Lading (bookings included)"),
    sealine: z
      .string()
      .regex(/^[A-Za-z0-9]{4}$/, "a 4-character SCAC")
      .optional()
      .describe("Only this carrier's shipments, by SCAC, e.g. MAEU"),
    q: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe(
        "Part of a reference, an SHP id, or part of the customer, origin or destination, e.g. Rotterdam",
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe("Shipment rows to answer, 1 to 100 (default 20)"),
  }),
  output,
  async call({ status, delayStatus, shipmentType, sealine, q, limit }, context) {
    const rows = limit ?? 20;
    const filter = {
      status: status ?? null,
      delayStatus: delayStatus ?? null,
      shipmentType: shipmentType ?? null,
      sealine: sealine?.toUpperCase() ?? null,
      q: q || null,
    };
    const result = await context.run(McpMisReportDocument, { filter, limit: rows });
    if (!result.ok) return refusalOf(result);
    const r = result.data.misReport!;
    const figuresOf = (f: typeof r.totals) => ({
      shipments: f.shipments,
      active: f.active,
      delivered: f.delivered,
      delayed: f.delayed,
      onTime: f.onTime,
      early: f.early,
      unknown: f.unknown,
      assessed: f.assessed,
      onTimePct: f.onTimePct,
      avgDelayDays: f.avgDelayDays,
      p90DelayDays: f.p90DelayDays,
    });
    return answer({
      generatedAt: r.generatedAt,
      filters: { ...filter, limit: rows },
      totals: figuresOf(r.totals),
      byCarrier: r.byCarrier.map((c) => ({
        sealine: c.sealine,
        sealineName: c.sealineName,
        ...figuresOf(c),
      })),
      rowsTotal: r.rowsTotal,
      rows: r.rows.map((row) => ({
        shipmentId: row.shipmentId,
        reference: row.reference,
        shipmentType: row.shipmentType,
        sealine: row.sealine,
        status: row.status,
        origin: row.origin,
        destination: row.destination,
        atd: row.atd,
        firstEta: row.firstEta,
        eta: row.eta,
        ata: row.ata,
        delayDays: row.delayDays,
        delayStatus: row.delayStatus,
        customer: row.customer,
      })),
    });
  },
});
