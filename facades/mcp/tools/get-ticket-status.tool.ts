import { z } from "zod";
import { McpTicketStatusDocument } from "../../generated/operations";
import { instant } from "../render/shipment";
import { answer, defineTool, refusal, refusalOf } from "../tool";

const STATUSES = ["new", "open", "pending", "on_hold", "solved", "closed"] as const;
const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
const TYPES = ["question", "incident", "problem", "task"] as const;

const output = z.object({
  ticketNumber: z.string().describe("TCK-<digits>"),
  subject: z.string(),
  status: z
    .enum(STATUSES)
    .describe("new (not answered yet), open, pending (waiting on you), on_hold, solved, closed"),
  priority: z.enum(PRIORITIES),
  type: z.enum(TYPES),
  relatedReference: z.string().nullable().describe("The shipment reference it was opened about"),
  createdAt: instant,
  updatedAt: instant,
  lastReplyAt: instant,
  lastReplyBy: z.enum(["customer", "staff"]).nullable().describe("customer (your team) or staff (support)"),
});

export const getTicketStatus = defineTool({
  name: "get_ticket_status",
  title: "Support ticket status",
  description:
    "Where one of your organisation's support tickets stands: status, priority, type, the shipment it is about, and who replied last and when. Reply or open tickets from the dashboard.",
  input: z.object({
    ticketNumber: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .describe("A ticket number, e.g. TCK-12 (case, spaces and hyphens are ignored)"),
  }),
  output,
  async call({ ticketNumber }, context) {
    const result = await context.run(McpTicketStatusDocument, { ticketNumber });
    if (!result.ok) return refusalOf(result);
    const t = result.data.ticket;
    if (!t) return refusal("not_found", `Your organisation has no ticket ${ticketNumber}.`);
    return answer({
      ticketNumber: t.ticketNumber,
      subject: t.subject,
      status: t.status.toLowerCase() as (typeof STATUSES)[number],
      priority: t.priority.toLowerCase() as (typeof PRIORITIES)[number],
      type: t.type.toLowerCase() as (typeof TYPES)[number],
      relatedReference: t.relatedReference ?? null,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      lastReplyAt: t.lastReplyAt ?? null,
      lastReplyBy: (t.lastReplyBy ?? null) as "customer" | "staff" | null,
    });
  },
});
