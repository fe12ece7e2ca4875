import { OUTCOMES } from "../../../src/http/outcomes";
import {
  DashDeclineQuoteRequestDocument,
  DashOperatorQuoteRequestsDocument,
  DashQuoteFreightDocument,
  type QuoteRequestStatus,
} from "../../generated/operations";
import { emptyState, refusal, type Signed } from "../context";
import { csrfField, esc, notice, portLabel, time } from "../html";
import type { Mount } from "../mount";

const STATUS: Record<QuoteRequestStatus, string> = {
  PENDING: "● Waiting for a quote",
  QUOTED: "◐ Quoted",
  DECLINED: "✕ Declined",
  EXPIRED: "■ Quote expired",
  BOOKING_REQUESTED: "● Booking asked for",
  BOOKED: "✓ Booked",
};
const QUEUE = "/dashboard/operations/quotes";

const field = (body: Record<string, unknown>, k: string) =>
  typeof body[k] === "string" ? (body[k] as string).trim() : "";
const statusOf = (value: string): QuoteRequestStatus | undefined =>
  value in STATUS ? (value as QuoteRequestStatus) : undefined;

/**
 * The operator's quote requests: every organisation's requests, and one request with a quote form
 * and a decline form. The core decides what may be quoted or declined; its refusals show as text.
 */
export function mountQuoteQueuePages(get: Mount, post: Mount): void {
  get(QUEUE, (s) => listPage(s));
  get(`${QUEUE}/:id`, (s) => {
    const done = s.req.query.done;
    return requestPage(
      s,
      done === "quoted"
        ? notice("ok", "Quote sent. The customer sees it on their request.")
        : done === "declined"
          ? notice("ok", "Request declined.")
          : "",
    );
  });
  post(`${QUEUE}/:id/quote`, async (s) => {
    const id = String(s.req.params.id);
    const body = s.req.body as Record<string, unknown>;
    const total = Number(field(body, "total"));
    const transitDays = Number(field(body, "transitDays"));
    const validDate = field(body, "validUntil");
    const invalid =
      field(body, "total") === "" || !Number.isFinite(total)
        ? "Enter the total as a number, e.g. 1850.50."
        : !/^\d{4}-\d{2}-\d{2}$/.test(validDate)
          ? "Enter the day the quote is valid until as YYYY-MM-DD."
          : !Number.isInteger(transitDays) || field(body, "transitDays") === ""
            ? "Enter the transit time as a whole number of days."
            : null;
    if (invalid) return requestPage(s, notice("error", invalid), OUTCOMES.bad_request.v1.status, body);
    const done = await s.run(
      s.deps.run(s.caller, DashQuoteFreightDocument, {
        id,
        total,
        transitDays,
        currency: field(body, "currency").toUpperCase(),
        carrierScac: field(body, "carrierScac").toUpperCase(),
        // Valid through the chosen day (UTC).
        validUntil: `${validDate}T23:59:59.000Z`,
      }),
    );
    if (done) return void s.res.redirect(303, `${QUEUE}/${encodeURIComponent(id)}?done=quoted`);
    await requestPage(s, refusal(s).html, refusal(s).status, body);
  });
  post(`${QUEUE}/:id/decline`, async (s) => {
    const id = String(s.req.params.id);
    const reason = field(s.req.body as Record<string, unknown>, "reason");
    const done = await s.run(
      s.deps.run(s.caller, DashDeclineQuoteRequestDocument, { id, reason: reason || undefined }),
    );
    if (done) return void s.res.redirect(303, `${QUEUE}/${encodeURIComponent(id)}?done=declined`);
    await requestPage(s, refusal(s).html, refusal(s).status);
  });
}

