import { OUTCOMES } from "../../../src/http/outcomes";
import {
  DashAnswerTicketDocument,
  DashOperatorTicketsDocument,
  DashSetTicketStatusDocument,
  type TicketStatus,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, time } from "../html";
import type { Mount } from "../mount";
import { PRIORITIES, ticketFactsCard, ticketReplies } from "./tickets";

/** The statuses as the operator reads them (the customer's page says "waiting on you" for PENDING). */
const STATUS: Record<TicketStatus, string> = {
  NEW: "● New",
  OPEN: "◐ Open",
  PENDING: "◌ Waiting on the customer",
  ON_HOLD: "■ On hold",
  SOLVED: "✓ Solved",
  CLOSED: "✓ Closed",
};
const QUEUE = "/dashboard/operations/tickets";

const field = (body: Record<string, unknown>, k: string) =>
  typeof body[k] === "string" ? (body[k] as string).trim() : "";
const statusOf = (value: string): TicketStatus | undefined =>
  value in STATUS ? (value as TicketStatus) : undefined;
const statusOptions = (selected: string, none?: string) =>
  `${none === undefined ? "" : `<option value="">${esc(none)}</option>`}${Object.entries(STATUS)
    .map(([k, label]) => `<option value="${k}"${selected === k ? " selected" : ""}>${esc(label)}</option>`)
    .join("")}`;

/**
 * The operator's support queue: every organisation's tickets, one ticket with its replies, answering
 * it (optionally changing its status) and changing its status. Only the operating organisation may
 * read or answer; the core refuses everyone else (OPERATOR_REQUIRED), shown as text.
 */
export function mountSupportQueuePages(get: Mount, post: Mount): void {
  get(QUEUE, (s) => queuePage(s));
  get(`${QUEUE}/:id`, (s) => {
    const done = s.req.query.done;
    const message =
      done === "answered"
        ? notice("ok", "Answer sent. The customer sees it on their ticket.")
        : done === "status"
          ? notice("ok", "Status changed.")
          : "";
    return ticketPage(s, message);
  });
  post(`${QUEUE}/:id/answer`, async (s) => {
    const id = String(s.req.params.id);
    const body = s.req.body as Record<string, unknown>;
    const reply = field(body, "body");
    const done = await s.run(
      s.deps.run(s.caller, DashAnswerTicketDocument, {
        id,
        body: reply,
        status: statusOf(field(body, "status")),
      }),
    );
    if (done) return void s.res.redirect(303, `${QUEUE}/${encodeURIComponent(id)}?done=answered#replies`);
    await ticketPage(s, refusal(s).html, refusal(s).status, reply);
  });
  post(`${QUEUE}/:id/status`, async (s) => {
    const id = String(s.req.params.id);
    const status = statusOf(field(s.req.body as Record<string, unknown>, "status"));
    const done = status
      ? await s.run(s.deps.run(s.caller, DashSetTicketStatusDocument, { id, status }))
      : null;
    if (done) return void s.res.redirect(303, `${QUEUE}/${encodeURIComponent(id)}?done=status`);
    const message = status ? refusal(s) : { html: notice("error", "Choose a status."), status: 400 };
    await ticketPage(s, message.html, message.status);
  });
}

async function queuePage(s: Signed): Promise<void> {
  const filter = statusOf(typeof s.req.query.status === "string" ? s.req.query.status : "");
  const data = await s.run(s.deps.run(s.caller, DashOperatorTicketsDocument, { status: filter }));
  if (!data) return s.render("Support queue", QUEUE, refusal(s).html, refusal(s).status);
  const tickets = data.operatorTickets;
  const form = `<form method="get" action="${QUEUE}" class="card row" aria-label="Filter tickets"><div><label for="q-status">Status</label><select id="q-status" name="status">${statusOptions(filter ?? "", "Any status")}</select></div><div><button type="submit">Show</button></div></form>`;
  const list =
    tickets.length === 0
      ? emptyState(
          filter
            ? "No ticket has this status."
            : "No organisation has opened a ticket yet. Tickets appear here as customers open them.",
        )
      : `<div class="table-wrap"><table aria-label="Support queue"><thead><tr><th scope="col">Ticket</th><th scope="col">Organisation</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col" class="hide-narrow">Priority</th><th scope="col" class="hide-narrow">Last reply</th><th scope="col">Updated</th></tr></thead><tbody>${tickets
          .map(
            (t) =>
              `<tr><td><a href="${QUEUE}/${encodeURIComponent(t.id)}">${esc(t.ticketNumber)}</a></td><td>${esc(t.organizationName)}</td><td>${esc(t.subject)}</td><td>${esc(STATUS[t.status] ?? t.status)}</td><td class="hide-narrow">${esc(PRIORITIES[t.priority] ?? t.priority)}</td><td class="hide-narrow">${esc(t.lastReplyBy ?? "—")}</td><td>${time(t.updatedAt)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  s.render(
    "Support queue",
    QUEUE,
    `<p class="muted">Every organisation's tickets, most recently changed first (at most 100).</p>${form}${list}`,
  );
}

async function ticketPage(s: Signed, message = "", status?: number, draft = ""): Promise<void> {
  const id = String(s.req.params.id);
  const data = await s.run(s.deps.run(s.caller, DashOperatorTicketsDocument, {}));
  if (!data) return s.render("Support queue", QUEUE, `${message}${refusal(s).html}`, refusal(s).status);
  const ticket = data.operatorTickets.find((t) => t.id === id);
  if (!ticket) {
    return s.render(
      "Ticket not found",
      QUEUE,
      `${message}${emptyState("No ticket with this id is in the support queue.", { href: QUEUE, label: "Back to the support queue" })}`,
      OUTCOMES.not_found.v1.status,
    );
  }
  const base = `${QUEUE}/${encodeURIComponent(ticket.id)}`;
  const facts = ticketFactsCard(
    ticket,
    `${ticket.ticketNumber} · ${ticket.organizationName}`,
    STATUS,
    `\n<div><dt>Updated</dt><dd>${time(ticket.updatedAt)}</dd></div>`,
  );
  const replies = `<section class="card" aria-labelledby="replies"><h2 id="replies">Replies</h2>${ticketReplies(ticket, "No reply yet.")}
<form method="post" action="${base}/answer">${csrfField(s.session.csrfToken)}
<label for="answer-body">Answer as Quayside support</label><textarea id="answer-body" name="body" required>${esc(draft)}</textarea>
<label for="answer-status">Then set the status to</label><select id="answer-status" name="status">${statusOptions("", "Waiting on the customer (the default)")}</select>
<p><button type="submit">Send answer</button></p></form></section>`;
  const statusForm = `<form method="post" action="${base}/status" class="card" aria-labelledby="change-status"><h2 id="change-status">Change the status</h2>${csrfField(s.session.csrfToken)}
<label for="new-status">New status</label><select id="new-status" name="status">${statusOptions(ticket.status)}</select>
<p><button type="submit">Change status</button></p></form>`;
  s.render(
    `${ticket.ticketNumber}: ${ticket.subject}`,
    QUEUE,
    `${message}<p><a href="${QUEUE}">All tickets in the queue</a></p>${facts}${replies}${statusForm}`,
    status,
  );
}
