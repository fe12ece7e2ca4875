import { OUTCOMES } from "../../../src/http/outcomes";
import {
  DashOpenTicketDocument,
  DashReplyTicketDocument,
  DashTicketDocument,
  DashTicketsDocument,
  type TicketPriority,
  type TicketType,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, time } from "../html";
import type { Mount } from "../mount";

export const TYPES: Record<TicketType, string> = {
  QUESTION: "Question",
  INCIDENT: "Incident (something is broken)",
  PROBLEM: "Problem (something keeps going wrong)",
  TASK: "Task (please do something)",
};
export const PRIORITIES: Record<TicketPriority, string> = {
  LOW: "Low",
  NORMAL: "Normal",
  HIGH: "High",
  URGENT: "Urgent",
};
export const STATUS: Record<string, string> = {
  NEW: "● New",
  OPEN: "◐ Open",
  PENDING: "◌ Waiting on you",
  ON_HOLD: "■ On hold",
  SOLVED: "✓ Solved",
  CLOSED: "✓ Closed",
};

const field = (body: Record<string, unknown>, k: string) =>
  typeof body[k] === "string" ? (body[k] as string).trim() : "";

/** Support tickets: the organisation's list, opening one, and a ticket's replies with a reply form. */
interface TicketView {
  ticketNumber: string;
  status: string;
  type: TicketType;
  priority: TicketPriority;
  relatedReference?: string | null;
  createdAt: string;
  body: string;
  replies: readonly { author: string; authorName: string; body: string; createdAt: string }[];
}

/**
 * A ticket's facts card, as the customer's page and the operator's support queue both show it: the
 * heading, the status in the reader's words, and any rows that only one of them shows.
 */
export function ticketFactsCard(
  ticket: TicketView,
  heading: string,
  statusLabels: Record<string, string>,
  extraRows = "",
): string {
  return `<section class="card" aria-labelledby="ticket-facts"><h2 id="ticket-facts">${esc(heading)}</h2>
<dl class="facts">
<div><dt>Status</dt><dd>${esc(statusLabels[ticket.status] ?? ticket.status)}</dd></div>
<div><dt>Type</dt><dd>${esc(TYPES[ticket.type] ?? ticket.type)}</dd></div>
<div><dt>Priority</dt><dd>${esc(PRIORITIES[ticket.priority] ?? ticket.priority)}</dd></div>
<div><dt>Shipment</dt><dd>${ticket.relatedReference ? esc(ticket.relatedReference) : "—"}</dd></div>
<div><dt>Opened</dt><dd>${time(ticket.createdAt)}</dd></div>${extraRows}
</dl><p class="pre-line">${esc(ticket.body)}</p></section>`;
}

/** A ticket's replies, oldest first; `empty` says what happens next when there are none. */
export function ticketReplies(ticket: Pick<TicketView, "replies">, empty: string): string {
  return ticket.replies.length === 0
    ? `<p>${esc(empty)}</p>`
    : `<ol class="replies">${ticket.replies
        .map(
          (r) =>
            `<li><p><strong>${esc(r.authorName)}</strong> <span class="muted">(${esc(r.author)})</span> ${time(r.createdAt)}</p><p class="pre-line">${esc(r.body)}</p></li>`,
        )
        .join("")}</ol>`;
}

export function mountTicketPages(get: Mount, post: Mount): void {
  get("/dashboard/tickets", (s) => ticketsPage(s));
  post("/dashboard/tickets", async (s) => {
    const body = s.req.body as Record<string, unknown>;
    const type = field(body, "type") as TicketType;
    const priority = field(body, "priority") as TicketPriority;
    const reference = field(body, "shipmentReference");
    const opened = await s.run(
      s.deps.run(s.caller, DashOpenTicketDocument, {
        subject: field(body, "subject"),
        body: field(body, "body"),
        type: type in TYPES ? type : ("QUESTION" as TicketType),
        priority: priority in PRIORITIES ? priority : undefined,
        shipmentReference: reference || undefined,
      }),
    );
    // Post/redirect/get: reloading the ticket never opens it twice.
    if (opened)
      return void s.res.redirect(303, `/dashboard/tickets/${opened.openTicket.ticketNumber}?opened=1`);
    await ticketsPage(s, refusal(s).html, refusal(s).status, body);
  });
  get("/dashboard/tickets/:number", (s) =>
    ticketPage(s, s.req.query.opened === "1" ? notice("ok", "Ticket opened. We answer here.") : ""),
  );
  post("/dashboard/tickets/:number/replies", async (s) => {
    const ticketNumber = String(s.req.params.number);
    const body = field(s.req.body as Record<string, unknown>, "body");
    const done = await s.run(s.deps.run(s.caller, DashReplyTicketDocument, { ticketNumber, body }));
    if (done)
      return void s.res.redirect(303, `/dashboard/tickets/${encodeURIComponent(ticketNumber)}#replies`);
    await ticketPage(s, refusal(s).html, refusal(s).status, body);
  });
}

