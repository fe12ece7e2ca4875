import type { QuoteRequest, SupportTicket, SupportTicketReply } from "../../generated/prisma/client";
import { findCarrierByScac } from "../carriers/carrier-directory";
import { findPortEntry } from "../ports/port-directory";
import { quoteRequestNumber, ticketNumber } from "../workspace/numbers";
import type { MailLinks } from "./messages";
import { type ComposedMail, dayWords, when, workspaceMail } from "./messages";

/**
 * What happened in the workspace that someone waits for (issue 43 item 5): the operator hears of new
 * tickets, customer replies, quote requests and booking requests; the customer hears of answers,
 * status changes, quotes, declines, bookings, and a quote about to expire.
 */
export type WorkspaceEvent =
  | { kind: "ticket_opened" | "ticket_customer_reply"; ticket: TicketFacts }
  | { kind: "ticket_answered" | "ticket_status"; ticket: TicketFacts }
  | { kind: "quote_requested" | "booking_requested"; request: QuoteRequest }
  | { kind: "quoted" | "declined" | "booked" | "quote_expiring"; request: QuoteRequest };

export type TicketFacts = SupportTicket & { replies: SupportTicketReply[]; organization: { name: string } };

/** Who a workspace event is for: the deployment's operator, or the customer who asked. */
export function audienceOf(event: WorkspaceEvent): "operator" | "customer" {
  return ["ticket_opened", "ticket_customer_reply", "quote_requested", "booking_requested"].includes(
    event.kind,
  )
    ? "operator"
    : "customer";
}

const TICKET_STATUS_WORDS: Record<string, string> = {
  NEW: "new",
  OPEN: "open",
  PENDING: "waiting for your answer",
  ON_HOLD: "on hold",
  SOLVED: "solved",
  CLOSED: "closed",
};

const TYPE_WORDS: Record<string, string> = {
  "20GP": "20' dry",
  "40GP": "40' dry",
  "40HC": "40' high cube",
  "45HC": "45' high cube",
  "20RF": "20' reefer",
  "40RF": "40' reefer",
  "20OT": "20' open top",
  "40OT": "40' open top",
  "20FR": "20' flat rack",
  "40FR": "40' flat rack",
  "20TK": "20' tank",
};

function portWords(locode: string): string {
  const port = findPortEntry(locode);
  return port ? `${port.name}${port.country ? `, ${port.country}` : ""}` : "a port";
}

const quoteRoute = (r: QuoteRequest) =>
  `${r.quantity} x ${TYPE_WORDS[r.containerType] ?? "container"} from ${portWords(r.originLocode)} to ${portWords(r.destinationLocode)}`;

const latestReply = (ticket: TicketFacts) => ticket.replies.at(-1)?.body ?? ticket.body;

