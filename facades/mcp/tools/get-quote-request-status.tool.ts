import { z } from "zod";
import { McpQuoteRequestsDocument } from "../../generated/operations";
import { instant } from "../render/shipment";
import { answer, defineTool, refusalOf } from "../tool";

const STATUSES = ["PENDING", "QUOTED", "DECLINED", "EXPIRED", "BOOKING_REQUESTED", "BOOKED"] as const;
const LISTED = 50;

const output = z.object({
  total: z.number().int().describe("Every quote request your organisation has made"),
  hasMore: z.boolean().describe("More requests exist than the newest 50 listed"),
  requests: z
    .array(
      z.object({
        id: z.string().describe("RFQ-<digits>"),
        status: z
          .enum(STATUSES)
          .describe(
            "PENDING (waiting for a quote: do not ask again), QUOTED, DECLINED, EXPIRED (the quote's validity ended), BOOKING_REQUESTED, BOOKED",
          ),
        origin: z.string().describe("UN/LOCODE"),
        destination: z.string().describe("UN/LOCODE"),
        containerType: z.string().describe("e.g. 40HC"),
        quantity: z.number().int(),
        readyDate: z.string().describe("YYYY-MM-DD"),
        commodity: z.string(),
        createdAt: instant,
        updatedAt: instant,
        quote: z
          .object({
            total: z.number(),
            currency: z.string().describe("ISO 4217"),
            validUntil: instant,
            carrier: z.string().describe("SCAC"),
            transitDays: z.number().int(),
          })
          .nullable()
          .describe("Null until quoted"),
        declineReason: z
          .string()
          .nullable()
          .describe("Why the request was declined, when it was and a reason was given"),
        bookingReference: z.string().nullable().describe("The carrier's booking reference once BOOKED"),
      }),
    )
    .describe("Newest first, at most 50"),
});

export const getQuoteRequestStatus = defineTool({
  name: "get_quote_request_status",
  title: "Quote requests",
  description:
    "Your organisation's freight quote requests, newest first, with their status and, once quoted, the price, currency, validity, carrier and transit days; a declined request's reason and a booked one's booking reference. Takes no arguments: the key decides the organisation. Ask for quotes or bookings from the dashboard.",
  input: z.object({}),
  output,
  async call(_args, context) {
    const result = await context.run(McpQuoteRequestsDocument, { limit: LISTED });
    if (!result.ok) return refusalOf(result);
    const { quoteRequests, quoteRequestCount } = result.data;
    return answer({
      total: quoteRequestCount,
      hasMore: quoteRequestCount > quoteRequests.length,
      requests: quoteRequests.map((r) => ({
        id: r.requestNumber,
        status: r.status,
        origin: r.origin,
        destination: r.destination,
        containerType: r.containerType,
        quantity: r.quantity,
        readyDate: r.readyDate,
        commodity: r.commodity,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        quote: r.quote
          ? {
              total: r.quote.total,
              currency: r.quote.currency,
              validUntil: r.quote.validUntil,
              carrier: r.quote.carrierScac,
              transitDays: r.quote.transitDays,
            }
          : null,
        declineReason: r.declineReason ?? null,
        bookingReference: r.bookingReference ?? null,
      })),
    });
  },
});