async function ticketsPage(
  s: Signed,
  message = "",
  status?: number,
  values: Record<string, unknown> = {},
): Promise<void> {
  const data = await s.run(s.deps.run(s.caller, DashTicketsDocument));
  const loadError = data ? "" : refusal(s).html;
  const tickets = data?.tickets ?? [];
  const list =
    tickets.length === 0
      ? emptyState("No tickets yet. Open one below when you need help from the team running this service.")
      : `<div class="table-wrap"><table aria-label="Support tickets"><thead><tr><th scope="col">Ticket</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col" class="hide-narrow">Type</th><th scope="col" class="hide-narrow">Priority</th><th scope="col" class="hide-narrow">Shipment</th><th scope="col">Updated</th></tr></thead><tbody>${tickets
          .map(
            (t) =>
              `<tr><td><a href="/dashboard/tickets/${esc(t.ticketNumber)}">${esc(t.ticketNumber)}</a></td><td>${esc(t.subject)}</td><td>${esc(STATUS[t.status] ?? t.status)}</td><td class="hide-narrow">${esc(TYPES[t.type]?.split(" (")[0] ?? t.type)}</td><td class="hide-narrow">${esc(PRIORITIES[t.priority] ?? t.priority)}</td><td class="hide-narrow">${esc(t.relatedReference ?? "—")}</td><td>${time(t.updatedAt)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  const v = (k: string) => esc(field(values, k));
  const form = `<form method="post" action="/dashboard/tickets" class="card" aria-labelledby="open-ticket"><h2 id="open-ticket">Open a ticket</h2>${csrfField(s.session.csrfToken)}
<label for="t-subject">Subject</label><input id="t-subject" name="subject" required maxlength="200" size="40" value="${v("subject")}">
<label for="t-body">What happened, or what you need</label><textarea id="t-body" name="body" required>${v("body")}</textarea>
<div class="row">
<div><label for="t-type">Type</label><select id="t-type" name="type">${Object.entries(TYPES)
    .map(
      ([k, label]) =>
        `<option value="${k}"${field(values, "type") === k ? " selected" : ""}>${esc(label)}</option>`,
    )
    .join("")}</select></div>
<div><label for="t-priority">Priority</label><select id="t-priority" name="priority">${Object.entries(
    PRIORITIES,
  )
    .map(
      ([k, label]) =>
        `<option value="${k}"${(field(values, "priority") || "NORMAL") === k ? " selected" : ""}>${esc(label)}</option>`,
    )
    .join("")}</select></div>
<div><label for="t-shipment">Shipment reference (optional)</label><input id="t-shipment" name="shipmentReference" size="16" value="${v("shipmentReference")}"></div>
</div>
<p><button type="submit">Open ticket</button></p></form>`;
  s.render("Support tickets", "/dashboard/tickets", `${message}${loadError}${list}${form}`, status);
}

async function ticketPage(s: Signed, message = "", status?: number, draft = ""): Promise<void> {
  const ticketNumber = String(s.req.params.number);
  const data = await s.run(s.deps.run(s.caller, DashTicketDocument, { ticketNumber }));
  const ticket = data?.ticket;
  if (!ticket) {
    return s.render(
      "Ticket not found",
      "/dashboard/tickets",
      `${message}${emptyState("Your organisation has no ticket with this number.", { href: "/dashboard/tickets", label: "Back to tickets" })}`,
      data ? OUTCOMES.not_found.v1.status : refusal(s).status,
    );
  }
  const facts = ticketFactsCard(ticket, ticket.ticketNumber, STATUS);
  const replies = `<section class="card" aria-labelledby="replies"><h2 id="replies">Replies</h2>${ticketReplies(
    ticket,
    "No reply yet. The team answers here; add more detail below meanwhile.",
  )}
<form method="post" action="/dashboard/tickets/${esc(ticket.ticketNumber)}/replies">${csrfField(s.session.csrfToken)}
<label for="reply-body">Your reply</label><textarea id="reply-body" name="body" required>${esc(draft)}</textarea>
<p><button type="submit">Send reply</button></p></form></section>`;
  s.render(
    ticket.subject,
    "/dashboard/tickets",
    `${message}<p><a href="/dashboard/tickets">All tickets</a></p>${facts}${replies}`,
    status,
  );
}