async function listPage(s: Signed): Promise<void> {
  const filter = statusOf(typeof s.req.query.status === "string" ? s.req.query.status : "");
  const data = await s.run(s.deps.run(s.caller, DashOperatorQuoteRequestsDocument, { status: filter }));
  if (!data) return s.render("Quote requests", QUEUE, refusal(s).html, refusal(s).status);
  const requests = data.operatorQuoteRequests;
  const form = `<form method="get" action="${QUEUE}" class="card row" aria-label="Filter quote requests"><div><label for="qr-status">Status</label><select id="qr-status" name="status"><option value="">Any status</option>${Object.entries(
    STATUS,
  )
    .map(([k, label]) => `<option value="${k}"${filter === k ? " selected" : ""}>${esc(label)}</option>`)
    .join("")}</select></div><div><button type="submit">Show</button></div></form>`;
  const list =
    requests.length === 0
      ? emptyState(
          filter
            ? "No quote request has this status."
            : "No organisation has asked for a quote yet. Requests appear here as customers send them.",
        )
      : `<div class="table-wrap"><table aria-label="Quote requests"><thead><tr><th scope="col">Request</th><th scope="col">Route</th><th scope="col">Containers</th><th scope="col" class="hide-narrow">Ready</th><th scope="col">Status</th><th scope="col">Updated</th></tr></thead><tbody>${requests
          .map(
            (r) =>
              `<tr><td><a href="${QUEUE}/${encodeURIComponent(r.id)}">${esc(r.requestNumber)}</a></td><td>${portLabel(r.origin, r.originName)} → ${portLabel(r.destination, r.destinationName)}</td><td>${r.quantity} × ${esc(r.containerType)}</td><td class="hide-narrow">${esc(r.readyDate)}</td><td>${esc(STATUS[r.status] ?? r.status)}</td><td>${time(r.updatedAt)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  s.render(
    "Quote requests",
    QUEUE,
    `<p class="muted">Every organisation's quote requests, newest first (at most 100). Request numbers are per organisation.</p>${form}${list}`,
  );
}

async function requestPage(
  s: Signed,
  message = "",
  status?: number,
  values: Record<string, unknown> = {},
): Promise<void> {
  const id = String(s.req.params.id);
  const data = await s.run(s.deps.run(s.caller, DashOperatorQuoteRequestsDocument, {}));
  if (!data) return s.render("Quote requests", QUEUE, `${message}${refusal(s).html}`, refusal(s).status);
  const r = data.operatorQuoteRequests.find((q) => q.id === id);
  if (!r) {
    return s.render(
      "Quote request not found",
      QUEUE,
      `${message}${emptyState("No quote request with this id is in the queue.", { href: QUEUE, label: "Back to quote requests" })}`,
      OUTCOMES.not_found.v1.status,
    );
  }
  const v = (k: string, fallback = "") => esc(field(values, k) || fallback);
  const base = `${QUEUE}/${encodeURIComponent(r.id)}`;
  const facts = `<section class="card" aria-labelledby="request-facts"><h2 id="request-facts">${esc(r.requestNumber)}</h2>
<dl class="facts">
<div><dt>Status</dt><dd>${esc(STATUS[r.status] ?? r.status)}</dd></div>
<div><dt>Route</dt><dd>${portLabel(r.origin, r.originName)} → ${portLabel(r.destination, r.destinationName)}</dd></div>
<div><dt>Containers</dt><dd>${r.quantity} × ${esc(r.containerType)}</dd></div>
<div><dt>Commodity</dt><dd>${esc(r.commodity)}</dd></div>
<div><dt>Ready</dt><dd>${esc(r.readyDate)}</dd></div>
<div><dt>Asked</dt><dd>${time(r.createdAt)}</dd></div>
${r.quote ? `<div><dt>Quote</dt><dd>${esc(r.quote.total.toFixed(2))} ${esc(r.quote.currency)}, ${esc(r.quote.carrierScac)}, ${r.quote.transitDays} days, valid until ${time(r.quote.validUntil)}</dd></div>` : ""}
${r.declineReason ? `<div><dt>Declined because</dt><dd>${esc(r.declineReason)}</dd></div>` : ""}
${r.bookingReference ? `<div><dt>Booking</dt><dd>${esc(r.bookingReference)}</dd></div>` : ""}
</dl></section>`;
  const quoteForm = `<form method="post" action="${base}/quote" class="card" aria-labelledby="quote-form"><h2 id="quote-form">Quote</h2>${csrfField(s.session.csrfToken)}
<div class="row">
<div><label for="q-total">Total (all-in, whole request)</label><input id="q-total" name="total" inputmode="decimal" required size="10" value="${v("total")}"></div>
<div><label for="q-currency">Currency (ISO 4217)</label><input id="q-currency" name="currency" required maxlength="3" size="4" value="${v("currency", "USD")}"></div>
<div><label for="q-valid">Valid until (YYYY-MM-DD, through that day UTC)</label><input id="q-valid" name="validUntil" required maxlength="10" size="11" value="${v("validUntil")}"></div>
<div><label for="q-carrier">Carrier SCAC</label><input id="q-carrier" name="carrierScac" required maxlength="4" size="5" value="${v("carrierScac")}"></div>
<div><label for="q-transit">Transit days</label><input id="q-transit" name="transitDays" inputmode="numeric" required size="4" value="${v("transitDays")}"></div>
</div>
<p><button type="submit">Send quote</button></p></form>`;
  const declineForm = `<form method="post" action="${base}/decline" class="card" aria-labelledby="decline-form"><h2 id="decline-form">Decline</h2>${csrfField(s.session.csrfToken)}
<label for="d-reason">Reason (optional, the customer sees it)</label><input id="d-reason" name="reason" maxlength="500" size="40">
<p><button type="submit">Decline request</button></p></form>`;
  s.render(
    `${r.requestNumber}: ${r.originName ?? r.origin} → ${r.destinationName ?? r.destination}`,
    QUEUE,
    `${message}<p><a href="${QUEUE}">All quote requests</a></p>${facts}${quoteForm}${declineForm}`,
    status,
  );
}