/** The page of a workspace event, in the recipient's zone; `base` is the deployment's public URL. */
export function workspaceEventMail(
  event: WorkspaceEvent,
  base: string,
  zone: string,
  links: MailLinks,
): ComposedMail {
  const operatorReason = "You receive this because you operate this Quayside deployment.";
  if ("ticket" in event) {
    const t = event.ticket;
    const name = ticketNumber(t.number);
    const ticketFacts: [string, string][] = [
      ["Ticket", `${name}, ${t.subject}`],
      ["Status", TICKET_STATUS_WORDS[t.status] ?? "open"],
      ...(t.relatedReference ? ([["Shipment", t.relatedReference]] as [string, string][]) : []),
    ];
    const quote = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}...` : text);
    switch (event.kind) {
      case "ticket_opened":
      case "ticket_customer_reply":
        return workspaceMail(
          {
            subject: `${event.kind === "ticket_opened" ? "New ticket" : "Customer replied"} from ${t.organization.name}: ${t.subject}`,
            headline:
              event.kind === "ticket_opened"
                ? `${t.organization.name} opened ticket ${name}.`
                : `${t.organization.name} replied on ticket ${name}.`,
            facts: [["Customer", t.organization.name], ...ticketFacts],
            meaning: [quote(latestReply(t))],
            action: { label: "Answer in the support queue", url: `${base}/dashboard/operations/tickets` },
          },
          links,
          operatorReason,
        );
      case "ticket_answered":
        return workspaceMail(
          {
            subject: `Support answered your ticket ${name}: ${t.subject}`,
            headline: `Quayside support answered your ticket ${name}.`,
            facts: ticketFacts,
            meaning: [quote(latestReply(t)), "Reply in the dashboard if you need more help."],
            action: { label: "Open the ticket", url: `${base}/dashboard/tickets/${name}` },
          },
          links,
          "You receive this because you opened this ticket in Quayside.",
        );
      default:
        return workspaceMail(
          {
            subject: `Your ticket ${name} is now ${TICKET_STATUS_WORDS[t.status] ?? "open"}`,
            headline: `Your ticket ${name} is now ${TICKET_STATUS_WORDS[t.status] ?? "open"}.`,
            facts: ticketFacts,
            meaning:
              t.status === "SOLVED"
                ? ["If the problem is not solved, reply and the ticket opens again."]
                : t.status === "CLOSED"
                  ? ["A closed ticket takes no more replies; open a new one if you need help."]
                  : [],
            action: { label: "Open the ticket", url: `${base}/dashboard/tickets/${name}` },
          },
          links,
          "You receive this because you opened this ticket in Quayside.",
        );
    }
  }
  const r = event.request;
  const name = quoteRequestNumber(r.number);
  const facts: [string, string][] = [
    ["Request", name],
    ["Freight", quoteRoute(r)],
    ["Ready", dayWords(r.readyDate.toISOString().slice(0, 10))],
    ["Commodity", r.commodity],
  ];
  const customerReason = "You receive this because you asked for this quote in Quayside.";
  const open = { label: "Open Quayside", url: `${base}/dashboard` };
  const price = r.quoteTotal !== null ? `${r.quoteCurrency} ${Number(r.quoteTotal).toFixed(2)}` : "";
  const carrier = r.quoteCarrierScac ? (findCarrierByScac(r.quoteCarrierScac)?.name ?? "the carrier") : "";
  switch (event.kind) {
    case "quote_requested":
    case "booking_requested":
      return workspaceMail(
        {
          subject: `${event.kind === "quote_requested" ? "Quote request" : "Booking requested"} ${name}: ${quoteRoute(r)}`,
          headline:
            event.kind === "quote_requested"
              ? `A customer asks for a quote (${name}).`
              : `A customer accepted quote ${name} and asks you to book it.`,
          facts: [
            ...facts,
            ...(price ? ([["Quoted", `${price} with ${carrier}`]] as [string, string][]) : []),
          ],
          meaning: [],
          action: { label: "Open the quote requests", url: `${base}/dashboard/operations/quotes` },
        },
        links,
        operatorReason,
      );
    case "quoted":
      return workspaceMail(
        {
          subject: `Your quote ${name}: ${price}`,
          headline: `Your quote for ${quoteRoute(r)} is ready: ${price} with ${carrier}.`,
          facts: [
            ...facts,
            ["Price", price],
            ["Carrier", carrier],
            ["Transit", `${r.quoteTransitDays} days`],
            ["Valid until", when(r.quoteValidUntil, zone)],
          ],
          meaning: ["Ask for the booking before the quote expires; after that the price no longer holds."],
          action: open,
        },
        links,
        customerReason,
      );
    case "quote_expiring":
      return workspaceMail(
        {
          subject: `Your quote ${name} expires ${when(r.quoteValidUntil, zone)}`,
          headline: `The quote for ${quoteRoute(r)} (${price} with ${carrier}) expires ${when(r.quoteValidUntil, zone)}.`,
          facts: [...facts, ["Price", price], ["Valid until", when(r.quoteValidUntil, zone)]],
          meaning: ["Ask for the booking before then, or the quote lapses and a new one must be asked for."],
          action: open,
        },
        links,
        customerReason,
      );
    case "declined":
      return workspaceMail(
        {
          subject: `Quote request ${name} declined`,
          headline: `Your quote request ${name} for ${quoteRoute(r)} was declined.`,
          facts: [...facts, ["Reason", r.declineReason ?? "No reason was given."]],
          meaning: ["You can ask again with other dates or ports."],
          action: open,
        },
        links,
        customerReason,
      );
    default:
      return workspaceMail(
        {
          subject: `Booked: ${name}, booking ${r.bookingReference}`,
          headline: `Your freight for ${quoteRoute(r)} is booked.`,
          facts: [
            ...facts,
            ["Booking reference", r.bookingReference ?? ""],
            ["Price", price],
            ["Carrier", carrier],
          ],
          meaning: ["Track the booking in Quayside with its booking reference once the carrier confirms it."],
          action: open,
        },
        links,
        customerReason,
      );
  }
}
