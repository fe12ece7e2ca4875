import { z } from "zod";
import { McpShipmentsDocument } from "../../generated/operations";
import { renderShipmentSummary, shipmentSummaryShape } from "../render/shipment";
import { answer, defineTool, refusalOf } from "../tool";

const STATUSES = ["PLANNED", "IN_TRANSIT", "DELIVERED", "CANCELLED", "UNKNOWN"] as const;

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "a date YYYY-MM-DD or an ISO 8601 date-time")
  .refine((v) => !Number.isNaN(Date.parse(v)), "not a calendar date");

const input = z.object({
  filter: z
    .object({
      status: z
        .array(z.enum(STATUSES))
        .max(5)
        .optional()
        .describe('Any of these statuses, e.g. ["IN_TRANSIT"]'),
      active: z
        .boolean()
        .optional()
        .describe("true: still moving (not delivered or cancelled); false: delivered or cancelled"),
      failed: z.boolean().optional().describe("true: no carrier has found the reference yet"),
      carrier: z
        .string()
        .regex(/^[A-Za-z0-9]{4}$/, "a 4-character SCAC")
        .optional()
        .describe("SCAC, e.g. MAEU"),
      customer: z.string().max(200).optional().describe("Part of the customer's name, any case, e.g. acme"),
      reference: z
        .string()
        .max(100)
        .optional()
        .describe("Part of the container, bill-of-lading or booking number, e.g. MSCU123"),
      etaFrom: day.optional().describe("ETA on or after this date, e.g. 2026-12-01"),
      etaTo: day.optional().describe("ETA on or before this date (the whole day), e.g. 2026-12-31"),
    })
    .optional()
    .describe("Which shipments; every criterion is optional and they combine with AND"),
  page: z.number().int().min(1).optional().describe("Page number, from 1 (default 1)"),
  pageSize: z.number().int().min(1).max(100).optional().describe("Shipments per page, 1 to 100 (default 20)"),
});

const output = z.object({
  total: z.number().int().describe("Shipments matching the filter"),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean().describe("More pages follow"),
  shipments: z.array(shipmentSummaryShape),
});

/** A date alone means its whole day: from its first instant, to its last. */
const instantOf = (value: string | undefined, endOfDay: boolean) => {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`;
  return new Date(value).toISOString();
};

export const listMyShipments = defineTool({
  name: "list_my_shipments",
  title: "List my shipments",
  description:
    "Lists the shipments your organisation tracks (teammates' included), newest first, with status, ETA, origin, destination and whether each is delayed. Filter by status, active, failed, carrier, customer, part of the number or ETA range. Stored data only: no carrier is called.",
  input,
  output,
  async call({ filter, page, pageSize }, context) {
    const result = await context.run(McpShipmentsDocument, {
      filter: filter
        ? {
            ...filter,
            carrier: filter.carrier?.toUpperCase(),
            etaFrom: instantOf(filter.etaFrom, false),
            etaTo: instantOf(filter.etaTo, true),
          }
        : null,
      page: page ?? 1,
      pageSize: pageSize ?? 20,
    });
    if (!result.ok) return refusalOf(result);
    const p = result.data.shipmentSearch!;
    return answer({
      total: p.total,
      page: p.page,
      pageSize: p.pageSize,
      hasMore: p.page * p.pageSize < p.total,
      shipments: p.items.map(renderShipmentSummary),
    });
  },
});
